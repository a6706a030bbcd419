"""What one seat's live stream sends on each wake-up: the events after its cursor, redacted for
it, the last of them carrying the seat's options; first of all, a ``view`` frame.

The events come from the table's feed (``feed.TableFeed``: read and folded once for every
stream of the table in this process); a stream the feed cannot serve (further behind than the
feed keeps, a feed that must read again) reads the store for itself (``stream.read_page``),
from its own cursor, until it reaches the feed. Blocking: call it from a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from events.store.base import EventStore
from services.rules.table.views import player_view
from services.tables.feed import FeedView, TableFeed
from services.tables.loader import LoadedTable
from services.tables.options import EventTimes, seat_options
from services.tables.stream import SeatStream, read_page

Frame = tuple[str | None, str, str]
"""A frame on the wire: its ``id`` (None: none), its ``event`` and its data as JSON."""


@dataclass
class Delivery:
    """A wake-up's frames: the opening ``view`` frame (the first delivery only), then events;
    ``wire``, the same as each is sent."""

    view: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    wire: list[Frame] = field(default_factory=list)


def view_frame(table: LoadedTable, seat: int, options: dict[str, Any]) -> dict[str, Any]:
    """The stream's first frame: the seat's view at ``version`` and its options there (events
    the stream then gives up to ``version`` are already in the view)."""
    view = options.get("view") or player_view(table.state, seat)  # the options hold it on a choice
    return {"version": table.version, "view": view, "options": options}


class SeatDeliveries:
    """One seat's stream of one table: ``have`` is the last version it was given."""

    def __init__(self, store: EventStore, feed: TableFeed, seat: int, have: int,
                 snapshot_key: bytes | None = None) -> None:  # fmt: skip
        self.store, self.feed, self.seat, self.have = store, feed, seat, have
        self.table_id, self.snapshot_key = feed.table_id, snapshot_key
        self.times = EventTimes(store, feed.table_id)
        self.cursor: SeatStream | None = None  # its own read, while the feed cannot serve it
        self.opened = False

    def next(self) -> Delivery:
        """What to send now (nothing, when nothing moved since the last delivery)."""
        fed = self._from_feed()
        if fed is not None:
            return self._fed(fed, compute=True)
        events, table = self._from_store()
        if events:
            self.have = events[-1]["version"]
        delivery = Delivery(events=events)
        if events or not self.opened:
            options = seat_options(table.state, self.seat, self.times)
            if events:
                events[-1]["options"] = options
            delivery.wire = [(str(e["version"]), e["type"], _json(e)) for e in events]
            self._open(delivery, table, options)
        return delivery

    def ready(self) -> Delivery | None:
        """What to send now if it needs no store and no working out (the feed holds the
        events and the seat's options at its head): the event loop sends it at once, with
        no thread; None: ask ``next`` (in a thread)."""
        if not self.opened or self.feed.stale:
            return None
        found = self._servable()
        if found is None:
            return None
        if not found.events:
            return Delivery()
        try:
            return self._fed(found, compute=False)
        except KeyError:  # the options not worked out yet: in a thread
            return None

    def _fed(self, found: FeedView, compute: bool) -> Delivery:
        options, options_json = self.feed.options_wire_at(found.head, self.seat, compute)
        self.cursor = None
        seat, delivery = self.seat, Delivery(events=[e.for_seat(self.seat) for e in found.events])
        if delivery.events:
            self.have = found.events[-1].version
            delivery.events[-1]["options"] = options
            delivery.wire = [(str(e.version), e.shown[seat]["type"], e.wire(seat)) for e in found.events]
            last_id, kind, data = delivery.wire[-1]
            delivery.wire[-1] = (last_id, kind, data[:-1] + ',"options":' + options_json + "}")
        self._open(delivery, found.head, options)
        return delivery

    def _open(self, delivery: Delivery, table: LoadedTable, options: dict[str, Any]) -> None:
        if not self.opened:  # the view first: a client acts on it without reading the table
            self.opened = True
            delivery.view = view_frame(table, self.seat, options)
            delivery.wire.insert(0, (None, "view", _json(delivery.view)))

    def _from_feed(self) -> FeedView | None:
        if self.feed.stale:
            self.feed.catch_up()
        return self._servable()

    def _servable(self) -> FeedView | None:
        """What the feed holds after ``have``; None when this stream is behind what the feed
        keeps, or ahead of it (it read the store itself), and must read for itself."""
        found = self.feed.since(self.have)
        return None if found is None or found.head.version < self.have else found

    def _from_store(self) -> tuple[list[dict[str, Any]], LoadedTable]:
        cursor = self.cursor
        if cursor is None or cursor.version != self.have:
            cursor = SeatStream.starting(self.store, self.table_id, self.seat, self.have + 1,
                                         self.snapshot_key)  # fmt: skip
        page = read_page(self.store, cursor)
        self.cursor = page.cursor
        self.times.note(page.times)
        return page.events, page.cursor.table


def _json(data: dict[str, Any]) -> str:
    return orjson.dumps(data).decode()
