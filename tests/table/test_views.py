"""``player_view``: what one seat may see, and nothing more; ``event_for``: each event as a seat
receives it."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table import decide, evolve
from services.rules.table.commands import DiscardTile, Kong
from services.rules.table.redact import event_for
from services.rules.table.views import player_view
from services.rules.tiles import to_string

from .builders import STD, VARIANTS, Table, concealed_kong_before_opening, play_out, tail_for


def std(variant: str, **kwargs) -> Table:
    table = Table(variant)
    table.start(STD, draws=["9m", "1p", "6p", "3s"], tail=tail_for(variant, ["6m", "4p"]), **kwargs)
    return table


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seat_sees_its_own_tiles_and_only_the_count_of_the_others(variant: str) -> None:
    table = std(variant)
    for viewer in (0, 1, 2, 3):
        seats = table.view(viewer)["hand"]["seats"]
        for index, seat in enumerate(seats):
            assert seat["tile_count"] == len(table.seat(index).hand)
            if index == viewer:
                assert seat["concealed"] == to_string(table.seat(index).concealed)
            else:
                assert seat["concealed"] is None and seat["drawn"] is None
    assert table.view(0)["hand"]["seats"][0]["drawn"] == "2m"
    for seat in table.view(None)["hand"]["seats"]:
        assert seat["concealed"] is None and seat["drawn"] is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_seat_sees_the_wall_or_the_seed(variant: str) -> None:
    table = std(variant)
    for viewer in (0, 1, 2, 3, None):
        hand = table.view(viewer)["hand"]
        assert "wall" not in hand and "seed" not in hand
    assert "wall" in player_view(table.state, None, operator=True)["hand"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_drawn_tile_is_seen_by_its_drawer_only(variant: str) -> None:
    table = std(variant)
    table.play(0, "7z")
    assert table.view(1)["hand"]["seats"][1]["drawn"] == "9m"
    for viewer in (0, 2, 3, None):
        assert table.view(viewer)["hand"]["seats"][1]["drawn"] is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_claim_window_shows_each_seat_its_own_options_and_no_other_answers(variant: str) -> None:
    table = std(variant)
    table.discard(0, "2m")
    table.pung(2)
    assert table.view(1)["hand"]["window"]["my_options"] == ["chi"]
    assert table.view(1)["hand"]["window"]["my_answer"] is None
    assert table.view(2)["hand"]["window"]["my_answer"] == "pong"
    for viewer in (0, 1, 3, None):
        window = table.view(viewer)["hand"]["window"]
        assert "answers" not in window and "options" not in window
        assert window["tile"] == "2m"


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_hand_is_laid_open_when_the_hand_ends(variant: str) -> None:
    table = std(variant)
    play_out(table)
    for viewer in (0, 1, 2, 3, None):
        for index, seat in enumerate(table.view(viewer)["hand"]["seats"]):
            assert seat["concealed"] == to_string(table.seat(index).concealed)


# -- 暗杠 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_concealed_kong_is_face_down_to_the_other_seats(variant: str) -> None:
    table = concealed_kong_before_opening(variant)
    assert table.view(0)["hand"]["seats"][0]["melds"][0]["tiles"] == "1111m"
    for viewer in (1, 2, 3, None):
        meld = table.view(viewer)["hand"]["seats"][0]["melds"][0]
        assert meld["tiles"] is None and meld["face_down"]


def _open_seat_zero(table: Table) -> None:
    table.play(0, "6m")  # seat 1 draws
    table.play(1, table.drawn(1))  # seat 2 draws 9p
    table.discard(2, "9p")
    table.pass_all(but=[0])
    table.pung(0)
    assert table.seat(0).is_open


def test_mudanjiang_shows_a_concealed_kong_once_its_owner_is_open() -> None:
    """Decision 4, ``000``: 开门后暗杠也要亮明."""
    table = concealed_kong_before_opening("mudanjiang")
    _open_seat_zero(table)
    for viewer in (1, 2, 3, None):
        assert table.view(viewer)["hand"]["seats"][0]["melds"][0]["tiles"] == "1111m"


@pytest.mark.parametrize("variant", ["harbin", "shandong", "shanghai", "tanggu"])
def test_other_variants_keep_a_concealed_kong_face_down_until_the_hand_ends(variant: str) -> None:
    """Decision 4, for 哈尔滨 ``001``: 碰或杠牌后必须亮明暗杠除外 (opened or not)."""
    table = concealed_kong_before_opening(variant)
    _open_seat_zero(table)
    for viewer in (1, 2, 3, None):
        assert table.view(viewer)["hand"]["seats"][0]["melds"][0]["tiles"] is None
    play_out(table)
    assert table.view(1)["hand"]["seats"][0]["melds"][0]["tiles"] == "1111m"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_concealed_kong_event_hides_its_tiles_from_the_other_seats(variant: str) -> None:
    table = Table(variant)
    table.start({0: "1111m234p567s99p8s7z"}, tail=tail_for(variant, ["6m"]))
    before = table.state
    declared = [
        e for e in decide(before, Kong(seat=0, tile="1m")) if isinstance(e, ev.KongDeclared)
    ][0]
    assert event_for(0, declared, before)["tiles"] == ["1m"] * 4
    for viewer in (1, 2, 3, "spectator"):
        assert event_for(viewer, declared, before)["tiles"] is None


# -- events as a seat receives them ----------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seat_receives_its_own_deal_and_draws_and_nobody_elses(variant: str) -> None:
    table = std(variant)
    table.play(0, "7z")
    state = Table(variant).state  # the table before each event: fold as we go
    for event in table.events:
        for viewer in (0, 1, 2, 3):
            payload = event_for(viewer, event, state)
            if isinstance(event, ev.TilesDealt):
                assert [h is not None for h in payload["hands"]] == [i == viewer for i in range(4)]
            if isinstance(event, ev.TileDrawn):
                assert (payload["tile"] is not None) == (event.seat == viewer)
            if isinstance(event, ev.HandStarted):
                assert payload["wall"] is None and payload["seed"] is None
            if isinstance(event, ev.BaoSetAside):
                assert payload["tile"] is None
        state = evolve(state, event)


def test_shandong_an_lou_is_not_announced_to_the_other_seats_in_the_event_stream() -> None:
    table = Table("shandong")
    table.start({0: "147p258s369p6z7z3s9s1m", 1: "123m789m789s11z46p"}, draws=["6z"])
    table.play(0, "1m")
    before = table.state
    discarded = decide(before, DiscardTile(seat=1, tile="6z", ready="hidden"))[0]
    assert event_for(1, discarded, before)["ready"] == "hidden"
    for viewer in (0, 2, 3, "spectator"):
        assert event_for(viewer, discarded, before).get("ready") is None
