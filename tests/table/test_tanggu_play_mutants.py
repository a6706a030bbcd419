"""塘沽 shapes the table asks about while playing, held where the mutation run of
``services/rules/variants/tanggu_play.py`` found no test: which hands are in 混钓 (and so may
上大台), and which single waits may be announced as 独抱 (004: 只“和”坎张或单钓将).

Hands are dealt through the engine (``tanggu_table``: 混 = 3z and 4z unless another indicator is
given); a few shapes that need exposed sets are asked of ``dubao_wait`` directly."""

from __future__ import annotations

from services.rules.melds import Meld
from services.rules.table.commands import DiscardTile, RaiseWildPair
from services.rules.tiles import parse_tiles, tile
from services.rules.variants import get_variant
from services.rules.variants.tanggu_play import dubao_wait, in_hun_diao

from .builders import Table, tanggu_table

DEALER = "147p258s369p6z7z1s2z"  # 13; the 14th is the tile seat 0 throws first
TANGGU = get_variant("tanggu")


def _seat_one_about_to_declare(hand: str, indicator: str = "3z", first: str = "1m") -> Table:
    """Seat 1 holds ``hand``, has drawn 6z and is to discard it (declaring 听 with it or not)."""
    table = tanggu_table({0: DEALER + first, 1: hand}, draws=["6z"], indicator=indicator)
    table.play(0, first)
    assert table.hand.turn == 1 and table.drawn(1) == "6z"
    return table


def _dubao_refused(hand: str, indicator: str = "3z", first: str = "1m") -> str:
    """The reason 独抱 is refused to seat 1 holding ``hand``; a plain 听 is taken, so the hand
    is ready and only its wait keeps it from 独抱."""
    table = _seat_one_about_to_declare(hand, indicator, first)
    reason = table.refuse(DiscardTile(seat=1, tile="6z", ready="dubao"))
    table.discard(1, "6z", ready="plain")
    assert table.seat(1).ready == "plain"
    return reason


def _wildcards(text: str) -> frozenset[int]:
    return frozenset(parse_tiles(text))


# -- 混钓 and 上大台 ---------------------------------------------------------------------------
def test_tanggu_a_hand_holding_every_honour_and_a_hun_is_not_in_hun_diao() -> None:
    """“上大台”：“混”钓过程中，如果钓上的“将”牌仍为“混”，可报出“上大台” (004): only a hand in 混钓
    may 上大台. Seven single honours beside a 混 (混 = 9m and 1m) are no four sets and a lone 混,
    and with no honour left to stand for the pair the hand is simply not in 混钓."""
    hand = "1234567z258p36s1m"  # 1m is a 混
    assert not in_hun_diao(tuple(parse_tiles(hand)), _wildcards("9m1m"))
    table = tanggu_table({0: DEALER + "5m", 1: hand}, draws=["9m"], indicator="9m")
    table.play(0, "5m")
    assert table.drawn(1) == "9m"  # a drawn 混
    assert "混钓" in table.refuse(RaiseWildPair(seat=1))


def test_tanggu_two_hun_beside_an_honour_pair_are_no_hun_diao() -> None:
    """“混”钓：以“混”为将牌，单钓“将” (004): taking one 混 away must leave sets only. Beside
    11z, the two 混 of 123m456m789p11z + 3z3z make no such hand (11z is the pair, the two 混 wait
    for a third suited tile), so a drawn 混 gives no 上大台."""
    hand = "123m456m789p11z3z3z"
    assert not in_hun_diao(tuple(parse_tiles(hand)), _wildcards("3z4z"))
    table = tanggu_table({0: DEALER + "1m", 1: hand}, draws=["4z"])
    table.play(0, "1m")
    assert table.drawn(1) == "4z"
    assert "混钓" in table.refuse(RaiseWildPair(seat=1))


# -- 独抱: the wait must be one tile ------------------------------------------------------------
def test_tanggu_du_bao_is_refused_when_the_lower_of_two_waits_is_a_kanzhang() -> None:
    """独抱：只“和”坎张或单钓将 (004): 1113m waits on 2m (11m and the 坎张 of 123m) and on 3m
    (111m and 33m). Two tiles are no 独抱, whichever of them would be a 坎张."""
    assert "独抱" in _dubao_refused("1113m111z222z555z")


def test_tanggu_du_bao_is_refused_to_a_hand_waiting_only_on_the_hun_kinds() -> None:
    """独抱：只“和”坎张或单钓将 (004), and “混”可以在牌中代替任何一张“万”“饼”“条”: with 混 = 3m
    and 4m, 12m waits on 3m, which is a 混, and a drawn 混 completes any ready hand. The hand is
    ready (a plain 听 is taken) but has no natural tile of its own to announce 独抱 on."""
    assert "独抱" in _dubao_refused("12m456p789p111z55z", indicator="3m", first="5m")


# -- 独抱: one tile, but no 坎张 and no 单钓 --------------------------------------------------------
def test_tanggu_du_bao_is_refused_on_a_single_edge_wait() -> None:
    """独抱：只“和”坎张或单钓将 (004): 12m waits on 3m alone, a 边张: neither the middle of a run
    nor the pair, so it is no 独抱 though it is the one tile the hand waits on."""
    assert "独抱" in _dubao_refused("123p456p789p11z12m")


def test_tanggu_du_bao_is_refused_on_a_double_edge_wait_below_the_pair() -> None:
    """独抱：只“和”坎张或单钓将 (004): 11223m waits on 3m alone (123m 123m), the pair being 66z;
    3m is neither in the middle of a run nor the pair."""
    assert "独抱" in _dubao_refused("11223m111z222z66z")


def test_tanggu_du_bao_is_refused_on_a_double_edge_wait_above_the_pair() -> None:
    """独抱：只“和”坎张或单钓将 (004): 1178899m waits on 7m alone (789m 789m), the pair being 11m;
    7m is neither in the middle of a run nor the pair."""
    assert "独抱" in _dubao_refused("1178899m111z222z")


def test_tanggu_du_bao_is_refused_on_a_triplet_wait_whose_other_side_is_dead() -> None:
    """独抱：只“和”坎张或单钓将 (004): after 吃 567s, 888m77789s11z waits only on 1z, every 7s
    being held; 1z makes a 刻 of 11z (77s then the pair), which is neither a 坎张 nor a 单钓."""
    table = tanggu_table({0: DEALER + "6s", 1: "888m77789s11z57s9p"})
    table.discard(0, "6s")
    table.pass_all(but=[1])
    table.chow(1, "57s")
    assert [(m.kind, m.tiles) for m in table.seat(1).melds] == [("chi", tuple(parse_tiles("567s")))]
    assert "独抱" in table.refuse(DiscardTile(seat=1, tile="9p", ready="dubao"))
    table.discard(1, "9p", ready="plain")
    assert table.seat(1).ready == "plain"


def test_a_hun_filling_the_side_of_a_run_makes_no_kanzhang_for_du_bao() -> None:
    """独抱：只“和”坎张或单钓将 (004); a 坎张 is the middle of a run between two natural tiles
    (the scorer's kan_zhang). With 混 = 6m and 7m, 碰 999m, 吃 345p and 吃 567p, the hand 9m 55p
    and a 混 waits only on 8m (7m is a 混, every 9m and 5p is held); 8m sits between the 混 and
    9m, so it is no 坎张, and no 单钓 either (55p is the pair)."""
    melds = (
        Meld("pong", tuple(parse_tiles("999m")), tile("9m"), 2),
        Meld("chi", tuple(parse_tiles("345p")), tile("3p"), 0),
        Meld("chi", tuple(parse_tiles("567p")), tile("6p"), 0),
    )
    concealed = tuple(sorted(parse_tiles("9m6m55p")))
    assert dubao_wait(concealed, melds, _wildcards("6m7m"), TANGGU) is None


# -- 独抱 on a 单钓 that the hand can also read otherwise --------------------------------------------
def test_tanggu_du_bao_may_be_declared_on_a_dan_diao_whose_tile_is_also_held_in_a_run() -> None:
    """“如果有一手牌已全部组成三张组，而将牌的一对只有一张，这时要进的形成和牌的第十四张牌称之为
    ‘单吊将’” and 独抱：只“和”坎张或单钓将 (004). 1233m111z222z555z is 123m 111z 222z 555z and a
    lone 3m: its only wait, 3m, is a 单吊将, so 独抱 may be announced."""
    hand = "1233m111z222z555z"
    assert dubao_wait(tuple(parse_tiles(hand)), (), _wildcards("3z4z"), TANGGU) == tile("3m")
    table = _seat_one_about_to_declare(hand)
    table.discard(1, "6z", ready="dubao")
    assert table.seat(1).ready == "dubao"
