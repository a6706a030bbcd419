"""Issue 22, item 1: a 202 is a promise kept. Commands answered ``202 queued`` whose messages
were in Redis when Redis lost its data end in an outcome all the same, with no action by the
client.

``paiju serve`` distributed (API, worker, timekeeper, projector processes) on a PostgreSQL
schema and a private redis-server. The worker processes are frozen (SIGSTOP), so every seat's
command waits on the queue and is answered 202; Redis is restarted empty (the queue is gone),
then the workers go on. The API kept each command in the store before queueing it, and the
resender beside the timekeeper sends again what waits unanswered: every 202'd command ends
accepted or refused. Before, their outcome URLs said "queued" for ever (8 of 8).
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from fault_kit import PrivateRedis
from security.security_kit import Served, new_id, workers_stopped

TABLES = 3


@pytest.fixture
def served(private_redis: PrivateRedis, faults_pg_url: str, tmp_path: Path) -> Served:
    env = {
        "PAIJU_STORE_URL": faults_pg_url,
        "PAIJU_BROKER_URL": private_redis.url,
        "PAIJU_API_COMMAND_WAIT": "0.5",
        "PAIJU_TURN_SECONDS": "600",  # no timer moves the tables meanwhile
        "PAIJU_CLAIM_SECONDS": "600",
        "PAIJU_RESEND_AFTER": "3",  # 15 s by default, each claim leased for twice that
    }
    return Served(tmp_path, env, ["--apis", "1", "--workers", "1", "--timekeepers", "1",
                                  "--reactors", "0", "--projectors", "1"])  # fmt: skip


def outcome_of(http: httpx.Client, location: str, token: str, deadline: float) -> httpx.Response:
    """The outcome at ``location``, or the last 202 once ``time.monotonic()`` passes ``deadline``."""
    while True:
        answer = http.get(location, params={"wait": 5}, headers={"Authorization": f"Bearer {token}"})
        if answer.status_code != 202 or time.monotonic() > deadline:
            return answer


def test_commands_answered_202_before_redis_lost_its_data_all_end_in_an_outcome(
    served: Served, private_redis: PrivateRedis
) -> None:
    served.start(timeout=90)
    try:
        key = served.key()
        tables = [served.seated_table(key) for _ in range(TABLES)]
        promised: list[tuple[str, str]] = []  # (outcome URL, the seat's token)
        with served.client() as http:
            with workers_stopped(served):
                for table in tables:
                    for seat in range(4):
                        answer = http.post(f"/v1/tables/{table.table_id}/commands",
                                           json={"command": "request_autoplay", "seat": seat},
                                           headers={**table.seat(seat), "Idempotency-Key": new_id("k")})  # fmt: skip
                        assert answer.status_code == 202, answer.text
                        promised.append((answer.headers["Location"], table.tokens[seat]))
                private_redis.restart_empty()  # the queue, and every message on it, is gone
            deadline = time.monotonic() + 90  # the resender waits 3 s, then sweeps every 2 s
            outcomes = [outcome_of(http, url, token, deadline) for url, token in promised]
        assert [o.status_code for o in outcomes] == [200] * len(promised), [o.text for o in outcomes]
        assert {o.json()["status"] for o in outcomes} <= {"accepted", "refused"}
        assert sum(o.json()["status"] == "accepted" for o in outcomes) >= TABLES  # they ran
    finally:
        served.stop()
