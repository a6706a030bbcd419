-- A read model's checkpoint in the table stores (see the PostgreSQL migration).
CREATE TABLE projection_positions (
    name       TEXT    NOT NULL,
    build      INTEGER NOT NULL,
    partition  INTEGER NOT NULL CHECK (partition >= 1),
    position   INTEGER NOT NULL CHECK (position >= 0),
    updated_at TEXT    NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (name, build, partition)
);
