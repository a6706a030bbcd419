"""Hypothesis: any game played through the service replays, from the store alone, to the live state."""

from __future__ import annotations

import random
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.store import open_store
from services.bots.random_bot import random_command
from services.rules.table.commands import StartHand
from services.rules.table.legal import seats_to_act
from services.tables import Accepted, TableService
from services.tables.loader import load
from services.tables.verify import verify_table

PLAYERS = ("ann", "bo", "cy", "di")
SNAPSHOT_KEY = b"replay-property-snapshot-key"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(["mudanjiang", "harbin", "shandong", "shanghai", "tanggu"]),
    choices=st.integers(min_value=0, max_value=2**32),
    stop_after=st.integers(min_value=1, max_value=400),
)
def test_a_game_played_through_the_service_replays_from_the_store_to_the_live_state(
    variant: str, choices: int, stop_after: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/game.sqlite3")
        try:
            service = TableService(store, snapshot_every=50, snapshot_key=SNAPSHOT_KEY)
            service.open_table("t1", variant, PLAYERS, command_id="open")
            outcome = service.handle("t1", StartHand(), command_id="deal")
            assert isinstance(outcome, Accepted) and outcome.state is not None
            live, rng = outcome.state, random.Random(choices)
            for step in range(stop_after):  # stop anywhere: mid-hand too
                if live.hand_over:
                    break
                command = random_command(live, seats_to_act(live)[0], rng)
                outcome = service.handle("t1", command, command_id=f"step-{step}")
                assert isinstance(outcome, Accepted) and outcome.state is not None
                live = outcome.state
            assert load(store, "t1", use_snapshot=False).state == live
            assert load(store, "t1", snapshot_key=SNAPSHOT_KEY).state == live
            report = verify_table(store.read_stream("t1"))
            assert report.chain_break is None and report.first_divergence is None
            assert not report.seed_problems
        finally:
            store.close()
