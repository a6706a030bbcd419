"""The test tree's root: puts ``tests/`` on the import path for shared helpers (``pg_reset``), and
sets Hypothesis's defaults for every test.

No deadline: an example's time is the box's load, not the code's (a full run beside a mutation
run took one example 264 ms against the 200 ms default, then 0.6 ms); speed is the benchmarks'
to measure (``benchmarks/``), never a timed assertion in a test, and a mutant that hangs is caught
by the mutation run's own timeout."""

import pytest
from hypothesis import settings

settings.register_profile("paiju", deadline=None)
settings.load_profile("paiju")


# The files that take longest (processes of their own, private servers, fault loops), in the
# order of what they cost: started first, so that the short tests fill the other processes
# around them instead of a long one starting last and running alone. Only the order changes;
# every test still runs. xdist keeps this order only with --no-loadscope-reorder (its default
# sorts the files by how many tests each holds).
LONGEST_FIRST = (  # measured in the whole suite, four processes on two cores (docs/testing.md)
    "tests/faults/test_fault_cluster.py",
    "tests/projections/test_projector_faults.py",
    "tests/faults/test_fault_worker_kill.py",
    "tests/faults/test_fault_lost_202s.py",
    "tests/faults/test_fault_redis_restart.py",
    "tests/projections/test_rebuild_property.py",
    "tests/faults/test_fault_delivered_twice.py",
    "tests/security/test_fair_waits.py",
    "tests/effects/test_webhook_outage.py",
    "tests/faults/test_fault_serve_distributed.py",
    "tests/workers/test_serve.py",
    "tests/api/test_api_fuzz.py",
    "tests/effects/test_webhook_notifications.py",
    "tests/security/",
    "tests/faults/",
    "tests/effects/",
    "tests/projections/",
    "tests/api/test_api_demo.py",
    "tests/deploy/",
    "tests/workers/",
    "tests/tables/test_timekeeper.py",
    "tests/rules/test_shapes.py",
)


def _cost_rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    found = [n for n, prefix in enumerate(LONGEST_FIRST) if path.startswith(prefix)]
    return found[0] if found else len(LONGEST_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_cost_rank)  # stable: within a rank, the files keep their order
