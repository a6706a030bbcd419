"""``paiju play``: one whole hand, move by move, as a player reads it."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from services.cli import play_cmd
from services.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]


def play(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = play_cmd.main(build_parser().parse_args(["play", *argv]), out)
    return status, out.getvalue()


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "shandong", "shanghai", "tanggu"])
def test_play_prints_a_whole_hand_from_the_deal_to_the_settlement(variant: str) -> None:
    status, text = play("--variant", variant, "--seed", "play-test-0001")
    assert status == 0
    lines = text.splitlines()
    assert lines[0].startswith(f"{play_cmd.VARIANTS[variant].name} ({variant}), hand 1")
    assert sum(line.startswith("seat ") and " is dealt " in line for line in lines) == 4
    assert any(" draws " in line for line in lines)
    assert any(" discards " in line for line in lines)
    assert any(line.startswith("settlement: seat 0 ") for line in lines)
    assert lines[-1].startswith("next dealer: ")


def test_the_bao_is_shown_to_the_operator_and_a_win_names_its_patterns_fan_and_payments() -> None:
    texts = (play("--variant", "harbin", "--seed", f"play-win-{i:04d}")[1] for i in range(5))
    text = next(t for t in texts if " wins: " in t)  # the winning bots win nearly every hand
    assert "宝 set aside face down: " in text
    assert re.search(r"^seat \d wins: (自摸|点炮|抢杠) ", text, re.MULTILINE)
    assert re.search(r"^  patterns: \S+.*; 番 \d+$", text, re.MULTILINE)
    assert re.search(
        r"^  pays: seat 0 [+-]?\d+, seat 1 [+-]?\d+, seat 2 [+-]?\d+, seat 3 [+-]?\d+$",
        text,
        re.MULTILINE,
    )
    assert "the 宝 was " in text


def test_tiles_read_as_a_player_writes_them() -> None:
    assert play_cmd.face("5m") == "5m"
    assert play_cmd.face("7z") == "中"
    assert play_cmd.face("1f") == "春"
    assert play_cmd.faces(("7z", "1m", "9s")) == "1m 9s 中"


def test_play_is_the_same_hand_for_the_same_seed() -> None:
    assert play("--variant", "tanggu", "--seed", "same-0001") == play(
        "--variant", "tanggu", "--seed", "same-0001"
    )


def test_play_exits_2_on_an_unknown_variant_in_a_real_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "services.cli.main", "play", "--variant", "nope"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert "unknown variant 'nope'" in done.stderr
