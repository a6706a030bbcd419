"""PostgreSQL's own backup tools, for ``paiju backup`` and ``paiju restore``: where they are,
and the archive's schema.

``pg_dump`` and ``pg_restore`` are looked for in ``$PAIJU_PG_BIN`` (a folder), then on ``PATH``,
then in ``/usr/lib/postgresql/*/bin`` (Debian's layout, newest version first); a tool found
nowhere is named, with where it was looked for.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from services.cli.failures import CliError, one_line

DEBIAN_BINS = Path("/usr/lib/postgresql")


def find_tool(name: str) -> str:
    folder = os.environ.get("PAIJU_PG_BIN")
    if folder:
        candidate = Path(folder) / name
        if os.access(candidate, os.X_OK):
            return str(candidate)
        raise CliError(f"{name} is not in $PAIJU_PG_BIN ({folder})")
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(
        (p for p in DEBIAN_BINS.glob(f"*/bin/{name}") if os.access(p, os.X_OK)),
        key=lambda p: _number(p.parent.parent.name),
        reverse=True,
    )
    if versions:
        return str(versions[0])
    raise CliError(
        f"{name} was not found (not on PATH, nor in {DEBIAN_BINS}/*/bin): install PostgreSQL's "
        "client tools (Debian: postgresql-client), or set $PAIJU_PG_BIN to their folder"
    )


def _number(text: str) -> int:
    return int(text) if text.isdigit() else -1


def split_password(conninfo: str) -> tuple[str, dict[str, str]]:
    """The URL without its password, and the environment that passes it (never in argv)."""
    parts = urlsplit(conninfo)
    if parts.password is None:
        return conninfo, {}
    netloc = parts.netloc.replace(f":{parts.password}@", "@", 1)
    return urlunsplit(parts._replace(netloc=netloc)), {"PGPASSWORD": unquote(parts.password)}


def run_tool(argv: list[str], env: dict[str, str], what: str) -> str:
    done = subprocess.run(
        argv, capture_output=True, text=True, env={**os.environ, **env}, check=False
    )
    if done.returncode != 0:
        raise CliError(f"{what} failed: {one_line(done.stderr) or f'status {done.returncode}'}")
    return done.stdout


_TABLE_ENTRY = re.compile(r"^\d+; \d+ \d+ TABLE (\S+) events \S+$")


def archive_schema(listing: str) -> str | None:
    """The schema of the archive's events table, from ``pg_restore --list``."""
    for line in listing.splitlines():
        match = _TABLE_ENTRY.match(line.strip())
        if match:
            return match.group(1)
    return None


def without_schema_entry(listing: str, schema: str) -> str:
    """The listing without the ``CREATE SCHEMA`` of ``schema`` (it exists already, empty)."""
    entry = re.compile(rf"^\d+; \d+ \d+ SCHEMA - {re.escape(schema)} \S+$")
    return "\n".join(line for line in listing.splitlines() if not entry.match(line.strip()))
