"""Only the server's own randomness deals a live hand, and a refused StartHand leaves nothing
behind: the issue's attack sealed a seed with a refused command and the next hand was dealt
from it."""

from __future__ import annotations

import pytest
from games import PLAYERS, Bots, accept, opened

from events.fairness import commit_seed
from events.store.base import EventStore, SeedError
from services.rules.table.commands import StartHand
from services.tables import Accepted, Rejected, TableService

PLANTED = "planted-by-whoever-can-send-a-command"


def test_a_refused_start_hand_seals_nothing_even_for_a_table_that_does_not_exist(
    store: EventStore,
) -> None:
    service = TableService(store, chosen_deals=True)
    outcome = service.handle("ghost", StartHand(seed=PLANTED), command_id="deal-ghost")
    assert isinstance(outcome, Rejected)
    with pytest.raises(SeedError):
        store.load_seed("ghost", 1)
    assert store.read_stream("ghost") == []
    assert store.find_command("deal-ghost", "ghost", None) is None


def test_a_start_hand_refused_while_a_hand_is_in_play_seals_nothing_for_the_next(
    store: EventStore,
) -> None:
    service = TableService(store, chosen_deals=True)
    service.open_table("t1", "shandong", PLAYERS, command_id="open")
    accept(service, "t1", StartHand(seed="the-first-hand-seed"), "deal-1")
    outcome = service.handle("t1", StartHand(seed=PLANTED), command_id="deal-2")
    assert isinstance(outcome, Rejected) and "in play" in outcome.reason
    with pytest.raises(SeedError):
        store.load_seed("t1", 2)


def test_a_live_service_refuses_a_chosen_seed_and_deals_the_next_hand_from_its_own(
    store: EventStore,
) -> None:
    service = TableService(store)
    state = opened(service)
    state = Bots(service).play_hand(state)
    outcome = service.handle("t1", StartHand(seed=PLANTED), command_id="plant")
    assert isinstance(outcome, Rejected) and "own randomness" in outcome.reason
    with pytest.raises(SeedError):
        store.load_seed("t1", 2)
    dealt = service.handle("t1", StartHand(), command_id="deal-2")
    assert isinstance(dealt, Accepted)
    deal = next(e for e in dealt.events if e.type == "hand_started")
    assert deal.payload["hand_number"] == 2
    seed = store.load_seed("t1", 2)
    assert seed != PLANTED and len(seed) == 64
    assert deal.payload["seed_commitment"] == commit_seed(seed) != commit_seed(PLANTED)


@pytest.mark.parametrize(
    "chosen",
    [StartHand(dealer=2), StartHand(dice=(6, 6)), StartHand(wall=("1m",) * 4)],
    ids=["dealer", "dice", "wall"],
)
def test_a_live_service_refuses_a_chosen_dealer_dice_or_wall(
    store: EventStore, chosen: StartHand
) -> None:
    service = TableService(store)
    service.open_table("t1", "harbin", PLAYERS, command_id="open")
    outcome = service.handle("t1", chosen, command_id="choose")
    assert isinstance(outcome, Rejected) and "own randomness" in outcome.reason
    assert [e.type for e in store.read_stream("t1")] == ["table_opened"]


def test_a_chosen_seed_that_differs_from_the_sealed_one_is_refused(store: EventStore) -> None:
    service = TableService(store, chosen_deals=True)
    service.open_table("t1", "harbin", PLAYERS, command_id="open")
    store.seal_seed("t1", 1, "sealed-before-the-command")
    outcome = service.handle("t1", StartHand(seed=PLANTED), command_id="deal")
    assert isinstance(outcome, Rejected) and "another seed" in outcome.reason
    assert store.load_seed("t1", 1) == "sealed-before-the-command"


def test_a_retried_deal_decided_on_a_later_table_seals_nothing_for_the_next_hand(
    store: EventStore,
) -> None:
    service = TableService(store, chosen_deals=True)
    service.open_table("t1", "harbin", PLAYERS, command_id="open")
    first = accept(service, "t1", StartHand(seed="the-first-hand-seed"), "deal-1")
    Bots(service).play_hand(first)  # the retry now finds a table where a deal is legal again
    again = service.handle("t1", StartHand(seed="the-first-hand-seed"), command_id="deal-1")
    assert isinstance(again, Accepted) and again.events[0].type == "hand_started"
    assert again.events[0].payload["hand_number"] == 1
    with pytest.raises(SeedError):
        store.load_seed("t1", 2)
