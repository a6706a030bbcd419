"""The state of a table and of the hand in play: plain frozen data, tiles as ints."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from services.rules.melds import Meld
from services.rules.tiles import Tile
from services.rules.variants import Variant
from services.rules.variants.timing import Timing
from services.rules.variants.versions import variant_in

if TYPE_CHECKING:
    from services.rules.events.hand import Win

_T = TypeVar("_T")
_COPIERS: dict[tuple[Any, ...], Callable[..., Any]] = {}


def patch(obj: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` for the state classes below, at a fifth of its cost.

    Folding a hand copies its state a few hundred times, and ``replace`` (keyword arguments
    through ``__init__``) was the largest single cost in the simulation profiles. A copier is
    generated once per class and set of changed fields (each call site changes the same few),
    so it copies the others without asking which changed; an unknown field is a ``TypeError``.
    """
    key = (type(obj), *changes)
    copier = _COPIERS.get(key)
    if copier is None:
        copier = _COPIERS[key] = _make_copier(type(obj), tuple(changes))
    result: _T = copier(obj, **changes)
    return result


def _make_copier(cls: type, changed: tuple[str, ...]) -> Callable[..., Any]:
    names = [f.name for f in fields(cls)]
    unknown = [n for n in changed if n not in names]
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_setattr": object.__setattr__}
    lines = []
    for n in names:
        value = n if n in changed else f"obj.{n}"
        slot = getattr(cls.__dict__.get(n), "__set__", None)
        if slot is None:  # not a slotted class: set it by name
            lines.append(f"    _setattr(new, {n!r}, {value})")
        else:  # the slot's own descriptor sets it, with no attribute lookup by name
            scope[f"_set_{n}"] = slot
            lines.append(f"    _set_{n}(new, {value})")
    body = "\n".join(lines)
    source = f"def copy(obj, {', '.join(changed)}):\n    new = _new(_cls)\n{body}\n    return new\n"
    exec(source, scope)  # the source is built from the class's own field names only
    copier: Callable[..., Any] = scope["copy"]
    return copier


Step = Literal["deal", "setup", "discard", "claims", "rob", "draw", "replace", "ended"]
ReadyMode = Literal["plain", "open", "hidden", "dubao"]


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat in the hand. ``concealed`` is sorted and excludes ``drawn``."""

    concealed: tuple[Tile, ...] = ()
    drawn: Tile | None = None
    melds: tuple[Meld, ...] = ()
    discards: tuple[Tile, ...] = ()
    flowers: tuple[Tile, ...] = ()
    set_aside: tuple[Tile, ...] = ()  # 上大台: 混 laid aside
    ready: ReadyMode | None = None
    must_ready: bool = False  # won a 吃听 claim: the next discard must make the seat ready
    xianggong: bool = False  # 塘沽 相公: discarded a 混
    shown: bool = False  # 明楼: concealed tiles open to all
    has_drawn: bool = False
    has_discarded: bool = False

    @property
    def hand(self) -> tuple[Tile, ...]:
        """Every concealed tile, the drawn one last."""
        return self.concealed if self.drawn is None else self.concealed + (self.drawn,)

    @property
    def is_open(self) -> bool:
        return any(m.opens_hand for m in self.melds)


@dataclass(frozen=True, slots=True)
class Claim:
    """A seat's answer in a claim window."""

    kind: Literal["pass", "win", "chi", "pong", "kong", "ready_chi", "ready_pong"]
    tiles: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class ClaimWindow:
    """Open after a discard (or an 补杠 that can be robbed) until every asked seat answers."""

    tile: Tile
    from_seat: int
    options: tuple[tuple[int, tuple[str, ...]], ...]  # (seat, claim kinds it may make)
    answers: tuple[tuple[int, Claim], ...] = ()
    robbing: bool = False  # 抢杠: only wins, on an 补杠's tile

    def options_of(self, seat: int) -> tuple[str, ...]:
        return next((kinds for s, kinds in self.options if s == seat), ())

    def answer_of(self, seat: int) -> Claim | None:
        return next((claim for s, claim in self.answers if s == seat), None)

    @property
    def complete(self) -> bool:
        return len(self.answers) == len(self.options)


@dataclass(frozen=True, slots=True)
class HandState:
    """The hand in play. The live wall is ``wall[head:tail]``; replacements come from the tail."""

    number: int
    dealer: int
    dice: tuple[int, ...]
    wall: tuple[Tile, ...]
    head: int
    tail: int
    seats: tuple[SeatState, SeatState, SeatState, SeatState]
    turn: int
    step: Step = "discard"
    window: ClaimWindow | None = None
    bao: Tile | None = None
    bao_history: tuple[Tile, ...] = ()
    wildcards: frozenset[Tile] = frozenset()
    indicator_index: int | None = None  # 塘沽: the 混 indicator's place in the wall
    tail_draws: int = 0  # replacement draws so far (山东 counts stacks by them)
    after_kong: bool = False  # the seat to act drew a replacement (杠开)
    kong_fed_by: int | None = None  # 杠爆: the discarder of a kong's tile, until the next discard
    pending_kong: Meld | None = None  # an 补杠 waiting on the rob window
    claims_made: bool = False  # any 吃碰杠 yet, 暗杠 included (地和)
    last_draws: bool = False  # the tile in play was one of the last draws (自摸 only)
    seed: str | None = None
    wins: tuple[Win, ...] = ()  # set when the hand is won
    abandoned: bool = False  # 网管解散 mid-hand: ended with no winner and nothing paid
    system_moves: tuple[int, int, int, int] = (0, 0, 0, 0)  # turns 超时托管 played, per seat
    penalized: tuple[bool, bool, bool, bool] = (False, False, False, False)  # an escape penalty
    owed_move: int | None = None  # a seat whose wait ran out: the system moves for it now

    def seat(self, index: int) -> SeatState:
        return self.seats[index]

    def with_seat(self, index: int, seat: SeatState, **changes: Any) -> HandState:
        """The hand with one seat changed (and any other ``changes``), copied once."""
        seats = list(self.seats)
        seats[index] = seat
        return patch(self, seats=(seats[0], seats[1], seats[2], seats[3]), **changes)


@dataclass(frozen=True, slots=True)
class Series:
    """What a table carries from hand to hand."""

    next_dealer: int | None = None
    drawn_streak: int = 0  # 山东: consecutive 荒庄
    huangfan: int = 0  # 上海: the 荒番 count
    scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    level_scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    hands_played: int = 0  # at this table, every series counted (hand numbers run on)
    number: int = 1  # the series at this table (a seat leaving or 网管解散 starts the next)
    hands_in_series: int = 0
    ending: Literal["seat_left", "dissolved"] | None = None  # ends once the hand is settled


AutoplayMode = Literal["requested", "timeout"]  # 主动托管, 超时托管


@dataclass(frozen=True, slots=True)
class Presence:
    """Whether a seat's player is there to play, or the system plays it (托管)."""

    autoplay: AutoplayMode | None = None
    connected: bool = True
    dropped_at: int = 0  # the version its connection dropped at (or its hand began, if later)
    grace_over: bool = False  # it stayed away past the reconnect grace in this hand
    left: bool = False  # 主动逃跑: played by 托管 until the hand is settled

    @property
    def away(self) -> Literal["left", "dropped", "requested"] | None:
        """Why the system plays this seat at once, without waiting on it; None: it waits."""
        if self.left:
            return "left"
        if not self.connected:
            return "dropped"
        if self.autoplay == "requested":
            return "requested"
        return None


PRESENT = Presence()
ALL_PRESENT = (PRESENT, PRESENT, PRESENT, PRESENT)


@dataclass(frozen=True, slots=True)
class TableState:
    """A table: its settings, the series so far, and the hand in play (if any)."""

    table_id: str = ""
    variant_id: str = ""
    players: tuple[str, ...] = ()
    base_stake: int = 1
    options: tuple[tuple[str, bool], ...] = ()
    series: Series = field(default_factory=Series)
    hand: HandState | None = None
    hand_over: bool = False  # the last hand is settled; the next may start
    timing: Timing = field(default_factory=Timing)
    presence: tuple[Presence, Presence, Presence, Presence] = ALL_PRESENT
    version: int = 0  # events folded: the stream version of this state
    wait_since: int = 0  # the version at which what the table waits on last changed
    # the rules version the table is decided under (``TableOpened``); "": not open yet, or
    # a state built without one: the version this process opens tables under
    rules_version: str = ""
    # 关桌: the platform's close, asked for (its reason) and done (no hand or command after it)
    closing: str | None = None
    closed: bool = False

    @property
    def opened(self) -> bool:
        return bool(self.variant_id)

    @property
    def variant(self) -> Variant:
        """The table's variant under the table's rules version: its config, scoring and hooks
        (``RulesVersionUnavailable`` where this process lacks the version)."""
        return variant_in(self.rules_version, self.variant_id)

    def option(self, name: str) -> bool:
        return dict(self.options).get(name, False)

    def with_presence(self, seat: int, presence: Presence) -> TableState:
        seats = list(self.presence)
        seats[seat] = presence
        together = (seats[0], seats[1], seats[2], seats[3])
        return patch(self, presence=ALL_PRESENT if together == ALL_PRESENT else together)
