"""What a viewer may not know at a point of a hand, and a search for it in what it was sent.

The facts kept from a viewer are computed from the true state, not from what the redaction
code says: every other seat's concealed and drawn tiles (unless laid open by 明楼), their
face-down 暗杠 (decision 4: 哈尔滨 always, 牡丹江 until the seat has opened), the wall, the 宝
before the viewer's 听 and, until ``seed_revealed``, the hand's seed. After the hand has ended
only the wall and the unrevealed seed stay secret.

The search does not trust the shape of what was sent: it walks the whole JSON and reads every
string that is mpsz tiles (a field name, a seat number or a player name is not). Tiles are
kinds, not pieces, so a tile is a leak only beyond what is public: if a viewer may know of two
5m, one shown 5m may be either; a third is a leak. Two bounds follow:

- a **view** lists every tile the seat may know exactly once (the claim window's tile, which
  lies in a discard pile too, and the 混 kinds, which name kinds rather than pieces, excepted),
  so all the tiles it shows together must fit in what the seat may know; and the checker is
  tight: an honest view shows exactly that, so any hidden tile added anywhere breaks it;
- an **event** may mention a public tile in several fields (two winners on one discard), so
  each field on its own must fit: a leaked hand, wall or 暗杠 overflows at once, and a leaked
  single tile as soon as the viewer may know of no piece of its kind.

The seed is searched for as text anywhere in what was sent. ``leak_checker`` adds the secrets
that are not tiles (who a claim window asked, a silent 听, the room and player events).
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from services.rules.table.deal import full_set
from services.rules.table.state import TableState
from services.rules.tiles import Tile, TileParseError, names, parse_tiles

Viewer = int | None  # a seat, or None for a spectator
Place = tuple[tuple[str, ...], tuple[Tile, ...]]  # where in what was sent, and the tiles there
NAMES_KINDS = frozenset({"wildcards"})  # 塘沽's 混: the kinds named, shown to all
KONG_FACES_SHOWN_WHEN_OPEN = frozenset({"mudanjiang"})
"""Decision 4: 牡丹江 shows an 暗杠 once the seat has opened (``000``: 开门后暗杠也要亮明); 哈尔滨
never does (``001``: 碰或杠牌后必须亮明暗杠除外), nor do the others. Written out here rather than
read from the variant config, so that a wrong config is caught, not agreed with."""


@dataclass(frozen=True)
class Secrets:
    """What one viewer may not know at one point: tiles (multisets of kinds) and the seed."""

    hidden: Counter[Tile]
    known: Counter[Tile]
    seed: str | None


def hidden_tiles(state: TableState, viewer: Viewer) -> Counter[Tile]:
    """The tiles kept from ``viewer`` in ``state``, by where they truly lie."""
    hand = state.hand
    if hand is None:
        return Counter()
    hidden = Counter(hand.wall[hand.head : hand.tail])
    if hand.indicator_index is not None and hand.head <= hand.indicator_index < hand.tail:
        hidden[hand.wall[hand.indicator_index]] -= 1  # 塘沽: the 混 indicator lies face up
    if hand.step == "ended":
        return hidden
    for index, seat in enumerate(hand.seats):
        if index == viewer:
            continue
        if not seat.shown:
            hidden.update(seat.concealed)
        if seat.drawn is not None:
            hidden[seat.drawn] += 1
        if not (state.variant_id in KONG_FACES_SHOWN_WHEN_OPEN and seat.is_open):
            for meld in seat.melds:
                if meld.kind == "concealed_kong":
                    hidden.update(meld.tiles)
    if hand.bao is not None and (viewer is None or hand.seat(viewer).ready is None):
        hidden[hand.bao] += 1
    return hidden


def _same_hand(before: TableState, after: TableState) -> bool:
    """A new hand's deal is judged by the hand it deals, not by the table before it."""
    return (
        before.hand is not None
        and after.hand is not None
        and before.hand.number == after.hand.number
    )


def secrets(before: TableState, after: TableState, viewer: Viewer, seed: str | None) -> Secrets:
    """What ``viewer`` may not learn from the step ``before`` -> ``after``: what was hidden from
    it on both sides (a tile drawn by another seat; not the tile it discards; the first event
    of a hand: what is hidden after it)."""
    hidden = hidden_tiles(after, viewer)
    if _same_hand(before, after):
        hidden &= hidden_tiles(before, viewer)
    table = after if after.opened else before
    everything = Counter(full_set(table.variant.config)) if table.opened else Counter()
    return Secrets(hidden=hidden, known=everything - hidden, seed=seed)


@functools.cache
def _tiles_in(value: str) -> tuple[Tile, ...] | None:
    """The tiles a string names, or None if it is not mpsz tiles (cached: strings recur)."""
    if not value or not any(c.isdigit() for c in value):
        return None
    try:
        return tuple(parse_tiles(value))
    except TileParseError:
        return None


def tile_fields(shown: Any, path: tuple[str, ...] = ()) -> Iterator[Place]:
    """Every place in ``shown`` that names tiles: a tile string, or a list of them, with its path."""
    if isinstance(shown, str):
        tiles = _tiles_in(shown)
        if tiles:
            yield path, tiles
    elif isinstance(shown, dict):
        for key, value in shown.items():
            yield from tile_fields(value, (*path, str(key)))
    elif isinstance(shown, list | tuple):
        parts = [_tiles_in(v) if isinstance(v, str) else None for v in shown]
        if shown and all(p is not None for p in parts):
            yield path, tuple(t for p in parts for t in p or ())
        else:
            for index, value in enumerate(shown):
                yield from tile_fields(value, (*path, str(index)))


def _overflow(seen: Counter[Tile], known: Counter[Tile]) -> list[str]:
    """The tiles of ``seen`` beyond ``known``, by name (empty: none)."""
    return names(sorted((seen - known).elements()))


def _seed_places(shown: Any, seed: str, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every place in ``shown`` whose text holds ``seed`` (a key or a value)."""
    if isinstance(shown, dict):
        for key, value in shown.items():
            if seed in str(key):
                yield (*path, str(key))
            else:
                yield from _seed_places(value, seed, (*path, str(key)))
    elif isinstance(shown, list | tuple):
        for index, value in enumerate(shown):
            yield from _seed_places(value, seed, (*path, str(index)))
    elif seed in json.dumps(shown, ensure_ascii=False):
        yield path


Found = tuple[str, str]
"""A leak in what was sent: the field it is in (the top-level name; "" for none) and what."""


def _seed_leak(shown: Any, seed: str | None) -> list[Found]:
    if not seed or seed not in json.dumps(shown, ensure_ascii=False):
        return []
    places = list(_seed_places(shown, seed)) or [()]
    return [
        (p[0] if p else "", f"{'.'.join(p)} shows the unrevealed seed {seed!r}") for p in places
    ]


def _names_kinds(path: tuple[str, ...]) -> bool:
    return any(part in NAMES_KINDS for part in path)


def _field_leaks(fields: list[Place], facts: Secrets) -> list[Found]:
    found = []
    for path, tiles in fields:
        over = _overflow(Counter(tiles), facts.known)
        if over and not _names_kinds(path):
            found.append((path[0] if path else "", f"{'.'.join(path)} shows {over}"))
    return found


def event_leaks(shown: dict[str, Any], facts: Secrets) -> list[Found]:
    """Each field of a sent event must name no more of a kind than the viewer may know of."""
    return _seed_leak(shown, facts.seed) + _field_leaks(list(tile_fields(shown)), facts)


WINDOW_TILE = ("hand", "window", "tile")  # the discard under claim, in its pile already


def view_total(fields: list[Place]) -> Counter[Tile]:
    """Every tile a view shows, once each: the window's tile, the 混 kinds and the wins (which
    repeat the winners' hands once the hand has ended) left out."""
    total: Counter[Tile] = Counter()
    for path, tiles in fields:
        if path != WINDOW_TILE and not _names_kinds(path) and "wins" not in path:
            total.update(tiles)
    return total


def view_leaks(view: dict[str, Any], facts: Secrets, tight: bool = False) -> list[str]:
    """A view's tiles together must fit in what the seat may know (and, field by field, too).

    ``tight``: mid-hand, an honest view shows exactly what the seat may know; anything less
    means this search misreads the view (and would miss what it misreads), so it is reported.
    """
    fields = list(tile_fields(view))
    found = [what for _, what in _seed_leak(view, facts.seed) + _field_leaks(fields, facts)]
    total = view_total(fields)
    over = _overflow(total, facts.known)
    if over:
        found.append(f"the view shows {over} beyond what the seat may know")
    if tight and not over and total != facts.known:
        missing = _overflow(facts.known, total)
        found.append(f"the search is off: the view shows less than the seat may know: {missing}")
    return found
