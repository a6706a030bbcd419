"""The test tree's root: puts ``tests/`` on the import path for shared helpers (``pg_reset``)."""
