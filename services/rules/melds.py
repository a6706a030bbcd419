"""Exposed and concealed sets: 吃, 碰, 明杠, 补杠, 暗杠."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from services.rules.tiles import Tile

MeldKind = Literal["chi", "pong", "kong", "added_kong", "concealed_kong"]
MELD_KINDS: tuple[MeldKind, ...] = ("chi", "pong", "kong", "added_kong", "concealed_kong")


@dataclass(frozen=True, slots=True)
class Meld:
    """A set laid down beside the hand.

    ``claimed`` is the discarded tile taken for it (None for 暗杠), ``from_seat`` the seat
    that discarded it; an 补杠 keeps the seat that fed the original 碰.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    claimed: Tile | None = None
    from_seat: int | None = None

    @property
    def is_triplet_like(self) -> bool:
        """A 刻 for the 听 conditions: 碰 and every kong."""
        return self.kind != "chi"

    @property
    def opens_hand(self) -> bool:
        """开门: 吃, 碰, 明杠 and 补杠 open the hand; an 暗杠 does not."""
        return self.kind != "concealed_kong"

    @property
    def tile(self) -> Tile:
        """The lowest tile: the run's start, or the triplet's kind."""
        return self.tiles[0]


def meld_tiles_valid(kind: MeldKind, tiles: tuple[Tile, ...]) -> str | None:
    """Why these tiles are not a meld of this kind, or None when they are."""
    if kind == "chi":
        if len(tiles) != 3:
            return "a chi has three tiles"
        a, b, c = sorted(tiles)
        if a >= 27 or a // 9 != c // 9 or (b, c) != (a + 1, a + 2):
            return "a chi is three consecutive tiles of one suit"
        return None
    size = 3 if kind == "pong" else 4
    if len(tiles) != size:
        return f"a {kind} has {size} tiles"
    if len(set(tiles)) != 1:
        return f"a {kind} is {size} copies of one tile"
    if tiles[0] >= 34:
        return "flowers form no sets"
    return None
