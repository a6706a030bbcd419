"""吃听 and 碰听 count the claimed set as what it is (README 6: "A kong is a 刻; a 吃 is a 顺"):
the 听 a claim offers needs a 刻 and a 顺 on one reading, the claimed set included."""

from __future__ import annotations

import pytest

from .builders import BAO_VARIANTS, Table, tail_for

DEALER_QUIET = "147p258s369p4s5m6m8m"  # seat 0's 13 quiet tiles; its 14th is the tile it throws
NO_TRIPLET_BY_CHI = "23m456p789s11s46p9m"  # 吃 1m, throw 9m: waits on 5p, but holds no 刻
ONLY_TRIPLET_BY_PONG = "11m234p789s55s46p9m"  # 碰 1m, throw 9m: waits on 5p; the 碰 is its 刻


def _on_1m(variant: str, seat: int, hand: str) -> Table:
    table = Table(variant)
    table.start({0: DEALER_QUIET + "1m", seat: hand}, draws=["8p"], tail=tail_for(variant))
    table.discard(0, "1m")
    return table


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_chow_is_a_run_never_the_triplet_that_chi_ting_needs(variant: str) -> None:
    """A 吃 is a 顺: a hand with no 刻 (nor 红中 to stand in) is offered the 吃, not 吃听."""
    table = _on_1m(variant, 1, NO_TRIPLET_BY_CHI)
    assert "chi" in table.options_of(1) and "ready_chi" not in table.options_of(1)


def test_mudanjiang_a_pong_is_the_triplet_that_peng_ting_needs() -> None:
    """碰听: the claimed 碰 is a 刻, so a hand whose only 刻 it is may 听 on it."""
    table = _on_1m("mudanjiang", 3, ONLY_TRIPLET_BY_PONG)
    assert "pong" in table.options_of(3) and "ready_pong" in table.options_of(3)
