"""A SQLite store's backup and restore, through SQLite's online backup API.

The backup is a consistent copy taken while the store is in use (writers wait at most for one
step of the copy); it is a SQLite database file itself, the store as it was. A restore copies it
into a store that is new or holds nothing, and refuses any other.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from services.cli.failures import CliError

HEADER = b"SQLite format 3\x00"


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def backup(source: Path, out: Path) -> int:
    """Copy the store at ``source`` to ``out`` (written whole, then renamed): its events."""
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with closing(_read_only(source)) as src, closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            (events,) = dst.execute("SELECT count(*) FROM events").fetchone()
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return int(events)


def check_backup(path: Path) -> None:
    """A SQLite file that holds a whole paiju store."""
    with closing(_read_only(path)) as conn:
        tables = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "events" not in tables:
            raise CliError(f"{path} is a SQLite database, but not a paiju store's backup")
        (verdict,) = conn.execute("PRAGMA quick_check").fetchone()
    if verdict != "ok":
        raise CliError(f"{path} is a damaged SQLite file (quick_check: {verdict})")


def held(path: Path) -> str | None:
    """What an existing store file holds (rows per table), or None when it holds nothing."""
    if not path.exists():
        return None
    with closing(_read_only(path)) as conn:
        names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        counts = {}
        for name in names:
            if name in ("schema_migrations", "sqlite_sequence"):
                continue
            quoted = '"' + name.replace('"', '""') + '"'
            (count,) = conn.execute(f"SELECT count(*) FROM {quoted}").fetchone()  # noqa: S608
            if count:
                counts[name] = count
    return ", ".join(f"{name}: {count} rows" for name, count in counts.items()) or None


def restore(backup_file: Path, target: Path) -> None:
    """Copy the backup into ``target`` (new, or a store holding nothing)."""
    with closing(_read_only(backup_file)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
