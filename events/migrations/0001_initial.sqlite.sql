-- Paiju event store, SQLite: the same tables as PostgreSQL, JSON kept as text.

CREATE TABLE events (
    position       INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id      TEXT    NOT NULL,
    version        INTEGER NOT NULL CHECK (version >= 1),
    event_id       TEXT    NOT NULL UNIQUE,
    type           TEXT    NOT NULL,
    schema_version INTEGER NOT NULL CHECK (schema_version >= 1),
    payload        TEXT    NOT NULL,
    recorded_at    TEXT    NOT NULL,
    actor_kind     TEXT    NOT NULL CHECK (actor_kind IN ('seat', 'system', 'timer', 'operator')),
    actor_seat     INTEGER CHECK (actor_seat BETWEEN 0 AND 3),
    command_id     TEXT,
    command        TEXT,
    rules_version  TEXT    NOT NULL,
    prev_hash      TEXT    NOT NULL,
    hash           TEXT    NOT NULL,
    CONSTRAINT events_stream_version UNIQUE (stream_id, version),
    CONSTRAINT events_seat_actor CHECK ((actor_kind = 'seat') = (actor_seat IS NOT NULL))
);

CREATE TABLE commands (
    command_id    TEXT PRIMARY KEY,
    stream_id     TEXT    NOT NULL,
    digest        TEXT    NOT NULL,
    first_version INTEGER NOT NULL,
    last_version  INTEGER NOT NULL,
    recorded_at   TEXT    NOT NULL
);

CREATE TABLE snapshots (
    stream_id   TEXT PRIMARY KEY,
    version     INTEGER NOT NULL,
    schema_tag  TEXT    NOT NULL,
    state_json  TEXT,
    state_bytes BLOB,
    created_at  TEXT    NOT NULL,
    CHECK ((state_json IS NULL) <> (state_bytes IS NULL))
);

CREATE TABLE sealed_seeds (
    stream_id   TEXT    NOT NULL,
    hand        INTEGER NOT NULL,
    seed        TEXT    NOT NULL,
    commitment  TEXT    NOT NULL,
    sealed_at   TEXT    NOT NULL,
    revealed_at TEXT,
    PRIMARY KEY (stream_id, hand)
);
