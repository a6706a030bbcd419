"""How far a long command has got: a line on stderr redrawn as it goes (only when stderr is a
terminal, so that logs and pipes stay clean), and for ``paiju simulate`` what it has stored, for
the Ctrl-C line."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TextIO

from events.store.base import EventStore


@dataclass
class StatusLine:
    """One line redrawn in place on a terminal; nothing at all elsewhere."""

    stream: TextIO | None

    @classmethod
    def on_stderr(cls) -> StatusLine:
        return cls(sys.stderr if sys.stderr.isatty() else None)

    def draw(self, text: str) -> None:
        if self.stream is not None:
            self.stream.write(f"\r{text}\033[K")
            self.stream.flush()

    def clear(self) -> None:
        if self.stream is not None:
            self.stream.write("\r\033[K")  # the line is gone; what follows starts clean
            self.stream.flush()


@dataclass
class Progress:
    total: int  # hands to play, every variant together
    line: StatusLine = field(default_factory=lambda: StatusLine(None))
    done: int = 0
    variant: str = ""
    stored: dict[str, int] = field(default_factory=dict)  # table id -> hands written to it

    @classmethod
    def on_stderr(cls, total: int) -> Progress:
        return cls(total, StatusLine.on_stderr())

    def start(self, variant: str) -> None:
        self.variant = variant
        self._draw()

    def table_opened(self, table_id: str) -> None:
        self.stored[table_id] = 0

    def hand_done(self, table_id: str | None = None) -> None:
        self.done += 1
        if table_id is not None:
            self.stored[table_id] += 1
        self._draw()

    def finish(self) -> None:
        self.line.clear()

    def recount(self, store: EventStore) -> None:
        """The hands settled at each table, as the store holds them."""
        for table_id in self.stored:
            events = store.read_stream(table_id)
            self.stored[table_id] = sum(e.type == "hand_settled" for e in events)

    def so_far(self, store: str | None) -> str:
        """What had been done and written when the run stopped."""
        played = f"{self.done} of {self.total} hands played"
        if store is None:
            return f"{played}, in memory: nothing was stored"
        if not self.stored:
            return f"{played}; nothing was stored"
        tables = ", ".join(f"table {t} ({n} hands settled)" for t, n in self.stored.items())
        return f"{played}; stored in {store}: {tables}"

    def _draw(self) -> None:
        self.line.draw(f"paiju simulate: {self.variant} {self.done}/{self.total} hands")
