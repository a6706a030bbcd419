"""How far ``paiju simulate`` has got: a line on stderr redrawn after each hand (only when stderr
is a terminal, so logs and pipes stay clean), and what it has stored, for the Ctrl-C line."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TextIO


@dataclass
class Progress:
    total: int  # hands to play, every variant together
    stream: TextIO | None = None  # where the line is drawn; None draws nothing
    done: int = 0
    variant: str = ""
    stored: dict[str, int] = field(default_factory=dict)  # table id -> hands written to it

    @classmethod
    def on_stderr(cls, total: int) -> Progress:
        return cls(total, sys.stderr if sys.stderr.isatty() else None)

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
        if self.stream is not None:
            self.stream.write("\r\033[K")  # the line is gone; the report follows on stdout
            self.stream.flush()

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
        if self.stream is not None:
            self.stream.write(f"\rpaiju simulate: {self.variant} {self.done}/{self.total} hands")
            self.stream.flush()
