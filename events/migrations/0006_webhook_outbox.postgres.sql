-- Platform notifications (issue 9): a reactor's checkpoint and the webhook outbox.
--
-- A reactor tails the global order of events; each event that concerns the platform becomes
-- one row of webhook_deliveries, written in the same transaction as the move of the reactor's
-- checkpoint (a compare-and-set on reactor_checkpoints.position), so a crash or a second
-- reactor neither skips nor doubles one. The row is the record of a pending delivery (never
-- a Celery countdown): a dispatcher claims due rows with a lease, the effects task posts the
-- body and records the result. idempotency_key comes from the event's global position.

CREATE TABLE reactor_checkpoints (
    name       text        PRIMARY KEY,
    position   bigint      NOT NULL CHECK (position >= 0),  -- the last position handled
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
    idempotency_key text        PRIMARY KEY,
    reactor         text        NOT NULL,
    position        bigint      NOT NULL UNIQUE,
    stream_id       text        NOT NULL,
    event_type      text        NOT NULL,
    body            text        NOT NULL,  -- the exact JSON that is signed and posted
    status          text        NOT NULL DEFAULT 'pending'
                                CHECK (status IN ('pending', 'delivered', 'set_aside')),
    attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    lease_until     timestamptz,
    lease_token     text,
    last_status     integer,               -- the receiver's last HTTP status, if it answered
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE status = 'pending';
CREATE INDEX webhook_deliveries_set_aside ON webhook_deliveries (position)
    WHERE status = 'set_aside';
