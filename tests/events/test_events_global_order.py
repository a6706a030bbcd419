"""The global order a projector reads: a later position never becomes visible before an earlier
one commits. One append is held open (its position drawn, not committed) while another is
made: the second waits, a reader sees neither, and once the first commits both appear, in
position order."""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import psycopg
from psycopg import sql
from store_kit import StoreSpec, discard

from events.hashchain import GENESIS_HASH, format_time
from events.store.base import EventStore, draft_batch

INSERT = (
    "INSERT INTO events (stream_id, version, event_id, type, schema_version, payload, recorded_at,"
    " actor_kind, actor_seat, command_id, command, rules_version, prev_hash, hash)"
    " VALUES ({m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, NULL, NULL, {m}, {m}, {m})"
)


def _slow_row() -> tuple[object, ...]:
    (d,) = draft_batch("slow", 0, GENESIS_HASH, [discard()], None, None)
    e = d.event
    return ("slow", 1, str(e.event_id), e.type, e.schema_version, json.dumps(e.payload),
            format_time(d.recorded_at), e.actor.kind, e.actor.seat, e.rules_version,
            d.prev_hash, d.hash)  # fmt: skip


def _hold_an_append_open(spec: StoreSpec) -> object:
    """A writer that has drawn its position under the append lock and not committed."""
    if spec.kind == "sqlite":
        conn = sqlite3.connect(spec.target, isolation_level=None, check_same_thread=False)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(INSERT.format(m="?"), _slow_row())
        return conn
    pg = psycopg.connect(spec.target)
    pg.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(spec.schema)))
    pg.execute("SELECT pg_advisory_xact_lock(hashtext('paiju_append:' || current_schema()))")
    pg.execute(INSERT.format(m="%s").encode(), _slow_row())
    return pg


def test_a_later_append_is_never_visible_before_an_earlier_one_commits(
    spec: StoreSpec, store: EventStore
) -> None:
    held = _hold_an_append_open(spec)
    fast = threading.Thread(target=store.append, args=("fast", 0, [discard()]))
    fast.start()
    time.sleep(0.5)
    assert fast.is_alive()  # the second append waits for the first to commit
    assert store.read_all(0) == []  # and a reader sees neither
    held.commit()  # type: ignore[attr-defined]
    fast.join(30)
    seen = store.read_all(0)
    assert [e.stream_id for e in seen] == ["slow", "fast"]
    assert seen[0].position < seen[1].position
