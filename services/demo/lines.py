"""The demo's printed lines: one event of a table as one line, and where to watch."""

from __future__ import annotations

from typing import Any

SHOWN = {
    "wait_timed_out": "⏱ time is up",
    "seat_autoplayed": "托管 plays",
    "penalty_adjudicated": "penalty",
    "hand_settled": "settled",
}
QUIET = {"bao_set_aside"}  # said by the lines around it


def line_of(table_id: str, item: dict[str, Any], autoplayed: int | None = None) -> str:
    """One event as one line: table, version, what happened and its public fields.
    ``autoplayed``: the seat 托管 moves for now (the ``seat_autoplayed`` just before)."""
    payload = _discard(item, autoplayed) if item["type"] == "tile_discarded" else item.get("payload") or {}
    fields = " ".join(
        f"{k}={v}" for k, v in payload.items() if k != "type" and v not in (None, [], {})
    )
    label = SHOWN.get(str(item["type"]), str(item["type"]))
    text = f"{table_id:<17} v{item['version']:<4} {label:<16} {fields}"
    return text if len(text) <= 160 else text[:157] + "..."


def _discard(item: dict[str, Any], autoplayed: int | None) -> dict[str, Any]:
    """A discard says who threw it when not its player: ``automatic=托管`` (the system moved for
    the seat) or ``automatic=last-draws`` (the rules throw the last draws' tiles). The event's own
    ``automatic`` is only the latter, so it alone would call a 托管 discard not automatic."""
    payload = dict(item.get("payload") or {})
    last_draws = payload.pop("automatic", False)
    if payload.get("seat") == autoplayed:
        payload["automatic"] = "托管"
    elif last_draws:
        payload["automatic"] = "last-draws"
    return payload


def autoplaying(item: dict[str, Any]) -> int | None:
    """The seat whose next move 托管 makes, after this event: a ``seat_autoplayed`` of a turn
    names it; the event after it is that move."""
    payload = item.get("payload") or {}
    if item["type"] == "seat_autoplayed" and payload.get("turn"):
        seat = payload.get("seat")
        return seat if isinstance(seat, int) else None
    return None


def notable(item: dict[str, Any]) -> bool:
    return str(item.get("type")) not in QUIET
