"""A seat's stream is read from a cursor that carries the folded table: each page reads only the
events after it, the pages add up to the whole stream, and each hand's head reaches every seat."""

from __future__ import annotations

from typing import Any

import pytest
from games import Bots, execute, opened

from events.envelope import RecordedEvent
from events.store.base import EventStore
from services.rules.table.commands import StartHand
from services.tables import TableService
from services.tables.stream import StreamDivergedError

VIEWERS: list[Any] = [0, 1, 2, 3, "spectator", "operator"]


class CountingReads:
    """The store, recording where each ``read_stream`` started and how much it returned."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self.reads: list[tuple[int, int]] = []

    def read_stream(self, stream_id: str, from_version: int = 1) -> list[RecordedEvent]:
        events = self._store.read_stream(stream_id, from_version)
        self.reads.append((from_version, len(events)))
        return events

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_stream_read_page_by_page_is_the_whole_stream(store: EventStore, viewer: Any) -> None:
    service = TableService(store)
    bots = Bots(service)
    state = opened(service)
    page = service.stream_for("t1", viewer)
    given = list(page.events)
    for _ in range(40):
        state = bots.play(state)
        page = service.stream_for("t1", viewer, after=page.cursor)
        given.extend(page.events)
    assert given == service.stream_for("t1", viewer).events
    assert [e["version"] for e in given] == list(range(1, store.stream_version("t1") + 1))


def test_each_page_reads_only_from_its_cursor_on(store: EventStore) -> None:
    service = TableService(store)
    bots = Bots(service)
    state = opened(service)
    counting = CountingReads(store)
    reader = TableService(counting)  # type: ignore[arg-type]
    page = reader.stream_for("t1", 2)
    for _ in range(30):
        state = bots.play(state)
        before = page.cursor.version
        counting.reads.clear()
        page = reader.stream_for("t1", 2, after=page.cursor)
        # one read, from the cursor's own event (its hash is checked), nothing before it
        assert counting.reads == [(before, 1 + len(page.events))]
        assert page.cursor.version == store.stream_version("t1")


def test_a_stream_from_a_version_gives_that_version_on(store: EventStore) -> None:
    service = TableService(store)
    Bots(service).play_until(opened(service), lambda _: store.stream_version("t1") >= 12)
    whole = service.stream_for("t1", 1).events
    assert service.stream_for("t1", 1, from_version=10).events == whole[9:]


def test_every_viewer_is_given_the_head_of_each_hand_as_it_settles(store: EventStore) -> None:
    service = TableService(store)
    bots = Bots(service)
    state = bots.play_hand(opened(service))
    bots.play(state, StartHand())
    bots.play_hand(service.load("t1"))
    recorded = {e.version: e for e in store.read_stream("t1")}
    settling = [v for v, e in recorded.items() if e.type == "hand_settled"]
    heads = []
    for viewer in VIEWERS:
        anchors = [e["anchor"] for e in service.stream_for("t1", viewer) if "anchor" in e]
        heads.append(anchors)
        for anchor, settled_at in zip(anchors, settling, strict=True):
            head = recorded[anchor["version"]]
            assert anchor["hash"] == head.hash
            batch = [e for e in recorded.values() if e.command_id == head.command_id]
            assert head.version == batch[-1].version >= settled_at  # the settling batch's last
    assert all(h == heads[0] for h in heads) and len(heads[0]) == 2


def test_a_stream_cut_under_its_cursor_is_refused(store: EventStore, store_url: str) -> None:
    service = TableService(store)
    bots = Bots(service)
    state = bots.play(bots.play(opened(service)))
    page = service.stream_for("t1", 0)
    execute(store_url, "DELETE FROM events WHERE version >= %s", (page.cursor.version,))
    with pytest.raises(StreamDivergedError, match=f"version {page.cursor.version}"):
        service.stream_for("t1", 0, after=page.cursor)
    assert state is not None
