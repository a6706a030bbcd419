"""What a scorer is told and what it answers (``services/rules/scoring/base.py``): a win context
says nothing happened beyond the win unless the table says so, and a settlement moves points
between the seats without making or losing any (issue 28: the rules its mutants broke)."""

from __future__ import annotations

import dataclasses

import pytest

from services.rules.scoring.base import Settlement, WinContext
from services.rules.tiles import parse_tiles, tile

NOBODY = (False, False, False, False)


def plain_win() -> WinContext:
    return WinContext(
        variant="shandong",
        concealed=tuple(parse_tiles("123m456p789s1112z")),
        melds=(),
        win_tile=tile("2z"),
        self_drawn=True,
        seat=1,
        dealer=0,
    )


def test_a_win_context_says_nothing_happened_beyond_the_win_unless_told() -> None:
    ctx = plain_win()
    assert ctx.discarder is None
    assert ctx.ready == NOBODY and ctx.open_declared == NOBODY and ctx.xianggong == NOBODY
    assert ctx.bao is None and not ctx.win_tile_is_wild and ctx.wildcards == frozenset()
    assert ctx.flowers == (0, 0, 0, 0) and ctx.melds_by_seat == ((), (), (), ())
    assert not ctx.after_kong and not ctx.robbed_kong and ctx.kong_fed_by is None
    assert not ctx.first_draw and not ctx.huangfan_hand
    assert ctx.drawn_streak == 0
    assert ctx.base_stake == 1  # one 底注
    assert ctx.rules_version == ""


@pytest.mark.parametrize("payments", [(3, -1, -1, -1), (0, 0, 0, 0), (-8, 0, 8, 0)])
def test_a_settlement_moves_points_between_the_seats(payments: tuple[int, ...]) -> None:
    settled = Settlement(patterns=("自摸",), fan=1, payments=payments)  # type: ignore[arg-type]
    assert settled.payments == payments and settled.details == {}


@pytest.mark.parametrize("payments", [(3, -1, -1, 0), (1, 0, 0, 0), (-1, 0, 0, 0), (2, 0, 0, 0)])
def test_a_settlement_that_makes_or_loses_points_is_refused(payments: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="payments must sum to zero"):
        Settlement(patterns=(), fan=1, payments=payments)  # type: ignore[arg-type]


def test_a_win_context_and_a_settlement_cannot_be_changed_once_made() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        plain_win().seat = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settlement(patterns=(), fan=1, payments=(0, 0, 0, 0)).fan = 2  # type: ignore[misc]
