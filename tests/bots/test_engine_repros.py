"""Engine bugs the bots found, kept as reproductions: a seed, a dealer and the commands given.

A reproduction is marked ``xfail(strict=True)`` while the engine has the bug; once it is fixed
the marker goes and the test stays. A command the engine now refuses skips the test: the deal
changed and the reproduction is stale.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from services.bots.runner import open_table, stored
from services.rules.events import hand as ev
from services.rules.table import CommandRejected, decide, evolve, replay
from services.rules.table.commands import AnyCommand, StartHand
from services.rules.table.conservation import conservation_errors

REPROS = Path(__file__).parent / "repros"
COMMAND: TypeAdapter[AnyCommand] = TypeAdapter(AnyCommand)


def replay_repro(name: str) -> list[str]:
    """Give the recorded commands; check conservation after every event and replay at the end.

    Returns what followed each 换宝 made while a claim window was open (``claimed``, ``won`` on
    the discard, or ``passed``), so that a test sees its reproduction still reaches its case."""
    repro = json.loads((REPROS / name).read_text())
    table, opened = open_table(repro["variant"])
    start = table
    events = []
    commands = [StartHand(seed=repro["seed"], dealer=repro["dealer"])]
    commands += [COMMAND.validate_python(c) for c in repro["commands"]]
    followed: list[str] = []
    in_window = False
    for command in commands:
        try:
            produced = decide(table, command)
        except CommandRejected as error:  # the engine deals differently now: not this bug any more
            pytest.skip(f"the reproduction no longer applies ({error}); regenerate it")
        for event in produced:
            if isinstance(event, ev.BaoChanged) and table.hand and table.hand.step == "claims":
                in_window = True
            elif in_window and isinstance(event, (ev.TileClaimed, ev.HandWon, ev.TileDrawn)):
                followed.append(_outcome(event))
                in_window = False
            table = evolve(table, event)
            events.append(event)
            assert conservation_errors(table) is None, f"after {event!r}"
    assert replay((stored(e) for e in events), start) == table
    return followed


def _outcome(event: object) -> str:
    if isinstance(event, ev.TileClaimed):
        return "claimed"
    if isinstance(event, ev.HandWon):
        return "won" if not event.wins[0].self_drawn else "self-drawn"
    return "passed"


def test_a_discard_claimed_after_a_bao_change_leaves_every_tile_in_one_place() -> None:
    assert "claimed" in replay_repro("mudanjiang_bao_change_in_claim_window.json")


def test_a_win_on_a_discard_after_a_bao_change_leaves_every_tile_in_one_place() -> None:
    """Re-derived for decision 15's wall break: the first of the hands
    ``hand_seed("decision-15", "mudanjiang", i)`` played by the bots that shows this case."""
    assert "won" in replay_repro("mudanjiang_bao_change_before_a_discard_win.json")
