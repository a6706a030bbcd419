-- Durable turn timers: the waits a stream's latest append announced, one row per wait.
-- An append replaces its stream's rows in the same transaction (a row whose key it names again
-- keeps its due time and lease), so a deadline is never lost between a commit and a timer
-- being set. A timekeeper claims due rows with a lease (FOR UPDATE SKIP LOCKED) and fires the
-- command they carry; the row stays until an append replaces it, so a lost firing is retried
-- when the lease runs out.
CREATE TABLE timers (
    stream_id   text        NOT NULL,
    timer_key   text        NOT NULL,
    due_at      timestamptz NOT NULL,
    command     json        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    lease_until timestamptz,
    attempts    integer     NOT NULL DEFAULT 0,
    PRIMARY KEY (stream_id, timer_key)
);
CREATE INDEX timers_due ON timers (due_at);
