"""Signing a webhook, and the check a platform runs on one it receives.

Header ``Paiju-Signature: t=<unix seconds>,v1=<hex>``, where ``v1`` is HMAC-SHA256 under the
shared secret of ``b"<t>." + body``. The timestamp is inside what is signed, so a captured
request cannot be replayed later with a fresh time; a receiver refuses one older than its
tolerance and dedupes on ``Idempotency-Key``. Each attempt is signed anew (its own ``t``).
"""

from __future__ import annotations

import hashlib
import hmac
import time

SIGNATURE_HEADER = "Paiju-Signature"
KEY_HEADER = "Idempotency-Key"
TOLERANCE_SECONDS = 300


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of ``<timestamp>.<body>`` under ``secret``."""
    message = str(timestamp).encode("ascii") + b"." + body
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret, timestamp, body)}"


def verify_signature(
    secret: str,
    header: str | None,
    body: bytes,
    *,
    tolerance: float = TOLERANCE_SECONDS,
    now: float | None = None,
) -> bool:
    """True when ``header`` signs exactly ``body`` under ``secret``, within ``tolerance``
    seconds of ``now``. A missing, malformed, stale or altered one is False."""
    if not header:
        return False
    parts: dict[str, str] = {}
    for item in header.split(","):
        name, sep, value = item.strip().partition("=")
        if not sep:
            return False
        parts.setdefault(name, value)
    stamp, given = parts.get("t", ""), parts.get("v1", "")
    if not stamp.isdigit() or not given:
        return False
    clock = time.time() if now is None else now
    if abs(clock - int(stamp)) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, int(stamp), body), given)
