"""托管 (decision 14): the rightmost tile as the client shows it, a 自摸 when there is one, else pass."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.bots.runner import open_table
from services.rules.table import decide, evolve
from services.rules.table.autoplay import autoplay_command, display_order
from services.rules.table.commands import DeclareWin, DiscardTile, PassClaim, StartHand
from services.rules.table.legal import legal_commands, seats_to_act
from services.rules.tiles import parse_tiles

from .helpers import VARIANTS, dealt, with_tiles


def test_the_display_order_sorts_by_suit_and_rank_with_the_drawn_tile_last() -> None:
    hand = tuple(parse_tiles("7z9s1p2m5z1m"))
    assert display_order(hand, parse_tiles("1m")[0]) == parse_tiles("1m2m1p9s5z7z1m")


def test_autoplay_discards_the_drawn_tile_which_the_client_shows_rightmost() -> None:
    table = with_tiles(dealt("shandong"), 0, "1m4m7m2p5p8p3s6s9s1z3z5z7z", drawn="2m")
    assert autoplay_command(table, 0) == DiscardTile(seat=0, tile="2m")


def test_without_a_drawn_tile_autoplay_discards_the_last_tile_in_suit_order_m_p_s_z() -> None:
    table = with_tiles(dealt("shandong"), 0, "1m4m7m2p5p8p3s6s9s1z3z5z6z2m")
    assert autoplay_command(table, 0) == DiscardTile(seat=0, tile="6z")


def test_autoplay_takes_a_self_drawn_win() -> None:
    table = with_tiles(dealt("shandong"), 0, "123m456p789s1112z", drawn="2z")
    assert autoplay_command(table, 0) == DeclareWin(seat=0)


def test_after_ready_autoplay_still_discards_the_drawn_tile() -> None:
    table = with_tiles(dealt("harbin"), 0, "123m456p789s1122m", drawn="9p")
    hand = table.hand
    assert hand is not None
    table = replace(table, hand=hand.with_seat(0, replace(hand.seat(0), ready="plain")))
    assert autoplay_command(table, 0) == DiscardTile(seat=0, tile="9p")


@pytest.mark.parametrize("variant", VARIANTS)
def test_four_autoplayed_seats_finish_a_hand_passing_every_claim_and_never_declaring_ready(
    variant: str,
) -> None:
    table, _ = open_table(variant)
    for event in decide(table, StartHand(seed=f"autoplay-{variant}-01")):
        table = evolve(table, event)
    while not table.hand_over:
        seat = seats_to_act(table)[0]
        command = autoplay_command(table, seat)
        assert command in legal_commands(table, seat)
        assert isinstance(command, (DiscardTile, PassClaim, DeclareWin))
        if isinstance(command, DiscardTile):
            assert command.ready is None
        hand = table.hand
        assert hand is not None
        if hand.step in ("claims", "rob"):
            assert isinstance(command, PassClaim)
        for event in decide(table, command):
            table = evolve(table, event)
