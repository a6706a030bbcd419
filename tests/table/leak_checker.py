"""The leak checker: what a viewer was sent beyond what it may know, named by event, field, viewer.

Each secret is judged from the truth (the table before and after the event, the rules), never
from what the redaction code says:

- **tiles and the seed** (``secrets``): other seats' concealed and drawn tiles, the wall, a
  face-down 暗杠, the 宝 before the viewer's 听, the hand's seed until ``seed_revealed``;
- **who a claim window asked, and how they answered** (issue 21): the rules ask a seat by its
  concealed tiles, so a viewer may learn only whether it was asked itself. An answer, 托管's
  pass and the window's timeout must be sent to it just as the same event about any other seat
  would be (the event is redacted beside those others; a field that differs tells);
- **a face-down kong**: an 暗杠 (decision 4) and 塘沽's 风头杠 of the winds (``004``: "东""南""西""北"
  为一暗杠; 暗杠 反扣在自己牌前保密) are sent to the other seats just as an 暗杠 of other faces would
  be (a 风头杠's kind names its faces);
- **a silent 听** (``README`` decision 11: 暗楼 is a hidden 听; ``004``: 只有"独抱"需提前"报听"):
  the discard that declares one is sent to the other seats as the same discard without it;
- **room and player events** (decision 18, on room and player streams, at no table): for
  operators only, so any value of theirs sent to a seat or a spectator is a leak.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.events import presence as pe
from services.rules.table.state import TableState

from .secrets import KONG_FACES_SHOWN_WHEN_OPEN, Found, Viewer, event_leaks, secrets, view_leaks

Redact = Callable[[int | Literal["spectator", "operator"], DomainEvent, TableState], dict[str, Any]]
View = Callable[[TableState, int | None], dict[str, Any]]
VIEWERS: tuple[Viewer, ...] = (0, 1, 2, 3, None)
OPERATORS_ONLY_MODULES = frozenset({"services.rules.events.rooms", "services.rules.events.accounts"})
"""Where the room and player events are defined: no table's viewer is sent anything of them."""
SILENT_READY: dict[str, frozenset[str]] = {
    "shandong": frozenset({"hidden"}),  # 暗楼
    "tanggu": frozenset({"plain"}),  # every 听 but 独抱
}
"""Written out from the rules rather than read from the variant config, so that a wrong config
is caught, not agreed with."""
AUTOPLAY_REASONS: tuple[str, ...] = get_args(pe.SeatAutoplayed.model_fields["reason"].annotation)


@dataclass(frozen=True)
class Leak:
    """One leak: who was sent it, in which event's field (or the view after it), and what."""

    viewer: Viewer
    event: str
    field: str
    what: str
    in_view: bool = False

    def __str__(self) -> str:
        who = "spectator" if self.viewer is None else f"seat {self.viewer}"
        if self.in_view:
            return f"{who}'s view after {self.event}: {self.what}"
        return f"{who} sent {self.event}: {self.what}"


def _as(viewer: Viewer) -> int | Literal["spectator"]:
    return "spectator" if viewer is None else viewer


_ABSENT = object()


def _tells(
    redact: Redact, viewer: Viewer, event: DomainEvent, others: Iterable[DomainEvent],
    before: TableState, secret: str,
) -> list[Found]:  # fmt: skip
    """Each field in which ``event`` is sent to ``viewer`` otherwise than one of ``others``."""
    sent = redact(_as(viewer), event, before)
    found: dict[str, str] = {}
    for other in others:
        alike = redact(_as(viewer), other, before)
        for key in sorted((sent.keys() | alike.keys()) - {"type", *found}):
            mine, theirs = sent.get(key, _ABSENT), alike.get(key, _ABSENT)
            if mine != theirs:
                found[key] = (
                    f"{key} tells {secret}: sent {mine!r} where the same event "
                    f"{other.model_dump(mode='json')} would send {theirs!r}"
                )
    return list(found.items())


def _window_others(before: TableState, viewer: Viewer) -> list[int]:
    """The seats a claim window may have asked, but the viewer: all but the discarder."""
    hand = before.hand
    discarder = hand.window.from_seat if hand is not None and hand.window is not None else None
    return [s for s in range(4) if s not in (viewer, discarder)]


def _same_of_others(event: DomainEvent, before: TableState, viewer: Viewer) -> list[DomainEvent]:
    """The events a claim window's ``event`` must be sent to ``viewer`` alike with."""
    others = _window_others(before, viewer)
    if isinstance(event, ev.ClaimAnswered) and event.seat != viewer:
        return [ev.ClaimAnswered(seat=s, claim="pass") for s in others]
    if isinstance(event, pe.SeatAutoplayed) and not event.turn and event.seat != viewer:
        return [
            pe.SeatAutoplayed(seat=s, reason=r, turn=False)
            for s in others
            for r in AUTOPLAY_REASONS
        ]
    if isinstance(event, pe.WaitTimedOut) and event.wait == "claim":
        mine = tuple(s for s in event.seats if s == viewer)
        asked = [mine + (s,) for s in others] + [mine + tuple(others)] + ([mine] if mine else [])
        return [pe.WaitTimedOut(wait="claim", seats=tuple(sorted(a))) for a in asked]
    return []


def window_leaks(
    before: TableState, event: DomainEvent, viewer: Viewer, redact: Redact
) -> list[Found]:
    """Who a claim window asked, and their answers, are the other seats' tiles (issue 21)."""
    others = _same_of_others(event, before, viewer)
    secret = "which other seat a claim window asked, or its answer"
    return _tells(redact, viewer, event, others, before, secret) if others else []


def silent_ready_leaks(
    before: TableState, event: DomainEvent, viewer: Viewer, redact: Redact
) -> list[Found]:
    if not isinstance(event, ev.TileDiscarded) or event.seat == viewer:
        return []
    if event.ready not in SILENT_READY.get(before.variant_id or "", frozenset()):
        return []
    plain = event.model_copy(update={"ready": None})
    return _tells(redact, viewer, event, [plain], before, f"a silent 听 ({event.ready})")


FACE_DOWN = frozenset({"concealed_kong", "wind_kong"})


def face_down_kong_leaks(
    before: TableState, event: DomainEvent, viewer: Viewer, redact: Redact
) -> list[Found]:
    hand = before.hand
    if not isinstance(event, ev.KongDeclared) or event.seat == viewer or hand is None:
        return []
    if event.kind not in FACE_DOWN:
        return []
    if before.variant_id in KONG_FACES_SHOWN_WHEN_OPEN and hand.seat(event.seat).is_open:
        return []
    faces = "1m" if event.tiles[0] != "1m" else "9p"
    alike = event.model_copy(update={"kind": "concealed_kong", "tiles": (faces,) * 4})
    return _tells(redact, viewer, event, [alike], before, "the faces of a face-down kong")


def operator_only_leaks(
    before: TableState, event: DomainEvent, viewer: Viewer, redact: Redact
) -> list[Found]:
    if type(event).__module__ not in OPERATORS_ONLY_MODULES:
        return []
    sent = redact(_as(viewer), event, before)
    return [
        (key, f"{key} shows {value!r}: a room or player event is for operators only")
        for key, value in sent.items()
        if key != "type" and value is not None
    ]


CHECKS = (window_leaks, face_down_kong_leaks, silent_ready_leaks, operator_only_leaks)
"""The secrets that are not tiles, each ``(before, event, viewer, redact) -> found``."""


def _seed_of(before: TableState, event: DomainEvent, after: TableState) -> str | None:
    hand = after.hand if after.hand is not None else before.hand
    return None if isinstance(event, ev.SeedRevealed) or hand is None else hand.seed


def event_leaks_at(
    before: TableState,
    event: DomainEvent,
    after: TableState,
    redact: Redact,
    viewers: Sequence[Viewer] = VIEWERS,
) -> list[Leak]:
    """Every leak in ``event`` as each of ``viewers`` is sent it (``before``: the table just
    before it, ``after``: just after)."""
    seed = _seed_of(before, event, after)
    found: list[Leak] = []
    for viewer in viewers:
        facts = secrets(before, after, viewer, seed)
        sent = redact(_as(viewer), event, before)
        places = event_leaks(sent, facts)
        for check in CHECKS:
            places += check(before, event, viewer, redact)
        found += [Leak(viewer, event.type, field, what) for field, what in places]
    return found


def leaks_at(
    before: TableState,
    event: DomainEvent,
    after: TableState,
    redact: Redact,
    view: View,
    tight: bool = False,
) -> list[Leak]:
    """Every leak, to any seat or a spectator, in the event as sent and the view after it
    (``tight``: also check that the search reads every honest view whole)."""
    found = event_leaks_at(before, event, after, redact)
    if after.hand is None:
        return found
    seed = _seed_of(before, event, after)
    in_play = after.hand.step != "ended"
    for viewer in VIEWERS:
        now = secrets(after, after, viewer, seed)
        shown = view(after, viewer)
        found += [
            Leak(viewer, event.type, "", what, in_view=True)
            for what in view_leaks(shown, now, tight=tight and in_play)
        ]
    return found
