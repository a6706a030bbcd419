"""Who may claim a discard, and what: 哈尔滨 keeps five concealed tiles (no 吃碰杠 when only 4
concealed tiles remain), a kong's tile is robbed only to win (抢杠胡), and 吃听 may be claimed
from any seat while a plain 吃 is the 下家's alone."""

from __future__ import annotations

import pytest

from services.rules.melds import Meld
from services.rules.table.claims import claim_options
from services.rules.table.state import HandState, patch
from services.rules.tiles import parse_tiles, tile

from .builders import BAO_VARIANTS, VARIANTS, Table, tail_for

DEALER_QUIET = "147p258s369p4s5m6m8m"  # seat 0's 13 quiet tiles; its 14th is the tile it throws
READY_BY_CHI = "23m555p789s11s46p9m"  # 吃 1m with 23m, throw 9m: waits on 5p (and 1s)
MELDS = (
    Meld("pong", tuple(parse_tiles("111s")), tile("1s"), 2),
    Meld("pong", tuple(parse_tiles("999s")), tile("9s"), 2),
    Meld("pong", tuple(parse_tiles("555s")), tile("5s"), 3),
)


def options_with(variant: str, concealed: str, melds: int, robbing: bool = False) -> tuple:
    """Seat 1's options on seat 0's 5p, seat 1 holding ``concealed`` and that many 碰."""
    table = Table(variant)
    table.start({0: DEALER_QUIET + "1m"}, tail=tail_for(variant))
    hand = table.hand
    seat = patch(hand.seat(1), concealed=tuple(sorted(parse_tiles(concealed))), melds=MELDS[:melds])
    changed: HandState = hand.with_seat(1, seat)
    return claim_options(table.state, changed, 1, 0, tile("5p"), robbing)


def test_harbin_no_claim_is_offered_when_only_four_concealed_tiles_remain() -> None:
    """哈尔滨: 手中只剩4张牌时不能吃碰杠 — min_concealed_to_claim, counted before the claim."""
    assert options_with("harbin", "5p5p4p6p", melds=3) == ()
    assert {"pong", "chi"} <= set(options_with("harbin", "5p5p4p6p1m1m7z", melds=2))


@pytest.mark.parametrize("variant", ["mudanjiang", "shandong", "shanghai"])
def test_elsewhere_four_concealed_tiles_may_still_claim(variant: str) -> None:
    assert {"pong", "chi"} <= set(options_with(variant, "5p5p4p6p", melds=3))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_kongs_tile_is_robbed_only_to_win(variant: str) -> None:
    """抢杠: the tile of an 补杠 may be taken for 胡 alone, never for 吃, 碰 or 杠."""
    assert options_with(variant, "5p5p5p4p6p9m7z", melds=2, robbing=True) == ()
    assert {"pong", "kong", "chi"} <= set(options_with(variant, "5p5p5p4p6p9m7z", melds=2))


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_chi_ting_is_offered_to_any_seat_but_a_plain_chow_to_the_next_only(variant: str) -> None:
    """吃听 is claimed from any seat (decision 2's classes); a plain 吃 only from the 上家."""
    table = Table(variant)
    table.start({0: DEALER_QUIET + "1m", 2: READY_BY_CHI}, draws=["8p"], tail=tail_for(variant))
    table.discard(0, "1m")
    assert table.options_of(2) == ("ready_chi",)
