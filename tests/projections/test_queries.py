"""Queries: a player's 积分 and history from the live build, paged and bounded, and a read
that waits for the caller's own write or says how far behind the read model is."""

from __future__ import annotations

import threading

import pytest
from projection_kit import play_series

from events.store import open_store
from readmodels import points_queries, queries
from readmodels.db import open_projection_db
from readmodels.points import Points
from readmodels.runner import Projector
from services.rules.table.commands import StartHand
from services.tables import TableService

PLAYERS = ("ann", "bo", "cy", "di")


def test_a_balance_is_the_sum_of_the_players_history_read_page_by_page(url: str) -> None:
    store = open_store(url)
    state = play_series(store, "t1", "shanghai", PLAYERS, hands=3, leaver=2)
    db = open_projection_db(url)
    projector = Projector(store, db, [Points()])
    projector.attach()
    projector.catch_up()
    for seat, player in enumerate(PLAYERS):
        balance = points_queries.balance(db, player)
        assert balance.points == state.series.scores[seat]
        assert balance.position == store.last_position()  # type: ignore[attr-defined]
        lines, page = [], 1
        while True:
            found = points_queries.history(db, player, page=page, size=2)
            lines += found.items
            if not found.more:
                break
            page += 1
        assert len(lines) == balance.lines == len({(x.position, x.seat) for x in lines})
        assert sum(x.amount for x in lines) == balance.points
        assert [x.position for x in lines] == sorted((x.position for x in lines), reverse=True)
        assert lines[0].balance == balance.points  # newest first: its balance is the current


def test_a_player_no_table_has_paid_has_nothing(url: str) -> None:
    store = open_store(url)
    db = open_projection_db(url)
    Projector(store, db, [Points()]).attach()
    assert points_queries.balance(db, "zoe").points == 0
    assert points_queries.history(db, "zoe").items == []


@pytest.mark.parametrize("page, size", [(0, 10), (1, 0), (1, 201), ("2", 10), (1, 2.5)])
def test_a_bad_page_is_refused_naming_what_was_wrong(url: str, page: object, size: object) -> None:
    db = open_projection_db(url)
    with pytest.raises(queries.QueryError, match="page"):
        points_queries.history(db, "ann", page=page, size=size)  # type: ignore[arg-type]


def test_a_read_before_any_projector_ran_says_there_is_no_build(url: str) -> None:
    db = open_projection_db(url)
    with pytest.raises(queries.ReadModelBehind, match="no build yet"):
        points_queries.balance(db, "ann")


def test_a_read_with_min_position_sees_the_commands_own_write(url: str) -> None:
    store = open_store(url)
    play_series(store, "t1", "harbin", PLAYERS, hands=1)
    db = open_projection_db(url)
    projector = Projector(open_store(url), open_projection_db(url), [Points()], idle_seconds=0.2)
    stop = threading.Event()
    thread = threading.Thread(target=projector.run, args=(stop,))
    thread.start()
    try:
        done = TableService(store).handle("t1", StartHand(), command_id="t1/deal-again")
        position = done.events[-1].position  # type: ignore[union-attr]
        view_position = queries.query(db, Points(), lambda v: v.position, min_position=position)
        assert view_position >= position
        later = play_series(store, "t2", "harbin", PLAYERS, hands=1, seed=3)
        position = store.last_position()  # type: ignore[attr-defined]
        balance = points_queries.balance(db, "ann", min_position=position)
        assert balance.position >= position
        assert balance.lines == 2  # t1's first hand and t2's: both read
        assert later.series.scores[0] in {x.amount for x in points_queries.history(db, "ann").items}
    finally:
        stop.set()
        thread.join(30)


def test_a_read_the_read_model_has_not_reached_says_how_far_behind(url: str) -> None:
    store = open_store(url)
    play_series(store, "t1", "harbin", PLAYERS, hands=1)
    db = open_projection_db(url)
    Projector(store, db, [Points()]).attach()  # a build at position 0, and no projector running
    head = store.last_position()  # type: ignore[attr-defined]
    with pytest.raises(
        queries.ReadModelBehind, match=rf"at position 0, asked for {head} \({head} behind\)"
    ):
        queries.query(db, Points(), lambda v: v.position, min_position=head, wait_seconds=0.2)


def test_a_read_of_a_stopped_projection_says_where_it_stopped_without_waiting(url: str) -> None:
    store = open_store(url)
    play_series(store, "t1", "harbin", PLAYERS, hands=1)
    db = open_projection_db(url)
    build = db.ensure_live(Points())
    db.record_error("points", build.build, 7, "stopped at position 7: ValueError: no rule")
    with pytest.raises(queries.ReadModelBehind, match="stopped at position 7"):
        queries.query(db, Points(), lambda v: v.position, min_position=5, wait_seconds=60)
