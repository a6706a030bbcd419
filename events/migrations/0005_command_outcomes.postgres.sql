-- Every command's outcome, under its command id: accepted (versions and global positions of
-- its events) or refused (reason and code). The first outcome recorded for an id is kept.
-- ``sequence`` orders the outcomes, so a seat's refusals can be read after a cursor.
CREATE TABLE command_outcomes (
    command_id     text PRIMARY KEY,
    sequence       bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    table_id       text        NOT NULL,
    status         text        NOT NULL CHECK (status IN ('accepted', 'refused')),
    code           text,
    reason         text,
    first_version  integer,
    last_version   integer,
    first_position bigint,
    last_position  bigint,
    actor_kind     text        NOT NULL,
    actor_seat     smallint,
    correlation_id text,
    recorded_at    timestamptz NOT NULL
);

CREATE INDEX command_outcomes_refusals ON command_outcomes (table_id, actor_seat, sequence)
    WHERE status = 'refused';
