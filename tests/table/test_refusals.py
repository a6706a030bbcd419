"""Illegal commands are refused with a reason and produce no events (``Table.refuse`` checks that
the state is unchanged)."""

from __future__ import annotations

import pydantic
import pytest

from services.rules.table import TableState, decide
from services.rules.table.commands import (
    Chow,
    DeclareHonourKong,
    DeclareWin,
    DiscardTile,
    Kong,
    OpenTable,
    PassClaim,
    Pung,
    RaiseWildPair,
    StartHand,
)
from services.rules.table.guards import CommandRejected

from .builders import STD, VARIANTS, Table, play_out, tail_for

ALL_SEAT_COMMANDS = [
    lambda s: DiscardTile(seat=s, tile="1m"),
    lambda s: Chow(seat=s, tiles=("2m", "3m")),
    lambda s: Pung(seat=s),
    lambda s: Kong(seat=s, tile="1m"),
    lambda s: DeclareWin(seat=s),
    lambda s: PassClaim(seat=s),
    lambda s: RaiseWildPair(seat=s),
    lambda s: DeclareHonourKong(seat=s, honours="dragons"),
]


def std(variant: str) -> Table:
    table = Table(variant)
    table.start(STD, draws=["9m", "1p", "6p", "3s"], tail=tail_for(variant, ["6m", "4p"]))
    return table


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seat_may_not_discard_out_of_turn(variant: str) -> None:
    table = std(variant)
    for seat in (1, 2, 3):
        assert "turn" in table.refuse(DiscardTile(seat=seat, tile="3s"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seat_may_not_discard_a_tile_it_does_not_hold(variant: str) -> None:
    table = std(variant)
    assert "does not hold 9s" in table.refuse(DiscardTile(seat=0, tile="9s"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_nobody_may_discard_while_a_claim_window_is_open(variant: str) -> None:
    table = std(variant)
    table.discard(0, "2m")
    for seat in range(4):
        assert "claim window" in table.refuse(DiscardTile(seat=seat, tile="3m"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_claims_not_offered_are_refused(variant: str) -> None:
    table = std(variant)
    table.discard(0, "2m")  # seat 1 may 吃, seat 2 may 碰
    assert "cannot 碰" in table.refuse(Pung(seat=1))
    assert "cannot 吃" in table.refuse(Chow(seat=2, tiles=("3m", "4m")))
    assert "cannot 明杠" in table.refuse(Kong(seat=2))
    assert "cannot 胡" in table.refuse(DeclareWin(seat=1))
    assert "no claim" in table.refuse(PassClaim(seat=3))
    assert "no claim" in table.refuse(PassClaim(seat=0))


@pytest.mark.parametrize("variant", VARIANTS)
def test_passing_with_no_window_open_is_refused(variant: str) -> None:
    table = std(variant)
    assert "no discard to claim" in table.refuse(PassClaim(seat=1))
    assert table.refuse(Pung(seat=1))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_self_drawn_win_needs_a_complete_hand(variant: str) -> None:
    table = std(variant)
    assert table.refuse(DeclareWin(seat=0))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_kong_needs_four_tiles_or_a_pong(variant: str) -> None:
    table = std(variant)
    assert "no four" in table.refuse(Kong(seat=0, tile="1m"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_kong_right_after_a_claim_is_refused_until_a_draw(variant: str) -> None:
    table = std(variant)
    table.discard(0, "2m")
    table.pass_(1)
    table.pung(2)
    assert "after drawing" in table.refuse(Kong(seat=2, tile="2m"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_command_is_refused_after_the_hand_has_ended(variant: str) -> None:
    table = std(variant)
    play_out(table)
    assert table.state.hand_over
    for make in ALL_SEAT_COMMANDS:
        for seat in range(4):
            reason = table.refuse(make(seat))
            assert "ended" in reason or "风头杠" in reason


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_seat_command_is_refused_before_a_hand_starts(variant: str) -> None:
    table = Table(variant)
    for make in ALL_SEAT_COMMANDS:
        reason = table.refuse(make(0))
        assert "no hand" in reason or "风头杠" in reason


def test_nothing_but_opening_is_accepted_on_a_table_that_is_not_open() -> None:
    state = TableState()
    for command in [
        StartHand(seed="some-seed-1"),
        DiscardTile(seat=0, tile="1m"),
        PassClaim(seat=1),
    ]:
        with pytest.raises(CommandRejected, match="not open"):
            decide(state, command)


def test_a_table_is_opened_once() -> None:
    table = Table("harbin")
    assert "already open" in table.refuse(
        OpenTable(table_id="t-1", variant="harbin", players=("a", "b", "c", "d"))
    )


def test_an_unknown_variant_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(CommandRejected, match="harbin"):
        decide(
            TableState(), OpenTable(table_id="t-2", variant="sichuan", players=("a", "b", "c", "d"))
        )


def test_a_hand_needs_a_seed_or_a_wall() -> None:
    table = Table("harbin")
    assert "seed" in table.refuse(StartHand())


def test_seats_and_tiles_outside_the_game_do_not_even_make_a_command() -> None:
    with pytest.raises(pydantic.ValidationError):
        DiscardTile(seat=4, tile="1m")
    with pytest.raises(pydantic.ValidationError):
        DiscardTile(seat=0, tile="0m")
    with pytest.raises(pydantic.ValidationError):
        Chow(seat=1, tiles=("2m",))


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "shandong", "shanghai"])
def test_commands_of_another_variant_are_refused(variant: str) -> None:
    table = std(variant)
    assert table.refuse(RaiseWildPair(seat=0))
    assert "风头杠" in table.refuse(DeclareHonourKong(seat=0, honours="winds"))
