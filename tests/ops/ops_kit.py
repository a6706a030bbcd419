"""What the operations tests share: a private redis-server, ``paiju`` parts as processes, and
reading a ``/metrics`` page.

The redis-server and the process runner are the fault tests' (``tests/faults/fault_kit``):
a test here stops its own Redis, never the machine's.
"""

from __future__ import annotations

import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "faults"))
from fault_kit import Part, PrivateRedis, free_port  # noqa: E402

__all__ = ["Part", "PrivateRedis", "free_port", "samples", "scrape", "until"]


def scrape(address: str) -> str:
    with urllib.request.urlopen(address, timeout=5) as response:
        return str(response.read().decode())


def samples(text: str, name: str) -> Counter[tuple[tuple[str, str], ...]]:
    """The samples named ``name`` in an exposition, by their labels (sorted pairs)."""
    found: Counter[tuple[tuple[str, str], ...]] = Counter()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                found[tuple(sorted(sample.labels.items()))] += sample.value
    return found


def until(check: Callable[[], bool], timeout: float, pause: float = 0.05) -> bool:
    """Whether ``check`` came true within ``timeout`` seconds (looked at every ``pause``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(pause)
    return check()
