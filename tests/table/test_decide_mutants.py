"""Opening a table and starting a hand (``services/rules/table/decide.py``), as the mutation run
found them held by no test (issue 28): a refusal names exactly what was wrong (the options a
variant knows, the tiles a given wall lacks or has too many of, the dice the variant rolls); a
hand dealt from a given wall and no seed takes its dice and dealer from that wall; and a variant
whose first seated player deals the series' first hand does so for that hand only.

Given an open table (``builders.Table``), when ``OpenTable`` or ``StartHand`` is decided, then the
events, or the reason the command is refused."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence

from services.rules.events import hand as ev
from services.rules.table import TableState, decide
from services.rules.table.commands import OpenTable, ReportDisconnect, StartHand
from services.rules.table.deal import random_seat, roll_dice
from services.rules.table.guards import CommandRejected
from services.rules.variants import VARIANTS
from services.rules.variants import versions as rv

from .builders import Table, wall_for

PLAYERS = ("east", "south", "west", "north")


def _refusal(table: TableState, command: OpenTable) -> str:
    try:
        decide(table, command)
    except CommandRejected as rejected:
        return rejected.reason
    raise AssertionError(f"{command!r} was accepted")


# -- the options a variant knows -------------------------------------------------------------------
def test_an_unknown_option_is_refused_naming_the_options_the_variant_knows() -> None:
    """A table sets only the variant's named options (rules README: "make it a named option in
    the variant's config"); an unknown one is refused, naming the ones the variant does know."""
    reason = _refusal(
        TableState(),
        OpenTable(table_id="t-1", variant="mudanjiang", players=PLAYERS, options={"bogus": True}),
    )
    assert reason == "unknown option(s) bogus for mudanjiang; known: require_ready"


def test_every_known_option_of_a_variant_is_named_when_another_is_refused() -> None:
    """塘沽's options are 二五八将 and counting a quad as two pairs (rules README, decision 10: 乱将
    is the default, 二五八将 an option): both are named to whoever asked for another."""
    reason = _refusal(
        TableState(),
        OpenTable(table_id="t-1", variant="tanggu", players=PLAYERS, options={"luan_jiang": True}),
    )
    assert reason == (
        "unknown option(s) luan_jiang for tanggu; known: pair_258_only, quad_as_two_pairs"
    )


# -- a given wall: exactly the variant's set -------------------------------------------------------
def _wall_refusal(variant: str, wall: Sequence[str]) -> str:
    return Table(variant).refuse(StartHand(wall=tuple(wall), dealer=0, dice=(3, 4)))


def test_a_wall_short_of_a_tile_is_refused_naming_the_missing_tile_and_no_extra() -> None:
    """A hand dealt from an explicit wall deals the variant's whole set (rules README: 牡丹江 has
    "112 (万饼条 + 4 红中)"); a wall one 9s short names 9s missing and nothing extra."""
    wall = list(wall_for("mudanjiang"))
    wall.remove("9s")
    assert _wall_refusal("mudanjiang", wall) == (
        "the wall must be the 112 tiles of 牡丹江麻将; missing 9s, extra none"
    )


def test_a_wall_with_a_tile_too_many_is_refused_naming_the_extra_tile_and_none_missing() -> None:
    """A fifth 1m is no tile of the 112 (four of each): it is named extra, nothing missing."""
    wall = [*wall_for("mudanjiang"), "1m"]
    assert _wall_refusal("mudanjiang", wall) == (
        "the wall must be the 112 tiles of 牡丹江麻将; missing none, extra 1m"
    )


def test_a_wall_with_one_tile_in_place_of_another_names_exactly_those_two() -> None:
    """A 9s written where a 7z (红中) belongs: 7z is missing and the fifth 9s is extra, and no
    other tile of the set is named."""
    wall = list(wall_for("mudanjiang"))
    wall[wall.index("7z")] = "9s"
    assert _wall_refusal("mudanjiang", wall) == (
        "the wall must be the 112 tiles of 牡丹江麻将; missing 7z, extra 9s"
    )


def test_a_wall_of_another_variants_set_names_what_it_lacks_and_what_it_has_too_many_of() -> None:
    """塘沽's 136 tiles (no flowers) are no 山东 wall (144, with 8 flowers): the 8 flowers are
    missing and nothing is extra."""
    reason = Table("shandong").refuse(
        StartHand(wall=wall_for("tanggu"), dealer=0, dice=(3, 4, 2, 5))
    )
    assert reason == (
        "the wall must be the 144 tiles of 山东麻将; missing 1f 2f 3f 4f 5f 6f 7f 8f, extra none"
    )


# -- a wall and no seed: the dice and the dealer come from the wall ---------------------------------
def test_a_hand_dealt_from_a_wall_without_a_seed_rolls_its_dice_and_draws_its_dealer_from_it() -> (
    None
):
    """A hand needs a seed or an explicit wall (``StartHand``: "in tests and disputes, an explicit
    wall"); with no seed, what the seed would decide (the dice, a random dealer: rules README,
    decision 13, 牡丹江 "a random dealer every hand") is drawn from the wall itself, so the same
    wall always deals the same hand."""
    wall = wall_for("mudanjiang", fill_first=["5p", "9m", "2s"])
    source = hashlib.sha256(" ".join(wall).encode()).hexdigest()
    nothing = hashlib.sha256(b"").hexdigest()
    expected = (roll_dice(source, 2), random_seat(source))
    assert expected != (roll_dice(nothing, 2), random_seat(nothing))  # the wall decides it
    (started, *_) = Table("mudanjiang").do(StartHand(wall=wall))
    assert isinstance(started, ev.HandStarted)
    assert (started.dice, started.dealer) == expected
    assert started.seed is None and started.wall == wall


# -- the dice the variant rolls ----------------------------------------------------------------------
def test_fewer_dice_than_the_variant_rolls_are_refused_naming_what_it_rolls() -> None:
    """牡丹江 rolls two dice (rules README, decision 15: the dealer takes first where "摇出筛子的点数"
    say); a throw of one die is refused."""
    reason = Table("mudanjiang").refuse(StartHand(wall=wall_for("mudanjiang"), dealer=0, dice=(3,)))
    assert reason == "牡丹江麻将 rolls 2 dice of 1–6, got [3]"


def test_more_dice_than_the_variant_rolls_are_refused() -> None:
    """牡丹江 rolls two dice, no more (rules README, decision 15): a third die is refused."""
    reason = Table("mudanjiang").refuse(
        StartHand(wall=wall_for("mudanjiang"), dealer=0, dice=(3, 4, 5))
    )
    assert reason == "牡丹江麻将 rolls 2 dice of 1–6, got [3, 4, 5]"


def test_a_die_showing_zero_is_refused() -> None:
    """A die shows 1 to 6: a 0 is no throw (nor a 7)."""
    table = Table("mudanjiang")
    for dice in ((0, 3), (3, 7)):
        reason = table.refuse(StartHand(wall=wall_for("mudanjiang"), dealer=0, dice=dice))
        assert reason == f"牡丹江麻将 rolls 2 dice of 1–6, got {list(dice)}"


def test_a_die_showing_one_is_a_throw() -> None:
    """The lowest face, 1, is a throw like any other (``003``: dice (1,1) are a roll that counts)."""
    (started, *_) = Table("mudanjiang").do(
        StartHand(wall=wall_for("mudanjiang"), dealer=0, dice=(1, 6))
    )
    assert isinstance(started, ev.HandStarted) and started.dice == (1, 6)


# -- the first seated player deals the series' first hand only ------------------------------------
class FirstSeatedDealsFirstThenAtRandom:
    """A dealer succession (``DealerSuccession``): the first seated player deals the series' first
    hand (as 塘沽's 定庄: 系统默认第一个入座并举手的玩家为第一局庄家), every later one is drawn from its
    hand's seed (as 牡丹江 after a win)."""

    def first_dealer(self) -> int | None:
        return 0

    def next_dealer(self, dealer: int, winners: Sequence[int], discarder: int | None) -> int | None:
        return None


FIRST_SEATED_FIRST = rv.ENGINE.derived(
    "paiju-rules/first-seated-test",
    "牡丹江: the first seated player deals a series' first hand",
    mudanjiang=dataclasses.replace(
        VARIANTS["mudanjiang"], dealers=FirstSeatedDealsFirstThenAtRandom()
    ),
)
SECOND_SEED = "second-hand-seed-3"


def test_the_first_seated_player_deals_only_the_series_first_hand() -> None:
    """``DealerSuccession.first_dealer``: "The seat that deals the series' first hand"; after it,
    a next dealer of None is "drawn from the next hand's seed" (rules README, decision 13). So the
    second hand of the series is dealt by the seat its seed draws, not by the first seated one."""
    assert random_seat(SECOND_SEED) != 0
    with rv.known_only(rv.ENGINE, FIRST_SEATED_FIRST, current=FIRST_SEATED_FIRST.id):
        table = Table("mudanjiang")
        for seat in range(4):  # 托管 plays every seat: the first hand plays out by itself
            table.do(ReportDisconnect(seat=seat))
        (first, *_) = table.do(StartHand(seed="first-hand-seed"))
        assert isinstance(first, ev.HandStarted) and first.dealer == 0
        assert table.state.hand_over and table.state.series.hands_in_series == 1
        assert table.last(ev.HandSettled).next_dealer is None
        (second, *_) = table.do(StartHand(seed=SECOND_SEED))
    assert isinstance(second, ev.HandStarted)
    assert second.dealer == random_seat(SECOND_SEED)
