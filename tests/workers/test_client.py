"""The client's side: a command resent under its id while no outcome comes, and ids refused
before anything is sent."""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from collections.abc import Iterator

import pytest
import redis
from worker_kit import REDIS_URL, forget_keys

from events.envelope import InvalidIdError
from events.outcomes import OutcomeTimeoutError
from events.store import open_store
from events.store.base import EventStore
from services.settings import load_settings
from workers.app import create_app
from workers.client import submit, submit_and_wait
from workers.logging import CORRELATION_HEADER
from workers.queues import QueueNames


@pytest.fixture
def unserved(tmp_path: object) -> Iterator[tuple[object, EventStore, str]]:
    """An app on the shared Redis (a prefix of its own) that no worker serves."""
    prefix = f"paiju-test-client-{os.getpid()}-{uuid.uuid4().hex[:8]}:"
    app = create_app(load_settings(broker_url=REDIS_URL, key_prefix=prefix))
    store = open_store(f"sqlite:///{tmp_path}/client.sqlite3")
    try:
        yield app, store, prefix
    finally:
        store.close()
        forget_keys(prefix)


def test_a_command_without_an_outcome_is_sent_again_under_its_id_until_the_time_is_up(
    unserved: tuple[object, EventStore, str],
) -> None:
    app, store, prefix = unserved
    with pytest.raises(OutcomeTimeoutError, match="c1"):
        submit_and_wait(app, store, "t1", {"command": "start_hand"}, command_id="c1",
                        timeout=2.5, resend_every=1.0)
    client = redis.Redis.from_url(REDIS_URL)
    with contextlib.closing(client):
        queued = client.lrange(f"{prefix}{QueueNames.commands}", 0, -1)
    headers = [json.loads(message)["headers"] for message in queued]
    assert len(headers) == 3  # sent, then again after 1 s and 2 s
    assert all("'command_id': 'c1'" in h["kwargsrepr"] for h in headers)
    assert len({h[CORRELATION_HEADER] for h in headers}) == 1  # one request, however often sent


@pytest.mark.parametrize(("table_id", "command_id"), [("t 1", "c1"), ("t1", "")])
def test_a_command_under_an_id_no_store_can_keep_is_refused_before_it_is_sent(
    unserved: tuple[object, EventStore, str], table_id: str, command_id: str
) -> None:
    app, _, prefix = unserved
    with pytest.raises(InvalidIdError):
        submit(app, table_id, {"command": "start_hand"}, command_id=command_id)
    client = redis.Redis.from_url(REDIS_URL)
    with contextlib.closing(client):
        assert client.llen(f"{prefix}{QueueNames.commands}") == 0
