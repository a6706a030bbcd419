"""Builders for the table tests: walls arranged so every seat gets the hand a test names, and a
tiny ``Table`` that applies commands through ``decide``/``evolve`` and keeps the events.

``wall_for`` writes a wall in draw order (what ``StartHand(wall=...)`` takes):

* ``hands``: ``{seat: "mpsz"}`` opening hands, 13 tiles (14 for the dealer, whose 14th tile,
  the last one written, is dealt last and shows as the dealer's drawn tile); a seat other than
  the dealer may be given fewer, the filler completing its hand;
* ``draws``: the tiles drawn from the head after the deal, in order (``None``: the filler's);
* ``tail``: the tiles at the end of the wall, **counted back from the end**: ``tail[0]`` is the
  very last tile (the 宝 in 牡丹江/哈尔滨; the first replacement in 山东/上海), ``tail[1]`` the one
  before it, and so on. ``None`` leaves a place to the filler. In 塘沽 the 混 indicator lies at
  place ``sum(dice)`` from the end, i.e. ``tail[sum(dice) - 1]``.

Everything not named is filled with the remaining tiles of the set, in an order that spreads
kinds apart (so filler hands rarely hold pairs or runs), beginning with ``fill_first`` when given.
Flowers nobody named are parked 5th to 12th from the end (``park_flowers``), so that no 补花
happens unless a test asks for it (or makes a fifth replacement draw).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from events.base import DomainEvent
from services.rules.table import decide, evolve
from services.rules.table.commands import (
    Chow,
    Command,
    DeclareHonourKong,
    DeclareWin,
    DiscardTile,
    Kong,
    OpenTable,
    PassClaim,
    Pung,
    RaiseWildPair,
    StartHand,
)
from services.rules.table.conservation import conservation_errors
from services.rules.table.deadlines import Deadline, deadlines
from services.rules.table.deal import deal_order, full_set
from services.rules.table.guards import CommandRejected
from services.rules.table.state import HandState, SeatState, TableState
from services.rules.table.views import player_view
from services.rules.tiles import name, names, parse_tiles
from services.rules.variants import get_variant

VARIANTS = ("mudanjiang", "harbin", "shandong", "shanghai", "tanggu")
BAO_VARIANTS = ("mudanjiang", "harbin")
DICE = {
    "mudanjiang": (3, 4),
    "harbin": (3, 4, 2, 5),
    "shandong": (3, 4, 2, 5),
    "shanghai": (2, 3),
    "tanggu": (1, 2, 1, 1),
}


def tiles_of(text: str) -> list[str]:
    """``"123m5z"`` → ``["1m", "2m", "3m", "5z"]`` (order kept)."""
    return names(parse_tiles(text))


def _spread(pool: Counter[str]) -> list[str]:
    """The pool's tiles ordered copy by copy: every kind once, then every kind again, ..."""
    order: list[str] = []
    left = Counter(pool)
    kinds = sorted(left, key=lambda n: parse_tiles(n)[0])
    # step through kinds by a stride that keeps neighbours apart (no runs, no pairs in a hand)
    stride = 5
    ordered = (
        [kinds[(i * stride) % len(kinds)] for i in range(len(kinds))]
        if len(kinds) % stride
        else kinds
    )
    if len(set(ordered)) != len(kinds):
        ordered = kinds
    while left:
        for kind in ordered:
            if left[kind]:
                order.append(kind)
                left[kind] -= 1
                if not left[kind]:
                    del left[kind]
    return order


def wall_for(
    variant: str,
    hands: dict[int, str] | None = None,
    draws: Iterable[str | None] = (),
    tail: Sequence[str | None] = (),
    dealer: int = 0,
    fill_first: Iterable[str] = (),
    park_flowers: bool = True,
) -> tuple[str, ...]:
    """A wall in draw order giving these opening hands, head draws and tail (see the module)."""
    config = get_variant(variant)
    pool: Counter[str] = Counter(names(full_set(config)))
    hands = hands or {}

    def take(tile: str, what: str) -> str:
        if pool[tile] <= 0:
            raise ValueError(f"{what}: no {tile} left in the {config.name} set")
        pool[tile] -= 1
        return tile

    dealt: dict[int, list[str | None]] = {}
    for seat, text in hands.items():
        tiles = tiles_of(text)
        size = 14 if seat == dealer else 13
        if len(tiles) > size or (seat == dealer and len(tiles) != size):
            raise ValueError(f"seat {seat} needs {size} tiles, got {len(tiles)} in {text!r}")
        # a seat other than the dealer may be given part of its hand: the filler adds the rest
        dealt[seat] = [take(t, f"seat {seat}'s hand") for t in tiles] + [None] * (size - len(tiles))  # type: ignore[list-item]
    head_draws = [None if t is None else take(t, "draws") for t in draws]
    tail_tiles = [None if t is None else take(t, "tail") for t in tail]
    preferred = [t for t in fill_first if pool[t] > 0 and not pool.subtract([t])]  # type: ignore[func-returns-value]
    filler = preferred + _spread(+pool)
    filler.reverse()  # pop() from the end

    total = len(full_set(config))
    wall: list[str | None] = [None] * total
    for i, t in enumerate(tail_tiles):
        wall[total - 1 - i] = t
    index = 0
    cursor = {seat: 0 for seat in range(4)}
    for seat, count in deal_order(dealer):
        for _ in range(count):
            if seat in dealt:
                wall[index] = dealt[seat][cursor[seat]]
                cursor[seat] += 1
            index += 1
    for t in head_draws:
        if wall[index] is not None:
            raise ValueError("draws run into the tail")
        wall[index] = t  # None: the filler's
        index += 1
    if park_flowers:
        # flowers nobody named lie 5th to 12th (and on) from the end: inside 山东's reserved
        # stacks, reached only by a fifth replacement; drawn last of all in 上海
        flowers = [t for t in filler if t.endswith("f")]
        filler = [t for t in filler if not t.endswith("f")]
        place = 4
        while flowers:
            index = total - 1 - place
            if wall[index] is None:
                wall[index] = flowers.pop()
            place += 1
    for i in range(total):
        if wall[i] is None:
            wall[i] = filler.pop()
    assert not filler, filler
    result = tuple(t for t in wall if t is not None)
    assert Counter(result) == Counter(names(full_set(config)))
    return result


@dataclass
class Table:
    """A table under test: commands go through ``decide``, events through ``evolve``."""

    variant: str
    options: dict[str, bool] = field(default_factory=dict)
    base_stake: int = 1
    timing: dict[str, int] = field(default_factory=dict)
    state: TableState = field(default_factory=TableState)
    events: list[DomainEvent] = field(default_factory=list)
    check: bool = True  # tile conservation after every command

    def __post_init__(self) -> None:
        self.do(
            OpenTable(
                table_id="t-1",
                variant=self.variant,
                players=("east", "south", "west", "north"),
                options=self.options,
                base_stake=self.base_stake,
                timing=self.timing,
            )
        )

    # -- acting -------------------------------------------------------------------------------
    def do(self, command: Command) -> list[DomainEvent]:
        """Apply a command; the events it caused (the table's own steps included)."""
        produced = decide(self.state, command)
        for event in produced:
            self.state = evolve(self.state, event)
        self.events.extend(produced)
        if self.check:
            error = conservation_errors(self.state)
            assert error is None, error
        return produced

    def refuse(self, command: Command) -> str:
        """Assert the command is refused and changes nothing; the reason."""
        before, count = self.state, len(self.events)
        try:
            decide(self.state, command)
        except CommandRejected as rejected:
            assert self.state == before and len(self.events) == count
            assert rejected.reason
            return rejected.reason
        raise AssertionError(f"{command!r} was accepted")

    def start(
        self,
        hands: dict[int, str] | None = None,
        draws: Iterable[str | None] = (),
        tail: Sequence[str | None] = (),
        dealer: int = 0,
        dice: tuple[int, ...] | None = None,
        fill_first: Iterable[str] = (),
    ) -> list[DomainEvent]:
        wall = wall_for(self.variant, hands, draws, tail, dealer, fill_first)
        return self.do(StartHand(wall=wall, dealer=dealer, dice=dice or DICE[self.variant]))

    def discard(self, seat: int, tile: str, ready: str | None = None) -> list[DomainEvent]:
        return self.do(DiscardTile(seat=seat, tile=tile, ready=ready))  # type: ignore[arg-type]

    def chow(self, seat: int, tiles: str, ready: bool = False) -> list[DomainEvent]:
        return self.do(Chow(seat=seat, tiles=tuple(tiles_of(tiles)), ready=ready))  # type: ignore[arg-type]

    def pung(self, seat: int, ready: bool = False) -> list[DomainEvent]:
        return self.do(Pung(seat=seat, ready=ready))

    def kong(self, seat: int, tile: str | None = None) -> list[DomainEvent]:
        return self.do(Kong(seat=seat, tile=tile))

    def win(self, seat: int) -> list[DomainEvent]:
        return self.do(DeclareWin(seat=seat))

    def pass_(self, seat: int) -> list[DomainEvent]:
        return self.do(PassClaim(seat=seat))

    def honour_kong(self, seat: int, honours: str) -> list[DomainEvent]:
        return self.do(DeclareHonourKong(seat=seat, honours=honours))  # type: ignore[arg-type]

    def raise_wild_pair(self, seat: int) -> list[DomainEvent]:
        return self.do(RaiseWildPair(seat=seat))

    def pass_all(self, *, but: Iterable[int] = ()) -> list[DomainEvent]:
        """Every seat still asked in the open claim window passes (except ``but``)."""
        produced: list[DomainEvent] = []
        skip = set(but)
        while (window := self.window) is not None and self.hand.step in ("claims", "rob"):
            waiting = [
                s for s, _ in window.options if window.answer_of(s) is None and s not in skip
            ]
            if not waiting:
                break
            produced += self.pass_(waiting[0])
        return produced

    def play(self, seat: int, tile: str) -> list[DomainEvent]:
        """Discard and let every seat pass on it."""
        return self.discard(seat, tile) + self.pass_all()

    # -- looking ------------------------------------------------------------------------------
    @property
    def hand(self) -> HandState:
        assert self.state.hand is not None
        return self.state.hand

    def seat(self, index: int) -> SeatState:
        return self.hand.seat(index)

    def concealed(self, index: int) -> str:
        """The seat's concealed tiles (drawn tile included) as a sorted mpsz string."""
        from services.rules.tiles import to_string

        return to_string(self.seat(index).hand)

    def drawn(self, index: int) -> str | None:
        d = self.seat(index).drawn
        return None if d is None else name(d)

    @property
    def window(self) -> Any:
        return self.hand.window

    def options_of(self, seat: int) -> tuple[str, ...]:
        return () if self.window is None else self.window.options_of(seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        return player_view(self.state, seat)

    def of_type(
        self, kind: type[DomainEvent], events: Iterable[DomainEvent] | None = None
    ) -> list[Any]:
        return [e for e in (self.events if events is None else events) if isinstance(e, kind)]

    def last(self, kind: type[DomainEvent]) -> Any:
        found = self.of_type(kind)
        assert found, f"no {kind.__name__} yet"
        return found[-1]


# -- a standard deal that every variant can hold (suited tiles and 红中 only) -----------------
# seat 0 deals: 2m is its 14th tile. On 2m: seat 1 may 吃 (34m), seat 2 may 碰 (22m).
# On 3p: seat 1 may 吃 (12p, 24p, 45p), seat 3 may 碰 or 杠 (333p). On 7z or 8s nobody may claim.
STD = {
    0: "111m234p567s99p8s7z2m",
    1: "345m678m12p45p3s6s9s",
    2: "22m99m567p12s4s789s",
    3: "33m678m333p9p1s2s4s5s",
}
TANGGU_INDICATOR = "3z"  # 混: 西 and 北, tiles the standard deal never holds


def tail_for(
    variant: str,
    replacements: Iterable[str | None] = (),
    bao: str | None = "9s",
    indicator: str | None = TANGGU_INDICATOR,
    dice: tuple[int, ...] | None = None,
) -> list[str | None]:
    """A tail (counted back from the end) holding ``replacements`` in the order they are drawn:
    after the 宝 in the 宝 variants, stepping over the 混 indicator in 塘沽."""
    reps = list(replacements)
    if variant in BAO_VARIANTS:
        return [bao, *reps]
    if variant == "tanggu":
        place = sum(dice or DICE["tanggu"])
        out: list[str | None] = []
        while reps or len(out) < place:
            if len(out) == place - 1:
                out.append(indicator)
            else:
                out.append(reps.pop(0) if reps else None)
        return out
    return reps


def tanggu_table(
    hands: dict[int, str],
    draws: list[str | None] | None = None,
    replacements: list[str | None] | None = None,
    indicator: str = TANGGU_INDICATOR,
    dealer: int = 0,
) -> Table:
    """A 塘沽 table dealt ``hands``: 混 = 3z and 4z (西, 北) unless another indicator is given,
    ``replacements`` drawn from the tail around it."""
    table = Table("tanggu")
    table.start(
        hands,
        draws=draws or [],
        tail=tail_for("tanggu", replacements or [], indicator=indicator),
        dealer=dealer,
    )
    return table


def draws_at(**at: str) -> list[str | None]:
    """``draws_at(d0="3s", d53="7p")``: a draws list with tiles at those indices, filler elsewhere."""
    found = {int(k[1:]): v for k, v in at.items()}
    return [found.get(i) for i in range(max(found) + 1)]


def head_draws(table: Table) -> int:
    """How many tiles have been drawn from the head since the deal."""
    return table.hand.head - 53


def play_out(table: Table, until: Any = None, max_turns: int = 400) -> None:
    """Every seat throws what it drew (or its highest concealed tile) and every claim is passed,
    until ``until(table)`` holds or the hand ends."""
    for _ in range(max_turns):
        if table.hand.step == "ended" or (until is not None and until(table)):
            return
        if table.hand.step in ("claims", "rob"):
            table.pass_all()
            continue
        seat = table.hand.turn
        tile = table.drawn(seat) or names(table.seat(seat).concealed)[-1]
        table.discard(seat, tile)
    raise AssertionError("the hand did not end")


def play_until_draws(table: Table, count: int) -> None:
    """Play out until ``count`` tiles have been drawn from the head and a seat is to act."""
    play_out(table, until=lambda t: head_draws(t) >= count and t.hand.step == "discard")
    assert head_draws(table) == count, head_draws(table)


def concealed_kong_before_opening(variant: str) -> Table:
    """Seat 0 kongs 1111m face down before it is open; seat 2 will throw 9p, which seat 0 may 碰."""
    table = Table(variant)
    hands = {
        0: "1111m234p567s99p8s7z",
        1: "345m678m2m2p45p3s6s9s",
        2: "9p",
        3: "33m678m333p1s2s4s5s",
    }
    table.start(
        hands,
        draws=["5z" if variant not in BAO_VARIANTS else "8m", "9p"],
        tail=tail_for(variant, ["6m"]),
    )
    table.kong(0, "1m")
    return table


def shandong_seat_two_about_to_add_a_kong() -> Table:
    """山东: seat 2 has 碰'd seat 0's 5p and draws the fourth 5p, which seat 3 waits on (抢杠):
    the table stops at seat 2's turn with that 5p drawn."""
    table = Table("shandong")
    table.start(
        {
            0: "147p258s369p6z7z3s9s5p",
            1: "147m258m369m1s4s7s1z",
            2: "55p1m4m7m2s5s8s3m6m9m1z5z",
            3: "123s789p456s22z46p",
        },
        draws=["8p", "8p", "8p", "5p"],
        tail=["6z", "6z"],
    )
    table.discard(0, "5p")
    table.pass_(3)
    table.pung(2)
    table.play(2, "1z")
    table.play(3, "8p")
    play_out(table, until=lambda t: t.hand.turn == 2 and t.hand.step == "discard")
    return table


def only(table: Table, wait: str) -> Deadline:
    """The one deadline of this kind the table runs (the test fails if it runs none or several)."""
    found = [d for d in deadlines(table.state) if d.wait == wait]
    assert len(found) == 1, deadlines(table.state)
    return found[0]


def seat_one_chows_1m_and_declares_ready(table: Table) -> None:
    """Seat 0 throws 1m, seat 1 吃s it with 23m and throws 9m declaring 听, and nobody claims."""
    table.discard(0, "1m")
    table.pass_all(but=[1])
    table.chow(1, "23m")
    table.discard(1, "9m", ready="plain")
    table.pass_all()
