"""听: the waits of a hand, the conditions for declaring ready, and the discards that leave it ready.

The conditions (牡丹江 and 哈尔滨, decision 6) are checked on the seat's 13 tiles at the moment of
听 together with its exposed melds; the winning tile never counts. Each failing condition is named
by a short blocker string, so that a client can show why 听 is refused.

How "contains a 刻 and a 顺" is read for concealed tiles: the hand must be able to win with them.
There must be a wait ``w`` and a winning reading of the 13 tiles plus ``w`` such that, once the set
that ``w`` completes is put aside, the remaining sets (with the melds) hold a 刻 and a 顺 — in the
*same* reading. A 碰 or kong is a 刻, a 吃 a 顺. The stand-ins are counted on the 13 tiles and
the melds: 牡丹江 two 红中 (a pair of 红中), 哈尔滨 three or more. 哈尔滨's 对倒 allowance (no 刻 but
two pairs) holds on a reading in which ``w`` turns one of two pairs into the 刻. A hand with no
wait at all has no reading to test; there the 刻 and 顺 are judged by presence (three of a kind;
three in a row), so that every failing condition is still named.

Other variants (山东, 上海, 塘沽) put no condition on 听 beyond a wait; 塘沽's 混 are wild and
山东/塘沽 count 七对, as their configs say.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from services.rules.hand import Group, Reading, readings
from services.rules.melds import Meld
from services.rules.shapes import is_complete, is_seven_pairs, waits
from services.rules.tiles import NUM_KINDS, NUM_KINDS_WITH_FLOWERS, RED_DRAGON, Tile, is_terminal
from services.rules.variants.base import VariantConfig

Counts = list[int]

NOT_OPEN = "not open (开门): needs a 吃, 碰 or 明杠"
ONE_SUIT = "only one suit"
NO_TERMINAL = "no 幺九 or 红中"
NO_TRIPLET = "no 刻"
NO_RUN = "no 顺"
NOT_TOGETHER = "no winning reading holds both a 刻 and a 顺"
TOO_FEW_CONCEALED = "fewer than 4 concealed tiles (手把一)"
NO_WAIT = "not waiting on any tile"


@dataclass(frozen=True)
class ReadyRules:
    """The 听 conditions of a 宝 variant (decision 6), as data (``VariantConfig.ready_conditions``).

    ``red_dragons_as_triplet`` is how many 红中 (concealed or melded) stand in for the 刻:
    牡丹江 2 (一对红中可以代替刻牌), 哈尔滨 3 (有3个以上的红中). ``pairs_as_triplet`` is 哈尔滨's
    对倒 allowance: no 刻, but two pairs, either of which the winning tile makes the 刻.
    """

    needs_open: bool = True
    min_suits: int = 2
    needs_terminal_or_red: bool = True
    needs_triplet: bool = True
    needs_run: bool = True
    red_dragons_as_triplet: int = 2
    pairs_as_triplet: bool = False
    min_concealed: int = 4


def as_counts(hand: Sequence[int]) -> Counts:
    """Counts per kind (34 long) from either counts (34 or 42 long) or a list of tiles.

    A real hand holds at most 14 tiles, so a sequence 34 or 42 long is always counts.
    """
    if len(hand) in (NUM_KINDS, NUM_KINDS_WITH_FLOWERS):
        return list(hand[:NUM_KINDS])
    counts = [0] * NUM_KINDS_WITH_FLOWERS
    for t in hand:
        counts[t] += 1
    return counts[:NUM_KINDS]


def split_wild(counts: Sequence[int], wildcards: Collection[Tile]) -> tuple[Counts, int]:
    """Counts without the wildcard kinds, and how many wildcards were taken out."""
    plain = list(counts[:NUM_KINDS])
    wild = 0
    for t in wildcards:
        if t < NUM_KINDS:
            wild += plain[t]
            plain[t] = 0
    return plain, wild


def held_wildcards(config: VariantConfig, wildcards: Collection[Tile]) -> frozenset[Tile]:
    """Kinds that are wild *in the concealed hand*: only 塘沽's 混.

    A 宝 held in the hand is an ordinary tile (it was drawn before 听, or it would have won);
    it is wild only as the tile a ready seat draws, which scoring handles.
    """
    return frozenset(wildcards) if config.held_wildcards_are_wild else frozenset()


def _meld_copies(melds: Sequence[Meld]) -> Counts:
    counts = [0] * NUM_KINDS_WITH_FLOWERS
    for meld in melds:
        for t in meld.tiles:
            counts[t] += 1
    return counts[:NUM_KINDS]


def hand_waits(
    config: VariantConfig,
    concealed: Sequence[int],
    melds: Sequence[Meld] = (),
    wildcards: Collection[Tile] = frozenset(),
) -> list[Tile]:
    """The tile kinds that complete a 3n+1 hand, in mpsz order.

    A kind of which the seat already holds all four (hand and melds) is no wait. Under 塘沽 a
    drawn 混 is wild too: a wildcard kind is a wait when one more wildcard completes the hand.
    """
    counts = as_counts(concealed)
    wild_kinds = held_wildcards(config, wildcards)
    plain, wild = split_wild(counts, wild_kinds)
    seven_pairs = config.seven_pairs and not melds
    found = set(waits(plain, wild, seven_pairs))
    found -= wild_kinds  # a drawn 混 is never read as its own face
    if wild_kinds and _completes(plain, wild + 1, seven_pairs):
        found |= {t for t in wild_kinds if t < NUM_KINDS}
    held = _meld_copies(melds)
    return sorted(t for t in found if counts[t] + held[t] < 4)


def _completes(plain: Counts, wild: int, seven_pairs: bool) -> bool:
    return is_complete(plain, wild) or (seven_pairs and is_seven_pairs(plain, wild))


def complete_hand(
    config: VariantConfig,
    concealed: Sequence[int],
    melds: Sequence[Meld] = (),
    wildcards: Collection[Tile] = frozenset(),
) -> bool:
    """Whether 3n+2 concealed tiles are a winning shape as held.

    Under a 宝 variant one held 宝 may be the tile a ready seat just drew, and so wild; it then
    reads as any tile, 红中 included (decision 7), which is to say the other tiles wait.
    """
    counts = as_counts(concealed)
    plain, wild = split_wild(counts, held_wildcards(config, wildcards))
    if _completes(plain, wild, config.seven_pairs and not melds):
        return True
    if not config.drawn_bao_is_wild:
        return False
    for bao in wildcards:
        if bao < NUM_KINDS and counts[bao]:
            counts[bao] -= 1
            drawn_wild = bool(hand_waits(config, counts, melds))
            counts[bao] += 1
            if drawn_wild:
                return True
    return False


def ready_blockers(
    config: VariantConfig,
    concealed: Sequence[int],
    melds: Sequence[Meld] = (),
    wildcards: Collection[Tile] = frozenset(),
) -> list[str]:
    """Why this seat may not declare 听 with these 13 tiles and melds; empty when it may."""
    counts = as_counts(concealed)
    if sum(counts) % 3 != 1:
        raise ValueError(f"听 is declared on 3n+1 concealed tiles, not {sum(counts)}")
    found = hand_waits(config, counts, melds, wildcards)
    rules = config.ready_conditions
    blockers = _condition_blockers(rules, counts, melds, found) if rules else []
    if not found:
        blockers.append(NO_WAIT)
    return blockers


def can_declare_ready(
    config: VariantConfig,
    concealed: Sequence[int],
    melds: Sequence[Meld] = (),
    wildcards: Collection[Tile] = frozenset(),
) -> bool:
    """Whether the seat may declare 听 now: no blocker."""
    return not ready_blockers(config, concealed, melds, wildcards)


def ready_discards(
    config: VariantConfig,
    tiles14: Sequence[int],
    melds: Sequence[Meld] = (),
    wildcards: Collection[Tile] = frozenset(),
) -> dict[Tile, list[Tile]]:
    """Each discard that leaves the hand waiting, with the waits after it.

    "Ready" here is the shape (a non-empty wait), as in decision 4's "the hand is still ready";
    whether the seat may also *declare* 听 is ``ready_blockers`` on the 13 tiles left.
    """
    counts = as_counts(tiles14)
    if sum(counts) % 3 != 2:
        raise ValueError(f"a discard is chosen from 3n+2 concealed tiles, not {sum(counts)}")
    found: dict[Tile, list[Tile]] = {}
    for t in range(NUM_KINDS):
        if not counts[t]:
            continue
        counts[t] -= 1
        after = hand_waits(config, counts, melds, wildcards)
        counts[t] += 1
        if after:
            found[t] = after
    return found


def _condition_blockers(
    rules: ReadyRules, counts: Counts, melds: Sequence[Meld], found: Sequence[Tile]
) -> list[str]:
    """The blockers of decision 6, in the order the rule documents list them."""
    every = list(counts)
    for t, c in enumerate(_meld_copies(melds)):
        every[t] += c
    blockers: list[str] = []
    if rules.needs_open and not any(m.opens_hand for m in melds):
        blockers.append(NOT_OPEN)
    suits = sum(1 for s in range(3) if any(every[s * 9 : s * 9 + 9]))
    if suits < rules.min_suits:
        blockers.append(ONE_SUIT)
    if rules.needs_terminal_or_red and not (
        every[RED_DRAGON] or any(every[t] for t in range(27) if is_terminal(t))
    ):
        blockers.append(NO_TERMINAL)
    blockers.extend(_triplet_run_blockers(rules, counts, every, melds, found))
    if sum(counts) < rules.min_concealed:
        blockers.append(TOO_FEW_CONCEALED)
    return blockers


def _triplet_run_blockers(
    rules: ReadyRules, counts: Counts, every: Counts, melds: Sequence[Meld], found: Sequence[Tile]
) -> list[str]:
    """The 刻 and 顺 conditions: on one winning reading, or by presence when there is no wait."""
    red_stands_in = every[RED_DRAGON] >= rules.red_dragons_as_triplet
    meld_triplet = red_stands_in or any(m.is_triplet_like for m in melds)
    meld_run = any(m.kind == "chi" for m in melds)
    if found:
        options = list(_reading_options(rules, counts, found))
        triplet = meld_triplet or any(k for k, _ in options)
        run = meld_run or any(r for _, r in options)
        together = any((meld_triplet or k) and (meld_run or r) for k, r in options)
    else:
        triplet = (
            meld_triplet or _has_triplet(counts) or (rules.pairs_as_triplet and _pairs(counts) >= 2)
        )
        run = meld_run or _has_run(counts)
        together = triplet and run
    blockers = []
    if rules.needs_triplet and not triplet:
        blockers.append(NO_TRIPLET)
    if rules.needs_run and not run:
        blockers.append(NO_RUN)
    if rules.needs_triplet and rules.needs_run and triplet and run and not together:
        blockers.append(NOT_TOGETHER)
    return blockers


def _reading_options(
    rules: ReadyRules, counts: Counts, found: Sequence[Tile]
) -> set[tuple[bool, bool]]:
    """(holds a 刻, holds a 顺) for each way of winning: a wait, a reading, the set it completes."""
    options: set[tuple[bool, bool]] = set()
    for w in found:
        counts[w] += 1
        for reading in readings(counts):
            for index, group in enumerate(reading):
                if w in group.tiles:
                    options.add(_groups_without(reading, index, rules))
        counts[w] -= 1
    return options


def _groups_without(reading: Reading, index: int, rules: ReadyRules) -> tuple[bool, bool]:
    """The 刻 and 顺 of a reading once the set the winning tile completes is put aside."""
    rest: list[Group] = [g for i, g in enumerate(reading) if i != index]
    triplet = any(g.kind == "triplet" for g in rest)
    # 对倒 (哈尔滨): the winning tile turns one of two pairs into the 刻
    duidao = rules.pairs_as_triplet and reading[index].kind == "triplet"
    run = any(g.kind == "run" for g in rest)
    return triplet or duidao, run


def _has_triplet(counts: Counts) -> bool:
    return any(c >= 3 for c in counts)


def _pairs(counts: Counts) -> int:
    return sum(1 for c in counts if c >= 2)


def _has_run(counts: Counts) -> bool:
    return any(
        counts[t] and counts[t + 1] and counts[t + 2]
        for suit in range(3)
        for t in range(suit * 9, suit * 9 + 7)
    )
