"""What happens to one seat's tiles when it discards, claims, kongs or replaces a flower."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from services.rules.melds import Meld, MeldKind
from services.rules.table.state import HandState, ReadyMode, SeatState, patch
from services.rules.tiles import Tile
from services.rules.tiles import tile as parse_tile

if TYPE_CHECKING:
    from services.rules.events.hand import Win


def _remove(tiles: Iterable[Tile], remove: Iterable[Tile]) -> tuple[Tile, ...]:
    rest = list(tiles)
    for t in remove:
        rest.remove(t)
    return tuple(rest)


def without_last(discards: tuple[Tile, ...], t: Tile) -> tuple[Tile, ...]:
    """The discards once the claimed tile is taken: its latest copy, which need not be the last
    tile of the pile (换宝 may have put the old 宝 there meanwhile)."""
    index = len(discards) - 1 - discards[::-1].index(t)
    return discards[:index] + discards[index + 1 :]


def take_from_hand(seat: SeatState, remove: Iterable[Tile]) -> SeatState:
    """Take tiles out of the hand; what is left of the drawn tile joins the concealed ones."""
    rest = _remove(seat.hand, remove)
    return patch(seat, concealed=tuple(sorted(rest)), drawn=None)


def replace_flower(seat: SeatState, flower: Tile, replacement: Tile) -> SeatState:
    if seat.drawn == flower:
        return patch(seat, drawn=replacement, flowers=seat.flowers + (flower,))
    concealed = tuple(sorted(_remove(seat.concealed, (flower,)) + (replacement,)))
    return patch(seat, concealed=concealed, flowers=seat.flowers + (flower,))


def discard(seat: SeatState, tile: Tile, ready: ReadyMode | None, is_wildcard: bool) -> SeatState:
    # 摸打 (the drawn tile straight out) leaves the sorted concealed tiles as they are
    concealed = seat.concealed if tile == seat.drawn else tuple(sorted(_remove(seat.hand, (tile,))))
    return patch(
        seat,
        concealed=concealed,
        drawn=None,
        discards=seat.discards + (tile,),
        ready=ready if ready is not None else seat.ready,
        must_ready=False,
        xianggong=seat.xianggong or is_wildcard,
        has_discarded=True,
    )


def claim(
    seat: SeatState, kind: str, tile: Tile, used: tuple[Tile, ...], from_seat: int, ready: bool
) -> SeatState:
    meld_kind: MeldKind = "chi" if kind == "chi" else ("pong" if kind == "pong" else "kong")
    meld = Meld(meld_kind, tuple(sorted(used + (tile,))), tile, from_seat)
    seat = take_from_hand(seat, used)
    return patch(seat, melds=seat.melds + (meld,), must_ready=ready)


def declare_kong(seat: SeatState, kind: str, tiles: tuple[Tile, ...]) -> tuple[SeatState, Meld]:
    """暗杠 and 风头杠 take tiles from the hand; 补杠 adds one to its 碰."""
    if kind == "added_kong":
        index = next(i for i, m in enumerate(seat.melds) if m.kind == "pong" and m.tile == tiles[0])
        pong = seat.melds[index]
        meld = Meld("added_kong", pong.tiles + (tiles[0],), pong.claimed, pong.from_seat)
        seat = take_from_hand(seat, (tiles[0],))
        melds = seat.melds[:index] + (meld,) + seat.melds[index + 1 :]
        return patch(seat, melds=melds), meld
    meld_kind: MeldKind = "kong" if kind == "dragon_kong" else "concealed_kong"
    meld = Meld(meld_kind, tuple(sorted(tiles)))
    seat = take_from_hand(seat, tiles)
    return patch(seat, melds=seat.melds + (meld,)), meld


def take_wins(hand: HandState, wins: Iterable[Win]) -> HandState:
    """The claimed tile joins the nearest winner's hand, from the discards or a robbed 补杠.

    On 一炮多响 every winner scores the same discard, but the one tile goes to the first.
    """
    for win in wins:
        if win.self_drawn or win.discarder is None:
            continue  # the drawn tile is already in the hand
        tile = parse_tile(win.tile)
        if win.robbed_kong:
            hand = _unrob(hand, win.discarder, tile)
        else:
            feeder = hand.seat(win.discarder)
            hand = hand.with_seat(
                win.discarder, patch(feeder, discards=without_last(feeder.discards, tile))
            )
        seat = hand.seat(win.seat)
        return hand.with_seat(
            win.seat, patch(seat, concealed=tuple(sorted(seat.concealed + (tile,))))
        )
    return hand


def _unrob(hand: HandState, konger: int, tile: Tile) -> HandState:
    """抢杠: the 补杠 falls back to a 碰; the robbed tile goes to the winner."""
    seat = hand.seat(konger)
    kong = hand.pending_kong
    if kong is None:
        return hand
    pong = Meld("pong", kong.tiles[:3], kong.claimed, kong.from_seat)
    melds = tuple(pong if m == kong else m for m in seat.melds)
    return patch(hand.with_seat(konger, patch(seat, melds=melds)), pending_kong=None)
