"""How long a table waits (``services/rules/variants/timing.py``): the defaults the documents give,
the range a table's override must keep, and a ``Timing`` that cannot change once made (issue 28:
the rules its mutants broke)."""

from __future__ import annotations

import dataclasses

import pytest

from services.rules.variants import VARIANTS
from services.rules.variants.timing import (
    MAX_SECONDS,
    Timing,
    timing_errors,
    timing_names,
    with_overrides,
)


def test_a_seat_in_timeout_autoplay_gets_three_seconds_each_turn_to_take_control_back() -> None:
    # 000: 在超时托管状态下，每次轮到当前玩家出牌时，进行倒计时3秒
    assert Timing().autoplay_window == 3


def test_a_dropped_seat_has_three_minutes_to_come_back() -> None:
    # 003: 逃跑处罚 ①断线超过3分钟
    assert Timing().reconnect_grace == 3 * 60


def test_the_turn_and_claim_countdowns_are_the_platforms_fifteen_and_eight_seconds() -> None:
    # No document gives them (Timing's docstring): the platform's choice, 15 s for a seat's own
    # turn and 8 s for a claim window, overridable per table.
    assert Timing().turn == 15
    assert Timing().claim == 8
    assert Timing().as_dict() == {
        "turn": 15,
        "claim": 8,
        "autoplay_window": 3,
        "reconnect_grace": 180,
    }


def test_every_variant_waits_by_the_default_timing_unless_the_table_overrides_it() -> None:
    assert all(v.config.timing == Timing() for v in VARIANTS.values())


def test_the_timings_a_table_may_override_are_named() -> None:
    assert timing_names() == ["turn", "claim", "autoplay_window", "reconnect_grace"]


@pytest.mark.parametrize("seconds", [1, 2, 10, MAX_SECONDS - 1, MAX_SECONDS])
def test_an_override_of_one_second_up_to_an_hour_is_accepted(seconds: int) -> None:
    assert MAX_SECONDS == 3600
    overrides = {name: seconds for name in timing_names()}
    assert timing_errors(overrides) == []
    assert with_overrides(Timing(), {"claim": seconds}) == Timing(claim=seconds)


@pytest.mark.parametrize("seconds", [0, -1, MAX_SECONDS + 1, 10**9])
def test_an_override_outside_one_second_to_an_hour_is_refused(seconds: int) -> None:
    assert timing_errors({"turn": seconds}) == [
        f"timing turn must be 1–{MAX_SECONDS} seconds, got {seconds!r}"
    ]


@pytest.mark.parametrize("value", [True, False, "5", 5.0, None])
def test_an_override_that_is_not_a_whole_number_of_seconds_is_refused(value: object) -> None:
    assert timing_errors({"claim": value}) == [  # type: ignore[dict-item]
        f"timing claim must be 1–{MAX_SECONDS} seconds, got {value!r}"
    ]


def test_an_unknown_timing_is_refused_once_naming_the_known_ones() -> None:
    assert timing_errors({"bogus": 5}) == [
        "unknown timing 'bogus' (known: turn, claim, autoplay_window, reconnect_grace)"
    ]
    assert timing_errors({"bogus": 5, "turn": 20}) == [
        "unknown timing 'bogus' (known: turn, claim, autoplay_window, reconnect_grace)"
    ]


def test_a_timing_cannot_be_changed_once_made_and_holds_only_its_fields() -> None:
    timing = Timing()
    with pytest.raises(dataclasses.FrozenInstanceError):
        timing.turn = 30  # type: ignore[misc]
    assert not hasattr(timing, "__dict__")
    assert with_overrides(timing, {"turn": 30}).turn == 30 and timing.turn == 15
