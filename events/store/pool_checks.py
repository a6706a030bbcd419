"""A PostgreSQL connection left idle through a server restart fails the request that takes it
next (``AdminShutdown``): the pool cannot know until it is used. But a server that ends a
session says so on the socket (the termination notice, then the close), so a connection with
something to read while it sits idle is one the server may have let go. Each connection handed
out is looked at with a zero-timeout ``select`` (a system call, no round trip); only one with
bytes waiting is checked with an empty query and replaced if the server is gone. A busy hot
path pays nothing for it, and the check does not depend on how fast the server came back.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from psycopg.pq import ConnStatus
from psycopg_pool import ConnectionPool


def may_be_gone(conn: psycopg.Connection[Any]) -> bool:
    """True if an idle connection is closed, broken, or has unread bytes from the server."""
    if conn.closed or conn.pgconn.status != ConnStatus.OK:
        return True
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


def still_serving(conn: psycopg.Connection[Any]) -> bool:
    """An idle connection the server still serves (an empty query when it may be gone)."""
    if not may_be_gone(conn):
        return True
    if conn.closed:
        return False
    try:
        ConnectionPool.check_connection(conn)
    except psycopg.Error:
        return False
    return True


def _checked(conn: psycopg.Connection[Any]) -> None:
    """``check`` callback: raises (the pool then replaces the connection) if it is gone."""
    if not still_serving(conn):
        raise psycopg.OperationalError("the server closed this idle connection")


def pool_checks() -> dict[str, Any]:
    """The ``ConnectionPool`` arguments every pool of ours takes: its ``check``."""
    return {"check": _checked}
