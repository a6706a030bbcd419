"""The append statement of the PostgreSQL store, and the batch it sends.

``append_sql`` builds the one prepared statement an append runs (see ``events.store.postgres``
for why it keeps the global order); ``Batch`` chains a command's events and renders them as the
statement's parameters; ``error`` turns a libpq error result into psycopg's exception.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime

import psycopg
from psycopg import pq

from events.envelope import JSONDict, NewEvent, RecordedEvent, normalize_time, utc_now
from events.hashchain import (
    GENESIS_HASH,
    canonical_json,
    command_digest_json,
    event_hash_json,
    format_time,
)
from events.outcomes import CommandOutcome
from events.store.timers import Timer

SCALAR_EVENTS = 8  # batches up to this size travel as scalar parameters
MANY = SCALAR_EVENTS + 1  # the statement for larger batches (a JSON array)
CONN_OK = pq.ConnStatus.OK
ATTEMPTS = 3  # appends whose cached head hash was missing or stale, before giving up
compact_json = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
ROW_COLUMNS = (
    "stream_id, version, event_id, type, schema_version, payload, recorded_at,"
    " actor_kind, actor_seat, command_id, command, rules_version, prev_hash, hash"
)


def timer_steps(source: str) -> list[str]:
    """The CTEs that make the stream's timer rows the batch's ``timers`` (a JSON array of
    {key, seconds, command}), run only if the append is accepted (``source`` yields a row):
    keys not named are removed, new keys are due ``seconds`` after this transaction began,
    and a key named again keeps its row (its due time and lease). A new row wakes the
    timekeepers (``pg_notify`` in RETURNING: it runs once per inserted row, and NOTIFY is
    delivered at commit, so a rolled-back append wakes nobody)."""
    keys = "json_to_recordset(%(timers)s::json) AS k(key text)"
    rows = "json_to_recordset(%(timers)s::json) AS y(key text, seconds float8, command json)"
    return [
        f"tx AS (DELETE FROM timers t USING {source} WHERE t.stream_id = %(stream)s::text"
        f" AND NOT EXISTS (SELECT 1 FROM {keys} WHERE k.key = t.timer_key))",
        "tn AS (INSERT INTO timers (stream_id, timer_key, due_at, command)"
        " SELECT %(stream)s::text, y.key, now() + make_interval(secs => y.seconds), y.command"
        f" FROM {source}, {rows} ON CONFLICT (stream_id, timer_key) DO NOTHING"
        " RETURNING pg_notify(%(timer_channel)s::text, ''))",
    ]


def outcome_step(count: int) -> str:
    """The CTE that records the command's accepted outcome from the events just inserted
    (``ev``), waking its waiters (``pg_notify`` on ``paiju_outcomes:<schema>`` with the
    command id, delivered at commit). An id with an outcome already (a refusal, recorded
    without the append lock) fails the primary key, and the whole append with it: ``_settle``
    then finds the outcome and says so (``OutcomeRecordedError``)."""
    last = "%(count)s::int" if count == MANY else str(count)
    return (
        "oc AS (INSERT INTO command_outcomes (command_id, table_id, status, first_version,"
        " last_version, first_position, last_position, actor_kind, actor_seat, correlation_id,"
        " recorded_at) SELECT %(command_id)s::text, %(stream)s::text, 'accepted',"
        f" %(expected)s::int + 1, %(expected)s::int + {last}, min(ev.position), max(ev.position),"
        " %(outcome_actor_kind)s::text, %(outcome_actor_seat)s::smallint,"
        " %(outcome_correlation)s::text, %(outcome_at)s::timestamptz FROM ev"
        " RETURNING pg_notify(%(outcome_channel)s::text, command_id))"
    )


def outcome_params(outcome: CommandOutcome, channel: str, at: str) -> dict[str, str | None]:
    """The outcome step's parameters, as text like the rest; ``at``: its last event's time."""
    seat, correlation = outcome.actor_seat, outcome.correlation_id
    return {
        "outcome_actor_kind": outcome.actor_kind,
        "outcome_actor_seat": None if seat is None else f"{seat:d}",
        "outcome_correlation": correlation,
        "outcome_at": at,
        "outcome_channel": channel,
    }


def append_sql(count: int, with_command: bool, with_timers: bool = False,
               with_outcome: bool = False) -> str:  # fmt: skip
    """The append statement for ``count`` events (``MANY``: any number, as a JSON array).

    ``ok`` takes the lock, then yields one row if the stream continues from
    (expected, prev): with events to insert, the event at ``expected`` has hash
    ``prev`` (a stream already past ``expected`` fails the unique index on
    (stream_id, version) when they are inserted); with none, the head is exactly
    (expected, prev). Every insert reads from the step before it, so positions are
    drawn under the lock. Up to ``SCALAR_EVENTS`` events travel as scalar
    parameters (event i's ``prev_hash`` is event i-1's ``hash``), more as a JSON
    array. Returns one row per event inserted (position, or version and position),
    or, for no events, one row if the append was accepted.
    """
    lock = "(SELECT pg_advisory_xact_lock(hashtext('paiju_append:' || current_schema()))) AS l"
    if count == 0:  # nothing to insert: the head itself must be (expected, prev)
        check = (
            f" FROM {lock} LEFT JOIN LATERAL (SELECT e.version, e.hash FROM events e"
            " WHERE e.stream_id = %(stream)s ORDER BY e.version DESC LIMIT 1) AS h ON true"
            f" WHERE coalesce(h.version, 0) = %(expected)s::int"
            f" AND coalesce(h.hash, '{GENESIS_HASH}') = %(prev)s::text"
        )
    else:  # the event at `expected` must be `prev`; a later one fails the unique version index
        check = (
            f" FROM {lock} WHERE CASE WHEN %(expected)s::int = 0"
            f" THEN %(prev)s::text = '{GENESIS_HASH}'"
            " ELSE (SELECT e.hash FROM events e WHERE e.stream_id = %(stream)s"
            " AND e.version = %(expected)s::int) = %(prev)s::text END"
        )
    steps = [f"ok AS MATERIALIZED (SELECT 1 AS ok{check})"]
    source = "ok"
    if with_command:
        last = "%(count)s::int" if count == MANY else str(count)
        steps.append(
            "cm AS (INSERT INTO commands (command_id, stream_id, digest, first_version, last_version)"
            " SELECT %(command_id)s::text, %(stream)s, %(digest)s::text, %(expected)s::int + 1,"
            f" %(expected)s::int + {last} FROM ok RETURNING 1 AS ok)"
        )
        source = "cm"
    if with_timers:
        steps += timer_steps(source)
    command = "%(command_id)s::text, %(command)s::json"
    notify = "(SELECT pg_notify(%(channel)s::text, ''))"
    if count == 0:
        return "WITH " + ", ".join(steps) + f" SELECT ok FROM {source}"
    if count == 1:
        steps.append(
            f"ev AS (INSERT INTO events ({ROW_COLUMNS})"
            " SELECT %(stream)s::text, %(expected)s::int + 1, %(event_id)s::uuid, %(type)s::text,"
            " %(schema_version)s::int, %(payload)s::json, %(recorded_at)s::timestamptz,"
            f" %(actor_kind)s::text, %(actor_seat)s::smallint, {command}, %(rules_version)s::text,"
            f" %(prev)s::text, %(hash)s::text FROM {source} RETURNING position)"
        )
        if with_outcome:
            steps.append(outcome_step(count))
        return "WITH " + ", ".join(steps) + f" SELECT position, {notify} FROM ev"
    if count == MANY:
        rows = (
            "json_to_recordset(%(events)s::json) AS x(version integer, event_id uuid, type text,"
            " schema_version integer, payload json, recorded_at timestamptz, actor_kind text,"
            " actor_seat smallint, rules_version text, prev_hash text, hash text)"
        )
    else:
        rows = (
            "(VALUES "
            + ", ".join(
                f"(%(expected)s::int + {i}, %(event_id_{i})s::uuid, %(type_{i})s::text,"
                f" %(schema_version_{i})s::int, %(payload_{i})s::json,"
                f" %(recorded_at_{i})s::timestamptz, %(actor_kind_{i})s::text,"
                f" %(actor_seat_{i})s::smallint, %(rules_version_{i})s::text,"
                + (" %(prev)s::text" if i == 1 else f" %(hash_{i - 1})s::text")
                + f", %(hash_{i})s::text)"
                for i in range(1, count + 1)
            )
            + (
                ") AS x(version, event_id, type, schema_version, payload, recorded_at, actor_kind,"
                " actor_seat, rules_version, prev_hash, hash)"
            )
        )
    steps.append(
        f"ev AS (INSERT INTO events AS e ({ROW_COLUMNS})"
        " SELECT %(stream)s::text, x.version, x.event_id, x.type, x.schema_version, x.payload,"
        f" x.recorded_at, x.actor_kind, x.actor_seat, {command}, x.rules_version, x.prev_hash,"
        f" x.hash FROM {source}, {rows} ORDER BY x.version RETURNING e.version, e.position)"
    )
    if with_outcome:
        steps.append(outcome_step(count))
    return "WITH " + ", ".join(steps) + f" SELECT version, position, {notify} FROM ev"


class Statement:
    """One append statement: psycopg's form (named placeholders) and libpq's ($n, by position)."""

    __slots__ = ("name", "names", "positional", "text")

    def __init__(self, count: int, with_command: bool, with_timers: bool = False,
                 with_outcome: bool = False) -> None:  # fmt: skip
        self.text = append_sql(count, with_command, with_timers, with_outcome)
        flags = f"{int(with_command)}{int(with_timers)}{int(with_outcome)}"
        self.name = f"paiju_append_{count}_{flags}".encode()
        self.names: list[str] = []

        def number(match: re.Match[str]) -> str:
            if match.group(1) not in self.names:
                self.names.append(match.group(1))
            return f"${self.names.index(match.group(1)) + 1}"

        self.positional = re.sub(r"%\((\w+)\)s", number, self.text).encode()


APPEND_SQL = {
    (n, c, t, o): Statement(n, c, t, o)
    for n in range(MANY + 1)
    for c in (False, True)
    for t in (False, True)
    for o in ((False, True) if n and c else (False,))  # an outcome names a command's events
}
SETTLE = (
    "SELECT c.stream_id, c.digest, c.first_version, c.last_version, h.version, h.hash,"
    " o.command_id IS NOT NULL"
    " FROM (SELECT 1) AS one"
    " LEFT JOIN commands c ON c.command_id = %(command_id)s::text"
    " LEFT JOIN command_outcomes o ON o.command_id = %(command_id)s::text"
    " LEFT JOIN LATERAL (SELECT e.version, e.hash FROM events e WHERE e.stream_id = %(stream)s::text"
    " ORDER BY e.version DESC LIMIT 1) AS h ON true"
)
RETRYABLE = frozenset({"events_stream_version", "commands_pkey", "command_outcomes_pkey"})


class Batch:
    """One append's events, numbered and chained as ``draft_batch`` does, with the
    canonical JSON of the command and of every payload computed once: it is what
    the rows store and what the hashes cover."""

    __slots__ = (
        "command",
        "command_id",
        "command_json",
        "digest",
        "events",
        "expected_version",
        "outcome",
        "payloads",
        "stream_id",
        "timers_json",
    )

    def __init__(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command_id: str | None,
        command: JSONDict | None,
        timers: Sequence[Timer] | None = None,
        outcome: CommandOutcome | None = None,
    ) -> None:
        self.stream_id = stream_id
        self.outcome = outcome
        self.expected_version = expected_version
        self.events = events
        self.command_id = command_id
        self.command = command
        self.command_json = canonical_json(command)
        self.digest = (
            None if command_id is None else command_digest_json(stream_id, self.command_json)
        )
        self.payloads = [canonical_json(e.payload) for e in events]
        self.timers_json = (
            None
            if timers is None
            else compact_json(
                [{"key": t.key, "seconds": t.seconds, "command": t.command} for t in timers]
            )
        )

    def chain(self, prev_hash: str) -> list[Link]:
        """Each event's time, texts and hashes, chained after ``prev_hash``."""
        now = utc_now()
        links = []
        for offset, (e, payload_json) in enumerate(zip(self.events, self.payloads, strict=True), 1):
            at = normalize_time(e.recorded_at) if e.recorded_at else now
            link = Link(at, format_time(at), str(e.event_id), prev_hash)
            link.hash = prev_hash = event_hash_json(
                stream_id=self.stream_id,
                version=self.expected_version + offset,
                event_id=link.event_id,
                type=e.type,
                schema_version=e.schema_version,
                payload_json=payload_json,
                recorded_at=link.recorded_at,
                actor=e.actor,
                command_id=self.command_id,
                command_json=self.command_json,
                rules_version=e.rules_version,
                prev_hash=prev_hash,
            )
            links.append(link)
        return links

    def events_json(self, links: list[Link]) -> str:
        """The batch as the JSON array the append statement reads (json_to_recordset)."""
        parts = []
        for offset, (e, payload_json, link) in enumerate(
            zip(self.events, self.payloads, links, strict=True), 1
        ):
            head = compact_json(
                {
                    "version": self.expected_version + offset,
                    "event_id": link.event_id,
                    "type": e.type,
                    "schema_version": e.schema_version,
                    "recorded_at": link.recorded_at,
                    "actor_kind": e.actor.kind,
                    "actor_seat": e.actor.seat,
                    "rules_version": e.rules_version,
                    "prev_hash": link.prev_hash,
                    "hash": link.hash,
                }
            )
            parts.append(head[:-1] + ',"payload":' + payload_json + "}")
        return "[" + ",".join(parts) + "]"

    def recorded(self, index: int, link: Link, position: int) -> RecordedEvent:
        e = self.events[index]
        return RecordedEvent(
            stream_id=self.stream_id,
            version=self.expected_version + index + 1,
            position=position,
            event_id=e.event_id,
            type=e.type,
            schema_version=e.schema_version,
            payload=e.payload,
            recorded_at=link.at,
            actor=e.actor,
            command_id=self.command_id,
            command=self.command,
            rules_version=e.rules_version,
            prev_hash=link.prev_hash,
            hash=link.hash,
        )


class Link:
    """One event of a batch in its chain: its time, and the texts written and hashed."""

    __slots__ = ("at", "event_id", "hash", "prev_hash", "recorded_at")

    def __init__(self, at: datetime, recorded_at: str, event_id: str, prev_hash: str) -> None:
        self.at = at
        self.recorded_at = recorded_at  # format_time(at)
        self.event_id = event_id  # str(event.event_id)
        self.prev_hash = prev_hash
        self.hash = ""


def pg_error(pgconn: pq.abc.PGconn, result: pq.abc.PGresult, encoding: str) -> psycopg.Error:
    """The exception psycopg raises for a failed ``result``."""
    if pgconn.status == pq.ConnStatus.BAD:
        return psycopg.OperationalError(pq.error_message(result, encoding=encoding))
    return psycopg.errors.error_from_result(result, encoding=encoding)
