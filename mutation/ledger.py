"""What a module's run found, kept in git (``mutation/results/<module>.json``).

A session (``mutation/work/sessions``) is a working file: gitignored, gone on a fresh clone. Its
outcome (the counts, each survivor, how long the run took, and the digest of the source it ran
on) is written here whenever the report is made, so ``docs/testing.md`` can be regenerated from
any clone and a run of five hours is never lost with the machine it ran on. A module whose
source changed since its ledger was written is reported stale, never as a current result, unless
only the paths of its imports changed (``body_digest``: every mutant is where it was).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from mutation.config import HERE, body_digest, slug, source_digest

if TYPE_CHECKING:
    from mutation.report import Session

RESULTS = HERE / "results"
COUNTS = ("total", "skipped", "killed", "timeouts", "incompetent", "pending")


def path(module: str) -> Path:
    return RESULTS / f"{slug(module)}.json"


def save(session: Session) -> None:
    """``session``'s outcome written to its ledger (survivors in line order)."""
    meta = dict(session.meta or {})
    source = meta.pop("source", None)
    current = source == source_digest(session.module)
    data = {
        "module": session.module,
        "source": source,
        "body": meta.pop("body", None) or (body_digest(session.module) if current else None),
        **{k: getattr(session, k) for k in COUNTS},
        "survivors": [
            {k: v for k, v in asdict(s).items() if k != "module"} for s in session.survivors
        ],
        "run": {
            k: meta[k] for k in ("elapsed_seconds", "mutants_run", "workers", "tests") if k in meta
        },
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    path(session.module).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def load(module: str) -> Session | None:
    """The ledger of ``module`` as a session, or ``None`` when it was never run."""
    from mutation.report import Session, Survivor

    p = path(module)
    if not p.exists():
        return None
    data = json.loads(p.read_text(encoding="utf-8"))
    meta = {"source": data["source"], "body": data.get("body"), **data.get("run", {})}
    return Session(
        module,
        **{k: int(data[k]) for k in COUNTS},
        survivors=tuple(Survivor(module=module, **s) for s in data["survivors"]),
        stale=data["source"] != source_digest(module) and data.get("body") != body_digest(module),
        meta=meta,
    )


def fresh(module: str) -> bool:
    """Whether ``module`` has a complete ledger of its current source (nothing left to run)."""
    s = load(module)
    return s is not None and not s.stale and s.pending == 0
