-- Where each table lives when tables are spread over several stores (partitions): written in
-- the home store (rooms, accounts, players) when the table opens, never changed, so adding a
-- partition later never moves an open table. One row per table; the first writer wins.
CREATE TABLE table_placements (
    table_id  text        PRIMARY KEY,
    partition integer     NOT NULL CHECK (partition >= 0),
    placed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX table_placements_by_partition ON table_placements (partition);
