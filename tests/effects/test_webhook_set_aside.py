"""A delivery that keeps failing is set aside where an operator sees it, and ``paiju webhooks
resend`` sends it again (SQLite and PostgreSQL), through the CLI as an operator runs it."""

from __future__ import annotations

import io
import json
import random
import time

import pytest
from effects_kit import Parts, Receiver, config_for, notified_keys, play_table

from events.store import open_store
from services.cli.main import build_parser
from services.tables import TableService
from workers.effects.delivery import backoff


def paiju(*argv: str) -> tuple[int, str]:
    args = build_parser().parse_args(list(argv))
    from services.cli import webhooks_cmd

    out = io.StringIO()
    status = webhooks_cmd.main(args, out)
    return status, out.getvalue()


def test_a_delivery_that_keeps_failing_is_set_aside_and_resend_delivers_it(
    store_url: str, receiver: Receiver
) -> None:
    store = open_store(store_url)
    play_table(TableService(store), "t1")
    parts = Parts(store_url, config_for(receiver, max_attempts=3))
    try:
        parts.reactor.catch_up()
        receiver.status = 503  # the platform answers, but fails every time
        for _ in range(50):  # bounded: 3 attempts each, 0.05-0.1 s apart
            parts.reactor.dispatch_due()
            if not parts.outbox.deliveries("pending"):
                break
            time.sleep(parts.outbox.seconds_to_next_due() or 0.0)  # the backoff, <= 0.2 s
        aside = parts.outbox.deliveries("set_aside")
        assert {d.key for d in aside} == notified_keys(store)
        assert all(d.attempts == 3 and d.last_status == 503 for d in aside)
        assert receiver.attempts.total() == 9 and not receiver.received
        status, listing = paiju("webhooks", "list", "--set-aside", "--store", store_url)
        assert status == 0
        lines = listing.splitlines()
        assert len(lines) == 4 and all("set_aside" in line and "HTTP 503" in line
                                       for line in lines[1:])  # fmt: skip
        settled = next(d for d in aside if d.event_type == "hand_settled")
        receiver.status = 200  # the platform is mended
        status, said = paiju("webhooks", "resend", settled.key, "--store", store_url)
        assert status == 0 and settled.key in said
        assert parts.reactor.dispatch_due() == 1
        assert receiver.received[settled.key] == 1
        assert json.loads(receiver.bodies[settled.key])["type"] == "hand_settled"
        assert parts.outbox.load(settled.key).status == "delivered"  # type: ignore[union-attr]
        assert len(parts.outbox.deliveries("set_aside")) == 2
    finally:
        parts.close()
        store.close()


def test_resending_a_key_that_is_not_there_is_one_line_naming_it(
    store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    open_store(store_url).close()
    status, _ = paiju("webhooks", "resend", "paiju-event-404", "--store", store_url)
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'paiju-event-404'" in err and "webhooks list" in err


def test_backoff_grows_exponentially_with_jitter_up_to_its_cap() -> None:
    rng = random.Random(7)
    waits = [backoff(n, base=1.0, cap=30.0, rng=rng) for n in range(1, 9)]
    ceilings = [min(30.0, 2.0 ** (n - 1)) for n in range(1, 9)]
    assert all(c / 2 <= w <= c for w, c in zip(waits, ceilings, strict=True))
    assert waits[-1] <= 30.0 and waits[4] > waits[0]
    assert len({round(backoff(5, 1.0, 30.0), 6) for _ in range(20)}) > 1  # jittered
