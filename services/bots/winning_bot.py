"""The winning bot: plays every hand to win, so that the settlement paths get exercised.

It chooses among ``play_commands`` only, so it can never ask for what the rules refuse:

- it wins whenever it may (自摸, 点炮, 抢杠), lays 风头杠 and raises 上大台 (塘沽) when offered;
- it declares 听 as soon as it may, with the discard that leaves the most live waits
  (山东: 暗楼 mostly, 明楼 sometimes; 塘沽: 独抱 sometimes when offered); it takes 吃听;
- otherwise it discards to stay fewest steps from ready (向听), most useful draws next,
  keeping what the 听 conditions of the 宝 variants need (幺九/红中, a second suit);
- it claims 碰/吃/明杠 when the claim brings it closer to ready, or opens the hand at no
  cost where 听 needs an open hand; it kongs on its own turn when the hand is no worse for it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from services.bots.random_bot import NoLegalCommand
from services.rules.shanten import after_each_draw, counts_of, shanten
from services.rules.table.commands import (
    Chow,
    Command,
    DeclareHonourKong,
    DeclareWin,
    DiscardTile,
    Kong,
    PassClaim,
    Pung,
    RaiseWildPair,
)
from services.rules.table.legal import play_commands
from services.rules.table.state import HandState, SeatState, TableState
from services.rules.table.winning import hand_waits
from services.rules.tiles import NUM_KINDS, RED_DRAGON, Tile, tile
from services.rules.variants import Variant, VariantConfig

OPEN_READY_SHARE = 0.2  # 山东: how often 听 is 明楼 rather than 暗楼
DUBAO_SHARE = 0.35  # 塘沽: how often 独抱 is taken when offered
RAISE_SHARE = 0.7  # 塘沽: how often 上大台 is taken when offered


def winning_command(table: TableState, seat: int, rng: random.Random) -> Command:
    """The command a player who wants to win would give now."""
    commands = play_commands(table, seat)
    if not commands:
        raise NoLegalCommand(f"seat {seat} must act but has no legal command")
    hand = table.hand
    assert hand is not None
    raises = [c for c in commands if isinstance(c, RaiseWildPair)]
    if raises and rng.random() < RAISE_SHARE:
        return raises[0]  # 上大台 before the win it could take: +5 each time, twice at most
    for command in commands:
        if isinstance(command, DeclareWin):
            return command
    honour = [c for c in commands if isinstance(c, DeclareHonourKong)]
    if honour:
        return honour[0]
    if hand.step in ("claims", "rob"):
        return _answer_claim(table, hand, seat, commands)
    kong = _good_kong(table.variant.config, hand, seat, [c for c in commands if isinstance(c, Kong)])
    if kong is not None:
        return kong
    discards = [c for c in commands if isinstance(c, DiscardTile)]
    if not discards:
        return rng.choice(commands)
    return _discard(table.variant, hand, seat, discards, rng)


# ---------------------------------------------------------------- what a seat can see


def unseen(hand: HandState, seat: int) -> list[int]:
    """Copies of each kind not in view of ``seat`` (its hand, discards, melds shown)."""
    left = [4] * NUM_KINDS
    me = hand.seat(seat)
    for t in me.hand:
        if t < NUM_KINDS:
            left[t] -= 1
    for index, other in enumerate(hand.seats):
        for t in other.discards:
            if t < NUM_KINDS:
                left[t] -= 1
        for meld in other.melds:
            if meld.kind == "concealed_kong" and index != seat:
                continue
            for t in meld.tiles:
                if t < NUM_KINDS:
                    left[t] -= 1
    return [max(0, n) for n in left]


def _steps(config: VariantConfig, hand: HandState, tiles: Sequence[Tile], melds: int) -> int:
    counts, wild = counts_of(tiles, hand.wildcards)
    return shanten(counts, melds, config.seven_pairs, wild)


def _useful(
    config: VariantConfig, hand: HandState, tiles: Sequence[Tile], melds: int, left: list[int]
) -> int:
    """Live copies of the draws that would bring these tiles a step closer."""
    counts, wild = counts_of(tiles, hand.wildcards)
    base = shanten(counts, melds, config.seven_pairs, wild)
    after = after_each_draw(counts, melds, config.seven_pairs, wild)
    return sum(
        left[t] for t in range(NUM_KINDS) if left[t] and (s := after[t]) is not None and s < base
    )


def _keeps(config: VariantConfig, rest: Sequence[Tile], me: SeatState) -> int:
    """The variant's 听 conditions (decision 6), as a small bonus for what the rest still holds."""
    if config.ready_conditions is None:
        return 0
    every = list(rest) + [t for m in me.melds for t in m.tiles]
    terminal = any(t == RED_DRAGON or (t < 27 and t % 9 in (0, 8)) for t in every)
    suits = len({t // 9 for t in every if t < 27})
    return (2 if terminal else 0) + min(suits, 2)


# ---------------------------------------------------------------- own turn


def _without(tiles: Sequence[Tile], *remove: Tile) -> list[Tile]:
    rest = list(tiles)
    for t in remove:
        rest.remove(t)
    return rest


def _good_kong(config: VariantConfig, hand: HandState, seat: int, kongs: list[Kong]) -> Kong | None:
    me = hand.seat(seat)
    if not kongs:
        return None
    if me.ready is not None:
        # the rules allow a kong after 听 only when the hand stays ready: a free replacement draw
        return kongs[0]
    before = _steps(config, hand, me.hand, len(me.melds))
    for kong in kongs:
        t = tile(kong.tile or "")
        concealed = me.hand.count(t) == 4  # else an 补杠 onto a 碰: no new set
        rest = _without(me.hand, *([t] * (4 if concealed else 1)))
        after = _steps(config, hand, rest, len(me.melds) + (1 if concealed else 0))
        if after <= before:
            return kong
    return None


def _discard(
    variant: Variant,
    hand: HandState,
    seat: int,
    discards: list[DiscardTile],
    rng: random.Random,
) -> DiscardTile:
    config = variant.config
    me = hand.seat(seat)
    left = unseen(hand, seat)
    if me.ready is not None:
        return discards[0]  # after 听 only the drawn tile may go
    ready = [d for d in discards if d.ready is not None]
    if ready and not _keep_hun_diao(variant, hand, me, ready, rng):
        return _declare(config, hand, me, ready, left, rng)
    discards = [d for d in discards if d.ready is None]
    melds = len(me.melds)
    steps = {}
    for command in discards:
        t = tile(command.tile)
        steps[command.tile] = _steps(config, hand, _without(me.hand, t), melds) + (
            10 if t in hand.wildcards else 0
        )
    fewest = min(steps.values())
    best: tuple[int, int, float] | None = None
    chosen = discards[0]
    for command in discards:
        if steps[command.tile] != fewest:
            continue
        rest = _without(me.hand, tile(command.tile))
        key = (
            -_useful(config, hand, rest, melds, left),
            -_keeps(config, rest, me),
            rng.random(),
        )
        if best is None or key < best:
            best, chosen = key, command
    return chosen


def _keep_hun_diao(
    variant: Variant, hand: HandState, me: SeatState, ready: list[DiscardTile],
    rng: random.Random,
) -> bool:
    """塘沽: a seat in 混钓 sometimes stays undeclared, for after 听 the table plays for it and
    never raises 上大台 (a drawn 混 set aside, +5, twice at most)."""
    if not hand.wildcards or rng.random() >= RAISE_SHARE:
        return False
    waits_on_pair = variant.wildcards.in_wild_pair_wait
    return any(waits_on_pair(tuple(_without(me.hand, tile(c.tile))), hand.wildcards) for c in ready)


def _declare(
    config: VariantConfig,
    hand: HandState,
    me: SeatState,
    ready: list[DiscardTile],
    left: list[int],
    rng: random.Random,
) -> DiscardTile:
    """听 now: the discard with the most live waits, in the mode this variant's players favour."""

    def live_waits(command: DiscardTile) -> int:
        rest = tuple(_without(me.hand, tile(command.tile)))
        return sum(
            left[w] for w in hand_waits(config, rest, me.melds, hand.wildcards) if w < NUM_KINDS
        )

    dubao = [c for c in ready if c.ready == "dubao"]
    if dubao and rng.random() < DUBAO_SHARE:
        return dubao[0]  # 独抱 waits on a single tile: any discard that offers it will do
    scored = sorted(ready, key=lambda c: (-live_waits(c), c.tile))
    best_tile = scored[0].tile
    modes = {c.ready: c for c in ready if c.tile == best_tile and c.ready != "dubao"}
    if "open" in modes and ("hidden" not in modes or rng.random() < OPEN_READY_SHARE):
        return modes["open"]
    for mode in ("hidden", "plain"):
        if mode in modes:
            return modes[mode]
    return next(iter(modes.values()), scored[0])


# ---------------------------------------------------------------- claim window


def _answer_claim(
    table: TableState, hand: HandState, seat: int, commands: list[Command]
) -> Command:
    config = table.variant.config
    me = hand.seat(seat)
    window = hand.window
    assert window is not None
    ready_claims = [c for c in commands if isinstance(c, (Pung, Chow)) and c.ready]
    if ready_claims:
        return ready_claims[0]  # 吃听
    melds = len(me.melds)
    before = _steps(config, hand, me.concealed, melds)
    needs_open = config.ready_conditions is not None and not me.is_open  # 听 needs 开门
    best: tuple[int, int] | None = None
    chosen: Command = next(c for c in commands if isinstance(c, PassClaim))
    for command in commands:
        if isinstance(command, Kong):
            rest = _without(me.concealed, *([window.tile] * 3))
            after, order = _steps(config, hand, rest, melds + 1), 0
        elif isinstance(command, Pung):
            rest = _without(me.concealed, window.tile, window.tile)
            after, order = _after_claim(config, hand, rest, melds + 1), 1
        elif isinstance(command, Chow):
            rest = _without(me.concealed, *(tile(t) for t in command.tiles))
            after, order = _after_claim(config, hand, rest, melds + 1), 2
        else:
            continue
        worth = after < before or (after == before and (needs_open or order == 0))
        if worth and (best is None or (after, order) < best):
            best, chosen = (after, order), command
    return chosen


def _after_claim(config: VariantConfig, hand: HandState, rest: list[Tile], melds: int) -> int:
    """Steps from ready after the claim and the best discard that follows it."""
    return min(
        _steps(config, hand, _without(rest, t), melds) + (10 if t in hand.wildcards else 0)
        for t in set(rest)
    )
