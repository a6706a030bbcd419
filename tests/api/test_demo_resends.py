"""A demo seat that takes a step again (its 202 never answered, a worker gone) sends what it
sent the first time under that id: the bot may choose another tile the second time, and the API
refuses an id that names another request (the soak found it, 422 after a worker restart)."""

from __future__ import annotations

from services.demo.http_demo import DemoTable, HttpDemo, Plan
from services.demo.player import Player

DISCARD_1M = {"command": "discard_tile", "seat": 2, "tile": "1m"}
DISCARD_9S = {"command": "discard_tile", "seat": 2, "tile": "9s"}


def _player() -> Player:
    return Player(DemoTable(HttpDemo("http://127.0.0.1:1", "no-key", Plan(tables=1), None), 0), 2)


def test_a_step_taken_again_under_its_id_resends_the_first_command() -> None:
    player = _player()
    assert player.once("t.1/v7/s2", DISCARD_1M) == DISCARD_1M
    assert player.once("t.1/v7/s2", DISCARD_9S) == DISCARD_1M


def test_a_new_step_sends_what_the_bot_chose_now() -> None:
    player = _player()
    player.once("t.1/v7/s2", DISCARD_1M)
    assert player.once("t.1/v9/s2", DISCARD_9S) == DISCARD_9S


def test_a_bot_at_a_human_pace_thinks_two_seconds_give_or_take_one() -> None:
    table = DemoTable(HttpDemo("http://127.0.0.1:1", "no-key", Plan(tables=1, pace=2.0, jitter=1.0), None), 0)
    bot = Player(table, 2)
    thoughts = [bot.thinking_time() for _ in range(200)]
    assert all(1.0 <= t <= 3.0 for t in thoughts)
    assert min(thoughts) < 1.5 and max(thoughts) > 2.5  # spread over the range, not one pace


def test_a_bot_at_full_speed_does_not_think() -> None:
    table = DemoTable(HttpDemo("http://127.0.0.1:1", "no-key", Plan(tables=1, pace=0.0, jitter=1.0), None), 0)
    assert Player(table, 1).thinking_time() == 0.0
