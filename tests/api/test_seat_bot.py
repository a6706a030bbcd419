"""The demo's bot as a player returning to the table: put in 超时托管 by its turn timer, it takes
its seat back (取消托管) before it moves again; in 主动托管 (asked for) it is left alone."""

from __future__ import annotations

import random

from services.demo.seat_bot import choose

LEGAL = [{"command": "cancel_autoplay", "seat": 1}, {"command": "pass_claim", "seat": 1}]


def _view(autoplay: str | None) -> dict[str, object]:
    presence = [{"autoplay": None, "connected": True, "left": False} for _ in range(4)]
    presence[1]["autoplay"] = autoplay
    return {"variant": "harbin", "presence": presence, "hand": {"seats": [{}] * 4, "window": {}}}


def test_a_bot_its_timer_put_in_autoplay_takes_its_seat_back_first() -> None:
    assert choose(_view("timeout"), 1, LEGAL, random.Random(1)) == LEGAL[0]


def test_a_bot_not_in_autoplay_never_cancels_it_and_plays_its_move() -> None:
    assert choose(_view(None), 1, LEGAL, random.Random(1)) == LEGAL[1]
