"""Every ``paiju`` command fails the same way: one line on stderr, ``paiju COMMAND: what was
wrong``, and a status that is not 0; whether its own check refused the input or its options
could not be read."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from services.cli.main import build_parser, main

TYPO = "postgresq://typo/paiju"  # a store URL no command can use
FAILING = {  # each command, given something it refuses
    "rules": ["rules", "score"],  # stdin: "{}" (no variant)
    "simulate": ["simulate", "--variant", "nope"],
    "play": ["play", "--variant", "nope"],
    "tables": ["tables", "--store", TYPO],
    "replay": ["replay", "t1", "--store", TYPO],
    "verify": ["verify", "--store", TYPO],
    "export": ["export", "t1", "--store", TYPO],
    "import": ["import", "{tmp}/no-such-export.jsonl"],
    "backup": ["backup", "{tmp}/backup.sqlite3", "--store", TYPO],
    "restore": ["restore", "{tmp}/no-such-backup", "--store", "sqlite:///{tmp}/new.sqlite3"],
    "webhooks": ["webhooks", "list", "--store", TYPO],
    "reactor": ["reactor", "--store", TYPO],
    "projector": ["projector", "--store", TYPO],
    "projections": ["projections", "rebuild", "no-such-projection"],
    "worker": ["worker", "--concurrency", "0"],
    "timekeeper": ["timekeeper", "--lease", "0"],
    "keys": ["keys", "revoke", "no-such-key"],
    "api": ["api", "--port", "99999"],
    "health": ["health", "--store", TYPO],
    "demo": ["demo", "--key", "", "--url", "http://127.0.0.1:9"],
    "cluster": ["cluster", "--workers", "0"],
    "serve": ["serve", "--pace", "99"],
    "placements": ["placements", "move"],
}


def commands() -> list[str]:
    parser = build_parser()
    subs = next(a for a in parser._actions if a.dest == "command")
    return sorted(subs.choices)  # type: ignore[arg-type]


def test_every_command_has_a_failing_case_here() -> None:
    assert sorted(FAILING) == commands()  # a new command: give it one above


def failed(argv: list[str], capsys: pytest.CaptureFixture[str],
           monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("{}"))
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse's refusal of an option
        status = int(exit_.code or 0)
    return status, capsys.readouterr().err


@pytest.mark.parametrize("command", sorted(FAILING))
def test_a_failing_command_says_one_line_naming_itself(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)  # a default store, if any command opened one, made here
    for name in ("PAIJU_STORE", "PAIJU_STORE_URL", "PAIJU_API_KEY", "PAIJU_WEBHOOK_URL"):
        monkeypatch.delenv(name, raising=False)
    argv = [part.replace("{tmp}", str(tmp_path)) for part in FAILING[command]]
    status, err = failed(argv, capsys, monkeypatch)
    lines = err.splitlines()
    named = f"paiju {command} score:" if command == "rules" else f"paiju {command}:"
    assert status != 0 and len(lines) == 1, err
    assert lines[0].startswith(f"{named} ") and len(lines[0]) > len(named) + 8, lines[0]


@pytest.mark.parametrize("command", ["tables", "verify", "serve"])
def test_an_option_a_command_lacks_is_named_by_that_command(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, err = failed([command, "--no-such-option"], capsys, monkeypatch)
    assert status == 2
    assert err == (f"paiju {command}: unrecognized arguments: --no-such-option"
                   f" (see paiju {command} --help)\n")  # fmt: skip
