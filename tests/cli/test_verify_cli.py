"""``paiju verify``: a whole store audited table by table, a failure named by its table."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from backup_kit import tamper_sqlite
from clirun import StoredTable, one_line, run, run_process, store_table


def test_verify_of_a_store_the_bots_played_passes_every_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = store_table(tmp_path / "two.sqlite3", "tanggu", hands=2)
    assert run(capsys, "simulate", "--variant", "shandong", "--games", "1", "--store", first.url)[0] == 0
    status, out, err = run(capsys, "verify", "--store", first.url)
    assert (status, err) == (0, "")
    assert out.startswith(f"{first.url}: 2 tables, 0 other streams, ")
    assert out.endswith(" events: all verified\n")


def test_a_tampered_event_fails_verify_naming_its_table_and_the_broken_chain(
    stored: StoredTable, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "tampered.sqlite3"
    shutil.copy(stored.path, copy)
    other = store_table(tmp_path / "other.sqlite3")  # a second, untouched table in the same store
    export = tmp_path / "other.jsonl"
    export.write_text(_export(capsys, other))
    assert run(capsys, "import", str(export), "--store", f"sqlite:///{copy}")[0] == 0
    version = tamper_sqlite(str(copy), stored.table_id)
    status, out, err = run(capsys, "verify", "--store", f"sqlite:///{copy}")
    assert (status, err) == (1, "")
    failed, summary = out.splitlines()
    assert failed.startswith(f"FAILED table {stored.table_id}: hash chain: BROKEN: ")
    assert f"altered at version {version}" in failed
    assert other.table_id not in out
    assert summary.startswith(f"sqlite:///{copy}: 2 tables, 0 other streams, ")
    assert summary.endswith(" events: 1 failed")


def _export(capsys: pytest.CaptureFixture[str], table: StoredTable) -> str:
    status, out, _ = run(capsys, "export", table.table_id, "--store", table.url)
    assert status == 0
    return out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["verify", "--store", "ftp://x"], "paiju verify: cannot use the store 'ftp://x' (--store): unknown scheme 'ftp'"),
        (["verify", "--store", "sqlite:///no/such/folder/s.sqlite3"], "the folder no/such/folder does not exist"),
        (["verify", "extra"], "paiju verify: unrecognized arguments: extra (see paiju verify --help)"),
    ],
)
def test_verify_of_a_store_it_cannot_use_is_one_line_and_status_2(argv: list[str], says: str) -> None:
    done = run_process(*argv)
    assert done.returncode == 2 and done.stdout == ""
    assert says in one_line(done.stderr)
