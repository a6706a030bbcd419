"""A table's room (decision 18): given when it opens, recorded in table_opened for all to see;
a table opened with none (every table stored before rooms) is in room ""."""

from __future__ import annotations

import pydantic
import pytest

from services.rules.events import hand as ev
from services.rules.table import TableState, decide
from services.rules.table.commands import OpenTable
from services.rules.table.redact import event_for

PLAYERS = ("a", "b", "c", "d")


def test_the_room_a_table_opens_in_is_recorded_and_public() -> None:
    (opened,) = decide(TableState(), OpenTable(table_id="t", variant="harbin", players=PLAYERS,
                                               room="新手场"))  # fmt: skip
    assert isinstance(opened, ev.TableOpened) and opened.room == "新手场"
    for viewer in (0, 3, "spectator", "operator"):
        assert event_for(viewer, opened, TableState())["room"] == "新手场"


def test_a_table_opened_before_rooms_existed_is_in_no_room() -> None:
    stored = {"table_id": "t", "variant": "harbin", "players": list(PLAYERS), "base_stake": 1,
              "options": {}, "timing": {}}  # fmt: skip
    assert ev.TableOpened.model_validate(stored).room == ""
    (opened,) = decide(TableState(), OpenTable(table_id="t", variant="harbin", players=PLAYERS))
    assert isinstance(opened, ev.TableOpened) and opened.room == ""


def test_a_room_name_longer_than_64_characters_is_refused_naming_the_field() -> None:
    with pytest.raises(pydantic.ValidationError, match="room"):
        OpenTable(table_id="t", variant="harbin", players=PLAYERS, room="x" * 65)
