-- Projections (see the PostgreSQL migration); times are ISO text.
CREATE TABLE projection_builds (
    name           TEXT    NOT NULL,
    build          INTEGER NOT NULL CHECK (build >= 1),
    code_version   INTEGER NOT NULL,
    position       INTEGER NOT NULL DEFAULT 0,
    active         INTEGER NOT NULL DEFAULT 0,
    started_at     TEXT    NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at     TEXT    NOT NULL DEFAULT CURRENT_TIMESTAMP,
    caught_up_at   TEXT,
    error          TEXT,
    error_position INTEGER,
    PRIMARY KEY (name, build)
);
CREATE UNIQUE INDEX projection_builds_one_active ON projection_builds (name) WHERE active;
