"""The ``paiju rules analyze|score`` contracts of issue 2, through the pure cores and a subprocess."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from services.cli.rules_cmd import analyze_main, run_analyze, run_score, score_main

HARBIN_EXAMPLE = {"variant": "harbin", "hand": "11s88m789m345s", "melds": [{"kind": "pong", "tiles": "222p"}]}


def analyze(**request: Any) -> dict[str, Any]:
    status, text = run_analyze(json.dumps(request))
    assert status == 0, text
    return json.loads(text)  # type: ignore[no-any-return]


def score(**request: Any) -> dict[str, Any]:
    status, text = run_score(json.dumps(request))
    assert status == 0, text
    return json.loads(text)  # type: ignore[no-any-return]


def test_analyze_gives_the_waits_of_the_issue_example_in_mpsz_order() -> None:
    assert analyze(**HARBIN_EXAMPLE) == {"waits": ["8m", "1s"], "can_declare_ready": True, "blockers": []}


def test_analyze_names_the_blockers_of_a_closed_hand() -> None:
    out = analyze(variant="mudanjiang", hand="11s88m789m222p345s")
    assert out["can_declare_ready"] is False
    assert out["blockers"] == ["not open (开门): needs a 吃, 碰 or 明杠"]


def test_analyze_of_fourteen_tiles_gives_the_ready_discards() -> None:
    out = analyze(variant="mudanjiang", hand="333s234p789s37m", melds=[{"kind": "chi", "tiles": "678m"}])
    assert out == {"complete": False, "ready_discards": {"3m": ["7m"], "7m": ["3m"]}}


def test_analyze_says_a_complete_hand_is_complete() -> None:
    out = analyze(variant="harbin", hand="11s88m789m345s8m", melds=[{"kind": "pong", "tiles": "222p"}])
    assert out["complete"] is True
    assert out["ready_discards"]["8m"] == ["8m", "1s"]


def test_analyze_reads_tanggu_hun_as_wild() -> None:
    out = analyze(variant="tanggu", hand="125m456p789s1117z", wildcards="5m")
    assert out["waits"] == ["7z"]


def test_analyze_takes_a_held_bao_as_the_wild_draw_when_judging_complete() -> None:
    hand = "13m345s789s11s5p"  # waits on 2m; the 5p is the drawn 宝
    melds = [{"kind": "pong", "tiles": "222p"}]
    assert analyze(variant="harbin", hand=hand, melds=melds, wildcards="5p")["complete"] is True
    assert analyze(variant="harbin", hand=hand, melds=melds)["complete"] is False


def test_score_of_a_kadang_bao() -> None:
    out = score(
        variant="mudanjiang", hand="11s88m789m345s", melds=[{"kind": "pong", "tiles": "222p"}],
        win_tile="5p", self_drawn=True, seat=1, dealer=0, ready_declared=[True, True, False, False], bao="5p",
    )
    assert out == {"patterns": ["自摸", "摸宝", "卡当", "卡当宝"], "fan": 8, "payments": [-16, 32, -8, -8]}


def test_score_with_ready_declared_as_one_bool_makes_the_discarder_chuchong() -> None:
    out = score(**HARBIN_EXAMPLE, win_tile="1s", seat=1, dealer=1, discarder=2, ready_declared=True)
    assert out == {"patterns": ["平胡"], "fan": 1, "payments": [-4, 14, -6, -4]}


def test_score_accepts_flowers_as_a_count_or_a_list() -> None:
    base = dict(HARBIN_EXAMPLE, win_tile="1s", self_drawn=True, seat=1, dealer=0, ready_declared=True)
    assert score(**base, flowers=0) == score(**base, flowers=[0, 0, 0, 0]) == score(**base)


MALFORMED_ANALYZE = [
    ("{not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"hand": "123m"}', "'variant'"),
    ('{"variant": "sichuan", "hand": "1m"}', "unknown variant 'sichuan'"),
    ('{"variant": "harbin"}', "'hand'"),
    ('{"variant": "harbin", "hand": "11s88x"}', "hand: unknown character 'x'"),
    ('{"variant": "harbin", "hand": "11s88m789m345s1z"}', "1z is not a tile of"),
    ('{"variant": "harbin", "hand": "123m"}', "wrong tile count"),
    ('{"variant": "harbin", "hand": "1112345678999m1122p"}', "wrong tile count"),
    ('{"variant": "harbin", "hand": "11111m"}', "5 copies of 1m"),
    ('{"variant": "harbin", "hand": "1m", "melds": [{"kind": "chi", "tiles": "135m"}]}', "melds[0]: a chi"),
    ('{"variant": "harbin", "hand": "1m", "melds": [{"kind": "triple", "tiles": "111m"}]}', "unknown kind"),
    ('{"variant": "harbin", "hand": "1m", "melds": [{"tiles": "111m"}]}', "melds[0]"),
    ('{"variant": "shanghai", "hand": "1m", "wildcards": "5m"}', "no wildcards"),
]


@pytest.mark.parametrize(("text", "named"), MALFORMED_ANALYZE)
def test_malformed_analyze_input_exits_2_naming_the_problem(text: str, named: str) -> None:
    status, error = run_analyze(text)
    assert status == 2
    assert named in error
    assert "\n" not in error


GOOD_SCORE = {**HARBIN_EXAMPLE, "win_tile": "1s", "self_drawn": True, "seat": 1, "dealer": 0, "ready_declared": True}
MALFORMED_SCORE = [
    ({"seat": 4}, "seat must be a seat 0-3"),
    ({"seat": -1}, "seat must be a seat 0-3"),
    ({"seat": True}, "seat must be a seat 0-3"),
    ({"dealer": None}, "'dealer'"),
    ({"win_tile": None}, "'win_tile'"),
    ({"win_tile": "1s2s"}, "win_tile must be one tile"),
    ({"hand": "11s88m789m34s"}, "wrong tile count"),
    ({"self_drawn": False}, "discarder"),
    ({"discarder": 2}, "self-drawn win has no discarder"),
    ({"self_drawn": "yes"}, "self_drawn must be true or false"),
    ({"ready_declared": [True, True]}, "list of 4"),
    ({"flowers": -1}, "flowers must be"),
    ({"bao": "9z"}, "bao: "),
    ({"win_tile": "5m"}, "not four sets and a pair"),
    ({"ready_declared": False}, "听"),
]


@pytest.mark.parametrize(("change", "named"), MALFORMED_SCORE)
def test_malformed_score_input_exits_2_naming_the_problem(change: dict[str, Any], named: str) -> None:
    request = {k: v for k, v in {**GOOD_SCORE, **change}.items() if v is not None}
    status, error = run_score(json.dumps(request))
    assert status == 2, error
    assert named in error
    assert "\n" not in error


def test_the_main_wrappers_write_json_to_stdout_and_errors_to_stderr() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert analyze_main(io.StringIO(json.dumps(HARBIN_EXAMPLE)), out, err) == 0
    assert json.loads(out.getvalue())["waits"] == ["8m", "1s"]
    out, err = io.StringIO(), io.StringIO()
    assert score_main(io.StringIO("{}"), out, err) == 2
    assert out.getvalue() == "" and err.getvalue().count("\n") == 1


@pytest.mark.parametrize(
    ("command", "request_", "status"),
    [
        ("analyze", HARBIN_EXAMPLE, 0),
        ("score", GOOD_SCORE, 0),
        ("score", {"variant": "harbin"}, 2),
    ],
)
def test_the_module_runs_as_a_command(command: str, request_: dict[str, Any], status: int) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "services.cli.rules_cmd", command],
        input=json.dumps(request_), capture_output=True, text=True, encoding="utf-8", check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == status, done.stderr
    if status == 0:
        assert isinstance(json.loads(done.stdout), dict)
    else:
        assert done.stderr.startswith(f"paiju rules {command}: ") and done.stderr.count("\n") == 1


TANGGU_WIN = {"variant": "tanggu", "hand": "123m456p7s1z99s", "win_tile": "8s", "seat": 0, "dealer": 0, "discarder": 1, "wildcards": "12z"}


@pytest.mark.parametrize("meld", [{"kind": "pong", "tiles": "999p"}, {"kind": "chi", "tiles": "789p"}])
def test_score_gives_no_tanggu_men_qing_to_a_hand_with_an_exposed_pong_or_chi(meld: dict[str, str]) -> None:
    closed = score(**{**TANGGU_WIN, "hand": "123m456p7s1z99s999p"})
    assert "门清" in closed["patterns"]
    assert "门清" not in score(**TANGGU_WIN, melds=[meld])["patterns"]


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"meld": [{"kind": "pong", "tiles": "222p"}]}, "unknown key 'meld' (did you mean 'melds'?)"),
        ({"selfdrawn": True}, "unknown key 'selfdrawn' (did you mean 'self_drawn'?)"),
        ({"melds": [{"kind": "pong", "tiles": "222p", "from": 2}]}, "melds[0]: unknown key 'from'"),
        ({"win_tile": "5m", "ready_declared": False}, "not a complete hand: "),
        ({"win_tile": "5m"}, "not a complete hand: 78889m11345s with 5m and 1 meld"),
        ({"flowers": 1}, "flowers: 1 given, but 哈尔滨麻将 (harbin) has none"),
    ],
)
def test_score_refuses_what_it_would_have_misread(change: dict[str, Any], named: str) -> None:
    status, error = run_score(json.dumps({**GOOD_SCORE, **change}))
    assert status == 2 and named in error and "\n" not in error


def test_analyze_refuses_an_unknown_key() -> None:
    status, error = run_analyze(json.dumps({**HARBIN_EXAMPLE, "wildcard": "5p"}))
    assert status == 2 and "unknown key 'wildcard' (did you mean 'wildcards'?)" in error


SHANGHAI_WIN = {**GOOD_SCORE, "variant": "shanghai"}


def test_score_takes_the_eight_flowers_of_a_set_and_no_more() -> None:
    assert score(**SHANGHAI_WIN, flowers=[2, 3, 2, 1])["fan"] >= 0
    for flowers in (9, 9999, [2, 3, 2, 2]):
        status, error = run_score(json.dumps({**SHANGHAI_WIN, "flowers": flowers}))
        assert status == 2 and "but 上海敲麻 (shanghai) has only 8" in error


@pytest.mark.parametrize(
    ("stdin", "named"),
    [
        (b'\xff\xfe{"variant": "harbin"}', "input is not UTF-8: byte 0xff at offset 0"),
        (b"[" * 100_000 + b"]" * 100_000, "input is nested too deeply to be a request"),
    ],
)
@pytest.mark.parametrize("command", ["analyze", "score"])
def test_unreadable_input_is_one_line_in_a_real_process(command: str, stdin: bytes, named: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "services.cli.main", "rules", command],
        input=stdin, capture_output=True, check=False, cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == [f"paiju rules {command}: {named}"]


def test_empty_input_says_what_is_awaited() -> None:
    status, error = run_analyze("  \n")
    assert status == 2 and error == "input is empty: give one JSON object on stdin (paiju rules --help)"


def test_at_a_terminal_rules_says_it_is_reading_a_request() -> None:
    import os
    import pty

    terminal, their_end = pty.openpty()
    done = subprocess.Popen(
        [sys.executable, "-m", "services.cli.main", "rules", "analyze"],
        stdin=their_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )
    os.close(their_end)
    os.write(terminal, json.dumps(HARBIN_EXAMPLE).encode() + b"\n\x04")  # Ctrl-D ends the input
    out, err = done.communicate(timeout=120)
    os.close(terminal)
    assert done.returncode == 0
    assert err.decode() == "reading one JSON object from stdin; end it with Ctrl-D\n"
    assert json.loads(out)["waits"] == ["8m", "1s"]
