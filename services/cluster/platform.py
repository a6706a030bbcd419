"""The platform's side of a cluster run: a webhook endpoint on 127.0.0.1 that checks each
notification's signature and counts it per delivery key (the one the body signs), and the
keys it must be told."""

from __future__ import annotations

import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from events.store.base import EventStore
from workers.effects.body import NOTIFIED
from workers.effects.signing import KEY_HEADER, SIGNATURE_HEADER, signed_key


class Receiver:
    """A platform's webhook endpoint on 127.0.0.1: counts each well-signed post per signed
    delivery key (answered 200), refuses a badly signed one, or one whose unsigned
    ``Idempotency-Key`` header names another delivery (401)."""

    def __init__(self, secret: str) -> None:
        self.secret = secret
        self.received: Counter[str] = Counter()
        self.forged = 0
        self._lock = threading.Lock()
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                key = signed_key(platform.secret, self.headers.get(SIGNATURE_HEADER), body,
                                 self.headers.get(KEY_HEADER))  # fmt: skip
                good = key is not None
                with platform._lock:
                    if key is not None:
                        platform.received[key] += 1
                    else:
                        platform.forged += 1
                self.send_response(200 if good else 401)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:  # quiet
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/paiju/webhooks"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def doubled(self) -> int:
        with self._lock:
            return sum(n - 1 for n in self.received.values())

    def keys(self) -> set[str]:
        with self._lock:
            return set(self.received)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def notified_keys(store: EventStore, table_ids: list[str]) -> set[str]:
    """The key of every event of these tables the platform must be told of."""
    return {
        f"paiju-event-{e.position}"
        for t in table_ids for e in store.read_stream(t) if e.type in NOTIFIED
    }  # fmt: skip
