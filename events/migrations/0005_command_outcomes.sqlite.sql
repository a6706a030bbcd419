-- Every command's outcome, under its command id: accepted (versions and global positions of
-- its events) or refused (reason and code). The first outcome recorded for an id is kept.
-- ``sequence`` orders the outcomes, so a seat's refusals can be read after a cursor.
CREATE TABLE command_outcomes (
    sequence       INTEGER PRIMARY KEY AUTOINCREMENT,
    command_id     TEXT    NOT NULL UNIQUE,
    table_id       TEXT    NOT NULL,
    status         TEXT    NOT NULL CHECK (status IN ('accepted', 'refused')),
    code           TEXT,
    reason         TEXT,
    first_version  INTEGER,
    last_version   INTEGER,
    first_position INTEGER,
    last_position  INTEGER,
    actor_kind     TEXT    NOT NULL,
    actor_seat     INTEGER,
    correlation_id TEXT,
    recorded_at    TEXT    NOT NULL
);

CREATE INDEX command_outcomes_refusals ON command_outcomes (table_id, actor_seat, sequence)
    WHERE status = 'refused';
