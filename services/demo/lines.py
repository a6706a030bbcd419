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


def line_of(table_id: str, item: dict[str, Any]) -> str:
    """One event as one line: table, version, what happened and its public fields."""
    payload = item.get("payload") or {}
    fields = " ".join(
        f"{k}={v}" for k, v in payload.items() if k != "type" and v not in (None, [], {})
    )
    label = SHOWN.get(str(item["type"]), str(item["type"]))
    text = f"{table_id:<17} v{item['version']:<4} {label:<16} {fields}"
    return text if len(text) <= 160 else text[:157] + "..."


def notable(item: dict[str, Any]) -> bool:
    return str(item.get("type")) not in QUIET
