"""A mutation run's outcome is kept in git (mutation/ledger.py): the report survives a fresh clone,
and a result of a source that changed since is never shown as current."""

from __future__ import annotations

from pathlib import Path

import pytest

from mutation import ledger
from mutation.config import source_digest
from mutation.report import Session, Survivor

MODULE = "services/rules/penalties.py"


@pytest.fixture(autouse=True)
def _results_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ledger, "RESULTS", tmp_path)


def _session(source: str) -> Session:
    survivor = Survivor(MODULE, "core/NumberReplacer", 2, 41, "limit = 3", "limit = 4")
    return Session(
        MODULE, total=50, skipped=6, killed=43, pending=0, survivors=(survivor,),
        meta={"source": source, "elapsed_seconds": 120.0, "mutants_run": 44, "workers": 2},
    )  # fmt: skip


def test_a_kept_session_reads_back_as_it_was_run() -> None:
    ledger.save(_session(source_digest(MODULE)))
    kept = ledger.load(MODULE)
    assert kept is not None
    assert (kept.mutants, kept.killed, kept.pending, kept.stale) == (44, 43, 0, False)
    assert kept.survivors == _session("").survivors
    assert kept.meta is not None and kept.meta["mutants_run"] == 44
    assert ledger.fresh(MODULE)


def test_a_result_of_another_source_is_stale_and_runs_again() -> None:
    ledger.save(_session("0" * 64))
    kept = ledger.load(MODULE)
    assert kept is not None and kept.stale
    assert not ledger.fresh(MODULE)


def test_an_unfinished_run_is_not_fresh() -> None:
    unfinished = _session(source_digest(MODULE))
    unfinished.pending = 3
    ledger.save(unfinished)
    assert not ledger.fresh(MODULE)


def test_a_module_never_run_has_no_ledger() -> None:
    assert ledger.load(MODULE) is None and not ledger.fresh(MODULE)


def test_a_module_no_operator_changes_is_kept_as_run_with_no_mutants() -> None:
    from mutation.run import _keep_empty

    module = "services/rules/table/options.py"  # imports and re-exports only
    _keep_empty(module, jobs=2)
    kept = ledger.load(module)
    assert kept is not None and (kept.mutants, kept.survivors, kept.stale) == (0, (), False)
    assert ledger.fresh(module)
