"""What a platform is told: one JSON body per event that concerns it.

The payload is the event as an operator may see it (``services.rules.table.redact``): never
a seat's hidden tiles beyond what an operator view shows, never a sealed seed (no notified
event carries one). The body's bytes are made once, stored in the outbox and signed as they
are, so every attempt posts the same bytes.
"""

from __future__ import annotations

import json
from typing import Any

from events.envelope import RecordedEvent
from services.rules.table.redact import POLICIES, shown

NOTIFIED = frozenset({"hand_settled", "penalty_adjudicated", "series_ended", "table_closed"})
"""The event types the platform is told of: 结算, 逃跑处罚, the end of a series, 关桌."""

KEY_PREFIX = "paiju-event-"


def idempotency_key(position: int) -> str:
    """The delivery's key, from the event's global position: a receiver dedupes on it, as the
    signed body carries it (the ``Idempotency-Key`` header is an unsigned copy)."""
    return f"{KEY_PREFIX}{position}"


def position_of(key: str) -> int:
    """The global position a key names (``ValueError`` for a key that is not one)."""
    digits = key.removeprefix(KEY_PREFIX)
    if key == digits or not digits.isdigit():
        raise ValueError(f"{key!r} is not a delivery key (they read {KEY_PREFIX}<position>)")
    return int(digits)


def operator_payload(event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` under the operator's column of the event's policy.

    The notified events' policies show the operator each field as it is; a rule that would
    need the table before the event (the 宝 once a seat is 听, say) cannot be applied here,
    so such a policy is refused rather than guessed at (fail closed)."""
    policy = POLICIES.get(event_type)
    if policy is None:
        raise ValueError(f"{event_type!r} has no visibility policy: it is not sent")
    out: dict[str, Any] = {}
    for field_name, field in policy.items():
        rule = field.operator
        if rule is None:
            continue
        if rule is not shown:
            raise ValueError(
                f"{event_type}.{field_name}: the operator's view depends on the table,"
                " which a notification does not fold"
            )
        if field_name in payload:
            out[field_name] = payload[field_name]
    return out


def notification_body(event: RecordedEvent) -> bytes:
    """The canonical JSON body for one notified event (sorted keys, UTF-8)."""
    if event.type not in NOTIFIED:
        raise ValueError(f"{event.type!r} is not an event the platform is told of")
    document = {
        "idempotency_key": idempotency_key(event.position),
        "table_id": event.stream_id,
        "type": event.type,
        "version": event.version,
        "position": event.position,
        "recorded_at": event.recorded_at.isoformat(),
        "payload": operator_payload(event.type, dict(event.payload)),
    }
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")
