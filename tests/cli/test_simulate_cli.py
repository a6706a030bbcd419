"""``paiju simulate``: every variant plays clean, one seed gives one game, and the contract lines hold."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from services.bots import runner
from services.bots.runner import hand_seed, open_table, play_hand
from services.bots.winning_bot import winning_command
from services.cli.main import build_parser
from services.cli.simulate_cmd import ENDINGS

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ("mudanjiang", "harbin", "shandong", "shanghai", "tanggu")


def simulate(*argv: str) -> tuple[int, str]:
    from services.cli import simulate_cmd

    out = io.StringIO()
    status = simulate_cmd.main(build_parser().parse_args(["simulate", *argv]), out)
    return status, out.getvalue()


def simulate_json(*argv: str) -> dict[str, Any]:
    status, text = simulate(*argv, "--json")
    assert status == 0, text
    return json.loads(text)  # type: ignore[no-any-return]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_few_hands_of_each_variant_run_clean_with_checks_after_every_event(variant: str) -> None:
    report = simulate_json("--variant", variant, "--games", "3", "--seed", "clean", "--check")
    run = report["variants"][variant]
    assert report["ok"] is True and run["ok"] is True
    assert run["hands"] == 3
    assert sum(run["endings"].values()) == 3


def event_stream(variant: str, seed: str, hands: int) -> list[dict[str, Any]]:
    table, _ = open_table(variant)
    events: list[dict[str, Any]] = []
    for index in range(hands):
        table, record = play_hand(table, hand_seed(seed, variant, index), [winning_command] * 4)
        events += [e.model_dump(mode="json") for e in record.events]
    return events


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_seed_gives_the_same_events(variant: str) -> None:
    first = event_stream(variant, "same-seed", 2)
    assert first == event_stream(variant, "same-seed", 2)
    assert first != event_stream(variant, "another-seed", 2)


def test_the_same_seed_gives_the_same_report_but_for_the_timings() -> None:
    def without_timings(report: dict[str, Any]) -> dict[str, Any]:
        for run in report["variants"].values():
            run.pop("seconds"), run.pop("hands_per_second")
        return report

    first = simulate_json("--variant", "harbin", "--games", "2", "--seed", "again")
    assert without_timings(first) == without_timings(
        simulate_json("--variant", "harbin", "--games", "2", "--seed", "again")
    )


def test_the_text_report_gives_hands_per_second_and_how_the_hands_ended() -> None:
    status, text = simulate(
        "--variant", "mudanjiang", "--games", "2", "--seed", "text", "--bot", "random"
    )
    assert status == 0
    lines = text.splitlines()
    assert "mudanjiang hands: 2" in lines
    assert any(line.startswith("mudanjiang hands per second: ") for line in lines)
    for ending in ENDINGS:
        assert any(line.startswith(f"mudanjiang ended {ending}: ") for line in lines)
    assert lines[-1] == "mudanjiang invariants: ok"


def test_the_report_counts_the_moments_of_play_that_led_to_the_endings() -> None:
    run = simulate_json("--variant", "shandong", "--games", "4", "--seed", "moments")["variants"][
        "shandong"
    ]
    assert run["seen"]["补花"] > 0  # 144 tiles with flowers: some are drawn in every hand
    assert sum(n for name, n in run["seen"].items() if name.startswith("听")) > 0


def test_variant_all_plays_every_variant() -> None:
    report = simulate_json("--variant", "all", "--games", "1", "--seed", "every")
    assert sorted(report["variants"]) == sorted(VARIANTS)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--variant", "riichi"], "unknown variant 'riichi'"),
        (["--games", "many"], "--games must be a whole number"),
        (["--games", "0"], "--games must be at least 1"),
        (["--bot", "clever"], "unknown bot 'clever'"),
        (["--check", "--store", "sqlite:///unused.sqlite3"], "--check replays in memory"),
    ],
)
def test_bad_arguments_exit_2_with_a_one_line_error(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, text = simulate(*argv)
    err = capsys.readouterr().err
    assert status == 2 and text == ""
    assert len(err.strip().splitlines()) == 1 and says in err


def test_a_broken_invariant_exits_1_naming_it_with_the_seed_and_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = {"n": 0}

    def broken(table: Any) -> str | None:
        calls["n"] += 1
        return "tiles missing: 5m; tiles twice: none" if calls["n"] > 100 else None

    monkeypatch.setattr(runner, "conservation_errors", broken)
    status, text = simulate("--variant", "harbin", "--games", "5", "--seed", "broken", "--json")
    assert status == 1
    failure = json.loads(text)["variants"]["harbin"]["failure"]
    assert "tile conservation" in failure["what"] and "5m" in failure["what"]
    assert failure["seed"] == "broken" and failure["hand_index"] >= 1
    assert failure["hand_seed"] == hand_seed("broken", "harbin", failure["hand_index"])
    assert failure["commands"][0]["command"] == "start_hand"


def test_dump_writes_the_failing_hand_as_a_reproduction(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = {"n": 0}

    def broken(table: Any) -> str | None:
        calls["n"] += 1
        return "tiles missing: 5m; tiles twice: none" if calls["n"] > 30 else None

    monkeypatch.setattr(runner, "conservation_errors", broken)
    status, text = simulate(
        "--variant", "tanggu", "--games", "2", "--seed", "dump", "--dump", str(tmp_path)
    )
    assert status == 1 and "tanggu invariants: FAILED at hand 0" in text
    (written,) = tmp_path.iterdir()
    repro = json.loads(written.read_text())
    assert repro["variant"] == "tanggu" and repro["seed"] == hand_seed("dump", "tanggu", 0)
    assert repro["dealer"] in range(4) and "5m" in repro["what"]
    assert all(c["command"] != "start_hand" for c in repro["commands"])


def test_the_paiju_command_exits_2_on_an_unknown_variant_in_a_real_process() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "services.cli.main",
            "simulate",
            "--variant",
            "nope",
            "--games",
            "1",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "paiju simulate: unknown variant 'nope'; known variants: harbin, mudanjiang, shandong, shanghai, tanggu, all"
    )
