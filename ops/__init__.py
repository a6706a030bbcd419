"""Operations: each part's health (heartbeats, readiness) and its metrics (Prometheus), which the
workers write and the API, the dashboard and ``paiju health`` read."""
