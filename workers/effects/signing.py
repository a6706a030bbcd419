"""Signing a webhook, and the check a platform runs on one it receives.

Header ``Paiju-Signature: t=<unix seconds>,v1=<hex>``, where ``v1`` is HMAC-SHA256 under the
shared secret of ``b"<t>." + body``. The timestamp is inside what is signed, so a captured
request cannot be replayed later with a fresh time; a receiver refuses one older than its
tolerance. Each attempt is signed anew (its own ``t``).

The delivery's id is the body's ``idempotency_key``, inside the MAC; the ``Idempotency-Key``
header is a copy of it for receivers that route on headers, and is not signed. A receiver
dedupes on the signed key (``signed_key``), and refuses a post whose header says otherwise:
else a captured post replayed within the tolerance under a new header value would pass for a
delivery not yet had.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time

SIGNATURE_HEADER = "Paiju-Signature"
KEY_HEADER = "Idempotency-Key"
TOLERANCE_SECONDS = 300
_STAMP = re.compile(r"[0-9]{1,12}")  # ASCII only: str.isdigit takes '²', which int refuses
_DIGEST = re.compile(r"[0-9a-f]{64}")


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
    if not _STAMP.fullmatch(stamp) or not _DIGEST.fullmatch(given):
        return False
    clock = time.time() if now is None else now
    if abs(clock - int(stamp)) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, int(stamp), body), given)


def signed_key(secret: str, header: str | None, body: bytes, key_header: str | None) -> str | None:
    """The delivery id a well-signed post carries inside its MAC (the body's
    ``idempotency_key``), or None: a bad signature, a body without one, or a ``key_header``
    (the unsigned ``Idempotency-Key``) that names another delivery."""
    if not verify_signature(secret, header, body):
        return None
    try:
        key = json.loads(body).get("idempotency_key")
    except (ValueError, AttributeError):
        return None
    if not isinstance(key, str) or (key_header is not None and key_header != key):
        return None
    return key
