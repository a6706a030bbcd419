"""山东: ``The reading (sets and pair, or 七对) worth most 番 is taken`` (shandong.py, after
``002``: 各牌型番数可以叠加), whatever order the readings are found in."""

from __future__ import annotations

import pytest
from hands import win_context

from services.rules.scoring.shandong import score


@pytest.mark.parametrize(
    ("concealed", "win_tile"),
    [
        ("1166777888999m", "1m"),  # 111 777 888 999 + 66: 碰碰和 清一色, or 678 ×3: 清一色
        ("1133444555666s", "1s"),  # 111 444 555 666 + 33, or 345 456 456 …
    ],
)
def test_the_all_triplets_reading_is_taken_over_a_later_reading_worth_less(
    concealed: str, win_tile: str
) -> None:
    s = score(win_context("shandong", concealed, win_tile, discarder=1, dealer=3))
    assert set(s.patterns) == {"碰碰和", "清一色"}
    assert s.fan == 7
    assert s.payments == (35, -35, 0, 0)
