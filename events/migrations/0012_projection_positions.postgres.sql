-- A read model's checkpoint in the table stores (partitions) beside the home store: one row
-- per build and partition, its merged position (the partition's number above the store's
-- position), moved by compare-and-set in the batch's transaction as projection_builds.position
-- is for the home store. The checkpoint of a build is the vector of these with that one.
CREATE TABLE projection_positions (
    name       text        NOT NULL,
    build      integer     NOT NULL,
    partition  integer     NOT NULL CHECK (partition >= 1),
    position   bigint      NOT NULL CHECK (position >= 0),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (name, build, partition)
);
