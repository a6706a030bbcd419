"""One attempt at a delivery: post the stored body, signed, and record what came of it.

A 2xx is delivered. Anything else (another status, a refused connection, a timeout) counts
an attempt and puts the next one off by exponential backoff with jitter, up to a cap; the
attempt that reaches ``max_attempts`` sets the delivery aside, where ``paiju webhooks list
--set-aside`` shows it and ``paiju webhooks resend KEY`` makes it pending again.

At least once: a result is recorded after the post, so a process that dies between the two
leaves the row leased, and it is posted again once the lease runs out. A receiver dedupes on
the signed body's ``idempotency_key`` (``signing.signed_key``), not on the unsigned header.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import httpx
import structlog

from ops.metrics import webhook_result
from workers.effects.outbox import SENDING, Outbox
from workers.effects.signing import KEY_HEADER, SIGNATURE_HEADER, signature_header

if TYPE_CHECKING:
    from services.settings import Settings

Result = Literal["delivered", "retry", "set_aside", "stale"]
USER_AGENT = "paiju-webhooks/1"
log = structlog.get_logger("paiju.webhooks")


@dataclass(frozen=True)
class WebhookConfig:
    """Where and how notifications go (``PAIJU_WEBHOOK_*`` in ``services.settings``)."""

    url: str
    secret: str
    max_attempts: int = 8
    backoff_base: float = 1.0  # seconds before the second attempt
    backoff_cap: float = 300.0  # the longest wait between two attempts
    timeout: float = 5.0  # per post: connect, read and write each

    def __post_init__(self) -> None:
        if not self.url.startswith(("http://", "https://")):
            raise ValueError(f"webhook url {self.url!r} must start with http:// or https://")
        if not self.secret:
            raise ValueError("a webhook secret is required: the platform checks the signature")
        if self.max_attempts < 1:
            raise ValueError("webhook max_attempts must be at least 1")
        if not 0 < self.backoff_base <= self.backoff_cap:
            raise ValueError("webhook backoff needs 0 < backoff_base <= backoff_cap")
        if self.timeout <= 0:
            raise ValueError("webhook timeout must be positive")


def webhook_config(settings: Settings) -> WebhookConfig | None:
    """The webhook settings of ``PAIJU_WEBHOOK_*``; None when no URL is set (nothing is sent).
    A URL without a secret, or a bad value, is a ``ValueError`` naming the variable."""
    if not settings.webhook_url:
        return None
    if settings.webhook_secret is None or not settings.webhook_secret.get_secret_value():
        raise ValueError("PAIJU_WEBHOOK_SECRET is not set: the platform checks each signature")
    try:
        return WebhookConfig(
            url=settings.webhook_url,
            secret=settings.webhook_secret.get_secret_value(),
            max_attempts=settings.webhook_max_attempts,
            backoff_base=settings.webhook_backoff_base,
            backoff_cap=settings.webhook_backoff_cap,
            timeout=settings.webhook_timeout,
        )
    except ValueError as error:
        raise ValueError(f"PAIJU_WEBHOOK_*: {error}") from None


def backoff(attempts: int, base: float, cap: float, rng: random.Random | None = None) -> float:
    """Seconds before the next attempt after ``attempts`` failed ones: ``base * 2**(n-1)``
    capped at ``cap``, then "equal jitter" (half fixed, half random), so retries of many
    deliveries spread out while the wait still grows."""
    ceiling = min(cap, base * 2.0 ** max(0, attempts - 1))
    draw: float = (rng or random).random()
    return ceiling / 2 + draw * ceiling / 2


def deliver(
    outbox: Outbox,
    key: str,
    token: str,
    config: WebhookConfig,
    client: httpx.Client | None = None,
    rng: random.Random | None = None,
) -> Result:
    """Post delivery ``key`` for the claim ``token`` and record the result (and count it).

    ``stale`` when the row is no longer this claim's to send (started by another message of
    the same claim, delivered, set aside, resent, or its lease ran out): nothing is posted,
    so a task the broker delivers twice, even to two workers at once, posts once."""
    return webhook_result(_deliver(outbox, key, token, config, client, rng))


def _deliver(
    outbox: Outbox,
    key: str,
    token: str,
    config: WebhookConfig,
    client: httpx.Client | None,
    rng: random.Random | None,
) -> Result:
    row = outbox.start(key, token, hold_seconds=2 * config.timeout + 5)
    if row is None:
        return "stale"
    token += SENDING  # the attempt's own token, which records the result
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        KEY_HEADER: key,
        SIGNATURE_HEADER: signature_header(config.secret, timestamp, row.body),
        "Paiju-Event-Type": row.event_type,
    }
    owned = client is None
    http = client or httpx.Client(timeout=config.timeout)
    try:
        response = http.post(config.url, content=row.body, headers=headers)
    except httpx.HTTPError as error:
        return _failed(outbox, key, token, row.attempts, None, _describe(error), config, rng)
    finally:
        if owned:
            http.close()
    if response.is_success:
        if not outbox.delivered(key, token, response.status_code):
            return "stale"
        log.info("webhook delivered", key=key, attempt=row.attempts + 1)
        return "delivered"
    reason = f"HTTP {response.status_code} {response.reason_phrase}".strip()
    return _failed(outbox, key, token, row.attempts, response.status_code, reason, config, rng)


def _failed(
    outbox: Outbox,
    key: str,
    token: str,
    attempts_before: int,
    http_status: int | None,
    error: str,
    config: WebhookConfig,
    rng: random.Random | None,
) -> Result:
    attempts = attempts_before + 1
    if attempts >= config.max_attempts:
        retry_in = None
    else:
        retry_in = backoff(attempts, config.backoff_base, config.backoff_cap, rng)
    if not outbox.failed(key, token, http_status, error[:500], retry_in):
        return "stale"
    result: Result = "retry" if retry_in is not None else "set_aside"
    log.warning("webhook failed", key=key, attempt=attempts, error=error, result=result,
                retry_in=retry_in)  # fmt: skip
    return result


def _describe(error: httpx.HTTPError) -> str:
    text = str(error) or type(error).__name__
    return f"{type(error).__name__}: {text}"
