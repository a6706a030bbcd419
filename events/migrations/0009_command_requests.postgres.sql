-- Every command a client sent through the API, under its (namespaced) command id, written
-- before the command is queued: the request's fingerprint (so the same Idempotency-Key with
-- another request is told apart from a retry), the task's arguments (so a command whose queue
-- message was lost can be sent again) and when it arrived (so a retry can tell "in flight");
-- the resender (workers/resender.py) sends again one still without an outcome, and notes when.
CREATE TABLE command_requests (
    command_id   text PRIMARY KEY,
    table_id     text        NOT NULL,
    fingerprint  text        NOT NULL,
    body         text        NOT NULL,
    requested_at timestamptz NOT NULL,
    resent_at    timestamptz,
    resends      integer     NOT NULL DEFAULT 0
);

CREATE INDEX command_requests_by_age ON command_requests (requested_at);
