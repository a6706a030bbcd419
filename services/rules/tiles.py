"""Tiles in mpsz notation and the tile sets of the variants.

A tile kind is an int: 0–8 万 (``1m``–``9m``), 9–17 饼 (``p``), 18–26 条 (``s``),
27–33 字 (``1z``–``7z``: 东 南 西 北 白 发 中), 34–41 花 (``1f``–``8f``: 春 夏 秋 冬 梅 兰 竹 菊).
The order of the ints is the order a client sorts a hand in.
"""

from __future__ import annotations

from collections.abc import Iterable

Tile = int

SUITS = "mpsz"
NUM_KINDS = 34  # every kind that can be part of a winning hand
NUM_KINDS_WITH_FLOWERS = 42
RED_DRAGON: Tile = 33  # 红中, 7z
HONOURS = range(27, 34)
WINDS = range(27, 31)
DRAGONS = range(31, 34)
FLOWERS = range(34, 42)

_SUIT_OFFSET = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}


class TileParseError(ValueError):
    """A tile string that is not mpsz notation; the message names what is wrong."""


def tile(text: str) -> Tile:
    """One tile from its two-character name, e.g. ``"5m"`` or ``"7z"``."""
    known = _BY_NAME.get(text)
    if known is not None:
        return known
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise TileParseError(f"expected one tile, got {len(tiles)} in {text!r}")
    return tiles[0]


def parse_tiles(text: str) -> list[Tile]:
    """Tiles from a hand string such as ``"11s88m789m222p345s"`` (digits before their suit)."""
    if not isinstance(text, str):
        raise TileParseError(f"a hand must be a string of mpsz tiles, got {type(text).__name__}")
    tiles: list[Tile] = []
    digits: list[str] = []
    for position, char in enumerate(text.replace(" ", "")):
        if char in "0123456789":  # not str.isdigit: it takes '²', which int() refuses
            digits.append(char)
            continue
        if char not in _SUIT_OFFSET:
            raise TileParseError(
                f"unknown character {char!r} at position {position} in {text!r}; "
                "tiles are digits followed by one of m, p, s, z, f"
            )
        if not digits:
            raise TileParseError(
                f"suit letter {char!r} at position {position} has no digits before it in {text!r}"
            )
        for digit in digits:
            rank = int(digit)
            if not 1 <= rank <= _SUIT_SIZE[char]:
                raise TileParseError(
                    f"{digit}{char} is not a tile (ranks of {char} run 1–{_SUIT_SIZE[char]}) in {text!r}"
                )
            tiles.append(_SUIT_OFFSET[char] + rank - 1)
        digits = []
    if digits:
        raise TileParseError(
            f"digits {''.join(digits)!r} at the end of {text!r} have no suit letter"
        )
    return tiles


def name(t: Tile) -> str:
    """The mpsz name of one tile kind."""
    if not 0 <= t < NUM_KINDS_WITH_FLOWERS:
        raise ValueError(f"{t} is not a tile kind")
    return _NAMES[t]


def names(tiles: Iterable[Tile]) -> list[str]:
    return [name(t) for t in tiles]


def to_string(tiles: Iterable[Tile]) -> str:
    """A compact hand string, sorted, digits grouped before their suit: ``"11s88m"`` style."""
    out: list[str] = []
    run_suit = ""
    for t in sorted(tiles):
        text = name(t)
        if text[1] != run_suit and run_suit:
            out.append(run_suit)
        run_suit = text[1]
        out.append(text[0])
    if run_suit:
        out.append(run_suit)
    return "".join(out)


def is_terminal(t: Tile) -> bool:
    """幺九: a 1 or 9 of a suit."""
    return t < 27 and t % 9 in (0, 8)


def is_flower(t: Tile) -> bool:
    return t >= 34


def counts_of(tiles: Iterable[Tile], size: int = NUM_KINDS_WITH_FLOWERS) -> list[int]:
    counts = [0] * size
    for t in tiles:
        counts[t] += 1
    return counts


def tile_set(kinds: Iterable[Tile], copies: int = 4, flowers: bool = False) -> tuple[Tile, ...]:
    """Every physical tile of a set, kinds repeated ``copies`` times, plus one of each flower."""
    tiles = [t for t in kinds for _ in range(copies)]
    if flowers:
        tiles.extend(FLOWERS)
    return tuple(tiles)


SUITED_KINDS = tuple(range(27))
ALL_KINDS = tuple(range(NUM_KINDS))

_NAMES: tuple[str, ...] = tuple(
    f"{t - _SUIT_OFFSET[suit] + 1}{suit}"
    for t in range(NUM_KINDS_WITH_FLOWERS)
    for suit in (
        "f" if t >= 34 else "z" if t >= 27 else "s" if t >= 18 else "p" if t >= 9 else "m",
    )
)
_BY_NAME: dict[str, Tile] = {text: t for t, text in enumerate(_NAMES)}
