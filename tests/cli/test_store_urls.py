"""Every command that takes a store names a bad one in one line, exits 2, and changes nothing."""

from __future__ import annotations

import socket
from contextlib import closing
from pathlib import Path

import psycopg
import pytest
from clirun import StoredTable, one_line, run, run_process

PG = "postgresql://postgres@127.0.0.1:5432"


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on: bound by us, then released."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def commands(url: str, export: Path) -> dict[str, list[str]]:
    """Each store-taking command with the store given as ``--store url``."""
    return {
        "play": ["play", "--store", url],
        "simulate": ["simulate", "--games", "1", "--store", url],
        "replay": ["replay", "any-table", "--store", url],
        "export": ["export", "any-table", "--store", url],
        "import": ["import", str(export), "--store", url],
        "tables": ["tables", "--store", url],
    }


@pytest.fixture
def export_file(tmp_path: Path, stored: StoredTable, capsys: pytest.CaptureFixture[str]) -> Path:
    status, out, _ = run(capsys, "export", stored.table_id, "--store", stored.url)
    assert status == 0
    path = tmp_path / "table.jsonl"
    path.write_text(out, encoding="utf-8")
    return path


BAD_URLS = [
    (lambda tmp: f"postgresql://postgres@127.0.0.1:{closed_port()}/paiju", "Connection refused"),
    (lambda tmp: f"{PG}/no_such_database_paiju", 'database "no_such_database_paiju" does not exist'),
    (lambda tmp: f"sqlite:///{tmp}/no/such/folder/paiju.sqlite3", "does not exist"),
    (lambda tmp: f"sqlite:///{tmp}/not-a-database.txt", "is not a SQLite database"),
    (lambda tmp: f"sqlite:///{tmp}", "is a folder, not a database file"),
    (lambda tmp: "mysql://127.0.0.1/paiju", "unknown scheme 'mysql'"),
    (lambda tmp: "paiju.sqlite3", "no scheme"),
    (lambda tmp: "", "the URL is empty"),
    (lambda tmp: "sqlite://", "a sqlite URL names a file"),
]


@pytest.mark.parametrize("command", ["play", "simulate", "replay", "export", "import", "tables"])
@pytest.mark.parametrize(("make_url", "named"), BAD_URLS)
def test_a_bad_store_url_is_one_line_naming_it_and_exit_2(
    command: str,
    make_url: object,
    named: str,
    tmp_path: Path,
    export_file: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    not_a_database = tmp_path / "not-a-database.txt"
    not_a_database.write_text("notes, not a database\n")
    url = make_url(tmp_path)  # type: ignore[operator]
    before = sorted(p.name for p in tmp_path.iterdir())
    status, out, err = run(capsys, *commands(url, export_file)[command])
    assert status == 2
    line = one_line(err)
    assert line.startswith(f"paiju {command}: cannot use the store {url!r} (--store): ")
    assert named in line
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing created
    assert not_a_database.read_text() == "notes, not a database\n"


@pytest.mark.parametrize("command", ["replay", "export", "tables"])
def test_reading_a_missing_sqlite_file_does_not_create_it(
    command: str, tmp_path: Path, export_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path}/typo.sqlite3"
    status, _, err = run(capsys, *commands(url, export_file)[command])
    assert status == 2 and "there is no database file" in one_line(err)
    assert not (tmp_path / "typo.sqlite3").exists()


@pytest.mark.parametrize("command", ["replay", "export", "tables"])
def test_reading_a_postgres_schema_that_holds_no_store_names_it_and_does_not_create_it(
    command: str, tmp_path: Path, export_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = f"cli_missing_{command}"
    status, _, err = run(capsys, *commands(f"{PG}/postgres?schema={schema}", export_file)[command])
    assert status == 2 and f"schema {schema!r} holds no paiju event store" in one_line(err)
    with psycopg.connect(f"{PG}/postgres") as conn:
        found = conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", [schema]).fetchone()
    assert found is None


def test_another_programs_sqlite_database_is_not_turned_into_a_store(
    tmp_path: Path, export_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    path = tmp_path / "accounts.sqlite3"
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE accounts (name TEXT)")
        conn.commit()
    for argv in commands(f"sqlite:///{path}", export_file).values():
        status, _, err = run(capsys, *argv)
        assert status == 2 and "is a SQLite database, but not a paiju event store" in one_line(err)
    with closing(sqlite3.connect(path)) as conn:
        tables = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    assert tables == [("accounts",)]


def test_a_bad_paiju_store_variable_is_named_as_the_source(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PAIJU_STORE", "postgresq://typo/paiju")
    status, _, err = run(capsys, "tables")
    assert status == 2
    assert one_line(err) == (
        "paiju tables: cannot use the store 'postgresq://typo/paiju' ($PAIJU_STORE): unknown "
        "scheme 'postgresq'; write sqlite:///paiju.sqlite3 or postgresql://USER@HOST/DATABASE"
    )


def test_a_password_in_the_url_is_not_printed(capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql://postgres:s3cret@127.0.0.1:{closed_port()}/paiju"
    status, _, err = run(capsys, "tables", "--store", url)
    assert status == 2 and "s3cret" not in err and ":***@" in one_line(err)


def test_a_real_process_prints_no_traceback_for_a_server_that_is_down() -> None:
    done = run_process("replay", "t", "--store", f"postgresql://postgres@127.0.0.1:{closed_port()}/x")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "Connection refused" in one_line(done.stderr)
