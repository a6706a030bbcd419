"""What ``play_commands`` offers is exactly what ``decide`` takes.

The offer skips, for speed, candidates that a cheap test shows the handler would refuse (a 自摸
whose tile completes nothing, a 风头杠 without the honours, an 暗杠 without four of a kind, an
上大台 without a drawn 混). Here every command a seat could name is put to ``decide`` at every
step of random hands, and each one it accepts must be on offer.
"""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.bots.winning_bot import winning_command
from services.rules.table import TableState, decide_and_evolve
from services.rules.table.commands import (
    Chow,
    Command,
    DeclareHonourKong,
    DeclareWin,
    DiscardTile,
    Kong,
    OpenTable,
    PassClaim,
    Pung,
    RaiseWildPair,
    StartHand,
)
from services.rules.table.legal import accepted, play_commands, seats_to_act
from services.rules.tiles import name

from .builders import VARIANTS

MAX_COMMANDS = 1500


def every_command(table: TableState, seat: int) -> list[Command]:
    """Every command a seat could give with the tiles it holds or may claim, however unlikely.

    (A claim window's 明杠 is offered as ``Kong(tile=None)``; naming the tile is the same claim.)
    """
    hand = table.hand
    assert hand is not None
    me = hand.seat(seat)
    window = hand.window if hand.step in ("claims", "rob") else None
    found: list[Command] = [
        DeclareWin(seat=seat),
        PassClaim(seat=seat),
        Pung(seat=seat),
        Pung(seat=seat, ready=True),
        Kong(seat=seat),
        RaiseWildPair(seat=seat),
        DeclareHonourKong(seat=seat, honours="dragons"),
        DeclareHonourKong(seat=seat, honours="winds"),
    ]
    for t in sorted(set(me.hand)):
        if window is None:
            found.append(Kong(seat=seat, tile=name(t)))
        found += [
            DiscardTile(seat=seat, tile=name(t), ready=mode)
            for mode in (None, *table.variant.config.ready_modes)
        ]
    if window is not None and window.tile < 27:
        low = window.tile - window.tile % 9
        for a, b in combinations(range(low, low + 9), 2):
            found += [Chow(seat=seat, tiles=(name(a), name(b)), ready=r) for r in (False, True)]
    return found


def offered(command: Command, offers: list[Command]) -> bool:
    return any(command.model_dump() == offer.model_dump() for offer in offers)


@settings(
    max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=8, max_size=12),
    choices=st.integers(0, 2**32 - 1),
)
def test_every_command_decide_accepts_is_on_offer(variant: str, seed: str, choices: int) -> None:
    rng = random.Random(choices)
    _, table = decide_and_evolve(
        TableState(), OpenTable(table_id="offers", variant=variant, players=("a", "b", "c", "d"))
    )
    _, table = decide_and_evolve(table, StartHand(seed=seed))
    for _ in range(MAX_COMMANDS):
        if table.hand_over:
            break
        for seat in {*seats_to_act(table), (table.hand.turn + 1) % 4}:  # type: ignore[union-attr]
            offers = play_commands(table, seat)
            missing = [
                c for c in every_command(table, seat) if accepted(table, c) and not offered(c, offers)
            ]
            assert not missing, f"accepted but not offered to seat {seat}: {missing}"
        seat = seats_to_act(table)[0]  # the winning bot, so that 自摸, 听 and kongs come up
        _, table = decide_and_evolve(table, winning_command(table, seat, rng))
    assert table.hand_over, "the hand did not end"
