"""Where a part spends its time: a py-spy sampling profile of a running process (and its
pool), read back as each function's own share of the samples (the leaf of each stack)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path


class ProfileError(RuntimeError):
    """py-spy is missing or could not sample the process; the message says which."""


def py_spy() -> str:
    beside = [Path(sys.prefix) / "bin" / "py-spy", Path(sys.executable).with_name("py-spy")]
    found = shutil.which("py-spy") or next((str(p) for p in beside if p.exists()), None)
    if found is None:
        raise ProfileError("py-spy is not installed (it is in the dev extra: make install)")
    return found


def profile(pid: int, seconds: float, out: Path, top: int = 15) -> list[tuple[str, float]]:
    """Sample ``pid`` and its children for ``seconds`` (py-spy's collapsed stacks kept in
    ``out``); the ``top`` functions by own samples, with their share."""
    done = subprocess.run(
        [py_spy(), "record", "--pid", str(pid), "--duration", str(max(1, round(seconds))),
         "--format", "raw", "--output", str(out), "--subprocesses", "--nonblocking", "--rate", "50"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0 or not out.exists():
        raise ProfileError(f"py-spy could not sample pid {pid}: {(done.stderr or done.stdout).strip()[-300:]}")
    return own_time(out.read_text("utf-8", "replace"), top)


def own_time(collapsed: str, top: int) -> list[tuple[str, float]]:
    """Collapsed stacks (``frame;frame;leaf count`` per line) to each leaf function's share."""
    leaves: Counter[str] = Counter()
    for line in collapsed.splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            leaves[_function(stack.rsplit(";", 1)[-1])] += int(count)
    total = sum(leaves.values()) or 1
    return [(name, n / total) for name, n in leaves.most_common(top)]


def _function(frame: str) -> str:
    """``send (socket.py:123)`` -> ``send (socket.py)``: lines apart are one function."""
    name, _, where = frame.partition(" (")
    file = where.rsplit(":", 1)[0].rstrip(")")
    return f"{name} ({Path(file).name})" if file else name
