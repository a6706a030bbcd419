"""塘沽's 风头杠 of the winds in the event stream: to the other seats it is an 暗杠 like any.

``004``: 风头杠：在首次摸牌前，"中""发""白"为一明杠，"东""南""西""北"为一暗杠; and an 暗杠 (自摸杠牌（称暗杠）
反扣在自己牌前保密) is face down. Its kind would name its faces (it is always 东南西北), so the
other seats are sent it as ``concealed_kong`` with no tiles, as their view shows it; its
replacement goes to its owner only. The stream sent ``wind_kong`` and 1234z to every seat
(found by the leak checker's walk, issue 28).
"""

from __future__ import annotations

from services.rules.events import hand as ev
from services.rules.table import TableState
from services.rules.table.redact import event_for

from .test_tanggu import DEALER, tanggu


def _declared() -> tuple[TableState, ev.KongDeclared]:
    table = tanggu({0: DEALER + "1m", 2: "1234z"}, indicator="9m", replacements=["5p"])
    before = table.state
    events = table.honour_kong(2, "winds")
    declared = table.of_type(ev.KongDeclared, events)[0]
    assert declared.kind == "wind_kong" and declared.replacement == "5p"
    return before, declared


def test_tanggu_a_feng_tou_gang_of_the_winds_is_sent_to_the_others_as_a_face_down_an_gang() -> None:
    before, declared = _declared()
    for viewer in (0, 1, 3, "spectator"):
        seen = event_for(viewer, declared, before)
        assert seen == {
            "type": "kong_declared",
            "seat": 2,
            "kind": "concealed_kong",
            "tiles": None,
            "replacement": None,
        }, viewer


def test_tanggu_a_feng_tou_gang_of_the_winds_is_sent_whole_to_its_owner_and_the_operator() -> None:
    before, declared = _declared()
    for viewer in (2, "operator"):
        seen = event_for(viewer, declared, before)
        assert (seen["kind"], seen["tiles"], seen["replacement"]) == (
            "wind_kong",
            ["1z", "2z", "3z", "4z"],
            "5p",
        )


def test_tanggu_a_feng_tou_gang_of_the_dragons_is_shown_to_all() -> None:
    """ "中""发""白"为一明杠: exposed, its kind and tiles for every seat."""
    table = tanggu({0: "567z147p258s369p1s" + "2s"}, indicator="9m")
    before = table.state
    declared = table.of_type(ev.KongDeclared, table.honour_kong(0, "dragons"))[0]
    for viewer in (1, 2, 3, "spectator"):
        seen = event_for(viewer, declared, before)
        assert (seen["kind"], seen["tiles"]) == ("dragon_kong", ["5z", "6z", "7z"])
