"""Client commands kept before they are queued (``claim_request``), on SQLite and a real
PostgreSQL alike: the first request under an id is kept, a later one is told the first's
fingerprint and, once recorded, its outcome; a recorded outcome wakes who asked."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from events.outcomes import CommandOutcome, CommandRequest, RequestStore
from events.store.base import EventStore


def requests(store: EventStore) -> RequestStore:
    assert isinstance(store, RequestStore)
    return store


def request(command_id: str, fingerprint: str = "f1") -> CommandRequest:
    return CommandRequest(command_id=command_id, table_id="t1", fingerprint=fingerprint,
                          body='{"command": {"command": "pass_claim", "seat": 1}}')  # fmt: skip


def refused(command_id: str) -> CommandOutcome:
    return CommandOutcome(command_id=command_id, table_id="t1", status="refused",
                          reason="no window", code="refused_by_rules", actor_kind="seat",
                          actor_seat=1)  # fmt: skip


def test_the_first_request_under_an_id_is_kept_and_a_second_is_told_of_it(
    store: EventStore,
) -> None:
    first = requests(store).claim_request(request("c:1", "f1"))
    assert first.first and first.outcome is None
    second = requests(store).claim_request(request("c:1", "f2"))
    assert not second.first
    assert second.request.fingerprint == "f1" and second.request.body == first.request.body
    assert second.outcome is None  # in flight: no worker has run it yet


def test_a_request_whose_command_ran_is_answered_with_its_outcome(store: EventStore) -> None:
    requests(store).claim_request(request("c:2"))
    store.record_outcome(refused("c:2"))  # type: ignore[attr-defined]
    again = requests(store).claim_request(request("c:2"))
    assert not again.first
    assert again.outcome is not None and again.outcome.code == "refused_by_rules"


def test_of_requests_racing_under_one_id_exactly_one_is_first(store: EventStore) -> None:
    with ThreadPoolExecutor(8) as pool:
        claims = list(pool.map(lambda n: requests(store).claim_request(request("c:race", f"f{n}")),
                               range(8)))  # fmt: skip
    firsts = [c for c in claims if c.first]
    assert len(firsts) == 1
    assert {c.request.fingerprint for c in claims if not c.first} == {firsts[0].request.fingerprint}


def test_recording_an_outcome_wakes_who_asked_for_it(store: EventStore) -> None:
    woken = threading.Event()
    stop = requests(store).on_outcome("c:3", woken.set)
    try:
        threading.Timer(0.2, lambda: store.record_outcome(refused("c:3"))).start()  # type: ignore[attr-defined]
        assert woken.wait(10)
    finally:
        stop()


def test_a_request_is_found_by_its_id_with_its_outcome(store: EventStore) -> None:
    assert requests(store).find_request("c:4") is None
    requests(store).claim_request(request("c:4", "f4"))
    found = requests(store).find_request("c:4")
    assert found is not None and found.request.fingerprint == "f4" and found.outcome is None
    store.record_outcome(refused("c:4"))  # type: ignore[attr-defined]
    found = requests(store).find_request("c:4")
    assert found is not None and found.outcome is not None


def test_a_request_left_without_an_outcome_is_claimed_to_be_sent_again_once_a_lease(
    store: EventStore,
) -> None:
    requests(store).claim_request(request("c:5"))
    requests(store).claim_request(request("c:6"))
    store.record_outcome(refused("c:6"))  # type: ignore[attr-defined]
    assert requests(store).claim_unanswered(older_than=3600, lease=60) == []  # too young
    claimed = requests(store).claim_unanswered(older_than=0, lease=60)
    assert [r.command_id for r in claimed] == ["c:5"]  # c:6 has its outcome
    assert claimed[0].body == request("c:5").body
    assert requests(store).claim_unanswered(older_than=0, lease=60) == []  # leased meanwhile
    assert [r.command_id for r in requests(store).claim_unanswered(older_than=0, lease=0)] == ["c:5"]
