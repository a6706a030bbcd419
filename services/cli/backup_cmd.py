"""``paiju backup --store URL OUT`` and ``paiju restore BACKUP --store URL``.

A SQLite store is copied by SQLite's online backup API (``services.cli.backup_sqlite``); a
PostgreSQL store is its schema, dumped by ``pg_dump --format=custom`` and put back by
``pg_restore`` (``services.cli.backup_pg``). Both are consistent copies taken while the service
runs. A backup never overwrites a file; a restore goes only into a store that is new or holds
nothing, and ends with the audit of ``paiju verify`` of what it restored (status 1 if it fails).
"""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from pathlib import Path
from typing import TextIO

from events.store import StoreLocation, open_store, parse_store_url
from services.cli import backup_pg, backup_sqlite
from services.cli.audit import Failure, audit_store
from services.cli.failures import CliError, Interrupted, command
from services.cli.stores import StoreChoice, choose, open_for_reading
from services.cli.verify_cmd import report


def add_backup_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", metavar="OUT", help="the backup file to write (must not exist)")


def add_restore_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("backup", metavar="BACKUP", help="a file written by paiju backup")


def _new_file(text: str) -> Path:
    out = Path(text)
    if out.exists():
        raise CliError(f"{out} exists already: a backup never overwrites a file; name a new one")
    if not out.parent.is_dir():
        raise CliError(f"the folder {out.parent} does not exist")
    return out


@command("backup", writes=False)
def backup_main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    choice = choose(args)
    target = _new_file(args.out)
    open_for_reading(choice).close()  # an existing paiju store, or the line naming what is wrong
    where = parse_store_url(choice.url.strip())
    try:
        if where.backend == "sqlite":
            events = backup_sqlite.backup(Path(where.path), target)
            what = f"{events} events"
        else:
            backup_pg.backup(where, target)
            what = f"schema {where.schema}, pg_dump archive"
    except KeyboardInterrupt:
        raise Interrupted("no backup file was left") from None
    print(f"backed up {choice.shown} to {target} ({what}, {target.stat().st_size} bytes)", file=out)
    return 0


def _kind(path: Path) -> str:
    if not path.is_file():
        raise CliError(f"{path}: no such file" if not path.exists() else f"{path} is not a file")
    with path.open("rb") as file:
        start = file.read(len(backup_sqlite.HEADER))
    if start.startswith(backup_sqlite.HEADER):
        return "sqlite"
    if start.startswith(backup_pg.HEADER):
        return "postgres"
    raise CliError(f"{path} is not a paiju backup (neither a SQLite file nor a pg_dump archive)")


@command("restore", writes=True)
def restore_main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    backup_file = Path(args.backup)
    kind = _kind(backup_file)
    choice = choose(args)
    where = _location(choice)
    if kind != where.backend:
        names = {"sqlite": "a SQLite store's", "postgres": "a PostgreSQL store's"}
        raise CliError(
            f"{backup_file} is {names[kind]} backup and {choice.shown} is not such a store: restore "
            "it into one of its kind (paiju export and import move tables between kinds)"
        )
    try:
        if where.backend == "sqlite":
            _restore_sqlite(backup_file, Path(where.path), choice)
        else:
            backup_pg.restore(backup_file, where, choice.shown)
    except KeyboardInterrupt:
        raise Interrupted("the restore may be part way: check the store before use") from None
    print(f"restored {backup_file} into {choice.shown}; verifying it", file=out, flush=True)

    def say(failure: Failure) -> None:
        print(failure.line(), file=out, flush=True)

    with closing(open_store(choice.url.strip())) as store:  # migrates an older backup forward
        audit = audit_store(store, say)
    return report(choice.shown, audit, out)


def _location(choice: StoreChoice) -> StoreLocation:
    try:
        return parse_store_url(choice.url.strip())
    except ValueError as error:
        raise choice.fail(str(error)) from None


def _restore_sqlite(backup_file: Path, target: Path, choice: StoreChoice) -> None:
    backup_sqlite.check_backup(backup_file)
    if target.is_dir():
        raise choice.fail(f"{target} is a folder, not a database file")
    if not target.parent.is_dir():
        raise choice.fail(f"the folder {target.parent} does not exist")
    if target.exists() and target.resolve() == backup_file.resolve():
        raise choice.fail("that is the backup file itself")
    holds = backup_sqlite.held(target)
    if holds is not None:
        raise CliError(
            f"the store {choice.shown} is not empty ({holds}); a restore goes only into a new or "
            "empty store, so that nothing stored is lost: nothing was changed"
        )
    backup_sqlite.restore(backup_file, target)
