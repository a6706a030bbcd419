"""How long the fault loops run: a quick size in ``make test``, the full one in ``make faults``.

The suite's budget is five minutes on two cores, and the fault loops at the sizes
``docs/faults.md`` reports (50 kills of a worker, 50 of a projector, a receiver down for a
minute, three kills of every cluster part) took six of them alone. ``make test`` runs each loop
at a size that still crosses every fault path it is about (each kind of kill lands, a kill
mid-batch, a kill holding a message, retries during an outage); ``make faults``
(``PAIJU_FAULTS=full``) runs the same tests at full size, by hand, as the benchmarks are.
"""

from __future__ import annotations

import os

SIZES = ("quick", "full")


def _chosen() -> str:
    chosen = os.environ.get("PAIJU_FAULTS", "quick")
    if chosen not in SIZES:
        raise ValueError(f"PAIJU_FAULTS must be one of {', '.join(SIZES)}, not {chosen!r}")
    return chosen


FULL = _chosen() == "full"


def sized(quick: int, full: int) -> int:
    """``full`` under ``PAIJU_FAULTS=full``, else ``quick``."""
    return full if FULL else quick
