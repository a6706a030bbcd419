"""The dashboard's data: given events (and rows of the outbox, timers and outcomes), what each
panel and health figure shows, on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
import redis
from dashboard_kit import PLAYERS, START, Table, caught_up
from pg_reset import PG_URL, fresh_schema

from events.outcomes import CommandOutcome
from events.store import open_store
from events.store.base import EventStore
from ops import health
from services.api import dashboard_health as checks
from services.api import dashboard_render as render
from services.api.dashboard_data import Dashboard
from services.api.dashboard_health import StoreLook
from services.rules.events.hand import HandSettled, HandStarted, TableOpened, TilesDealt
from services.rules.events.presence import AutoplayRequested, PenaltyAdjudicated, SeatDisconnected
from services.settings import load_settings
from workers.effects.outbox import SENDING, NewDelivery
from workers.effects.outbox_open import open_outbox

HANDS = (("1m",) * 14, ("2m",) * 13, ("3m",) * 13, ("4m",) * 13)


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/dashboard.sqlite3"
        return
    with fresh_schema("dashboard") as schema:
        yield f"{PG_URL}?schema={schema}"


@pytest.fixture
def store(url: str) -> Iterator[EventStore]:
    with contextlib.closing(open_store(url)) as found:
        yield found


def board(url: str, store: EventStore) -> Dashboard:
    return Dashboard(load_settings(store_url=url), store, lambda: caught_up(store, url))


def a_dealt_table(store: EventStore, table_id: str = "t1", variant: str = "harbin") -> Table:
    t = Table(store, table_id)
    t.given(TableOpened(table_id=table_id, variant=variant, players=PLAYERS, room="新手场"))
    t.given(HandStarted(hand_number=1, dealer=2, dice=(3, 4)))
    t.given(TilesDealt(hands=HANDS))  # minute 2: the dealer's turn begins, 15 s (harbin)
    return t


def test_a_table_in_play_shows_whose_turn_with_the_time_left_and_its_seats_in_托管_or_dropped(
    url: str, store: EventStore
) -> None:
    t = a_dealt_table(store)
    t.given(AutoplayRequested(seat=1))
    t.given(SeatDisconnected(seat=3))
    shown = board(url, store).read(START + timedelta(minutes=4, seconds=3))
    (table,) = shown.tables
    assert (table.table_id, table.variant, table.room) == ("t1", "harbin", "新手场")
    assert (table.waiting, table.waiting_seats) == ("turn", [2])
    row = render.table_row(table, shown.at)
    assert 'data-waiting="turn:2"' in row and "哈尔滨麻将" in row
    assert "turn: cy" in row
    assert "托管 (主动)" in row and "断线 dropped" in row
    # the turn's clock ran from minute 2 (the dropped seat's report keeps it): 15 s, all gone
    assert render.seconds_left(table.wait_until, START + timedelta(minutes=2, seconds=5)) == 10
    assert shown.rooms[0].room == "新手场" and shown.rooms[0].tables_in_play == 1


def test_todays_boards_show_each_players_title_and_the_highest_levels_are_listed(
    url: str, store: EventStore
) -> None:
    t = a_dealt_table(store, variant="shanghai")
    t.given(HandSettled(payments=(12, -4, -4, -4), level_scores=(3, -1, -1, -1)))
    shown = board(url, store).read(START + timedelta(hours=1))
    (found,) = shown.boards
    assert (found.variant, found.variant_name, found.room, found.period_key) == (
        "shanghai", "上海敲麻", "新手场", "2026-01-01")  # fmt: skip
    assert [(x.rank, x.player, x.points, x.title) for x in found.lines] == [
        (1, "ann", 12, "书童"), (2, "bo", -4, "白丁"), (3, "cy", -4, "白丁"), (4, "di", -4, "白丁")]  # fmt: skip
    assert [(x.player, x.level_score) for x in shown.titles] == [("ann", 3), ("bo", -1), ("cy", -1)]
    assert "上海敲麻 · 新手场 · 2026-01-01" in render.boards_panel(shown)
    assert board(url, store).read(START + timedelta(days=1)).boards == []  # another day's board


def test_recent_penalties_come_newest_first_naming_the_rule_and_who_paid(
    url: str, store: EventStore
) -> None:
    t = a_dealt_table(store, variant="shanghai")
    t.given(
        PenaltyAdjudicated(
            seat=1, cause="left", rule="主动逃跑 66 × 底注", amounts=(22, -66, 22, 22)
        )
    )
    t.given(PenaltyAdjudicated(seat=3, cause="timeouts", rule="超时 3 次", amounts=(5, 5, 5, -15)))
    shown = board(url, store).read(START + timedelta(hours=1))
    assert [(p.player, p.cause, p.charged) for p in shown.penalties] == [("di", "timeouts", -15),
                                                                          ("bo", "left", -66)]  # fmt: skip
    panel = render.penalties_panel(shown)
    assert panel.index("超时 3 次") < panel.index("主动逃跑 66 × 底注")


def test_a_read_model_never_built_is_named_on_its_panel_and_the_lag_is_red(
    url: str, store: EventStore
) -> None:
    a_dealt_table(store)
    db = caught_up(store, url)
    with db._transaction() as conn:  # as if no projector had ever run
        conn.execute("DELETE FROM projection_builds")
    shown = Dashboard(load_settings(store_url=url), store, lambda: db).read(START)
    assert "no build yet (is a projector running?)" in shown.problems["tables"]
    assert 'data-problem="tables"' in render.tables_panel(shown)
    lag = next(f for f in shown.health if f.key == "lag")
    assert lag.state == "red" and "not built: points" in lag.detail
    assert render.overall(shown) == "red"


def test_the_lag_is_how_far_the_furthest_behind_projection_is_from_the_head(
    url: str, store: EventStore
) -> None:
    t = a_dealt_table(store)
    db = caught_up(store, url)
    t.given(AutoplayRequested(seat=1), AutoplayRequested(seat=3))  # two events, not projected
    lag = checks.lag_figure(db, store)
    assert (lag.value, lag.state) == ("2", "ok")
    assert "behind: points 2" in lag.detail


def add_timer(url: str, stream_id: str, due_at: float) -> None:
    """A timer row due at ``due_at`` (Unix seconds), as an append would have written it."""
    where = StoreLook(url).where
    if where.backend == "sqlite":
        with contextlib.closing(sqlite3.connect(where.path)) as conn, conn:
            conn.execute("INSERT INTO timers (stream_id, timer_key, due_at, command, created_at)"
                         " VALUES (?, 'turn', ?, '{}', ?)", (stream_id, due_at, time.time()))  # fmt: skip
        return
    with psycopg.connect(where.conninfo, autocommit=True,
                         options=f"-c search_path={where.schema}") as conn:  # fmt: skip
        conn.execute("INSERT INTO timers (stream_id, timer_key, due_at, command)"
                     " VALUES (%s, 'turn', to_timestamp(%s), '{}')", (stream_id, due_at))  # fmt: skip


def test_timers_past_due_are_counted_and_red_once_the_oldest_is_five_seconds_late(
    url: str, store: EventStore
) -> None:
    look = StoreLook(url)
    assert checks.timer_figure(look).detail == "none due"
    add_timer(url, "t1", time.time() - 0.5)
    assert checks.timer_figure(look).state == "ok"
    add_timer(url, "t2", time.time() + 60)  # not due yet
    add_timer(url, "t3", time.time() - 6)
    figure = checks.timer_figure(look)
    assert figure.state == "red" and figure.detail.startswith("2 due, the oldest 6.")


def test_a_webhook_delivery_set_aside_is_red_and_one_retrying_is_a_warning(
    url: str, store: EventStore
) -> None:
    outbox = open_outbox(url)
    try:
        look = StoreLook(url)
        assert checks.webhook_figure(look).state == "ok"
        assert outbox.checkpoint("platform") == 0
        assert outbox.advance("platform", 0, 2, [NewDelivery("k1", 1, "t1", "hand_settled", b"{}"),
                                          NewDelivery("k2", 2, "t1", "hand_settled", b"{}")])  # fmt: skip
        first, second = sorted(outbox.claim_due(10, 30), key=lambda c: c.key)
        assert outbox.start(first.key, first.token, 30) and outbox.start(
            second.key, second.token, 30
        )
        outbox.failed("k2", second.token + SENDING, 503, "unavailable", retry_in=60)
        assert checks.webhook_figure(look).state == "warn"
        outbox.failed("k1", first.token + SENDING, 500, "boom", retry_in=None)
        figure = checks.webhook_figure(look)
        assert (figure.value, figure.state) == ("1", "red")
        assert figure.detail == "1 set aside, 1 retrying; last set aside: hand_settled (500: boom)"
    finally:
        outbox.close()


def test_commands_per_second_count_the_outcomes_recorded_between_two_looks(
    url: str, store: EventStore
) -> None:
    clock = [100.0]
    rate, look = checks.CommandRate(lambda: clock[0]), StoreLook(url)
    assert rate.figure(look).state == "unknown"  # one look: no rate yet
    for n in range(20):
        store.record_outcome(CommandOutcome(  # type: ignore[attr-defined]
            command_id=f"c{n}", table_id="t1", status="refused" if n < 5 else "accepted",
            code="not_your_turn" if n < 5 else None, actor_kind="seat", actor_seat=0))  # fmt: skip
    clock[0] = 104.0
    figure = rate.figure(look)
    assert (figure.value, figure.detail) == ("5.0", "5 of 20 refused in the last 4 s")


def test_the_queue_is_red_past_a_thousand_commands_waiting_and_redis_lists_are_counted() -> None:
    assert checks.depth_figure({"commands": 1000, "effects": 0}).state == "red"
    assert checks.depth_figure({"commands": 100}).state == "warn"
    assert checks.depth_figure(None).state == "unknown"
    prefix = f"paiju-dash-{time.time_ns()}:"
    client = redis.Redis(host="127.0.0.1", port=6379)
    try:
        client.rpush(f"{prefix}commands", "a", "b")
        client.rpush(f"{prefix}commands\x06\x163", "c")  # kombu's priority 3 list
        client.rpush(f"{prefix}effects", "d")
        settings = load_settings(broker_url="redis://127.0.0.1:6379/0", key_prefix=prefix)
        assert checks.queue_depths(settings) == {"commands": 3, "effects": 1, "maintenance": 0}
        assert checks.queue_figure(settings).detail == "commands 3, effects 1, maintenance 0"
    finally:
        for key in client.keys(f"{prefix}*"):
            client.delete(key)
        client.close()


def test_a_broker_that_does_not_answer_makes_the_queue_and_the_parts_red(tmp_path: Path) -> None:
    away = load_settings(broker_url="redis://127.0.0.1:1/0", store_url=f"sqlite:///{tmp_path}/s")
    open_store(away.store_url).close()
    queue = checks.queue_figure(away)
    assert (queue.state, queue.value) == ("red", "?") and "broker unreachable" in queue.detail
    parts = checks.parts_figure(health.assess(away))
    assert parts.state == "red" and parts.detail.startswith("broker: broker unreachable")
    here = checks.parts_figure(health.assess(load_settings(store_url=away.store_url)))
    assert (here.state, here.detail) == ("ok", "store and broker ok; no part has written a"
                                               " heartbeat here")  # fmt: skip


def test_a_look_whose_postgresql_connection_was_cut_reads_on_a_new_one_without_failing() -> None:
    with fresh_schema("dashboard") as schema:
        url = f"{PG_URL}?schema={schema}"
        open_store(url).close()
        look = StoreLook(url)
        ((pid,),) = look.rows("SELECT pg_backend_pid()")
        assert look.rows("SELECT pg_backend_pid()") == [(pid,)]  # one connection kept
        with psycopg.connect(look.where.conninfo, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            # the backend sends its termination notice before it exits: once it is gone,
            # the notice waits in the kept connection's socket
            for _ in range(200):
                if not admin.execute(
                    "SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)
                ).fetchall():
                    break
                time.sleep(0.01)
        ((again,),) = look.rows("SELECT pg_backend_pid()")
        assert again != pid
        look.close()
