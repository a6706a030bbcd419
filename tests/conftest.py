"""The test tree's root: puts ``tests/`` on the import path for shared helpers (``pg_reset``), and
sets Hypothesis's defaults for every test.

No deadline: an example's time is the box's load, not the code's (a full run beside a mutation
run took one example 264 ms against the 200 ms default, then 0.6 ms); speed is the benchmarks'
to measure (``benchmarks/``), never a timed assertion in a test, and a mutant that hangs is caught
by the mutation run's own timeout."""

from hypothesis import settings

settings.register_profile("paiju", deadline=None)
settings.load_profile("paiju")
