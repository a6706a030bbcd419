"""What the operations tests share: a private redis-server, ``paiju`` parts as processes, and
reading a ``/metrics`` page, and a TCP relay to PostgreSQL a test may cut.

The redis-server and the process runner are the fault tests' (``tests/faults/fault_kit``):
a test here stops its own Redis, never the machine's.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "faults"))
from fault_kit import Part, PrivateRedis, free_port, private_redis  # noqa: E402

__all__ = ["Part", "PrivateRedis", "TcpRelay", "free_port", "private_redis", "samples", "scrape",
           "until"]


def scrape(address: str) -> str:
    with urllib.request.urlopen(address, timeout=5) as response:
        return str(response.read().decode())


def samples(text: str, name: str) -> Counter[tuple[tuple[str, str], ...]]:
    """The samples named ``name`` in an exposition, by their labels (sorted pairs)."""
    found: Counter[tuple[tuple[str, str], ...]] = Counter()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                found[tuple(sorted(sample.labels.items()))] += sample.value
    return found


def until(check: Callable[[], bool], timeout: float, pause: float = 0.05) -> bool:
    """Whether ``check`` came true within ``timeout`` seconds (looked at every ``pause``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(pause)
    return check()


class TcpRelay:
    """A TCP relay to ``target`` on a port of its own, which a test stops (every connection
    through it cut, the port refusing) and starts again on the same port: the server behind it
    (the machine's PostgreSQL) goes down for whoever connects through the relay, and no one
    else."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target, self.port = target, free_port()
        self._stop = threading.Event()
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None

    def start(self) -> TcpRelay:
        self._stop.clear()
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        listener.settimeout(0.1)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def _accept(self, listener: socket.socket) -> None:
        while not self._stop.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        source.settimeout(None)
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)

    def stop(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.close()
        with self._lock:
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._open.clear()
