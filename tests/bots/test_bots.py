"""The bots: only ever legal commands, deterministic, and the winning bot really wins."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from services.bots.random_bot import random_command
from services.bots.runner import BOTS, Bot, hand_seed, open_table, play_hand
from services.bots.winning_bot import winning_command
from services.rules.events import hand as ev
from services.rules.table import TableState, decide, evolve
from services.rules.table.commands import DeclareWin, DiscardTile, StartHand
from services.rules.table.legal import legal_commands, seats_to_act

from .helpers import VARIANTS, dealt, with_tiles


def checked_hand(variant: str, bot: Bot, seed: str) -> TableState:
    """One hand in which every command a bot gives is checked against ``legal_commands``."""
    table, _ = open_table(variant)
    rng = random.Random(seed)
    for event in decide(table, StartHand(seed=seed)):
        table = evolve(table, event)
    while not table.hand_over:
        seat = seats_to_act(table)[0]
        command = bot(table, seat, rng)
        assert command in legal_commands(table, seat), (variant, seed, command)
        for event in decide(table, command):
            table = evolve(table, event)
    return table


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("bot", ["random", "winning"])
def test_bots_only_ever_give_commands_the_rules_list_as_legal(variant: str, bot: str) -> None:
    table = checked_hand(variant, BOTS[bot], f"legal-{bot}-{variant}")
    assert table.hand_over


def test_the_same_seed_gives_a_bot_the_same_choices() -> None:
    table = dealt("shandong")
    assert random_command(table, 0, random.Random(7)) == random_command(table, 0, random.Random(7))
    assert winning_command(table, 0, random.Random(7)) == winning_command(
        table, 0, random.Random(7)
    )


def test_the_winning_bot_declares_a_self_drawn_win() -> None:
    table = with_tiles(dealt("shandong"), 0, "123m456p789s1112z", drawn="2z")
    assert winning_command(table, 0, random.Random(1)) == DeclareWin(seat=0)


def test_the_winning_bot_keeps_the_tiles_that_make_sets() -> None:
    table = with_tiles(dealt("shandong"), 0, "123m456p789s112z", drawn="5z")
    command = winning_command(table, 0, random.Random(1))
    assert isinstance(command, DiscardTile)
    assert command.tile in ("5z", "2z")  # the pair 1z and the three runs stay


def test_the_winning_bot_declares_ready_as_soon_as_it_may() -> None:
    table = with_tiles(dealt("shandong"), 0, "123m456p789s1122z", drawn="5z")
    command = winning_command(table, 0, random.Random(1))
    assert command == DiscardTile(seat=0, tile="5z", ready=command.ready)
    assert command.ready in ("hidden", "open")


@pytest.mark.parametrize("variant", ["harbin", "mudanjiang"])
def test_the_winning_bot_wins_most_hands_of_the_bao_variants(variant: str) -> None:
    table, _ = open_table(variant)
    endings: Counter[str] = Counter()
    for index in range(30):
        table, record = play_hand(
            table, hand_seed("most-hands", variant, index), [winning_command] * 4
        )
        endings["won" if any(isinstance(e, ev.HandWon) for e in record.events) else "drawn"] += 1
    assert endings["won"] >= 24, endings  # the bot wins about 29 in 30; a lot of slack for changes
