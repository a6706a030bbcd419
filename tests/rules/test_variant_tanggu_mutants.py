"""塘沽's config (``services/rules/variants/tanggu.py``) held through the rules that read it: the
values its mutants changed and no test of ``tests/rules`` noticed (issue 28)."""

from __future__ import annotations

from services.rules.table.claims import winning_claims
from services.rules.table.state import Claim, ClaimWindow
from services.rules.tiles import tile
from services.rules.variants import get_variant

TANGGU = get_variant("tanggu")


def test_tanggu_has_no_double_win_on_one_discard_the_nearest_winner_takes_it() -> None:
    # decision 2: Only Shandong and Shanghai allow several winners on one discard (一炮多响);
    # elsewhere the nearest winner takes it (截胡). Seat 2 discards 5p; seats 1 and 0 both win
    # on it: seat 0, the nearer in turn order, alone takes it.
    win = Claim("win")
    window = ClaimWindow(
        tile=tile("5p"),
        from_seat=2,
        options=((3, ("pong",)), (0, ("win",)), (1, ("win",))),
        answers=((3, Claim("pass")), (1, win), (0, win)),
    )
    assert winning_claims(TANGGU, window) == [(0, win)]
