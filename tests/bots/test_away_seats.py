"""Simulated hands in which seats time out, drop, come back, ask for 托管 and leave at random
moments (``services.bots.away``): every path is taken, every invariant holds, and a seed repeats."""

from __future__ import annotations

import io
import json
from collections import Counter

import pytest

from services.cli.main import build_parser
from services.cli.simulate_cmd import run_variant

PATHS = (
    "turn timed out (超时托管)",
    "托管 window ran out",
    "reconnect grace ran out",
    "dropped",
    "came back",
    "主动托管",
    "取消托管",
    "left mid-hand (主动逃跑)",
    "series ended (seat_left)",
)


def test_seats_coming_and_going_take_every_path_and_every_invariant_holds() -> None:
    runs = {
        v: run_variant(v, 12, "away-paths", "mixed", False, away=0.08)
        for v in ("shanghai", "shandong", "harbin")
    }
    for run in runs.values():
        assert run.failure is None, run.failure
    taken: Counter[str] = Counter()
    for run in runs.values():
        taken.update(run.away)
    for path in PATHS:
        assert taken[path] > 0, (path, dict(taken))
    assert runs["shanghai"].away["penalty (left)"] + runs["shanghai"].away["penalty (dropped)"] > 0
    assert runs["shandong"].away["penalty (left)"] > 0
    assert not any(k.startswith("penalty") for k in runs["harbin"].away)  # 000/001: none


@pytest.mark.parametrize("variant", ["mudanjiang", "tanggu"])
def test_with_checks_after_every_event_seats_coming_and_going_replay_to_the_live_state(
    variant: str,
) -> None:
    run = run_variant(variant, 6, "away-check", "random", True, away=0.1)
    assert run.failure is None, run.failure
    assert run.away["托管 move (dropped, turn)"] + run.away["托管 move (left, turn)"] > 0


def test_the_same_seed_gives_the_same_seats_coming_and_going() -> None:
    first = run_variant("shanghai", 4, "same-away", "winning", False, away=0.1)
    again = run_variant("shanghai", 4, "same-away", "winning", False, away=0.1)
    assert (
        first.away == again.away and first.endings == again.endings and first.events == again.events
    )


def simulate(*argv: str) -> tuple[int, str]:
    from services.cli import simulate_cmd

    out = io.StringIO()
    status = simulate_cmd.main(build_parser().parse_args(["simulate", *argv]), out)
    return status, out.getvalue()


def test_the_report_counts_each_path_and_away_0_plays_without_any() -> None:
    status, text = simulate("--variant", "shandong", "--games", "3", "--away", "0.2", "--json")
    assert status == 0
    run = json.loads(text)["variants"]["shandong"]
    assert run["ok"] and sum(run["away"].values()) > 0
    status, text = simulate("--variant", "shandong", "--games", "3", "--away", "0", "--json")
    assert status == 0 and json.loads(text)["variants"]["shandong"]["away"] == {}


@pytest.mark.parametrize("rate", ["often", "1.5", "-0.1"])
def test_a_bad_away_rate_exits_2_naming_it(rate: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, text = simulate("--variant", "harbin", "--games", "1", "--away", rate)
    err = capsys.readouterr().err
    assert status == 2 and text == "" and "--away must be a chance between 0 and 1" in err
