"""The demo's platform: bots at a few tables, their moves sent through the command path.

It behaves as a platform backend would: it opens tables, deals each next hand, and moves its
bot players by reading the table (each table's stream, folded as it goes) and sending
commands; it never touches the engine's state itself. One seat at the first table never
moves, so the turn timers play it: a timeout, then 超时托管 with its short window. Every
command id is made from the table, the version it answers and the seat, so a command sent
twice is recorded once, and a command that lost a race (the table moved on) is simply
answered by the next one.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TextIO

from events.store.base import EventStore
from services.bots.winning_bot import winning_command
from services.rules.table import TableState
from services.rules.table.commands import Command, OpenTable, StartHand
from services.rules.table.legal import seats_to_act
from services.tables.stream import SeatStream, read_page

Send = Callable[[str, Command, str], None]  # table id, command, command id
PLAYERS = ("bot-east", "bot-south", "bot-west", "bot-north")
VARIANTS = ("harbin", "shanghai", "tanggu", "shandong", "mudanjiang")
TIMING = {"turn": 5, "claim": 3}  # watchable: an idle seat holds its table 5 s, then 3 s


@dataclass
class DemoTable:
    table_id: str
    variant: str
    idle_seats: frozenset[int] = frozenset()
    cursor: SeatStream | None = None
    sent: set[str] = field(default_factory=set)


class Demo:
    def __init__(
        self,
        store: EventStore,
        send: Send,
        out: TextIO,
        *,
        tables: int = 3,
        idle_seat: int | None = 3,
        seed: int = 7,
        prefix: str = "demo",
        timing: dict[str, int] | None = None,
    ) -> None:
        self.store = store
        self.send = send
        self.out = out
        self.seed = seed
        self.timing = {**TIMING, **(timing or {})}
        self.tables = [
            DemoTable(
                f"{prefix}-{n + 1}",
                VARIANTS[n % len(VARIANTS)],
                frozenset({idle_seat}) if n == 0 and idle_seat is not None else frozenset(),
            )
            for n in range(tables)
        ]

    def step(self) -> int:
        """Read what each table did since the last step, print it, and answer it."""
        printed = 0
        for table in self.tables:
            for line in self._news(table):
                print(line, file=self.out, flush=True)
                printed += 1
            for command_id, command in self._answers(table):
                if command_id not in table.sent:
                    table.sent.add(command_id)
                    self.send(table.table_id, command, command_id)
        return printed

    def run(self, stop: threading.Event, pace: float = 0.3) -> None:
        """Until ``stop``: step, then wait ``pace`` seconds (so people can follow)."""
        while not stop.is_set():
            self.step()
            stop.wait(pace)

    def _news(self, table: DemoTable) -> Iterator[str]:
        if table.cursor is None:
            if self.store.stream_version(table.table_id) == 0:
                return
            table.cursor = SeatStream.starting(self.store, table.table_id, "spectator")
        page = read_page(self.store, table.cursor)
        table.cursor = page.cursor
        for item in page.events:
            yield line_of(table.table_id, item)

    def _answers(self, table: DemoTable) -> Iterator[tuple[str, Command]]:
        state = table.cursor.table.state if table.cursor else None
        tid = table.table_id
        if state is None or table.cursor is None or table.cursor.table.version == 0:
            yield (
                f"{tid}/open",
                OpenTable(table_id=tid, variant=table.variant, players=PLAYERS, timing=self.timing),
            )
            return
        version = table.cursor.table.version
        if state.hand is None or state.hand_over:
            yield f"{tid}/deal-{state.series.hands_played + 1}", StartHand()
            return
        for seat in seats_to_act(state):
            if seat not in table.idle_seats and not _away(state, seat):
                rng = random.Random(f"{self.seed}/{tid}/{version}/{seat}")
                yield f"{tid}/v{version}/s{seat}", winning_command(state, seat, rng)


def _away(state: TableState, seat: int) -> bool:
    """托管 answers for this seat (the engine plays it): a bot would only race it."""
    presence = state.presence[seat]
    return presence.away is not None or presence.autoplay == "timeout"


SHOWN = {
    "wait_timed_out": "⏱ time is up",
    "seat_autoplayed": "托管 plays",
    "penalty_adjudicated": "penalty",
    "hand_settled": "settled",
}


def line_of(table_id: str, item: dict[str, object]) -> str:
    """One event as one line: table, version, what happened and its public fields."""
    payload = item.get("payload") or {}
    fields = " ".join(
        f"{k}={v}" for k, v in payload.items() if k != "type" and v not in (None, [], {})
    )  # type: ignore[union-attr]
    label = SHOWN.get(str(item["type"]), str(item["type"]))
    text = f"{table_id:<8} v{item['version']:<4} {label:<16} {fields}"
    return text if len(text) <= 160 else text[:157] + "..."
