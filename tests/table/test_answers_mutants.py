"""Answers to a claim window that the mutation run of ``services/rules/table/answers.py`` found no
test holding: a 明杠 that names a tile must name the discard itself, a tile below it as much as one
above it.

Given a dealt hand and a discard, when a seat that may 杠 it answers naming another tile, then the
refusal (and nothing changes)."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table.commands import Kong

from .builders import STD, VARIANTS, Table, tail_for


def seat_three_may_kong_the_dealers_3p(variant: str) -> Table:
    """The standard deal: the dealer throws 3p, which seat 3 (holding 333p) may 碰 or 杠."""
    table = Table(variant)
    table.start(STD, tail=tail_for(variant))
    table.discard(0, "3p")
    assert "kong" in table.options_of(3)
    return table


@pytest.mark.parametrize("named", ["1m", "2p", "4p", "9s"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_kong_on_a_discard_that_names_another_tile_is_refused(variant: str, named: str) -> None:
    """002 明杠: 玩家手中有三张同样的牌，其他玩家所弃之牌与自己手中的牌一样时…可确定杠或者不杠 — the
    kong takes that very discard: naming any other tile, lower or higher than the discard, is
    refused with the discard named, and the seat may still answer."""
    table = seat_three_may_kong_the_dealers_3p(variant)
    assert table.refuse(Kong(seat=3, tile=named)) == f"the discard is 3p, not {named}"
    events = table.kong(3, "3p")
    assert ev.ClaimAnswered(seat=3, claim="kong") in events
