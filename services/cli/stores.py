"""The event store a command names: ``--store URL``, else ``$PAIJU_STORE``, else ``paiju.sqlite3``.

A URL is checked before the store is opened, so that a mistake is one line naming it and never a
side effect: a command that only reads (``replay``, ``export``, ``tables``) needs a store that
exists and holds paiju's tables, and creates nothing; one that writes (``play``, ``simulate``,
``import``) may create a new SQLite file, in a folder that exists, but never adds paiju's tables
to a database that holds other things.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from events.store import open_store
from events.store.base import EventStore
from services.cli.failures import CliError, one_line

DEFAULT_STORE = "sqlite:///paiju.sqlite3"
SCHEMES = ("sqlite", "postgresql", "postgres")
CONNECT_SECONDS = 10  # a server that does not answer is named after this, not waited on forever
STORE_HELP = (
    "event store URL: sqlite:///FILE (relative), sqlite:////ABSOLUTE/FILE or "
    "postgresql://USER@HOST[:PORT]/DATABASE[?schema=NAME]; "
    f"default $PAIJU_STORE, else {DEFAULT_STORE}"
)


@dataclass(frozen=True)
class StoreChoice:
    """A store URL and where it came from, for the error that names it."""

    url: str
    source: str  # "--store", "$PAIJU_STORE" or "the default"

    @property
    def shown(self) -> str:
        """The URL with any password hidden."""
        parts = urlsplit(self.url)
        if parts.password is None:
            return self.url
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))

    def fail(self, why: str) -> CliError:
        return CliError(f"cannot use the store {self.shown!r} ({self.source}): {why}")


PARTITION_HELP = ("instead of --store, table store N of $PAIJU_TABLE_STORES (0: the home store,"
                  " $PAIJU_STORE_URL): each store of a deployment is read on its own")  # fmt: skip


def add_store_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", metavar="URL", help=STORE_HELP)
    parser.add_argument("--partition", type=int, metavar="N", help=PARTITION_HELP)


def choose(args: argparse.Namespace) -> StoreChoice:
    given = getattr(args, "store", None)
    if getattr(args, "partition", None) is not None:
        if given is not None:
            raise CliError("give --store or --partition, not both")
        return _partition(int(args.partition))
    if given is not None:
        return StoreChoice(given, "--store")
    env = os.environ.get("PAIJU_STORE")
    if env is not None:
        return StoreChoice(env, "$PAIJU_STORE")
    return StoreChoice(DEFAULT_STORE, "the default")


def _partition(number: int) -> StoreChoice:
    """Store ``number`` of the deployment's settings: the home store (0) or a table store."""
    from services.cli.partition_opt import no_such_store
    from services.tables.partitions import PartitionError, parse_table_stores

    if number == 0:
        home = os.environ.get("PAIJU_STORE_URL", os.environ.get("PAIJU_STORE"))
        return StoreChoice(home or DEFAULT_STORE, "the home store")
    try:
        urls = parse_table_stores(os.environ.get("PAIJU_TABLE_STORES", ""))
    except PartitionError as error:
        raise CliError(f"$PAIJU_TABLE_STORES: {error}") from None
    if number not in urls:
        raise no_such_store(number, urls)
    return StoreChoice(urls[number], f"table store {number}")


def open_for_reading(choice: StoreChoice) -> EventStore:
    """A store that must already exist; nothing is created or migrated by looking."""
    return _open(choice, must_exist=True)


def open_for_writing(choice: StoreChoice) -> EventStore:
    return _open(choice, must_exist=False)


def _open(choice: StoreChoice, *, must_exist: bool) -> EventStore:
    url = choice.url.strip()
    if not url:
        raise choice.fail("the URL is empty; " + _EXAMPLES)
    scheme = urlsplit(url).scheme
    if not scheme:
        raise choice.fail("no scheme; " + _EXAMPLES)
    if scheme not in SCHEMES:
        raise choice.fail(f"unknown scheme {scheme!r}; " + _EXAMPLES)
    if scheme == "sqlite":
        _check_sqlite(choice, _sqlite_path(choice), must_exist=must_exist)
        return open_store(url)
    url = _with_connect_timeout(url)
    _check_postgres(choice, url, must_exist=must_exist)
    try:
        return open_store(url)
    except Exception as error:  # psycopg's errors, raised while the store connects and migrates
        raise choice.fail(one_line(error)) from None


_EXAMPLES = "write sqlite:///paiju.sqlite3 or postgresql://USER@HOST/DATABASE"


def _sqlite_path(choice: StoreChoice) -> Path:
    parts = urlsplit(choice.url.strip())
    # as events.store.open_store reads it: sqlite:///relative and sqlite:////absolute
    path = parts.netloc + parts.path if parts.netloc else parts.path[1:]
    if not path:
        raise choice.fail("a sqlite URL names a file: sqlite:///paiju.sqlite3")
    return Path(path)


def _check_sqlite(choice: StoreChoice, path: Path, *, must_exist: bool) -> None:
    if path.is_dir():
        raise choice.fail(f"{path} is a folder, not a database file")
    if not path.exists():
        if not path.parent.is_dir():
            raise choice.fail(f"the folder {path.parent} does not exist")
        if must_exist:
            raise choice.fail(
                f"there is no database file {path} "
                "(play --store, simulate --store and import create one)"
            )
        return  # a new store, created by the command that writes to it
    tables = _sqlite_tables(choice, path)
    if tables and "events" not in tables:
        raise choice.fail(f"{path} is a SQLite database, but not a paiju event store")
    if not tables and must_exist:
        raise choice.fail(f"{path} is an empty database: no table was ever stored in it")


def _sqlite_tables(choice: StoreChoice, path: Path) -> set[str]:
    """The tables of an existing file, read without writing to it."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error):
            raise choice.fail(f"{path} is not a SQLite database") from None
        raise choice.fail(f"{path}: {error}") from None
    return {name for (name,) in rows}


def _with_connect_timeout(url: str) -> str:
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query.setdefault("connect_timeout", str(CONNECT_SECONDS))
    return urlunsplit(parts._replace(query=urlencode(query)))


def _check_postgres(choice: StoreChoice, url: str, *, must_exist: bool) -> None:
    """Connect once, to name an unreachable server or a missing database or schema."""
    import psycopg

    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    schema = query.pop("schema", "public")
    conninfo = urlunsplit(parts._replace(query=urlencode(query)))
    try:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            quoted = '"' + schema.replace('"', '""') + '"'
            row = conn.execute("SELECT to_regclass(%s)", [f"{quoted}.events"]).fetchone()
    except psycopg.Error as error:
        raise choice.fail(_postgres_reason(error)) from None
    if must_exist and (row is None or row[0] is None):
        raise choice.fail(f"schema {schema!r} holds no paiju event store")


def _postgres_reason(error: Exception) -> str:
    text = one_line(error)
    return text.removeprefix("connection failed: ")
