"""Scoring configs and answers are values (``services/rules`` is pure): a table's options make a
new config (``dataclasses.replace``) and never change the defaults every other table shares."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields

import pytest
from hands import win_context

from services.rules.scoring import bao, shandong, shanghai, tanggu
from services.rules.scoring.shandong_patterns import HuaValues

SHARED = [bao.BAO_SCORING, shandong.DEFAULT, shanghai.DEFAULT, tanggu.DEFAULT, HuaValues()]


@pytest.mark.parametrize("config", SHARED, ids=lambda c: type(c).__name__)
def test_a_shared_scoring_config_cannot_be_changed_in_place(config: object) -> None:
    first = fields(config)[0].name  # type: ignore[arg-type]
    with pytest.raises(FrozenInstanceError):
        setattr(config, first, 0)


def test_a_win_and_its_settlement_cannot_be_changed_in_place() -> None:
    ctx = win_context("shandong", "123m456p789s234s5z", "5z", discarder=2, dealer=3)
    settled = shandong.score(ctx)
    with pytest.raises(FrozenInstanceError):
        ctx.seat = 1  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        settled.payments = (0, 0, 0, 0)  # type: ignore[misc]
