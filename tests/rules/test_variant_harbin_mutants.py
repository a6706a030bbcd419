"""哈尔滨's config (``services/rules/variants/harbin.py``) held through the rules that read it:
the values its mutants changed and no test of ``tests/rules`` noticed (issue 28)."""

from __future__ import annotations

from services.rules.table.claims import winning_claims
from services.rules.table.rulings import rulings
from services.rules.table.state import Claim, ClaimWindow
from services.rules.tiles import tile
from services.rules.variants import get_variant
from tests.table.builders import Table, tail_for

HARBIN = get_variant("harbin")


def test_harbin_has_no_double_win_on_one_discard_the_nearest_winner_takes_it() -> None:
    # 001: 没有一炮双响。如果同时存在2个玩家胡牌按照逆时针方向顺序在前者有优先权。截胡
    # Seat 3 discards 5p; seats 1 and 0 both win on it: seat 0, the nearer, alone takes it.
    win = Claim("win")
    window = ClaimWindow(
        tile=tile("5p"),
        from_seat=3,
        options=((0, ("win",)), (1, ("win",))),
        answers=((1, win), (0, win)),
    )
    assert winning_claims(HARBIN, window) == [(0, win)]


# Seat 1 pongs 1m from seat 0, then 5p and 9s from seat 2: 10 concealed tiles, then 7, then 4
# (23s 7z 9m). Then seat 0 draws and throws ``thrown``: 1s, which seat 1 could 吃 with its 23s,
# or 4p, which seat 2 may 碰 (so that the table waits on claims).
SEAT1 = "11m55p99s23s7z9m4m8p6s"


def _pongs_then(count: int, thrown: str = "1s") -> Table:
    table = Table("harbin")
    seat0 = "1m1s" + "2p3p" + "7p8p" + "1p" + "5s7s" + "8s" + "3m" + "6m" + "2p" + "7z"
    table.start(
        {0: seat0, 1: SEAT1, 2: "5p9s4m7m2m5m8m3m6m9m4p4p2s"},
        draws=["3s", "3s", "6p", "6p", thrown, "1m"],
        tail=tail_for("harbin", ["8m"]),
    )
    table.discard(0, "1m")
    table.pass_all(but=[1])
    table.pung(1)
    table.play(1, "4m")  # seat 2 draws 3s
    table.discard(2, "5p")
    table.pass_all(but=[1])
    table.pung(1)
    table.play(1, "8p")  # seat 2 draws 3s
    if count == 2:
        table.play(2, "9s")  # seat 3 draws 6p
        table.play(3, "6p")  # seat 0 draws 6p
        table.discard(0, "1s")  # dealt to it
        assert len(table.seat(1).concealed) == 7
        return table
    table.discard(2, "9s")
    table.pass_all(but=[1])
    table.pung(1)
    table.play(1, "6s")  # seat 2 draws 6p
    assert len(table.seat(1).concealed) == 4 and len(table.seat(1).melds) == 3
    table.play(2, "6p")  # seat 3 draws 6p
    table.play(3, "6p")  # seat 0 draws the tile it throws
    table.discard(0, thrown)
    return table


def test_harbin_a_seat_left_with_four_concealed_tiles_may_not_chow_a_tile_it_could_use() -> None:
    # 001: 最后最少要有4张牌才可上听。（系统自动限制剩4个牌后不可以吃碰杠操作）
    assert _pongs_then(3).options_of(1) == ()


def test_harbin_tells_a_seat_with_four_concealed_tiles_that_five_are_needed_to_claim() -> None:
    # 001: 系统自动限制剩4个牌后不可以吃碰杠操作: four are too few, and the rulings say so.
    table = _pongs_then(3, "4p")
    assert table.options_of(2) == ("pong",)
    for claim in rulings(table.state, 1).claims:
        if claim.kind != "win":
            assert not claim.offered
            assert claim.blocker == "only 4 concealed tiles: no 吃碰杠 with fewer than 5"


def test_harbin_a_seat_with_seven_concealed_tiles_may_still_chow() -> None:
    table = _pongs_then(2)
    assert "chi" in table.options_of(1)
