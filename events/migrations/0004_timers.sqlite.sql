-- Durable turn timers (see the PostgreSQL migration): times are Unix seconds (REAL).
CREATE TABLE timers (
    stream_id   TEXT    NOT NULL,
    timer_key   TEXT    NOT NULL,
    due_at      REAL    NOT NULL,
    command     TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    lease_until REAL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (stream_id, timer_key)
);
CREATE INDEX timers_due ON timers (due_at);
