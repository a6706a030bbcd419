"""A PostgreSQL store's backup and restore: ``pg_dump --format=custom`` of the store's schema,
and ``pg_restore`` into a database whose target schema does not exist yet or holds no table.

An archive keeps the name of the schema it was dumped from. Restored under another name, it
is restored under its own name first (which must then be absent from the target database) and
renamed in one transaction; what the restore made is dropped if the rename fails.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import psycopg
from psycopg import sql

from events.store import StoreLocation
from services.cli.failures import CliError, one_line
from services.cli.pg_tools import (
    archive_schema,
    find_tool,
    run_tool,
    split_password,
    without_schema_entry,
)

HEADER = b"PGDMP"


def backup(where: StoreLocation, out: Path) -> None:
    conninfo, env = split_password(where.conninfo)
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        argv = [find_tool("pg_dump"), "--format=custom", f"--schema={where.schema}"]
        run_tool([*argv, f"--file={partial}", f"--dbname={conninfo}"], env, "pg_dump")
        partial.replace(out)
    finally:
        partial.unlink(missing_ok=True)


def dumped_schema(backup_file: Path) -> tuple[str, str]:
    """The archive's table of contents and the schema its store was dumped from."""
    listing = run_tool(
        [find_tool("pg_restore"), "--list", str(backup_file)], {}, f"reading {backup_file}"
    )
    schema = archive_schema(listing)
    if schema is None:
        raise CliError(f"{backup_file} is a pg_dump archive, but holds no paiju event store")
    return listing, schema


def _tables(conn: psycopg.Connection[tuple[object, ...]], schema: str) -> list[str] | None:
    """The schema's tables, or None when there is no such schema."""
    if not conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", [schema]).fetchone():
        return None
    rows = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = %s", [schema])
    return sorted(str(name) for (name,) in rows.fetchall())


def held(conn: psycopg.Connection[tuple[object, ...]], schema: str) -> str | None:
    """Why the schema cannot take a restore (what it holds), or None when it can."""
    tables = _tables(conn, schema) or []
    counts = {}
    for name in tables:
        if name == "schema_migrations":
            continue
        query = sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(schema, name))
        row = conn.execute(query).fetchone()
        if row and row[0]:
            counts[name] = row[0]
    if counts:
        return ", ".join(f"{name}: {count} rows" for name, count in counts.items())
    if tables:
        return (
            f"the store's tables, empty ({len(tables)} tables): drop the schema, or use a new one"
        )
    return None


def restore(backup_file: Path, where: StoreLocation, shown: str) -> None:
    listing, source = dumped_schema(backup_file)
    conninfo, env = split_password(where.conninfo)
    try:
        connection = psycopg.connect(where.conninfo, autocommit=True, connect_timeout=10)
    except psycopg.OperationalError as error:
        reason = one_line(error).removeprefix("connection failed: ")
        raise CliError(f"cannot use the store {shown}: {reason}") from None
    with connection as conn:
        holds = held(conn, where.schema)
        if holds is not None:
            raise CliError(
                f"the store {shown} is not empty ({holds}); a restore goes only into a new or "
                "empty store, so that nothing stored is lost: nothing was changed"
            )
        target_exists = _tables(conn, where.schema) is not None
        if source != where.schema and _tables(conn, source) is not None:
            raise CliError(
                f"the backup holds schema {source!r}, which exists in that database already: "
                f"restore into another database, or into a schema {source!r} that is absent"
            )
        if source == where.schema and target_exists:
            listing = without_schema_entry(listing, source)
        with tempfile.TemporaryDirectory(prefix="paiju-restore-") as folder:
            toc = Path(folder) / "list.toc"
            toc.write_text(listing + "\n")
            argv = [find_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error"]
            argv += ["--single-transaction", f"--use-list={toc}", f"--dbname={conninfo}"]
            run_tool([*argv, str(backup_file)], env, "pg_restore")
        if source != where.schema:
            _rename(conn, source, where.schema)


def _rename(conn: psycopg.Connection[tuple[object, ...]], source: str, target: str) -> None:
    try:
        with conn.transaction():
            conn.execute(
                sql.SQL("DROP SCHEMA IF EXISTS {} RESTRICT").format(sql.Identifier(target))
            )
            conn.execute(
                sql.SQL("ALTER SCHEMA {} RENAME TO {}").format(
                    sql.Identifier(source), sql.Identifier(target)
                )
            )
    except psycopg.Error as error:
        conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(source)))
        raise CliError(
            f"restored, but schema {source!r} could not become {target!r} "
            f"({one_line(error)}); what the restore made was dropped"
        ) from None
