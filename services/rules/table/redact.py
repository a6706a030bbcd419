"""Each event as one viewer may see it: an allow-list per event type and viewer.

Every event type has a policy naming, for each field, what each kind of viewer gets:

- ``owner``: the seat the event is about (its ``seat`` field);
- ``seats``: every other seat (every seat, for an event about no seat);
- ``spectator`` and ``operator``.

A rule gives the field as it is (``shown``), in a hidden form (``None``, a count, ``[]``), or
decides from the table just before the event (the 宝 once the viewer is 听). What no policy
names is not sent (fail closed): an event type with no policy goes out as its ``type`` alone, a
field with no rule is left out, and a rule of ``None`` for a viewer leaves the field out for
it. So a new event or field stays secret until its author says who may see it; a test holds
every registered event type to a policy that names each of its fields.

What the policies below keep (``docs/architecture.md``): no other seat's deal or draws, no wall
or seed before the hand ends, no 宝 before the viewer's 听, no face of a hidden 暗杠 (nor the kind
of a 风头杠 of the winds, which names its faces), no other seat's answer in a claim window, no
other seat a claim window asked (its answer, 托管's pass for it, its timeout: issue 21), no silent
听 (山东 暗楼, 塘沽's plain 听).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from events.base import DomainEvent
from services.rules.table.state import TableState
from services.rules.table.visibility import (
    asked_seats_seen,
    concealed_kong_faces_shown,
    ready_announced,
    sees_bao,
)
from services.rules.tiles import name

Viewer = int | Literal["spectator", "operator"]
Role = Literal["owner", "seats", "spectator", "operator"]


@dataclass(frozen=True, slots=True)
class Seen:
    """What a rule may look at besides the field's value: who looks, the event, the table."""

    viewer: Viewer
    payload: Mapping[str, Any]
    before: TableState


Show = Callable[[Any, Seen], Any]
"""``(the field's true value, context) -> what the viewer is sent`` (``OMIT``: nothing)."""


class _Omit:
    def __repr__(self) -> str:
        return "OMIT"


OMIT: Any = _Omit()
"""A rule's answer for a field this viewer is not sent at all."""


@dataclass(frozen=True, slots=True)
class Field:
    """One field's rule for each kind of viewer; ``None``: the field is left out for it."""

    owner: Show | None = None
    seats: Show | None = None
    spectator: Show | None = None
    operator: Show | None = None

    def rule(self, role: Role) -> Show | None:
        rule: Show | None = getattr(self, role)
        return rule


Policy = Mapping[str, Field]
"""Field name -> rule, for one event type."""


def shown(value: Any, seen: Seen) -> Any:
    return value


def hidden(value: Any, seen: Seen) -> None:
    return None


def hidden_as(form: Any) -> Show:
    """A hidden value shown as ``form`` (``[]`` for no tiles, say)."""
    return lambda value, seen: form


def everyone(rule: Show) -> Field:
    """The same rule for every viewer."""
    return Field(owner=rule, seats=rule, spectator=rule, operator=rule)


PUBLIC = everyone(shown)
PRIVATE = Field(owner=shown, seats=hidden, spectator=hidden, operator=shown)
"""Seen by the seat it is about (and the operator); the others get ``None``."""
SECRET = Field(owner=hidden, seats=hidden, spectator=hidden, operator=shown)
"""Seen by the operator only, until the hand's end reveals it in another event."""


def public(*fields: str) -> dict[str, Field]:
    return dict.fromkeys(fields, PUBLIC)


def role_of(viewer: Viewer, payload: Mapping[str, Any]) -> Role:
    if viewer == "operator" or viewer == "spectator":
        return viewer
    return "owner" if payload.get("seat") == viewer else "seats"


def apply(
    policy: Policy | None, viewer: Viewer, payload: Mapping[str, Any], before: TableState
) -> dict[str, Any]:
    """``payload`` (a model dump) as ``viewer`` may see it under ``policy``."""
    out: dict[str, Any] = {"type": payload.get("type")}
    if policy is None:
        return out
    role = role_of(viewer, payload)
    seen = Seen(viewer, payload, before)
    for field_name, field in policy.items():
        rule = field.rule(role)
        if rule is None:
            continue
        value = rule(payload.get(field_name), seen)
        if value is not OMIT:
            out[field_name] = value
    return out


# -- rules that depend on who looks and on the table ---------------------------------------------
def _own_hand_only(hands: list[Any], seen: Seen) -> list[Any]:
    return [h if seen.viewer == i else None for i, h in enumerate(hands)]


def _counts(value: Any, seen: Seen) -> list[int]:
    return [len(h) for h in seen.payload["hands"]]


def _bao_if_ready(tile: Any, seen: Seen) -> Any:
    viewer = seen.viewer
    return tile if isinstance(viewer, int) and sees_bao(seen.before.hand, viewer) else None


def _bao_learnt_on_ready(value: Any, seen: Seen) -> Any:
    """听: the discard that declares it tells the seat the 宝."""
    hand = seen.before.hand
    if seen.payload.get("ready") and hand is not None and hand.bao is not None:
        return name(hand.bao)
    return OMIT


def _ready_if_announced(mode: Any, seen: Seen) -> Any:
    return mode if ready_announced(seen.before.variant.config, mode) else None


FACE_DOWN_KONGS = frozenset({"concealed_kong", "wind_kong"})
"""Kongs laid face down: an 暗杠, and 塘沽's 风头杠 of the winds (``004``: "东""南""西""北"为一暗杠),
which its kind would name (it is always 东南西北), so to the others it is an 暗杠 like any."""


def _face_down(seen: Seen) -> bool:
    """An 暗杠 is face down to the others unless its owner must show it (decision 4)."""
    hand = seen.before.hand
    if seen.payload.get("kind") not in FACE_DOWN_KONGS:
        return False
    return hand is None or not concealed_kong_faces_shown(
        seen.before.variant.config, hand.seat(int(seen.payload["seat"]))
    )


def _kong_faces(tiles: Any, seen: Seen) -> Any:
    return None if _face_down(seen) else tiles


def _kong_kind(kind: Any, seen: Seen) -> Any:
    return "concealed_kong" if _face_down(seen) else kind


def _asked_seats(seats: Any, seen: Seen) -> Any:
    """A claim window's timeout names the seats it asked: to a seat, only itself."""
    if seen.payload.get("wait") != "claim":
        return seats
    viewer = seen.viewer
    return asked_seats_seen(seats, viewer if isinstance(viewer, int) else None)


def _on_turn_only(value: Any, seen: Seen) -> Any:
    """托管 on a seat's turn is public; its pass in a claim window would name a seat the window
    asked (and the reason, which seat of those in 托管), so the other seats are not told whose."""
    return value if seen.payload.get("turn") else None


def _each(policy: Policy) -> Show:
    """A list of nested models (the wins of a hand), each under its own policy."""
    return lambda items, seen: [apply(policy, seen.viewer, item, seen.before) for item in items]


WIN_POLICY: Policy = public(
    "seat", "tile", "self_drawn", "discarder", "robbed_kong", "after_kong", "wild",
    "concealed", "patterns", "fan", "payments",
)  # fmt: skip
"""A win lays its hand open to all."""

_KONG_TILES = Field(owner=shown, seats=_kong_faces, spectator=_kong_faces, operator=shown)
_KONG_KIND = Field(owner=shown, seats=_kong_kind, spectator=_kong_kind, operator=shown)
_READY = Field(
    owner=shown, seats=_ready_if_announced, spectator=_ready_if_announced, operator=shown
)
_ASKED = Field(owner=_asked_seats, seats=_asked_seats, spectator=_asked_seats, operator=shown)
_TURN_ONLY = Field(owner=shown, seats=_on_turn_only, spectator=_on_turn_only, operator=shown)
_NEW_BAO = Field(owner=_bao_if_ready, seats=_bao_if_ready, spectator=hidden, operator=shown)

POLICIES: dict[str, Policy] = {
    "table_opened": public(
        "table_id",
        "variant",
        "players",
        "base_stake",
        "options",
        "timing",
        "room",
        "rules_version",
    ),
    "hand_started": {
        **public("hand_number", "dealer", "dice", "seed_commitment", "wall_break"),
        "seed": SECRET,
        "wall": SECRET,
    },
    "tiles_dealt": {
        "hands": Field(
            owner=_own_hand_only,
            seats=_own_hand_only,
            spectator=hidden_as([None] * 4),
            operator=shown,
        ),
        "counts": everyone(_counts),
    },
    "bao_set_aside": {"tile": SECRET},
    "bao_changed": {"old": PUBLIC, "new": _NEW_BAO},
    "wildcards_revealed": public("indicator", "position_from_end", "wildcards"),
    "flower_replaced": {**public("seat", "flower"), "replacement": PRIVATE},
    "tile_drawn": {**public("seat", "from_tail", "last_draws"), "tile": PRIVATE},
    "tile_discarded": {
        **public("seat", "tile", "automatic"),
        "ready": _READY,
        "bao": Field(owner=_bao_learnt_on_ready),
    },
    "claim_answered": {
        "seat": PRIVATE,  # an answer tells that its seat was asked (issue 21)
        "claim": PRIVATE,
        "tiles": Field(owner=shown, seats=hidden_as([]), spectator=hidden_as([]), operator=shown),
    },
    "tile_claimed": public("seat", "kind", "tile", "from_seat", "tiles", "ready"),
    "kong_declared": {
        **public("seat"),
        "kind": _KONG_KIND,
        "tiles": _KONG_TILES,
        "replacement": PRIVATE,
    },
    "concealed_kongs_shown": public("seat", "tiles"),  # turned face up for all (decision 4)
    "hand_shown": public("seat", "tiles"),
    "wildcard_set_aside": public("seat", "tile"),
    "hand_won": {"wins": everyone(_each(WIN_POLICY))},
    "hand_drawn": {},
    "hand_settled": public(
        "payments",
        "hand_payments",
        "level_scores",
        "next_dealer",
        "drawn_streak",
        "huangfan",
        "hands",
        "bao",
    ),  # fmt: skip
    "seed_revealed": public("hand_number", "seed"),
    # who is away, timed out, left or paid is for every seat to see, as at a real table
    "autoplay_requested": public("seat"),
    "autoplay_cancelled": public("seat"),
    "seat_disconnected": public("seat"),
    "seat_reconnected": public("seat"),
    "seat_left": public("seat", "mid_hand"),
    "table_dissolved": public("reason", "mid_hand"),
    "table_close_requested": public("reason", "mid_hand"),
    "table_closed": public("reason", "hands"),
    # but not who a claim window asked: that is in their tiles (issue 21)
    "wait_timed_out": {"wait": PUBLIC, "seats": _ASKED},
    "seat_autoplayed": {"seat": _TURN_ONLY, "reason": _TURN_ONLY, "turn": PUBLIC},
    "penalty_adjudicated": public("seat", "cause", "rule", "amounts"),
    # a player's account, at no table (decision 18): for operators and support only
    "points_adjusted": dict.fromkeys(("player", "amount", "kind", "reason"), SECRET),
    # rooms and seating (decision 18), on room and player streams, at no table: operators only
    "room_configured": dict.fromkeys(
        (
            "room",
            "variant",
            "base_stake",
            "minimum_points",
            "turn_seconds",
            "claim_seconds",
            "options",
        ),
        SECRET,
    ),  # fmt: skip
    "player_seated": dict.fromkeys(("player", "table_id", "seat"), SECRET),
    "player_left_room": dict.fromkeys(("player", "table_id", "seat"), SECRET),
    "player_readied": dict.fromkeys(("player", "table_id", "seat"), SECRET),
    "room_table_started": dict.fromkeys(
        ("table_id", "players", "variant", "base_stake", "timing", "options"), SECRET
    ),
    "room_seat_claimed": dict.fromkeys(("player", "room"), SECRET),
    "room_seat_released": dict.fromkeys(("player", "room", "reason", "table_id", "points"), SECRET),
    "table_seat_claimed": dict.fromkeys(("player", "table_id"), SECRET),
    "table_seat_released": dict.fromkeys(("player", "table_id", "reason", "points"), SECRET),
    "series_ended": public("number", "reason", "hands"),
}
"""Every event type's policy. ``tests/table/test_redact.py`` holds each registered type to one."""


def event_for(viewer: Viewer, event: DomainEvent, before: TableState) -> dict[str, Any]:
    """The payload of ``event`` as ``viewer`` may see it, given the table just before it."""
    return apply(POLICIES.get(event.type), viewer, event.model_dump(mode="json"), before)
