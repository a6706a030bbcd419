"""牡丹江's config (``services/rules/variants/mudanjiang.py``) held through the rules that read it:
the values its mutants changed and no test of ``tests/rules`` noticed (issue 28)."""

from __future__ import annotations

from services.rules.melds import Meld
from services.rules.table.claims import winning_claims
from services.rules.table.state import Claim, ClaimWindow, SeatState
from services.rules.table.visibility import concealed_kong_faces_shown
from services.rules.tiles import parse_tiles
from services.rules.variants import get_variant

MUDANJIANG = get_variant("mudanjiang")


def _tiles(text: str) -> tuple[int, ...]:
    return tuple(parse_tiles(text))


def test_mudanjiang_has_no_double_win_on_one_discard_the_nearest_winner_takes_it() -> None:
    # 000: 没有一炮双响。如果同时存在2个玩家胡牌，按照逆时针方向顺序在前者有优先权。
    # Seat 1 discards 5p; seats 3 and 2 both win on it: seat 2, the nearer, alone takes it.
    win = Claim("win")
    window = ClaimWindow(
        tile=_tiles("5p")[0],
        from_seat=1,
        options=((2, ("win",)), (3, ("win",)), (0, ("pong",))),
        answers=((3, win), (2, win), (0, Claim("pass"))),
    )
    assert winning_claims(MUDANJIANG, window) == [(2, win)]


def test_mudanjiang_shows_a_concealed_kong_once_its_seat_has_opened() -> None:
    # 000: 开门后暗杠也要亮明 (decision 4): 如果暗杠前已经"开门"了，则暗杠明示.
    kong = Meld("concealed_kong", _tiles("1111m"))
    pong = Meld("pong", _tiles("999p"), _tiles("9p")[0], 2)
    closed = SeatState(melds=(kong,))
    opened = SeatState(melds=(kong, pong))
    assert not concealed_kong_faces_shown(MUDANJIANG, closed)
    assert concealed_kong_faces_shown(MUDANJIANG, opened)
