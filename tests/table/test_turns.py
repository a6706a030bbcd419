"""Drawing, discarding, 吃 (from the previous seat only), 碰, 明杠, 暗杠 and 补杠, in every variant.

Given the standard deal of ``builders.STD`` (seat 0 deals), when a seat acts, then these events.
"""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table.commands import Chow, DiscardTile, Kong
from services.rules.tiles import names

from .builders import STD, VARIANTS, Table, tail_for

DRAWS = ["9m", "1p", "6p", "3s", "5m", "8p"]


def std_table(
    variant: str, replacements: list[str] | None = None, draws: list[str] | None = None, **kwargs
) -> Table:
    table = Table(variant)
    table.start(
        STD,
        draws=draws if draws is not None else DRAWS,
        tail=tail_for(variant, replacements or ["6m", "4p"]),
        **kwargs,
    )
    return table


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_discard_nobody_can_claim_passes_the_turn_to_the_next_seat_who_draws_from_the_head(
    variant: str,
) -> None:
    table = std_table(variant)
    events = table.discard(0, "7z")
    assert [type(e) for e in events] == [ev.TileDiscarded, ev.TileDrawn]
    assert events[1].seat == 1 and events[1].tile == "9m" and not events[1].from_tail
    assert names(table.seat(0).discards) == ["7z"] and len(table.seat(0).hand) == 13
    assert table.hand.turn == 1 and table.drawn(1) == "9m" and table.hand.window is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_play_goes_round_the_table_in_turn_order(variant: str) -> None:
    table = std_table(variant)
    table.play(0, "7z")
    table.play(1, "9m")
    assert table.hand.turn == 2 and table.drawn(2) == "1p"
    table.play(2, "1p")
    assert table.hand.turn == 3 and table.drawn(3) == "6p"


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_dealer_discards_first_without_drawing(variant: str) -> None:
    table = std_table(variant)
    assert table.hand.turn == 0 and table.drawn(0) == "2m" and table.hand.head == 53
    assert table.refuse(DiscardTile(seat=1, tile="3m")).startswith("it is seat 0's turn")


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seat_may_discard_any_tile_it_holds_not_only_the_drawn_one(variant: str) -> None:
    table = std_table(variant)
    table.play(0, "8s")
    assert table.drawn(1) == "9m"
    table.discard(1, "3s")
    assert "9m" in names(table.seat(1).concealed) and table.seat(1).drawn is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_chow_is_offered_only_to_the_seat_after_the_discarder(variant: str) -> None:
    table = std_table(variant)
    # seat 2 holds 7s and 9s but is not seat 0's next seat: no 吃 for it
    events = table.discard(0, "8s")
    assert (
        table.hand.window is None and isinstance(events[-1], ev.TileDrawn) and events[-1].seat == 1
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_chow_takes_the_previous_seats_discard_into_a_run_and_the_claimer_discards_next(
    variant: str,
) -> None:
    table = std_table(variant)
    table.discard(0, "2m")
    assert "chi" in table.options_of(1) and "pong" in table.options_of(2)
    table.pass_(2)
    events = table.chow(1, "34m")
    claimed = table.of_type(ev.TileClaimed, events)
    assert (
        len(claimed) == 1
        and claimed[0].kind == "chi"
        and claimed[0].seat == 1
        and claimed[0].from_seat == 0
    )
    seat = table.seat(1)
    assert [names(m.tiles) for m in seat.melds] == [["2m", "3m", "4m"]] and seat.melds[
        0
    ].from_seat == 0
    assert table.seat(0).discards == ()  # the claimed tile leaves the discarder's pile
    assert (
        table.hand.turn == 1
        and table.hand.step == "discard"
        and seat.drawn is None
        and len(seat.hand) == 11
    )
    table.play(1, "3s")
    assert table.hand.turn == 2 and table.drawn(2) == "9m"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_chow_with_tiles_that_make_no_run_is_refused(variant: str) -> None:
    table = std_table(variant)
    table.discard(0, "2m")
    assert table.refuse(Chow(seat=1, tiles=("5m", "6m")))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_chow_never_joins_nine_to_one(variant: str) -> None:
    """003: …构成筒、条、万的三张连续牌（…“九”和“一”不连）: 9p with 12p is no run."""
    table = std_table(variant)
    events = table.discard(0, "9p")  # seat 1 holds 1p 2p, and nobody may 碰 9p
    assert [type(e) for e in events] == [ev.TileDiscarded, ev.TileDrawn]  # no claim window
    assert events[1].seat == 1
    assert table.refuse(Chow(seat=1, tiles=("1p", "2p")))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_pong_beats_a_chow_on_the_same_discard(variant: str) -> None:
    table = std_table(variant)
    table.discard(0, "2m")
    table.chow(1, "34m")
    assert table.hand.step == "claims"  # the window waits for seat 2's answer
    events = table.pung(2)
    claimed = table.of_type(ev.TileClaimed, events)
    assert [(c.seat, c.kind) for c in claimed] == [(2, "pong")]
    assert table.seat(1).melds == () and len(table.seat(1).hand) == 13
    assert [names(m.tiles) for m in table.seat(2).melds] == [["2m", "2m", "2m"]]
    assert table.hand.turn == 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_pong_passes_the_turn_on_from_the_claimer_skipping_the_seats_between(
    variant: str,
) -> None:
    table = std_table(variant)
    table.discard(0, "2m")
    table.pass_(1)
    table.pung(2)
    table.play(2, "4s")
    assert table.hand.turn == 3 and table.drawn(3) == "9m"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_melded_kong_takes_its_replacement_from_the_tail(variant: str) -> None:
    table = std_table(variant, replacements=["6m", "4p"])
    table.discard(0, "3p")
    assert set(table.options_of(3)) >= {"kong", "pong"}
    table.pass_(1)
    events = table.kong(3)
    claimed = table.of_type(ev.TileClaimed, events)
    assert [(c.seat, c.kind, c.tiles) for c in claimed] == [(3, "kong", ("3p", "3p", "3p"))]
    drawn = table.of_type(ev.TileDrawn, events)
    assert [(d.seat, d.tile, d.from_tail) for d in drawn] == [(3, "6m", True)]
    assert table.hand.turn == 3 and table.drawn(3) == "6m"
    assert [m.kind for m in table.seat(3).melds] == ["kong"] and len(table.seat(3).hand) == 11
    table.play(3, "6m")
    assert table.hand.turn == 0 and table.drawn(0) == "9m"  # play resumes after the konger


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_kong_on_a_discard_names_the_discarded_tile_or_nothing(variant: str) -> None:
    table = std_table(variant)
    table.discard(0, "3p")
    assert "not 4p" in table.refuse(Kong(seat=3, tile="4p"))
    table.pass_(1)
    table.kong(3, "3p")
    assert table.seat(3).melds[0].kind == "kong"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_concealed_kong_on_ones_own_turn_draws_a_replacement(variant: str) -> None:
    table = Table(variant)
    hands = dict(STD)
    hands[0] = "1111m234p567s99p8s7z"  # four 1m, the fourth dealt last
    hands[2] = "22m99m567p12s4s789s"
    hands[1] = "345m678m2m2p45p3s6s9s"
    table.start(hands, draws=DRAWS, tail=tail_for(variant, ["6m"]))
    events = table.kong(0, "1m")
    declared = table.of_type(ev.KongDeclared, events)
    assert [(k.kind, k.tiles) for k in declared] == [("concealed_kong", ("1m",) * 4)]
    drawn = table.of_type(ev.TileDrawn, events)
    assert [(d.seat, d.tile, d.from_tail) for d in drawn] == [(0, "6m", True)]
    assert table.seat(0).melds[0].kind == "concealed_kong" and not table.seat(0).is_open
    assert table.hand.window is None and table.hand.turn == 0 and table.drawn(0) == "6m"


def _pong_then_draw_the_fourth(variant: str) -> Table:
    """Seat 2 pongs seat 0's 2m; a round later seat 2 draws the fourth 2m."""
    table = std_table(variant, draws=["9m", "1p", "6p", "2m"], replacements=["6m", "4p"])
    table.discard(0, "2m")
    table.pass_(1)
    table.pung(2)
    table.play(2, "4s")  # seat 3 draws 9m
    table.play(3, "9m")  # seat 0 draws 1p
    table.play(0, "1p")  # seat 1 draws 6p
    table.play(1, "6p")  # seat 2 draws 2m
    assert table.hand.turn == 2 and table.drawn(2) == "2m"
    return table


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_added_kong_extends_a_pong_with_the_drawn_fourth_tile_and_draws_a_replacement(
    variant: str,
) -> None:
    table = _pong_then_draw_the_fourth(variant)
    events = table.kong(2, "2m")
    declared = table.of_type(ev.KongDeclared, events)
    assert [(k.kind, k.tiles) for k in declared] == [("added_kong", ("2m",))]
    assert [(d.seat, d.tile, d.from_tail) for d in table.of_type(ev.TileDrawn, events)] == [
        (2, "6m", True)
    ]
    melds = table.seat(2).melds
    assert [(m.kind, names(m.tiles), m.from_seat) for m in melds] == [("added_kong", ["2m"] * 4, 0)]
    assert len(table.seat(2).hand) == 11 and table.hand.turn == 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_added_kong_needs_a_pong_of_that_tile(variant: str) -> None:
    table = _pong_then_draw_the_fourth(variant)
    assert "no 碰" in table.refuse(Kong(seat=2, tile="9m"))
    assert table.refuse(Kong(seat=2))  # no tile named


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_melded_pong_may_not_be_konged_from_a_later_discard(variant: str) -> None:
    """Tanggu says it outright (如果是另一家打出的一张相同的牌，就不可再开杠了); it holds everywhere."""
    table = std_table(variant, draws=["9m", "1p", "2m"], replacements=["6m", "4p"])
    table.discard(0, "2m")
    table.pass_(1)
    table.pung(2)
    table.play(2, "4s")  # seat 3 draws 9m
    table.play(3, "9m")  # seat 0 draws 1p
    table.play(0, "1p")  # seat 1 draws 2m
    table.discard(1, "2m")
    assert "kong" not in table.options_of(2) and "pong" not in table.options_of(2)
