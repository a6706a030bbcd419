"""向听 as ``services/rules/shanten.py`` counts it, where its mutation run found no test holding
(docs/testing.md): the cap of four sets and partial sets, 七对 beyond seven kinds, the floor a
wildcard cannot push a hand past, and the useful draws the bots weigh (``after_each_draw``).

What the module promises (its docstring): ``8 - 2·sets - partial sets - pair`` over the best split
of the hand into sets, partial sets (two of a run, or a pair) and one pair, with at most four sets
and partial sets together (exposed melds count as sets); ``-1`` complete, ``0`` ready; 七对 where
the variant has it (山东 ``002``: 七对 和牌牌型全部由七个对子组成; 塘沽 ``004``: 七小对) and no meld
is laid down; each wildcard (塘沽's 混) one step closer. What the engine relies on: it never
overstates the distance (``winning.declarable_discards`` offers no 听 discard to a 3n+2 hand it
calls more than ready, ``claims.near_ready`` lets only a hand within one step 吃听), and
``after_each_draw`` is the same count with each kind drawn (the bots' useful draws).

The strong checks compare with two deliberately plain references that know nothing of the
module's per-suit splits: a whole-hand recursion peeling the lowest tile into a set, a partial
set, the pair or nothing; and, for hands of up to eight tiles, the exact number of tile exchanges
to the nearest complete hand. ``tests/bots/test_shanten.py`` holds the 13- and 14-tile meaning of
0 and -1 without 七对; nothing here repeats it.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.shanten import (
    after_each_draw,
    counts_of,
    regular_shanten,
    seven_pairs_shanten,
    shanten,
)
from services.rules.shapes import waits
from services.rules.table.commands import DiscardTile
from services.rules.table.legal import play_commands
from services.rules.tiles import NUM_KINDS, parse_tiles, tile
from tests.table.builders import Table, tanggu_table


def counts(hand: str) -> list[int]:
    found, wild = counts_of(parse_tiles(hand))
    assert wild == 0
    return found


def drawn(hand: list[int], t: int) -> list[int]:
    return [c + (k == t) for k, c in enumerate(hand)]


def without(hand: list[int], t: int) -> list[int]:
    return [c - (k == t) for k, c in enumerate(hand)]


# -- the plain references ------------------------------------------------------------------------
@cache
def _splits(hand: tuple[int, ...], has_pair: bool) -> frozenset[tuple[int, int, int]]:
    """Every (sets, partial sets, pair) reached by peeling the lowest tile left: alone, in a
    triplet, a pair (as the pair or as a partial set), a run, or two of a run."""
    i = next((k for k, c in enumerate(hand) if c), None)
    if i is None:
        return frozenset({(0, 0, 0)})
    found: set[tuple[int, int, int]] = set()

    def peel(tiles: tuple[int, ...], sets: int, partial: int, pair: int) -> None:
        rest = list(hand)
        for t in tiles:
            if rest[t] == 0:
                return
            rest[t] -= 1
        for s, p, h in _splits(tuple(rest), has_pair or pair == 1):
            found.add((sets + s, partial + p, pair + h))

    peel((i,), 0, 0, 0)
    peel((i, i, i), 1, 0, 0)
    peel((i, i), 0, 1, 0)
    if not has_pair:
        peel((i, i), 0, 0, 1)
    if i < 27 and i % 9 <= 6:
        peel((i, i + 1, i + 2), 1, 0, 0)
        peel((i, i + 2), 0, 1, 0)
    if i < 27 and i % 9 <= 7:
        peel((i, i + 1), 0, 1, 0)
    return frozenset(found)


def plain_regular(hand: list[int], melds: int) -> int:
    """The classic count over every split, sets and partial sets four at most with the melds."""
    room = 4 - melds
    return min(
        8 - 2 * (sets + melds) - min(partial, room - sets) - pair
        for sets, partial, pair in _splits(tuple(hand), False)
    )


def plain_seven_pairs(hand: list[int]) -> int:
    """七对: six pairs short of ready, less each pair held (four of a kind is two pairs)."""
    pairs = 0
    for c in hand:
        while c >= 2:
            pairs, c = pairs + 1, c - 2
    return 6 - pairs


_SETS = [(k, k, k) for k in range(NUM_KINDS)] + [
    (s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7)
]


def exchanges(hand: list[int], melds: int) -> int:
    """The exact distance: the fewest tiles of some complete hand (the sets left to make and a
    pair, no kind five times) missing from this one, less one (-1 complete, 0 ready). A set or
    pair sharing no tile with the hand is ``None``: there is always a kind free to make it of."""
    n = 4 - melds
    held = {k for k, c in enumerate(hand) if c}
    sets = [s for s in _SETS if held & set(s)] + [None]
    pairs = [(k, k) for k in held] + [None]
    best = 3 * n + 1
    for chosen in itertools.combinations_with_replacement(sets, n):
        for pair in pairs:
            need = [0] * NUM_KINDS
            for part in (*chosen, pair):
                for t in part or ():
                    need[t] += 1
            if max(need) <= 4:
                shared = sum(min(a, b) for a, b in zip(need, hand, strict=True))
                best = min(best, 3 * n + 2 - shared - 1)
    return best


# -- hands --------------------------------------------------------------------------------------
def _fit(tiles: list[int]) -> list[int]:
    """Counts of these tiles, a fifth copy moved on to the next kind with room."""
    hand = [0] * NUM_KINDS
    for t in tiles:
        while hand[t] >= 4:
            t = (t + 1) % NUM_KINDS
        hand[t] += 1
    return hand


@st.composite
def hands(draw: st.DrawFn, size: int, kinds: int = NUM_KINDS) -> list[int]:
    """``size`` tiles: a complete hand (sets and a pair, or seven pairs) with a few tiles
    changed, or tiles of a few kinds, so that pairs, runs and near-ready hands are common."""
    kind = st.integers(0, kinds - 1)
    shape = draw(st.sampled_from(["sets", "pairs", "few"]))
    if shape == "sets":
        tiles: list[int] = []
        for start, run in draw(st.lists(st.tuples(kind, st.booleans()), min_size=5, max_size=5)):
            run = run and start < 27 and start % 9 <= 6
            tiles += [start, start + 1, start + 2] if run else [start] * 3
        tiles = [draw(kind)] * 2 + tiles
    elif shape == "pairs":
        tiles = [t for t in draw(st.lists(kind, min_size=7, max_size=7, unique=True)) for _ in "ab"]
    else:
        pool = draw(st.lists(kind, min_size=2, max_size=8, unique=True))
        tiles = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
    changed = draw(st.lists(kind, max_size=3))
    return _fit((changed + tiles)[:size])


@st.composite
def seated_hands(
    draw: st.DrawFn, sizes: tuple[int, ...] = (1, 2), fewest_melds: int = 0
) -> tuple[list[int], int]:
    """A concealed hand with the melds its size leaves room for: 3n+1 or 3n+2 tiles, 4-n melds."""
    melds = draw(st.integers(fewest_melds, 3))
    return draw(hands(3 * (4 - melds) + draw(st.sampled_from(sizes)))), melds


# -- the count itself ---------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(seated_hands(), st.booleans())
def test_shanten_is_the_best_split_into_sets_partial_sets_and_one_pair(
    seated: tuple[list[int], int], seven_pairs: bool
) -> None:
    """shanten.py: ``8 - 2·sets - partial sets - pair`` over the best split of the hand, at most
    four sets and partial sets together (exposed melds count as sets), the better of that and
    七对 where the variant has 七对 and no meld is laid down."""
    hand, melds = seated
    expected = plain_regular(hand, melds)
    if seven_pairs and melds == 0:
        expected = min(expected, plain_seven_pairs(hand))
    assert shanten(hand, melds, seven_pairs) == expected
    assert regular_shanten(hand, melds) == plain_regular(hand, melds)


@settings(max_examples=60, deadline=None)
@given(seated_hands(fewest_melds=2))
def test_a_small_hand_is_never_called_further_from_ready_than_its_exchanges(
    seated: tuple[list[int], int],
) -> None:
    """shanten.py: 向听 "never overstates the distance" (the engine gates its 听 search on it).
    With two or three melds laid down it is exactly the number of exchanges to ready, unless a
    kind is held four times: then the count may need a fifth copy, and only understates."""
    hand, melds = seated
    exact = exchanges(hand, melds)
    assert shanten(hand, melds) <= exact
    if max(hand) < 4:
        assert shanten(hand, melds) == exact


def test_blocks_beyond_four_do_not_count() -> None:
    """shanten.py: at most four sets and partial sets together (exposed melds count as sets).
    Three runs and two partial runs, no pair, need a pair as well: a step from ready, not ready."""
    assert shanten(counts("123m456m789m12p45p")) == 1
    laid_down = counts("456m789m12p45p")  # the same with 123m laid down as a 吃
    assert shanten(laid_down, melds=1) == 1


def test_seven_pairs_beyond_seven_kinds_count_only_the_pairs() -> None:
    """七对 (002: 七个对子; 004: 七小对): five pairs and three singles of other kinds need one
    of the singles paired, and a further kind held brings no pair closer."""
    hand = counts("11m55m99m11p55p9p1s5s")
    assert seven_pairs_shanten(hand) == 1
    assert regular_shanten(hand) == 3
    assert shanten(hand, 0, seven_pairs=True) == 1


# -- wildcards ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "wild", "expected"),
    [
        ("123m456m789m123p5p", 1, -1),  # ready, and the 混 completes it
        ("123m456m789m12p5p", 2, -1),  # a step away: one 混 makes the run, one the pair
        ("123m456m789m12p", 3, -1),  # two steps away, and a third 混 goes no further
        ("123m456m789m12p5p", 1, 0),
    ],
)
def test_a_wildcard_brings_a_hand_a_step_closer_but_never_past_complete(
    hand: str, wild: int, expected: int
) -> None:
    """shanten.py: a wildcard (塘沽's 混) is counted as one step closer each; ``-1`` means
    complete, and no hand is closer than complete."""
    natural = counts(hand)
    assert shanten(natural, 0, False, wild) == expected
    assert shanten(natural, 0, True, wild) == expected


@settings(max_examples=100, deadline=None)
@given(seated_hands(), st.booleans(), st.integers(1, 4))
def test_each_wildcard_is_one_step_closer_and_never_below_complete(
    seated: tuple[list[int], int], seven_pairs: bool, wild: int
) -> None:
    """shanten.py: each wildcard one step closer; ``-1`` (complete) is the least there is."""
    hand, melds = seated
    plain = shanten(hand, melds, seven_pairs)
    assert shanten(hand, melds, seven_pairs, wild) == max(-1, plain - wild)


# -- the useful draws ---------------------------------------------------------------------------
@settings(max_examples=120, deadline=None)
@given(seated_hands(sizes=(1,)), st.booleans(), st.integers(0, 2))
def test_each_draw_is_counted_as_the_hand_with_that_tile_added(
    seated: tuple[list[int], int], seven_pairs: bool, wild: int
) -> None:
    """after_each_draw: 向听 after drawing each kind, None where the hand holds all four (the
    winning bot's useful draws); the hand given is left as it was."""
    hand, melds = seated
    before = list(hand)
    found = after_each_draw(hand, melds, seven_pairs, wild)
    assert hand == before
    assert found == [
        None if hand[t] >= 4 else shanten(drawn(hand, t), melds, seven_pairs, wild)
        for t in range(NUM_KINDS)
    ]


def test_the_partner_of_the_last_single_completes_seven_pairs() -> None:
    """七对 (002: 和牌牌型全部由七个对子组成): six pairs and 中 are ready; drawing the second 中
    completes the hand, and any other tile leaves it ready (pairs held stay six)."""
    hand = counts("1122m3344p5566s7z")
    found = after_each_draw(hand, 0, seven_pairs=True)
    assert found[tile("7z")] == -1
    assert [found[t] for t in range(NUM_KINDS) if t != tile("7z")] == [0] * (NUM_KINDS - 1)


def test_without_seven_pairs_the_draws_count_regular_shapes_only() -> None:
    """Seven pairs count only where the variant has 七对 (山东, 塘沽): elsewhere six pairs and a
    single are three steps away, and the second 中 brings them no closer than the pair does."""
    hand = counts("1122m3344p5566s7z")
    found = after_each_draw(hand, 0, seven_pairs=False)
    assert found[tile("7z")] == 3
    assert found == [shanten(drawn(hand, t), 0, False) for t in range(NUM_KINDS)]


def test_with_a_meld_laid_down_seven_pairs_do_not_count() -> None:
    """七对 is fourteen concealed tiles: with a 碰 laid down the five pairs count as sets to make."""
    hand = counts("1122m3344p5s")
    found = after_each_draw(hand, 1, seven_pairs=True)
    assert found == [shanten(drawn(hand, t), 1, False) for t in range(NUM_KINDS)]
    assert found[tile("5s")] == regular_shanten(drawn(hand, tile("5s")), 1)


def test_the_fourth_of_a_kind_held_three_times_completes_seven_pairs() -> None:
    """七对 reads four of a kind as two pairs (scoring/shandong.py: 七对 accepts four of a kind
    as two pairs): 1m three times and five pairs are ready, the fourth 1m completes them, and
    any other tile leaves them ready."""
    hand = counts("111m55p99p11s99s55z")
    assert shanten(hand, 0, True) == 0
    found = after_each_draw(hand, 0, seven_pairs=True)
    assert found[tile("1m")] == -1
    assert found[tile("2m")] == found[tile("7z")] == found[tile("5p")] == 0


def test_a_kind_held_four_times_is_no_draw_at_all() -> None:
    """after_each_draw: None where the hand holds all four; every other kind is a draw."""
    hand = counts("1111m234p567p789s5z")
    found = after_each_draw(hand)
    assert found[tile("1m")] is None
    assert found[tile("5z")] == -1
    assert all(found[t] == 0 for t in range(NUM_KINDS) if t not in (tile("1m"), tile("5z")))


@pytest.mark.parametrize("draw", ["1p", "4s", "7z", "5m", "9s"])
def test_a_draw_in_one_suit_is_weighed_with_the_other_suits_as_they_are(draw: str) -> None:
    """after_each_draw: only the suit the drawn tile joins changes; a man run, one 饼, two 条 and
    中 are a step away, and a second 1p, a 4s or a second 中 makes them ready."""
    hand = counts("123456789m1p3s5s7z")
    found = after_each_draw(hand)
    expected = 0 if draw in ("1p", "4s", "7z") else 1
    assert found[tile(draw)] == expected == shanten(drawn(hand, tile(draw)))


# -- what the engine relies on ------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(seated_hands(sizes=(2,)), st.booleans())
def test_a_hand_one_discard_from_ready_is_called_ready_at_most(
    seated: tuple[list[int], int], seven_pairs: bool
) -> None:
    """winning.declarable_discards offers no 听 discard to a 3n+2 hand 向听 calls more than 0:
    so a hand with a discard after which some tile completes it must be called 0 or less
    (七对 reading four of a kind as two pairs, as the engine's does)."""
    hand, melds = seated
    seven_pairs = seven_pairs and melds == 0
    ready = any(waits(without(hand, t), 0, seven_pairs) for t in range(NUM_KINDS) if hand[t])
    if ready:
        assert shanten(hand, melds, seven_pairs) <= 0


@settings(max_examples=80, deadline=None)
@given(hands(13, kinds=27), st.integers(0, 26))
def test_a_claim_brings_a_hand_at_most_one_step_closer(hand: list[int], offered: int) -> None:
    """claims.near_ready lets only a hand within one step 吃听: a 碰 or 吃 of the offered tile and
    the discard after it leave the hand at most one step nearer ready than it was."""
    before = shanten(hand, 0)
    rank = offered % 9
    takes = [(offered, offered)] if hand[offered] >= 2 else []
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        if rank + a >= 0 and rank + b <= 8 and hand[offered + a] and hand[offered + b]:
            takes.append((offered + a, offered + b))
    for x, y in takes:
        rest = list(hand)
        rest[x] -= 1
        rest[y] -= 1
        for out in (t for t in range(NUM_KINDS) if rest[t]):
            rest[out] -= 1
            assert shanten(rest, 1) >= before - 1
            rest[out] += 1


# -- 七对 with a kind held three or four times (the engine reads four of a kind as two pairs) ---
@pytest.mark.parametrize(
    ("hand", "waited"),
    [
        ("1111m2233p4455s6s", "6s"),  # 1m four times: two of the pairs
        ("111m55p99p11s99s55z", "1m"),  # the fourth 1m makes two pairs of them
        ("1111m5599p1199s5z", "5z"),
    ],
)
def test_a_seven_pairs_hand_holding_four_of_a_kind_as_two_pairs_is_called_ready(
    hand: str, waited: str
) -> None:
    """shanten.py: "it never overstates the distance". The engine's 七对 takes four of a kind
    as two pairs (scoring/shandong.py: 七对 accepts four of a kind as two pairs), and so waits
    these hands on the tile named: they are ready, 0."""
    natural = counts(hand)
    assert tile(waited) in waits(natural, 0, seven_pairs=True)
    assert shanten(natural, 0, seven_pairs=True) == 0


@pytest.mark.parametrize(("variant", "mode"), [("shandong", "hidden"), ("tanggu", "plain")])
def test_a_seat_whose_discard_leaves_seven_pairs_with_four_of_a_kind_is_offered_that_ready(
    variant: str, mode: str
) -> None:
    """legal.play_commands offers every command decide would accept. The dealer holds
    1111m2233p4455s6s9m: discarding 9m leaves 七对 waiting on 6s (four 1m as two pairs), and
    decide accepts that 听; it must be offered too."""
    if variant == "tanggu":
        table = tanggu_table({0: "1111m2233p4455s6s9m"})  # 混 = 西 北, none held
    else:
        table = Table(variant)
        table.start({0: "1111m2233p4455s6s9m"})
    assert table.hand.turn == 0 and table.hand.step == "discard"
    offered = [c for c in play_commands(table.state, 0) if isinstance(c, DiscardTile) and c.ready]
    table.discard(0, "9m", ready=mode)
    assert table.seat(0).ready == mode
    assert DiscardTile(seat=0, tile="9m", ready=mode) in offered
