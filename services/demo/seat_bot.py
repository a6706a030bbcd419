"""A bot that plays from what its seat is told over the API: its view and its legal commands.

A platform's bot sees no engine state, only ``GET …/view`` (``player_view``: its own tiles,
every discard and meld shown) and ``GET …/legal`` (what the table would accept from it now).
So it chooses among the legal commands only, steering by 向听 (``services.rules.shanten``) as
``services.bots.winning_bot`` does with the whole state: 胡 whenever offered, 上大台 and
风头杠 when offered, 听 as soon as it may, otherwise the discard that stays fewest steps from
ready with the most useful draws; a claim (碰 吃 杠) only when it brings the hand closer.
"""

from __future__ import annotations

import random
from typing import Any

from services.rules.shanten import after_each_draw, counts_of, shanten
from services.rules.tiles import NUM_KINDS, Tile, parse_tiles, tile
from services.rules.variants import get_variant

Json = dict[str, Any]
NOT_MOVES = {"request_autoplay", "cancel_autoplay", "leave_table"}  # a seat's, not a move
READY_MODES = ("hidden", "plain", "open", "dubao")  # the 听 a bot prefers, in order


def moves(legal: list[Json]) -> list[Json]:
    """The legal commands that are moves of the hand (not 托管 or leaving)."""
    return [c for c in legal if c["command"] not in NOT_MOVES]


def choose(view: Json, seat: int, legal: list[Json], rng: random.Random) -> Json | None:
    """The command this seat gives now, or None when it has no move to make. A seat its
    turn timer put in 超时托管 takes its seat back first (取消托管), as a player who was away a
    moment does: else each later turn gives it only the short 托管 window."""
    presence = (view.get("presence") or [{}] * 4)[seat]
    if presence.get("autoplay") == "timeout":
        cancel = [c for c in legal if c["command"] == "cancel_autoplay"]
        if cancel:
            return cancel[0]
    found = moves(legal)
    if not found:
        return None
    by: dict[str, list[Json]] = {}
    for command in found:
        by.setdefault(command["command"], []).append(command)
    for name in ("declare_win", "raise_wild_pair", "declare_honour_kong"):
        if name in by:
            return by[name][0]
    hand = _Hand.of(view, seat)
    if "pass_claim" in by:
        window = (view.get("hand") or {}).get("window") or {}
        offered = tile(window["tile"]) if window.get("tile") else None
        return _answer_claim(hand, found, by["pass_claim"][0], offered)
    if "kong" in by and hand.ready is None:
        for kong in by["kong"]:
            if hand.kong_keeps_steps(kong):
                return kong
    discards = by.get("discard_tile", [])
    if not discards:
        return rng.choice(found)
    ready = [d for d in discards if d.get("ready")]
    if ready:
        return min(ready, key=lambda d: READY_MODES.index(d["ready"]) if d["ready"] in READY_MODES else 9)
    return min(discards, key=lambda d: (*hand.after_discard(tile(d["tile"])), rng.random()))


class _Hand:
    """The seat's own tiles as its view shows them, and how far each choice leaves it."""

    def __init__(self, tiles: list[Tile], melds: int, wild: frozenset[Tile], pairs: bool,
                 ready: str | None) -> None:  # fmt: skip
        self.tiles, self.melds, self.wild, self.pairs, self.ready = tiles, melds, wild, pairs, ready

    @classmethod
    def of(cls, view: Json, seat: int) -> _Hand:
        hand = view.get("hand") or {}
        me = (hand.get("seats") or [{}] * 4)[seat]
        tiles = parse_tiles(me.get("concealed") or "")
        if me.get("drawn"):
            tiles.append(tile(me["drawn"]))
        wild = frozenset(tile(t) for t in hand.get("wildcards") or [])
        pairs = get_variant(view["variant"]).seven_pairs
        return cls(tiles, len(me.get("melds") or []), wild, pairs, me.get("ready"))

    def steps(self, tiles: list[Tile], melds: int) -> int:
        counts, wild = counts_of(tiles, self.wild)
        return shanten(counts, melds, self.pairs, wild)

    def after_discard(self, t: Tile) -> tuple[int, int]:
        """(steps from ready, minus the useful draws) once ``t`` is gone: smaller is better."""
        rest = _without(self.tiles, t)
        counts, wild = counts_of(rest, self.wild)
        base = shanten(counts, self.melds, self.pairs, wild)
        after = after_each_draw(counts, self.melds, self.pairs, wild)
        useful = sum(1 for k in range(NUM_KINDS) if (s := after[k]) is not None and s < base)
        return base + (10 if t in self.wild else 0), -useful

    def kong_keeps_steps(self, kong: Json) -> bool:
        t = tile(kong["tile"]) if kong.get("tile") else None
        if t is None or t not in self.tiles:
            return False
        concealed = self.tiles.count(t) == 4  # else 补杠 onto a 碰: no new set
        rest = _without(self.tiles, *([t] * (4 if concealed else 1)))
        return self.steps(rest, self.melds + (1 if concealed else 0)) <= self.steps(self.tiles, self.melds)

    def after_claim(self, taken: list[Tile], melds: int) -> int:
        """Steps from ready after a claim that takes ``taken`` from the hand and the best
        discard that follows it."""
        rest = _without(self.tiles, *taken)
        if not rest:
            return self.steps(rest, melds)
        return min(self.steps(_without(rest, t), melds) + (10 if t in self.wild else 0) for t in set(rest))


def _answer_claim(hand: _Hand, found: list[Json], pass_claim: Json, offered: Tile | None) -> Json:
    ready = [c for c in found if c["command"] in ("pung", "chow") and c.get("ready")]
    if ready:
        return ready[0]  # 吃听
    before = hand.steps(hand.tiles, hand.melds)
    best: tuple[int, int] | None = None
    chosen = pass_claim
    for command in found:
        name = command["command"]
        if name == "kong" and offered is not None and hand.tiles.count(offered) >= 3:
            after, order = hand.steps(_without(hand.tiles, *[offered] * 3), hand.melds + 1), 0
        elif name == "pung" and offered is not None and hand.tiles.count(offered) >= 2:
            after, order = hand.after_claim([offered, offered], hand.melds + 1), 1
        elif name == "chow":
            after, order = hand.after_claim([tile(t) for t in command["tiles"]], hand.melds + 1), 2
        else:
            continue
        if (after < before or (after == before and order == 0)) and (best is None or (after, order) < best):
            best, chosen = (after, order), command
    return chosen


def _without(tiles: list[Tile], *remove: Tile) -> list[Tile]:
    rest = list(tiles)
    for t in remove:
        if t in rest:
            rest.remove(t)
    return rest
