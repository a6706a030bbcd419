"""What ``--help`` and ``--version`` tell a new user, and the one rule for a seed."""

from __future__ import annotations

import re

import pytest
from clirun import one_line, run, run_process

from services.bots.runner import hand_seed
from services.rules import RULES_VERSION
from services.rules.variants import VARIANTS

COMMANDS = ["rules", "simulate", "play", "tables", "replay", "export", "import"]


def help_of(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        run(capsys, command, "--help")
    assert exit_.value.code == 0
    return capsys.readouterr().out


def test_version_names_the_package_and_the_rules() -> None:
    done = run_process("--version")
    assert done.returncode == 0
    assert re.fullmatch(rf"paiju \S+ \({re.escape(RULES_VERSION)}\)\n", done.stdout)


@pytest.mark.parametrize("command", COMMANDS)
def test_each_subcommands_help_lists_the_variants(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(command, capsys)
    for vid, config in VARIANTS.items():
        assert re.search(rf"^  {vid} +{re.escape(config.name)}$", text, re.MULTILINE), vid


def test_rules_help_gives_the_json_each_action_reads(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of("rules", capsys)
    assert '{"variant": "harbin", "hand": "11s88m789m345s", "melds"' in text
    for key in ("win_tile", "self_drawn", "seat", "dealer", "discarder", "ready_declared", "bao", "wildcards", "flowers"):
        assert f'"{key}"' in text


@pytest.mark.parametrize("command", ["import", "export"])
def test_import_and_export_help_give_the_export_format(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(command, capsys)
    assert '{"format": "paiju table export", "version": 1, "table"}' in text
    assert '{"end", "events": N, "head": HASH}' in text


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_play_and_simulate_state_the_same_seed_rule(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(help_of(command, capsys).split())
    assert "--seed SEED any text of 1 to 128 characters (no control characters)" in text


@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize(
    ("seed", "says"),
    [("", "a seed is 1 to 128 characters, got 0"), ("x" * 129, "got 129"), ("a\nb", "no control characters")],
)
def test_play_and_simulate_refuse_the_same_seeds(command: str, seed: str, says: str) -> None:
    done = run_process(command, "--games" if command == "simulate" else "--variant", "1" if command == "simulate" else "harbin", "--seed", seed)
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert line.startswith(f"paiju {command}: argument --seed: ") and says in line


def test_play_deals_the_first_hand_simulate_deals_for_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("7", "a seed with spaces"):
        status, out, _ = run(capsys, "play", "--variant", "shanghai", "--seed", seed)
        assert status == 0
        assert out.splitlines()[0].endswith(f"hand 1, seed {hand_seed(seed, 'shanghai', 0)}")


def test_an_unknown_subcommand_or_option_is_one_line() -> None:
    for argv in (["bogus"], ["simulate", "--gmaes", "3"], ["replay", "t", "--hand", "two"]):
        done = run_process(*argv)
        assert done.returncode == 2
        assert "(see paiju" in one_line(done.stderr)
