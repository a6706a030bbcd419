"""What the notification tests share: a platform's webhook receiver on 127.0.0.1 that checks
each signature and counts deliveries per key, tables played to their end by bots, and the
parts of a reactor wired together."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import psycopg
from pg_reset import empty_schema

from events.store import open_store
from events.store.base import EventStore
from services.bots.winning_bot import winning_command
from services.rules.table import TableState
from services.rules.table.commands import Command, LeaveTable, StartHand
from services.rules.table.legal import seats_to_act
from services.tables import Accepted, TableService
from workers.effects.body import NOTIFIED
from workers.effects.delivery import WebhookConfig
from workers.effects.outbox import Outbox
from workers.effects.outbox_open import open_outbox
from workers.effects.signing import KEY_HEADER, SIGNATURE_HEADER, signed_key
from workers.reactor.runner import Reactor, inline

PG_URL = "postgresql://postgres@127.0.0.1:5432/paiju_test"
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=paiju_test"
SECRET = "platform-shared-secret"
PLAYERS = ("ann", "bo", "cy", "di")


class Receiver:
    """A platform's endpoint: 2xx for a well-signed post (``status`` lets a test make it
    fail), 401 for a bad signature; counts the good ones per delivery key, the one inside the
    signed body (a post whose unsigned ``Idempotency-Key`` header disagrees is refused)."""

    def __init__(self, secret: str) -> None:
        self.secret = secret
        self.status = 200
        self.received: Counter[str] = Counter()  # well-signed posts answered 2xx, per key
        self.attempts: Counter[str] = Counter()  # every post, per key
        self.forged = 0
        self.cut_off = 0  # posts whose body ended before its Content-Length
        self.bodies: dict[str, bytes] = {}
        self.headers: dict[str, dict[str, str]] = {}
        self.port = 0
        self._changed = threading.Condition()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/paiju/webhooks"

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                if len(body) < length:  # the sender died mid-post (a kill): cut off, not forged
                    receiver.cut_off += 1
                    return
                receiver.record(dict(self.headers), body, self)

            def log_message(self, *args: object) -> None:  # quiet
                pass

        server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        server.daemon_threads = True
        self.port = server.server_address[1]
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Down: the port refuses connections until ``start`` again (same port)."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def record(self, headers: dict[str, str], body: bytes, handler: BaseHTTPRequestHandler) -> None:
        sent_key = headers.get(KEY_HEADER)
        signed = signed_key(self.secret, headers.get(SIGNATURE_HEADER), body, sent_key)
        good, key = signed is not None, signed or sent_key or ""
        with self._changed:
            self.attempts[key] += 1
            status = self.status if good else 401
            if not good:
                self.forged += 1
            elif 200 <= status < 300:
                self.received[key] += 1
                self.bodies[key] = body
                self.headers[key] = headers
            self._changed.notify_all()
        handler.send_response(status)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    def wait_for(self, keys: set[str], timeout: float) -> bool:
        """True once every key in ``keys`` was received (bounded by ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not keys <= set(self.received):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._changed.wait(remaining)
        return True

    def doubled(self) -> int:
        return sum(n - 1 for n in self.received.values() if n > 1)


def play_table(service: TableService, table_id: str, variant: str = "shanghai") -> None:
    """A table to its end: a hand in which seat 1 leaves (逃跑处罚 on shanghai), played out by
    托管 and bots to its settlement, which ends the series."""
    rng = random.Random(table_id)
    moves = 0

    def do(command: Command) -> TableState:
        nonlocal moves
        moves += 1
        outcome = service.handle(table_id, command, command_id=f"{table_id}/{moves}")
        assert isinstance(outcome, Accepted) and outcome.state is not None, outcome
        return outcome.state

    service.open_table(table_id, variant, PLAYERS, command_id=f"{table_id}/open")
    do(StartHand())
    state = do(LeaveTable(seat=1))
    for _ in range(1000):
        if state.hand_over:
            return
        state = do(winning_command(state, seats_to_act(state)[0], rng))
    raise AssertionError(f"{table_id}: the hand did not end in 1000 moves")


def notified_keys(store: EventStore) -> set[str]:
    """The key of every event in the store the platform must be told of."""
    return {f"paiju-event-{e.position}" for e in store.read_all(0, 100_000) if e.type in NOTIFIED}


@dataclass
class Parts:
    """One reactor process's parts: its own store, outbox and HTTP client."""

    store_url: str
    config: WebhookConfig
    lease_seconds: float = 30.0
    store: EventStore = field(init=False)
    outbox: Outbox = field(init=False)
    client: httpx.Client = field(init=False)
    reactor: Reactor = field(init=False)

    def __post_init__(self) -> None:
        self.store = open_store(self.store_url)
        self.outbox = open_outbox(self.store_url)
        self.client = httpx.Client(timeout=self.config.timeout)
        self.reactor = Reactor(
            self.store,
            self.outbox,
            inline(self.outbox, self.config, self.client),
            lease_seconds=self.lease_seconds,
            idle_seconds=0.2,
        )

    def close(self) -> None:
        self.client.close()
        self.outbox.close()
        self.store.close()


def config_for(receiver: Receiver, **changes: float) -> WebhookConfig:
    settings: dict[str, float] = {"backoff_base": 0.05, "backoff_cap": 0.2, "timeout": 2.0}
    settings.update(changes)
    return WebhookConfig(
        url=receiver.url,
        secret=SECRET,
        max_attempts=int(settings.pop("max_attempts", 8)),
        **settings,
    )


def empty_pg_url(schema: str) -> str:
    url = f"{PG_URL}?schema={schema}"
    with contextlib.closing(open_store(url)):  # migrate, then start empty
        pass
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        empty_schema(conn, schema)
    return url
