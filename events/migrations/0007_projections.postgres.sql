-- Projections: one row per build of a read model. A build is one ordered consumer of the
-- global order; its checkpoint (position) moves in the same transaction as its rows, by
-- compare-and-set, so two projectors never both apply a batch. A rebuild is a new build
-- beside the live one (its own tables, suffixed _b<build>); readers follow the active build.
CREATE TABLE projection_builds (
    name           text        NOT NULL,
    build          integer     NOT NULL CHECK (build >= 1),
    code_version   integer     NOT NULL,
    position       bigint      NOT NULL DEFAULT 0,
    active         boolean     NOT NULL DEFAULT false,
    started_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    caught_up_at   timestamptz,
    error          text,
    error_position bigint,
    PRIMARY KEY (name, build)
);
CREATE UNIQUE INDEX projection_builds_one_active ON projection_builds (name) WHERE active;
