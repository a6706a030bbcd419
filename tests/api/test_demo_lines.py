"""The demo's printed lines say who threw a discard when its player did not: 托管, or the rules
throwing the last draws' tiles."""

from __future__ import annotations

from typing import Any

from services.demo.lines import autoplaying, line_of


def event(kind: str, version: int, **payload: Any) -> dict[str, Any]:
    return {"type": kind, "version": version, "payload": {"type": kind, **payload}}


def lines(*events: dict[str, Any]) -> list[str]:
    """Each event's line, as the demo prints them one after another."""
    shown, autoplayed = [], None
    for item in events:
        shown.append(line_of("east.1", item, autoplayed))
        autoplayed = autoplaying(item)
    return shown


def test_a_discard_played_by_托管_says_it_was_automatic() -> None:
    *_, discard = lines(event("seat_autoplayed", 40, seat=3, reason="timeout", turn=True),
                        event("tile_discarded", 41, seat=3, tile="9p", automatic=False))  # fmt: skip
    assert discard.endswith("seat=3 tile=9p automatic=托管")


def test_a_players_own_discard_says_nothing_of_automatic() -> None:
    shown = lines(event("seat_autoplayed", 40, seat=3, reason="timeout", turn=True),
                  event("tile_discarded", 41, seat=3, tile="9p"),
                  event("tile_drawn", 42, seat=0), event("tile_discarded", 43, seat=0, tile="1m"))  # fmt: skip
    assert "托管 plays" in shown[0] and "automatic=托管" in shown[1]
    assert "automatic" not in shown[3] and shown[3].endswith("seat=0 tile=1m")


def test_a_last_draws_throw_says_the_rules_threw_it() -> None:
    (line,) = lines(event("tile_discarded", 90, seat=1, tile="5s", automatic=True))
    assert line.endswith("seat=1 tile=5s automatic=last-draws")


def test_托管_answering_a_claim_window_marks_no_later_discard() -> None:
    *_, discard = lines(event("seat_autoplayed", 50, seat=2, reason="timeout", turn=False),
                        event("tile_discarded", 51, seat=2, tile="3z"))  # fmt: skip
    assert "automatic" not in discard
