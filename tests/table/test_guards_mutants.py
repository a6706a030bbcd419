"""Refusals that the mutation run of ``services/rules/table/guards.py`` found no test holding: a hand
that has ended (won or drawn) takes no more moves even before the table has settled it, and no seat
plays while the table itself deals, sets up, draws or draws a kong's replacement.

Given events (a ``Table`` driven by commands, folded up to a fact: the table as it stood right
after it, before the table's own next step), when a command, then the refusal and its reason."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.table import decide, replay
from services.rules.table.commands import DiscardTile, PassClaim
from services.rules.table.guards import CommandRejected
from services.rules.table.state import TableState
from services.rules.tiles import names

from .builders import STD, Table, concealed_kong_before_opening, play_out, tail_for


def folded_through(table: Table, kind: type[DomainEvent]) -> TableState:
    """The table as it stood right after the last ``kind`` fact (a fold of the events so far)."""
    last = max(i for i, e in enumerate(table.events) if isinstance(e, kind))
    return replay(table.events[: last + 1])


def refusal(state: TableState, command: DiscardTile | PassClaim) -> str:
    with pytest.raises(CommandRejected) as rejected:
        decide(state, command)
    return rejected.value.reason


def std_table(variant: str) -> Table:
    table = Table(variant)
    table.start(STD, tail=tail_for(variant))
    return table


# -- a hand that has ended -------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["harbin", "shandong"])
def test_a_drawn_hand_takes_no_more_moves_even_before_the_table_has_settled_it(
    variant: str,
) -> None:
    """000 荒庄: 桌面上的牌全部抓完而没有玩家能胡牌，则该局为荒庄 — the hand is over from that fact
    on, before the table has settled it: no seat discards or answers a claim, and the refusal says
    the hand has ended, not that the table is still drawing."""
    table = std_table(variant)
    play_out(table)
    ended = folded_through(table, ev.HandDrawn)
    assert ended.hand is not None and ended.hand.step == "ended" and not ended.hand_over
    seat = ended.hand.turn
    tile = names(ended.hand.seat(seat).hand)[0]
    assert refusal(ended, DiscardTile(seat=seat, tile=tile)) == "the hand has ended"
    assert refusal(ended, PassClaim(seat=(seat + 1) % 4)) == "the hand has ended"


# -- the table's own steps ---------------------------------------------------------------------------
def dealing() -> tuple[TableState, int, str]:
    """Right after the hand starts: the wall is built, nothing dealt yet; the dealer is seat 0."""
    table = std_table("harbin")
    return folded_through(table, ev.HandStarted), 0, "2m"


def setting_up() -> tuple[TableState, int, str]:
    """哈尔滨, right after the deal: the 宝 is not yet set aside; the dealer holds its 14 tiles."""
    table = std_table("harbin")
    return folded_through(table, ev.TilesDealt), 0, "8s"


def drawing() -> tuple[TableState, int, str]:
    """Seat 0 threw 8s, which nobody may claim: seat 1 is next, its tile not yet drawn."""
    table = std_table("shandong")
    table.discard(0, "8s")
    return folded_through(table, ev.TileDiscarded), 1, "3s"


def replacing() -> tuple[TableState, int, str]:
    """Seat 0 declared its 暗杠 of 1m: the replacement is not yet drawn from the tail."""
    table = concealed_kong_before_opening("shandong")
    return folded_through(table, ev.KongDeclared), 0, "8s"


@pytest.mark.parametrize("given", [dealing, setting_up, drawing, replacing])
def test_no_seat_plays_while_the_table_deals_sets_up_draws_or_draws_a_replacement(
    given: Callable[[], tuple[TableState, int, str]],
) -> None:
    """A seat discards on its own turn, after its draw or claim (000 取牌和出牌: 庄家从牌中选出一张
    最没用的牌丢出 — the dealer with its 14 tiles dealt): while the table deals, sets the 宝 aside,
    or draws the next tile or a kong's replacement, even the seat whose turn comes is told to
    wait, whatever tile it names."""
    state, seat, tile = given()
    assert state.hand is not None and state.hand.step in ("deal", "setup", "draw", "replace")
    assert state.hand.turn == seat
    assert refusal(state, DiscardTile(seat=seat, tile=tile)) == (
        "the table is dealing or drawing; wait for your turn"
    )
