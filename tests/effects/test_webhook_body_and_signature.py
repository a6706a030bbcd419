"""What a notification carries and how a platform checks it: the operator's view of the
event, never a sealed seed; an HMAC over timestamp and body that any change breaks."""

from __future__ import annotations

import json
import time
import uuid
from datetime import UTC, datetime

import httpx
import pytest
from effects_kit import Receiver

from events.envelope import Actor, RecordedEvent
from events.hashchain import GENESIS_HASH
from services.rules.table.redact import POLICIES
from workers.effects.body import (
    NOTIFIED,
    idempotency_key,
    notification_body,
    operator_payload,
    position_of,
)
from workers.effects.signing import (
    KEY_HEADER,
    SIGNATURE_HEADER,
    signature_header,
    verify_signature,
)

SECRET = "s3cret"


def recorded(type_: str, payload: dict[str, object], position: int = 41) -> RecordedEvent:
    return RecordedEvent(
        stream_id="t9", version=17, position=position, event_id=uuid.uuid4(), type=type_,
        schema_version=1, payload=payload, recorded_at=datetime(2026, 12, 2, 1, 0, tzinfo=UTC),
        actor=Actor.system(), command_id=None, command=None, rules_version="test",
        prev_hash=GENESIS_HASH, hash=GENESIS_HASH,
    )  # fmt: skip


def test_every_notified_event_is_shown_to_an_operator_field_by_field_without_the_table() -> None:
    for event_type in NOTIFIED:
        fields = {name: name for name in POLICIES[event_type]}
        assert operator_payload(event_type, fields) == fields


def test_a_field_no_policy_names_is_not_sent() -> None:
    payload = {"seat": 1, "cause": "left", "rule": "003", "amounts": [1, -3, 1, 1], "seed": "x"}
    body = json.loads(notification_body(recorded("penalty_adjudicated", payload)))
    assert "seed" not in body["payload"] and body["payload"]["cause"] == "left"


def test_the_body_names_the_table_the_event_its_version_position_and_time() -> None:
    body = json.loads(notification_body(recorded("series_ended", {"number": 1, "reason": "left",
                                                                  "hands": 1})))  # fmt: skip
    assert body == {
        "idempotency_key": "paiju-event-41", "table_id": "t9", "type": "series_ended",
        "version": 17, "position": 41, "recorded_at": "2026-12-02T01:00:00+00:00",
        "payload": {"number": 1, "reason": "left", "hands": 1},
    }  # fmt: skip


def test_an_event_the_platform_is_not_told_of_is_refused() -> None:
    with pytest.raises(ValueError, match="hand_started"):
        notification_body(recorded("hand_started", {"seed": "never"}))


def test_a_key_comes_from_the_global_position_and_back() -> None:
    assert position_of(idempotency_key(1234)) == 1234
    with pytest.raises(ValueError, match="not a delivery key"):
        position_of("event-12")


def test_a_signature_holds_for_its_body_and_no_other() -> None:
    body = notification_body(recorded("series_ended", {"number": 1, "reason": "left", "hands": 1}))
    now = int(time.time())
    header = signature_header(SECRET, now, body)
    assert verify_signature(SECRET, header, body)
    assert not verify_signature(SECRET, header, body.replace(b'"t9"', b'"t8"'))
    assert not verify_signature(SECRET, header, body + b" ")
    assert not verify_signature("guess", header, body)
    stale = signature_header(SECRET, now - 3600, body)
    assert not verify_signature(SECRET, stale, body)  # replayed an hour later
    moved = header.replace(f"t={now}", f"t={now + 1}")  # a fresh time on an old signature
    assert not verify_signature(SECRET, moved, body)
    for broken in (None, "", "v1=abc", "t=x,v1=abc", f"t={now}", "garbage"):
        assert not verify_signature(SECRET, broken, body)


def test_a_malformed_signature_header_is_false_never_an_error() -> None:
    body = notification_body(recorded("series_ended", {"number": 1, "reason": "left", "hands": 1}))
    now = int(time.time())
    good = signature_header(SECRET, now, body).split("v1=")[1]
    for malformed in (
        f"t=²,v1={good}",  # a digit to str.isdigit, not to int
        f"t=1²,v1={good}",
        f"t={'9' * 5000},v1={good}",  # longer than int() takes
        f"t={'9' * 400},v1={good}",  # an int no float holds
        f"t=-{now},v1={good}",
        f"t={now},v1=é{good[1:]}",  # compare_digest takes no non-ASCII text
        f"t={now},v1={'z' * 64}",
        f"t=,v1={good}",
        "t=\x00,v1=\x00",
    ):
        assert verify_signature(SECRET, malformed, body) is False, malformed


def test_the_receiver_dedupes_on_the_signed_key_so_a_rewritten_header_is_no_new_delivery(
    receiver: Receiver,
) -> None:
    """``Idempotency-Key`` is outside the MAC: a replay within the tolerance under a new header
    value must not pass for a delivery the platform has not had."""
    body = notification_body(recorded("series_ended", {"number": 1, "reason": "left", "hands": 1}))
    signed = signature_header(receiver.secret, int(time.time()), body)
    with httpx.Client() as client:
        for header_key in ("paiju-event-41", "paiju-event-41", "paiju-event-999", None):
            headers = {SIGNATURE_HEADER: signed, "Content-Type": "application/json"}
            if header_key is not None:
                headers[KEY_HEADER] = header_key
            client.post(receiver.url, content=body, headers=headers)
    assert set(receiver.received) == {"paiju-event-41"}
    assert receiver.received["paiju-event-41"] == 3  # the header rewritten: refused, not counted
    assert receiver.forged == 1
