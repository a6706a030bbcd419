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


@pytest.fixture
def module_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of MODULE under a root of its own, to change as a later commit would."""
    from mutation import config

    copy = tmp_path / "root" / MODULE
    copy.parent.mkdir(parents=True)
    copy.write_text((config.ROOT / MODULE).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(config, "ROOT", tmp_path / "root")
    return copy


def _rewrite(copy: Path, old: str, new: str) -> None:
    text = copy.read_text(encoding="utf-8")
    assert old in text
    copy.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_result_survives_a_move_that_changes_only_import_paths(module_copy: Path) -> None:
    ledger.save(_session(source_digest(MODULE)))
    _rewrite(module_copy, "from services.rules.", "from services.rules_moved.")
    kept = ledger.load(MODULE)
    assert source_digest(MODULE) != ledger.json.loads(ledger.path(MODULE).read_text())["source"]
    assert kept is not None and not kept.stale and ledger.fresh(MODULE)


def test_a_changed_line_of_code_makes_the_result_stale(module_copy: Path) -> None:
    ledger.save(_session(source_digest(MODULE)))
    _rewrite(module_copy, "return", "return  ")
    kept = ledger.load(MODULE)
    assert kept is not None and kept.stale


def test_an_import_that_gains_a_line_moves_every_mutant_and_makes_it_stale(
    module_copy: Path,
) -> None:
    ledger.save(_session(source_digest(MODULE)))
    _rewrite(
        module_copy,
        "from __future__ import annotations",
        "from __future__ import (\n    annotations,\n)",
    )
    kept = ledger.load(MODULE)
    assert kept is not None and kept.stale


def test_a_result_survives_prose_changed_in_place(module_copy: Path) -> None:
    ledger.save(_session(source_digest(MODULE)))
    text = module_copy.read_text(encoding="utf-8")
    first_doc_line = text.split("\n", 1)[0]
    _rewrite(module_copy, first_doc_line, first_doc_line.replace("E", "e", 1) + " (reworded)")
    _rewrite(module_copy, "        return None\n", "        return None  # nothing is due\n")
    kept = ledger.load(MODULE)
    assert kept is not None and not kept.stale
