"""``paiju backup`` and ``paiju restore``: a store copied while it could run, put back into a
new store whose tables verify and end at the same heads; never into a store holding anything."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from backup_kit import heads, own_database, tamper_postgres
from clirun import StoredTable, one_line, run, run_process
from pg_reset import PG_DSN, PG_URL, fresh_schema


def _pg(database: str, schema: str) -> str:
    return f"postgresql://postgres@127.0.0.1:5432/{database}?schema={schema}"


def test_a_sqlite_backup_restores_into_a_new_store_that_verifies_with_the_same_heads(
    stored: StoredTable, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = tmp_path / "paiju.backup"
    status, out, _ = run(capsys, "backup", "--store", stored.url, str(backup))
    assert status == 0 and re.match(rf"^backed up {stored.url} to {backup} \(\d+ events, \d+ bytes\)$", out)
    restored = f"sqlite:///{tmp_path}/restored.sqlite3"
    status, out, err = run(capsys, "restore", str(backup), "--store", restored)
    assert (status, err) == (0, "")
    said, summary = out.splitlines()
    assert said == f"restored {backup} into {restored}; verifying it"
    assert summary.startswith(f"{restored}: 1 tables, 0 other streams, ")
    assert summary.endswith(" events: all verified")
    assert heads(restored) == heads(stored.url) and len(heads(restored)) == 1
    assert run(capsys, "verify", "--store", restored)[0] == 0


def test_a_restore_into_a_store_that_holds_tables_is_refused_and_changes_nothing(
    stored: StoredTable, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = tmp_path / "paiju.backup"
    assert run(capsys, "backup", "--store", stored.url, str(backup))[0] == 0
    target = tmp_path / "busy.sqlite3"
    url = f"sqlite:///{target}"
    assert run(capsys, "play", "--store", url)[0] == 0
    before, content = heads(url), target.read_bytes()
    status, out, err = run(capsys, "restore", str(backup), "--store", url)
    assert status == 2 and out == ""
    assert one_line(err).startswith(f"paiju restore: the store {url} is not empty (events: ")
    assert err.strip().endswith("so that nothing stored is lost: nothing was changed")
    assert heads(url) == before and target.read_bytes() == content


def test_a_postgres_backup_restores_into_another_database_and_schema_with_the_same_heads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fresh_schema("opsbackup") as schema, own_database("opsrestore") as database:
        source = f"{PG_URL}?schema={schema}"
        for variant in ("harbin", "tanggu"):
            assert run(capsys, "simulate", "--variant", variant, "--games", "1", "--store", source)[0] == 0
        backup = tmp_path / "pg.backup"
        status, out, _ = run(capsys, "backup", "--store", source, str(backup))
        assert status == 0 and f"(schema {schema}, pg_dump archive, " in out
        target = _pg(database, "restored")
        status, out, err = run(capsys, "restore", str(backup), "--store", target)
        assert (status, err) == (0, "")
        assert out.splitlines()[-1].startswith(f"{target}: 2 tables, 0 other streams, ")
        assert out.endswith(" events: all verified\n")
        assert heads(target) == heads(source) and len(heads(target)) == 2
        status, _, err = run(capsys, "restore", str(backup), "--store", target)
        assert status == 2 and " is not empty (" in one_line(err)
        assert heads(target) == heads(source)
        tamper_postgres(PG_DSN, schema, sorted(heads(source))[0])
        status, out, _ = run(capsys, "verify", "--store", source)
        assert status == 1 and out.startswith(f"FAILED table {sorted(heads(source))[0]}: hash chain: BROKEN")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["backup", "--store", "sqlite:///x.sqlite3"], "paiju backup: the following arguments are required: OUT"),
        (["restore"], "paiju restore: the following arguments are required: BACKUP"),
        (["restore", "README.md", "--store", "sqlite:///x.sqlite3"], "paiju restore: README.md is not a paiju backup"),
        (["restore", "no-such.backup"], "paiju restore: no-such.backup: no such file"),
        (["backup", "--store", "sqlite:///no-such.sqlite3", "out.backup"], "there is no database file no-such.sqlite3"),
        (["backup", "--store", "sqlite:///x.sqlite3", "README.md"], "README.md exists already: a backup never overwrites"),
    ],
)
def test_backup_and_restore_of_bad_arguments_say_what_is_wrong_in_one_line(argv: list[str], says: str) -> None:
    done = run_process(*argv)
    assert done.returncode == 2 and done.stdout == ""
    assert says in one_line(done.stderr)
    assert not Path("x.sqlite3").exists()


def test_a_backup_of_one_kind_is_not_restored_into_a_store_of_the_other(
    stored: StoredTable, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = tmp_path / "paiju.backup"
    assert run(capsys, "backup", "--store", stored.url, str(backup))[0] == 0
    status, _, err = run(capsys, "restore", str(backup), "--store", _pg("paiju_test", "never_made"))
    assert status == 2
    assert one_line(err).startswith(f"paiju restore: {backup} is a SQLite store's backup and ")
