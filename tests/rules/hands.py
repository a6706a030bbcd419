"""Builders the scoring tests share: melds and win contexts from mpsz strings, random wins."""

from __future__ import annotations

from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from services.rules.melds import Meld, MeldKind
from services.rules.scoring.base import WinContext
from services.rules.tiles import parse_tiles, tile


def meld(kind: MeldKind, text: str, from_seat: int | None = None) -> Meld:
    """A meld from its tiles; an 暗杠 claims nothing from anybody."""
    tiles = tuple(parse_tiles(text))
    if kind == "concealed_kong":
        return Meld("concealed_kong", tiles)
    return Meld(kind, tiles, tiles[0], from_seat)


def win_context(
    variant: str, concealed: str, win_tile: str, *, discarder: int | None = None, **kw: Any
) -> WinContext:
    """A win: self-drawn unless a discarder (or the robbed seat of 抢杠) is named."""
    return WinContext(
        variant=variant,
        concealed=tuple(parse_tiles(concealed)),
        melds=kw.pop("melds", ()),
        win_tile=tile(win_tile),
        self_drawn=discarder is None and not kw.get("robbed_kong", False),
        seat=kw.pop("seat", 0),
        dealer=kw.pop("dealer", 0),
        discarder=discarder,
        **kw,
    )


_set = st.one_of(
    st.integers(0, 33).map(lambda t: [t, t, t]),
    st.tuples(st.integers(0, 2), st.integers(0, 6)).map(
        lambda sr: [sr[0] * 9 + sr[1] + k for k in range(3)]
    ),
)


@st.composite
def winning_hands(draw: st.DrawFn) -> list[int]:
    """Four sets and a pair, no kind more than four times."""
    tiles = [t for group in draw(st.lists(_set, min_size=4, max_size=4)) for t in group]
    pair = draw(st.integers(0, 33))
    tiles += [pair, pair]
    assume(all(tiles.count(t) <= 4 for t in set(tiles)))
    return tiles
