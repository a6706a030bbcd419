"""Each event as one viewer may see it: a seat, a spectator, or an operator.

A client is sent these and never more than its seat may know: no other seat's draws or
deal, no wall or seed before the hand ends, no 宝 before the viewer is 听, no face of a
hidden 暗杠, no other seat's answer in a claim window.
"""

from __future__ import annotations

from typing import Any, Literal

from events.base import DomainEvent
from services.rules.table.state import TableState
from services.rules.tiles import name

Viewer = int | Literal["spectator", "operator"]


def _hidden_kong(table: TableState, seat: int) -> bool:
    hand = table.hand
    if hand is None:
        return True
    owner = hand.seat(seat)
    return not (table.variant.concealed_kong_shown_when_open and owner.is_open)


def _sees_bao(table: TableState, viewer: Viewer) -> bool:
    hand = table.hand
    return isinstance(viewer, int) and hand is not None and hand.seat(viewer).ready is not None


def event_for(viewer: Viewer, event: DomainEvent, before: TableState) -> dict[str, Any]:
    """The payload of ``event`` as ``viewer`` may see it, given the table just before it."""
    payload = event.model_dump(mode="json")
    if viewer == "operator":
        return payload
    kind = event.type
    seat = payload.get("seat")
    mine = isinstance(viewer, int) and viewer == seat
    if kind == "hand_started":
        payload["seed"] = None
        payload["wall"] = None
    elif kind == "tiles_dealt":
        payload["counts"] = [len(h) for h in payload["hands"]]
        payload["hands"] = [h if viewer == i else None for i, h in enumerate(payload["hands"])]
    elif kind == "bao_set_aside":
        payload["tile"] = None
    elif kind == "bao_changed" and not _sees_bao(before, viewer):
        payload["new"] = None
    elif kind == "flower_replaced" and not mine:
        payload["replacement"] = None
    elif kind == "tile_drawn" and not mine:
        payload["tile"] = None
    elif kind == "claim_answered" and not mine:
        payload["claim"] = None
        payload["tiles"] = []
    elif kind == "kong_declared" and not mine:
        if payload["kind"] == "concealed_kong" and _hidden_kong(before, int(payload["seat"])):
            payload["tiles"] = None
        payload["replacement"] = None
    elif (
        kind == "tile_discarded"
        and not mine
        and payload.get("ready") in before.variant.silent_ready_modes
    ):
        payload["ready"] = None  # a silent 听 (山东 暗楼, 塘沽's plain 听)
    elif (
        kind == "tile_discarded"
        and mine
        and payload.get("ready")
        and before.hand
        and before.hand.bao is not None
    ):
        payload["bao"] = name(before.hand.bao)  # 听: the seat now sees the 宝
    return payload
