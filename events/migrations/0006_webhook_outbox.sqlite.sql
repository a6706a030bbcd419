-- Platform notifications (issue 9): a reactor's checkpoint and the webhook outbox.
-- The same tables as PostgreSQL; times the outbox compares (next_attempt_at, lease_until) are
-- unix seconds (REAL), so that due rows are found by a plain numeric comparison.

CREATE TABLE reactor_checkpoints (
    name       TEXT    PRIMARY KEY,
    position   INTEGER NOT NULL CHECK (position >= 0),  -- the last position handled
    updated_at REAL    NOT NULL
);

CREATE TABLE webhook_deliveries (
    idempotency_key TEXT    PRIMARY KEY,
    reactor         TEXT    NOT NULL,
    position        INTEGER NOT NULL UNIQUE,
    stream_id       TEXT    NOT NULL,
    event_type      TEXT    NOT NULL,
    body            TEXT    NOT NULL,  -- the exact JSON that is signed and posted
    status          TEXT    NOT NULL DEFAULT 'pending'
                            CHECK (status IN ('pending', 'delivered', 'set_aside')),
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at REAL    NOT NULL,
    lease_until     REAL,
    lease_token     TEXT,
    last_status     INTEGER,           -- the receiver's last HTTP status, if it answered
    last_error      TEXT,
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL,
    delivered_at    REAL
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE status = 'pending';
CREATE INDEX webhook_deliveries_set_aside ON webhook_deliveries (position)
    WHERE status = 'set_aside';
