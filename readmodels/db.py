"""The read models' database: builds, their checkpoints, and one transaction per batch.

``batch(projection, build, expected, last)`` opens a transaction, moves the build's position
from ``expected`` to ``last`` by compare-and-set (a second projector that read the same
checkpoint finds it moved and writes nothing), yields ``Rows`` on the build's tables (kept in
memory, ``BatchRows``) and writes them in the same transaction. SQLite takes its one write
lock (``BEGIN IMMEDIATE``); PostgreSQL locks the build's row with the compare-and-set's
``UPDATE``, and a projector also holds a session advisory lock per build (``leader``) so that
a second copy stands by instead of racing for every batch.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql as pgsql

from events.store import parse_store_url
from events.store.migrations import migrate_postgres, migrate_sqlite
from events.store.pool_checks import still_serving
from readmodels.base import Projection
from readmodels.batch_rows import BatchRows
from readmodels.sql import Dialect, SqlRows, create_statements, drop_statements
from services.tables.partitions import HOME, merged_position, split_position

BUILD_COLUMNS = "name, build, code_version, position, active, caught_up_at, error, error_position"


@dataclass(frozen=True, slots=True)
class Build:
    name: str
    build: int
    code_version: int
    position: int
    active: bool
    caught_up_at: Any
    error: str | None
    error_position: int | None
    positions: dict[int, int] = field(default_factory=dict, compare=False)
    """The checkpoint in each table store (partition 1...) as a merged position; the home
    store's is ``position``. The build's checkpoint is the vector of them."""

    def at(self, partition: int) -> int:
        """The checkpoint in ``partition`` (a merged position; its base if none yet)."""
        if partition == HOME:
            return self.position
        return self.positions.get(partition, merged_position(partition, 0))

    def reached(self, merged: int) -> bool:
        """Whether the build has applied the event at merged position ``merged``."""
        return self.at(split_position(merged)[0]) >= merged

    def covers(self, other: Build) -> bool:
        """Whether this build is at or past ``other`` in every partition either has read."""
        return all(self.at(p) >= other.at(p) for p in {HOME, *self.positions, *other.positions})


class Lease:
    """A projector's hold on a build (PostgreSQL: a session advisory lock on a connection of
    its own, gone with the connection, so a projector that dies frees its builds at once)."""

    def __init__(self, conn: psycopg.Connection[tuple[Any, ...]] | None = None) -> None:
        self.conn = conn

    def alive(self) -> bool:
        """Whether the hold is still there (its connection still answers)."""
        if self.conn is None:
            return True
        try:
            self.conn.execute("SELECT 1")
        except psycopg.Error:
            return False
        return True

    def release(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(psycopg.Error):
                self.conn.close()


class CheckpointMoved(Exception):
    """Another projector moved this build's checkpoint first; nothing was written."""


class ProjectionDB:
    """Shared by both databases; subclasses give a connection and run statements."""

    dialect: Dialect

    # -- connections (per backend) ---------------------------------------------------------
    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Any]:
        raise NotImplementedError
        yield

    def _run(self, conn: Any, text: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _run_many(self, conn: Any, text: str, many: list[Sequence[Any]]) -> None:
        """One statement for many parameter rows."""
        raise NotImplementedError

    def _batch_transaction(self) -> contextlib.AbstractContextManager[Any]:
        """A batch's transaction (PostgreSQL: pipelined, see there)."""
        return self._transaction()

    def _run_batched(
        self, conn: Any, text: str, params: Sequence[Any] = ()
    ) -> list[tuple[Any, ...]]:
        return self._run(conn, text, params)

    @property
    def mark(self) -> str:
        return "?" if self.dialect == "sqlite" else "%s"

    # -- builds ----------------------------------------------------------------------------
    def builds(self, name: str | None = None) -> list[Build]:
        where = "" if name is None else f" WHERE name = {self.mark}"
        with self._transaction() as conn:
            rows = self._run(
                conn,
                f"SELECT {BUILD_COLUMNS} FROM projection_builds{where} ORDER BY name, build",
                () if name is None else (name,),
            )
            positions = self._positions(conn, name)
        return [Build(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], r[7],
                      positions.get((r[0], r[1]), {})) for r in rows]  # fmt: skip

    def _positions(self, conn: Any, name: str | None) -> dict[tuple[str, int], dict[int, int]]:
        """Each build's checkpoints in the table stores."""
        where = "" if name is None else f" WHERE name = {self.mark}"
        found: dict[tuple[str, int], dict[int, int]] = {}
        for n, build, partition, position in self._run(
            conn, f"SELECT name, build, partition, position FROM projection_positions{where}",
            () if name is None else (name,),
        ):  # fmt: skip
            found.setdefault((n, build), {})[int(partition)] = int(position)
        return found

    def active_build(self, name: str) -> Build | None:
        return next((b for b in self.builds(name) if b.active), None)

    def new_build(self, projection: Projection, *, active: bool) -> Build:
        """A new build of ``projection`` at position 0, with empty tables of its own."""
        m = self.mark
        with self._transaction() as conn:
            (top,) = self._run(
                conn, f"SELECT coalesce(max(build), 0) FROM projection_builds WHERE name = {m}",
                (projection.name,),
            )[0]  # fmt: skip
            build = int(top) + 1
            for spec in projection.tables:
                for statement in create_statements(spec, build, self.dialect):
                    self._run(conn, statement)
            self._run(
                conn,
                "INSERT INTO projection_builds (name, build, code_version, active)"
                f" VALUES ({m}, {m}, {m}, {m})",
                (projection.name, build, projection.code_version, active),
            )
        found = [b for b in self.builds(projection.name) if b.build == build]
        return found[0]

    def ensure_live(self, projection: Projection) -> Build:
        """The active build, or a first one (active at once: there is nothing to switch from)."""
        live = self.active_build(projection.name)
        if live is not None:
            return live
        try:
            return self.new_build(projection, active=True)
        except (sqlite3.IntegrityError, psycopg.errors.UniqueViolation):
            live = self.active_build(projection.name)  # another projector made it first
            assert live is not None
            return live

    def start_rebuild(self, projection: Projection) -> Build:
        """A build beside the live one from position 0 (not active: readers stay on the live
        one), or the one already in progress for this code version."""
        for attempt in range(3):
            building = self.rebuilding(projection)
            if building is not None:
                return building
            try:
                return self.new_build(projection, active=False)
            except (sqlite3.IntegrityError, psycopg.errors.UniqueViolation):
                if attempt == 2:  # another projector started one at the same moment
                    raise
        raise AssertionError("unreachable")

    def rebuilding(self, projection: Projection) -> Build | None:
        """The build in progress beside the live one, for ``projection``'s code version."""
        live = self.active_build(projection.name)
        newer = [b for b in self.builds(projection.name) if not b.active
                 and b.code_version == projection.code_version
                 and (live is None or b.build > live.build)]  # fmt: skip
        return newer[-1] if newer else None

    def activate(self, name: str, build: int) -> None:
        """Switch readers to ``build`` (one transaction: never two active, never none)."""
        m = self.mark
        with self._transaction() as conn:
            self._run(conn, f"UPDATE projection_builds SET active = {m} WHERE name = {m}",
                      (False, name))  # fmt: skip
            self._run(
                conn,
                f"UPDATE projection_builds SET active = {m}, caught_up_at = CURRENT_TIMESTAMP"
                f" WHERE name = {m} AND build = {m}",
                (True, name, build),
            )

    def drop_build(self, projection: Projection, build: int) -> None:
        """Drop a build's tables and row; never the live build's (readers are on it)."""
        m = self.mark
        with self._transaction() as conn:
            live = self._run(conn, f"SELECT 1 FROM projection_builds WHERE name = {m}"
                             f" AND build = {m} AND active = {m}", (projection.name, build, True))  # fmt: skip
            if live:
                raise ValueError(f"{projection.name} build {build} is live: switch readers"
                                 " to another build before dropping it")  # fmt: skip
            for spec in projection.tables:
                for statement in drop_statements(spec, build):
                    self._run(conn, statement)
            self._run(conn, f"DELETE FROM projection_builds WHERE name = {m} AND build = {m}"
                      " AND NOT active", (projection.name, build))  # fmt: skip
            self._run(conn, f"DELETE FROM projection_positions WHERE name = {m} AND build = {m}",
                      (projection.name, build))  # fmt: skip

    def record_error(self, name: str, build: int, position: int, error: str) -> None:
        m = self.mark
        with self._transaction() as conn:
            self._run(
                conn,
                f"UPDATE projection_builds SET error = {m}, error_position = {m},"
                f" updated_at = CURRENT_TIMESTAMP WHERE name = {m} AND build = {m}",
                (error[:2000], position, name, build),
            )

    def clear_error(self, name: str, build: int) -> None:
        m = self.mark
        with self._transaction() as conn:
            self._run(conn, "UPDATE projection_builds SET error = NULL, error_position = NULL"
                      f" WHERE name = {m} AND build = {m}", (name, build))  # fmt: skip

    # -- batches ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def batch(
        self, projection: Projection, build: int, expected: int, last: int, partition: int = HOME
    ) -> Iterator[BatchRows]:
        """Rows on the build's tables, committed with its checkpoint moved from ``expected``
        to ``last``; ``CheckpointMoved`` (and nothing written) if it is no longer ``expected``.

        The compare-and-set comes first, in one statement: it locks the build's row (a second
        projector's waits, then finds the position moved), and a batch that fails undoes it
        with its rows. The rows are kept in memory and written at the end (``BatchRows``)."""
        with self._batch_transaction() as conn:
            moved = self._move(conn, projection.name, build, partition, expected, last)
            if not moved:
                raise CheckpointMoved(f"{projection.name} build {build}: not at {expected}"
                                      f" in partition {partition}")  # fmt: skip
            rows = BatchRows(SqlRows(
                projection.tables, build, self.dialect, lambda t, p: self._run_batched(conn, t, p),
                lambda t, many: self._run_many(conn, t, many),
            ))  # fmt: skip
            yield rows
            rows.flush()

    def _move(self, conn: Any, name: str, build: int, partition: int, expected: int,
              last: int) -> list[tuple[Any, ...]]:  # fmt: skip
        """The compare-and-set of one partition's checkpoint (a table store's row made at its
        base the first time, so two projectors' first batches still meet in the update)."""
        m = self.mark
        if partition == HOME:
            return self._run_batched(
                conn,
                f"UPDATE projection_builds SET position = {m}, updated_at = CURRENT_TIMESTAMP"
                f" WHERE name = {m} AND build = {m} AND position = {m} RETURNING position",
                (last, name, build, expected),
            )
        # Batches of one build from several partitions' projectors take turns: each read-adds-
        # writes rows other partitions' batches touch too (a player's balance), so the build's
        # row is locked first, as the home store's compare-and-set locks it (SQLite: its one
        # write lock does the same).
        self._run_batched(conn, "UPDATE projection_builds SET updated_at = CURRENT_TIMESTAMP"
                          f" WHERE name = {m} AND build = {m}", (name, build))  # fmt: skip
        self._run_batched(conn, "INSERT INTO projection_positions (name, build, partition, position)"
                          f" VALUES ({m}, {m}, {m}, {m}) ON CONFLICT DO NOTHING",
                          (name, build, partition, merged_position(partition, 0)))  # fmt: skip
        return self._run_batched(
            conn,
            f"UPDATE projection_positions SET position = {m}, updated_at = CURRENT_TIMESTAMP"
            f" WHERE name = {m} AND build = {m} AND partition = {m} AND position = {m}"
            " RETURNING position",
            (last, name, build, partition, expected),
        )

    @contextlib.contextmanager
    def reader(self, projection: Projection, build: int) -> Iterator[SqlRows]:
        """Rows for reading one build (a query)."""
        with self._read_transaction() as conn:
            yield SqlRows(
                projection.tables, build, self.dialect, lambda t, p: self._run(conn, t, p)
            )

    @contextlib.contextmanager
    def live_reader(self, projection: Projection) -> Iterator[tuple[Build | None, SqlRows]]:
        """The live build and rows on it, in one read-only snapshot: the page a query reads
        and the position it reports are of the same moment (``None``: no build yet)."""
        with self._read_transaction() as conn:
            found = self._run(
                conn,
                f"SELECT {BUILD_COLUMNS} FROM projection_builds WHERE name = {self.mark}"
                f" AND active = {self.mark}",
                (projection.name, True),
            )
            r = found[0] if found else None
            build = (Build(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], r[7],
                           self._positions(conn, projection.name).get((r[0], r[1]), {}))
                     if r else None)  # fmt: skip
            execute = lambda t, p: self._run(conn, t, p)  # noqa: E731
            yield build, SqlRows(projection.tables, build.build if build else 0, self.dialect,
                                 execute)  # fmt: skip

    @contextlib.contextmanager
    def _read_transaction(self) -> Iterator[Any]:
        with self._transaction() as conn:
            yield conn

    def try_lead(self, name: str, build: int, partition: int = HOME) -> Lease | None:
        """A lease on the build, or None while another projector holds it (SQLite: always a
        lease; its write lock is per batch, and the compare-and-set fences the rest)."""
        return Lease()

    @contextlib.contextmanager
    def leader(self, name: str, build: int, partition: int = HOME) -> Iterator[bool]:
        """Whether this projector leads the build, held until the block ends."""
        lease = self.try_lead(name, build, partition)
        try:
            yield lease is not None
        finally:
            if lease is not None:
                lease.release()

    def close(self) -> None: ...


class SqliteProjectionDB(ProjectionDB):
    dialect: Dialect = "sqlite"

    def __init__(self, path: str, busy_timeout: float = 30.0) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self._local = threading.local()
        migrate_sqlite(self._conn())

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None,
                                   check_same_thread=False)  # fmt: skip
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            self._local.conn = conn
        return conn

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    @contextlib.contextmanager
    def _read_transaction(self) -> Iterator[sqlite3.Connection]:
        """A deferred transaction: a WAL snapshot from its first read, no write lock taken."""
        conn = self._conn()
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            conn.execute("ROLLBACK")

    def _run(self, conn: Any, text: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(conn.execute(text, tuple(params)).fetchall())

    def _run_many(self, conn: Any, text: str, many: list[Sequence[Any]]) -> None:
        conn.executemany(text, [tuple(p) for p in many])

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


class PostgresProjectionDB(ProjectionDB):
    dialect: Dialect = "postgres"

    def __init__(self, conninfo: str, schema: str = "public") -> None:
        self.conninfo, self.schema = conninfo, schema
        self._local = threading.local()
        with psycopg.connect(conninfo, autocommit=True) as conn:
            migrate_postgres(conn, schema)

    def _conn(self) -> psycopg.Connection[tuple[Any, ...]]:
        conn = getattr(self._local, "conn", None)
        if conn is not None and not conn.closed and not still_serving(conn):
            conn.close()  # the server restarted under it: a new one, not a failed request
        if conn is None or conn.closed:
            conn = psycopg.connect(self.conninfo, autocommit=True)
            conn.execute(pgsql.SQL("SET search_path TO {}").format(pgsql.Identifier(self.schema)))
            self._local.conn = conn
        return conn

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        conn = self._conn()
        with conn.transaction():
            yield conn

    @contextlib.contextmanager
    def _read_transaction(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        """One snapshot for every statement of a query (REPEATABLE READ), writing nothing."""
        conn = self._conn()
        with conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield conn

    @contextlib.contextmanager
    def _batch_transaction(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        """In pipeline mode: statements are sent without waiting for their answers, which
        come when one is read. So ``BEGIN`` goes with the compare-and-set, and the batch's
        writes with its ``COMMIT``: a batch waits for two answers and for each row it reads."""
        conn = self._conn()
        with conn.pipeline(), conn.transaction():
            yield conn

    def _run(self, conn: Any, text: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        cur = conn.execute(text.encode(), tuple(params))
        return list(cur.fetchall()) if cur.description else []

    def _run_batched(
        self, conn: Any, text: str, params: Sequence[Any] = ()
    ) -> list[tuple[Any, ...]]:
        """``_run`` in pipeline mode, where no statement has its answer (nor its description)
        until one is read: the answers of those that have one are read, which waits."""
        cur = conn.execute(text.encode(), tuple(params))
        answers = text.lstrip().startswith("SELECT") or " RETURNING " in text
        return list(cur.fetchall()) if answers else []

    def _run_many(self, conn: Any, text: str, many: list[Sequence[Any]]) -> None:
        with conn.cursor() as cur:
            cur.executemany(text.encode(), [tuple(p) for p in many])

    def try_lead(self, name: str, build: int, partition: int = HOME) -> Lease | None:
        conn = psycopg.connect(self.conninfo, autocommit=True)
        key = f"paiju_projection:{self.schema}:{name}:{build}" + (
            f":{partition}" if partition else ""
        )
        try:
            row = conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (key,)).fetchone()
        except BaseException:
            conn.close()
            raise
        if row and row[0]:
            return Lease(conn)
        conn.close()
        return None

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


def open_projection_db(url: str) -> ProjectionDB:
    """The read models' database: the event store's own, at ``url``."""
    where = parse_store_url(url)
    if where.backend == "sqlite":
        return SqliteProjectionDB(where.path)
    return PostgresProjectionDB(where.conninfo, where.schema)
