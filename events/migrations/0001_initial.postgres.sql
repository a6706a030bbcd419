-- Paiju event store, PostgreSQL: streams of events, idempotency records,
-- snapshots, sealed seeds, and the append function.
-- Payloads and commands are `json`, not `jsonb`: the text is kept exactly as
-- written, so what is read back is what was hashed (jsonb would rewrite numbers
-- such as 1e+20), and no conversion is paid on the write path.

CREATE TABLE events (
    position       bigint GENERATED ALWAYS AS IDENTITY (CACHE 1) PRIMARY KEY,
    stream_id      text        NOT NULL,
    version        integer     NOT NULL CHECK (version >= 1),
    event_id       uuid        NOT NULL UNIQUE,
    type           text        NOT NULL,
    schema_version integer     NOT NULL CHECK (schema_version >= 1),
    payload        json        NOT NULL,
    recorded_at    timestamptz NOT NULL,
    actor_kind     text        NOT NULL CHECK (actor_kind IN ('seat', 'system', 'timer', 'operator')),
    actor_seat     smallint    CHECK (actor_seat BETWEEN 0 AND 3),
    command_id     text,
    command        json,
    rules_version  text        NOT NULL,
    prev_hash      text        NOT NULL,
    hash           text        NOT NULL,
    CONSTRAINT events_stream_version UNIQUE (stream_id, version),
    CONSTRAINT events_seat_actor CHECK ((actor_kind = 'seat') = (actor_seat IS NOT NULL))
);

-- One row per command id: a retried command finds its first result here.
CREATE TABLE commands (
    command_id    text PRIMARY KEY,
    stream_id     text        NOT NULL,
    digest        text        NOT NULL,
    first_version integer     NOT NULL,
    last_version  integer     NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT now()
);

-- The latest snapshot of each stream; an optimisation only.
CREATE TABLE snapshots (
    stream_id   text PRIMARY KEY,
    version     integer     NOT NULL,
    schema_tag  text        NOT NULL,
    state_json  jsonb,
    state_bytes bytea,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CHECK ((state_json IS NULL) <> (state_bytes IS NULL))
);

-- Deal seeds, kept apart from the streams until revealed (events.fairness).
CREATE TABLE sealed_seeds (
    stream_id   text        NOT NULL,
    hand        integer     NOT NULL,
    seed        text        NOT NULL,
    commitment  text        NOT NULL,
    sealed_at   timestamptz NOT NULL DEFAULT now(),
    revealed_at timestamptz,
    PRIMARY KEY (stream_id, hand)
);

-- One round trip per command. Appends are serialised by a transaction-scoped
-- advisory lock (per schema), held until commit: positions are drawn under it,
-- so they become visible in increasing order and a tailer never overtakes.
-- Fast path: the head matches and the command id is new (its record inserts).
-- Otherwise nothing is written and one row explains why: duplicate or
-- command_conflict (the recorded command: first and last version, stream id in
-- out_hash), conflict or stale_head (the actual head version and hash).
CREATE FUNCTION paiju_append(
    p_stream text, p_expected integer, p_prev_hash text,
    p_command_id text, p_digest text, p_command json, p_events json)
RETURNS TABLE (out_status text, out_version integer, out_position bigint, out_hash text)
LANGUAGE plpgsql AS $$
DECLARE
    v_version integer := 0;
    v_hash text := repeat('0', 64);
    v_cmd commands%ROWTYPE;
    v_count integer := json_array_length(p_events);
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('paiju_append:' || current_schema()));
    SELECT e.version, e.hash INTO v_version, v_hash
      FROM events e WHERE e.stream_id = p_stream ORDER BY e.version DESC LIMIT 1;
    IF NOT FOUND THEN
        v_version := 0;
        v_hash := repeat('0', 64);
    END IF;
    IF v_version = p_expected AND p_prev_hash = v_hash THEN
        IF p_command_id IS NOT NULL THEN
            INSERT INTO commands (command_id, stream_id, digest, first_version, last_version)
            VALUES (p_command_id, p_stream, p_digest, p_expected + 1, p_expected + v_count)
            ON CONFLICT (command_id) DO NOTHING;
        END IF;
        IF p_command_id IS NULL OR FOUND THEN
            IF v_count > 0 THEN
                RETURN QUERY
                INSERT INTO events AS e (
                    stream_id, version, event_id, type, schema_version, payload, recorded_at,
                    actor_kind, actor_seat, command_id, command, rules_version, prev_hash, hash)
                SELECT p_stream, x.version, x.event_id, x.type, x.schema_version, x.payload,
                       x.recorded_at, x.actor_kind, x.actor_seat, p_command_id, p_command,
                       x.rules_version, x.prev_hash, x.hash
                  FROM json_to_recordset(p_events) AS x(
                       version integer, event_id uuid, type text, schema_version integer,
                       payload json, recorded_at timestamptz, actor_kind text,
                       actor_seat smallint, rules_version text, prev_hash text, hash text)
                 ORDER BY x.version
                RETURNING 'ok'::text, e.version, e.position, e.hash;
                PERFORM pg_notify('paiju_events:' || current_schema(), '');
            END IF;
            RETURN;
        END IF;
    END IF;
    IF p_command_id IS NOT NULL THEN
        SELECT * INTO v_cmd FROM commands c WHERE c.command_id = p_command_id;
        IF FOUND THEN
            RETURN QUERY SELECT
                CASE WHEN v_cmd.stream_id = p_stream AND v_cmd.digest = p_digest
                     THEN 'duplicate' ELSE 'command_conflict' END,
                v_cmd.first_version, v_cmd.last_version::bigint, v_cmd.stream_id;
            RETURN;
        END IF;
    END IF;
    RETURN QUERY SELECT
        CASE WHEN v_version <> p_expected THEN 'conflict' ELSE 'stale_head' END,
        v_version, NULL::bigint, v_hash;
END
$$;
