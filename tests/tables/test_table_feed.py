"""A table's feed: read and folded once for all its streams in a process, fed the follower's
pages; what each seat gets from it is what a stream of its own reading the store gets, and a
stream the feed cannot serve reads for itself."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from games import Bots, opened
from test_seat_stream import CountingReads

from events.store.base import EventStore
from services.tables import TableService
from services.tables.deliveries import SeatDeliveries
from services.tables.feed import TableFeed, TableFeeds
from services.tables.folds import KeptFolds
from services.tables.loader import EMPTY


def without_options(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "options"} for e in events]


def follow(store: EventStore, feeds: TableFeeds, position: int) -> int:
    """What the wake-up follower does: read the global order on, feed each page."""
    while page := store.read_all(position + 1, 1000):  # type: ignore[attr-defined]
        feeds.feed(page, whole=len(page) < 1000)
        position = page[-1].position
    return position


def test_each_seat_gets_from_the_feed_the_events_its_own_read_of_the_store_gives(store: EventStore) -> None:
    service = TableService(store)
    bots, state = Bots(service), opened(service)
    feeds = TableFeeds(store)
    feed = feeds.opened("t1")
    seats = [SeatDeliveries(store, feed, seat, 0) for seat in range(4)]
    given: list[list[dict[str, Any]]] = [[] for _ in range(4)]
    position = 0
    for _ in range(120):  # a whole hand and more: a settled hand's anchor among them
        state = bots.play(state)
        position = follow(store, feeds, position)
        for seat, deliveries in enumerate(seats):
            given[seat] += deliveries.next().events
    for seat in range(4):
        assert without_options(given[seat]) == service.stream_for("t1", seat).events
    assert any("anchor" in e for e in given[0])


def test_four_streams_of_a_fed_table_read_no_stream_of_the_store_once_caught_up(store: EventStore) -> None:
    service = TableService(store)
    bots, state = Bots(service), opened(service)
    counting = CountingReads(store)
    feeds = TableFeeds(counting)  # type: ignore[arg-type]
    feed = feeds.opened("t1")
    seats = [SeatDeliveries(counting, feed, s, store.stream_version("t1")) for s in range(4)]  # type: ignore[arg-type]
    position = follow(store, feeds, 0)
    for deliveries in seats:
        deliveries.next()  # caught up: the feed read the table once
    counting.reads.clear()
    for _ in range(30):
        state = bots.play(state)
        position = follow(store, feeds, position)
        for deliveries in seats:
            deliveries.next()
    assert counting.reads == []  # every event came from the follower's pages


def test_a_feed_given_events_that_do_not_join_its_head_reads_the_store_at_its_next_reader(store: EventStore) -> None:
    service = TableService(store)
    bots, state = Bots(service), opened(service)
    feed = TableFeed(store, "t1", EMPTY)
    feed.catch_up()
    for _ in range(3):
        state = bots.play(state)
    later = store.read_stream("t1", from_version=feed.head.version + 2)  # one event skipped
    feed.feed(later)
    assert feed.stale and feed.since(0) is None
    feed.catch_up()
    assert feed.head.version == store.stream_version("t1") and not feed.stale


def test_a_stream_further_behind_than_the_feed_keeps_reads_the_store_itself(store: EventStore) -> None:
    service = TableService(store)
    bots, state = Bots(service), opened(service)
    for _ in range(TableFeed.KEPT + 10):
        state = bots.play(state)
    feed = TableFeeds(store).opened("t1")
    feed.catch_up()
    assert feed.since(0) is None  # its oldest kept event is past version 1
    late = SeatDeliveries(store, feed, 1, 0)
    assert without_options(late.next().events) == service.stream_for("t1", 1).events


def test_a_feed_lives_while_a_stream_of_its_table_is_open_and_keeps_its_fold_for_views(store: EventStore) -> None:
    service = TableService(store)
    opened(service)
    kept = KeptFolds(8)
    feeds = TableFeeds(store, kept)
    first, second = feeds.opened("t1"), feeds.opened("t1")
    assert first is second and len(feeds) == 1
    first.catch_up()
    assert kept.get("t1") == first.head  # a view or a legal list folds on from here
    feeds.closed("t1")
    assert len(feeds) == 1
    feeds.closed("t1")
    assert len(feeds) == 0


def test_a_page_cut_short_only_tells_the_feed_to_read_for_itself(store: EventStore) -> None:
    service = TableService(store)
    bots, state = Bots(service), opened(service)
    feeds = TableFeeds(store)
    feed = feeds.opened("t1")
    feed.catch_up()
    state = bots.play(state)
    page = store.read_all(1, 1000)  # type: ignore[attr-defined]
    feeds.feed(page, whole=False)  # a full page may end inside a batch
    assert feed.stale


def test_a_seat_watched_from_two_devices_has_its_options_worked_out_once(store: EventStore) -> None:
    service = TableService(store)
    opened(service)
    feed = TableFeeds(store).opened("t1")
    phone, laptop = SeatDeliveries(store, feed, 0, 0), SeatDeliveries(store, feed, 0, 0)
    feed.catch_up()
    first, second = phone.next(), laptop.next()
    assert first.view is not None and second.view is not None
    assert first.view["options"] is second.view["options"]
    assert first.view["options"]["version"] == store.stream_version("t1")


def test_what_goes_on_the_wire_is_each_delivery_as_given_from_the_feed_or_the_store(store: EventStore) -> None:
    service = TableService(store)
    bots, state = Bots(service), opened(service)
    feeds = TableFeeds(store)
    feed = feeds.opened("t1")
    fed, own = SeatDeliveries(store, feed, 2, 0), SeatDeliveries(store, TableFeed(store, "t1", EMPTY), 2, 0)
    position = follow(store, feeds, 0)
    for _ in range(40):
        for deliveries in (fed, own):
            delivery = deliveries.ready() or deliveries.next()
            frames = [(i, kind, json.loads(data)) for i, kind, data in delivery.wire]
            expected = [(str(e["version"]), e["type"], e) for e in delivery.events]
            assert frames == ([(None, "view", delivery.view)] if delivery.view else []) + expected
        state = bots.play(state)
        position = follow(store, feeds, position)
    fed.next()
    twin = SeatDeliveries(store, feed, 2, fed.have)  # the seat on a second device
    twin.next()
    state = bots.play(state)
    follow(store, feeds, position)  # the follower works every seat's options out as it feeds
    ready = twin.ready()
    assert ready is not None and ready.events  # the event loop sends them, with no thread
    assert ready.events[-1]["options"] is feed.options_at(feed.head, 2)


def test_a_table_that_cannot_be_folded_stops_no_other_tables_feed(store: EventStore) -> None:
    service = TableService(store)
    bots, state = Bots(service), opened(service)
    opened(service, "t2")
    feeds = TableFeeds(store)
    good, bad = feeds.opened("t1"), feeds.opened("t2")
    good.catch_up()
    bad.catch_up()
    position = store.read_all(0, 1000)[-1].position  # type: ignore[attr-defined]
    state = bots.play(state)
    Bots(service, "t2").play(bad.head.state)
    page = store.read_all(position + 1, 1000)  # type: ignore[attr-defined]
    tampered = [replace(e, payload={**e.payload, "seat": 7}) if e.stream_id == "t2" else e for e in page]
    feeds.feed(tampered, whole=True)  # the follower is not stopped by it
    assert not good.stale and good.head.version == store.stream_version("t1")
    assert bad.stale  # its streams read for themselves, and meet the error in their own request
