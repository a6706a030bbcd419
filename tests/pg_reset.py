"""Start a PostgreSQL test schema empty: every table the migrations made, whatever they are."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql


def empty_schema(conn: psycopg.Connection[Any], schema: str) -> None:
    """TRUNCATE every table of ``schema`` but the migrations' own record."""
    rows = conn.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = %s AND tablename <> 'schema_migrations'",
        (schema,),
    ).fetchall()
    if rows:
        names = sql.SQL(", ").join(sql.Identifier(schema, str(r[0])) for r in rows)
        conn.execute(sql.SQL("TRUNCATE {} RESTART IDENTITY").format(names))
