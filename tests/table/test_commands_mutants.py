"""The commands' own bounds and defaults that the mutation run of
``services/rules/table/commands.py`` found no test holding: a command is refused where it is read,
naming the field and its limit, at exactly one past each limit and never at the limit itself; a
field a platform leaves out takes the default the engine then plays by; four different players
sit at a table; and a command, once made, stays what it was.

Given the bounds of ``events.limits`` (the module says: "Every number a command carries is bounded
by ``events.limits`` ..., so a command is refused where it is read, naming the field and its
limit"), when a command is built at a limit or one past it, then it is a command, or a validation
error naming that field."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from events.limits import MAX_BASE_STAKE, MAX_VERSION
from services.rules.events import hand as ev
from services.rules.events import presence as pe
from services.rules.table import TableState, decide
from services.rules.table.commands import (
    AnyCommand,
    Chow,
    Command,
    DiscardTile,
    DissolveTable,
    OpenTable,
    Pung,
    StartHand,
    TimeOut,
)

from .builders import STD, VARIANTS, Table, tail_for

PLAYERS = ("east", "south", "west", "north")
A_PLATFORM = TypeAdapter(AnyCommand)  # how a platform's JSON becomes a command


def refused(model: type[Command], **fields: Any) -> dict[str, Any]:
    """The one validation error building ``model`` from ``fields`` raises."""
    with pytest.raises(ValidationError) as raised:
        model(**fields)
    (error,) = raised.value.errors()
    return dict(error)


def open_table(**fields: Any) -> OpenTable:
    return OpenTable(**{"table_id": "t-1", "variant": "harbin", "players": PLAYERS, **fields})


def refused_opening(**fields: Any) -> dict[str, Any]:
    return refused(OpenTable, **{"table_id": "t-1", "variant": "harbin", "players": PLAYERS,
                                 **fields})  # fmt: skip


# -- a command stays what it was ----------------------------------------------------------------
def test_a_command_once_made_cannot_be_changed() -> None:
    """A command is what a seat, the system or an operator asked: once made (and perhaps logged
    or queued) it cannot be edited into another, and equal commands are one and the same."""
    discard = DiscardTile(seat=0, tile="1m")
    with pytest.raises(ValidationError, match="frozen"):
        discard.seat = 2  # type: ignore[misc]
    with pytest.raises(ValidationError, match="frozen"):
        open_table().players = ("a", "a", "a", "a")  # type: ignore[misc]
    assert discard.seat == 0
    assert len({discard, DiscardTile(seat=0, tile="1m")}) == 1


def test_a_command_names_no_field_it_does_not_have() -> None:
    """A field the command does not know is refused, not silently dropped."""
    error = refused(DiscardTile, seat=0, tile="1m", readdy="open")
    assert error["loc"] == ("readdy",) and error["type"] == "extra_forbidden"


# -- OpenTable -----------------------------------------------------------------------------------
def test_a_table_id_of_one_character_opens_a_table() -> None:
    (opened,) = decide(TableState(), open_table(table_id="t"))
    assert isinstance(opened, ev.TableOpened) and opened.table_id == "t"


def test_an_empty_table_id_is_refused_naming_the_field() -> None:
    """A table needs a name to be found by: "" is none."""
    error = refused_opening(table_id="")
    assert error["loc"] == ("table_id",) and error["type"] == "string_too_short"
    assert error["ctx"] == {"min_length": 1}


def test_a_table_opened_with_no_stake_plays_for_a_stake_of_one() -> None:
    """limits: 底注 "from 1": a platform that names no stake gets the smallest, 1, in the
    table's own record."""
    command = A_PLATFORM.validate_python(
        {"command": "open_table", "table_id": "t-1", "variant": "harbin", "players": PLAYERS}
    )
    assert command == open_table() and command.base_stake == 1
    table = Table("harbin")
    (opened,) = table.of_type(ev.TableOpened)
    assert opened.base_stake == 1 and table.state.base_stake == 1


@pytest.mark.parametrize("stake", [1, MAX_BASE_STAKE])
def test_a_stake_from_one_to_the_limit_opens_a_table(stake: int) -> None:
    (opened,) = decide(TableState(), open_table(base_stake=stake))
    assert isinstance(opened, ev.TableOpened) and opened.base_stake == stake


@pytest.mark.parametrize(("stake", "kind", "limit"), [
    (0, "greater_than_equal", {"ge": 1}),
    (-1, "greater_than_equal", {"ge": 1}),
    (MAX_BASE_STAKE + 1, "less_than_equal", {"le": MAX_BASE_STAKE}),
])  # fmt: skip
def test_a_stake_below_one_or_past_the_limit_is_refused_naming_the_field(
    stake: int, kind: str, limit: dict[str, int]
) -> None:
    """limits: 底注 "from 1" to ``MAX_BASE_STAKE``: a table for nothing is no table."""
    error = refused_opening(base_stake=stake)
    assert error["loc"] == ("base_stake",) and error["type"] == kind and error["ctx"] == limit


def test_a_room_name_of_64_characters_is_recorded_whole() -> None:
    """Decision 18: the platform's room the table is in, up to 64 characters."""
    (opened,) = decide(TableState(), open_table(room="房" * 64))
    assert isinstance(opened, ev.TableOpened) and opened.room == "房" * 64


def test_a_room_name_of_65_characters_is_refused_naming_the_field_and_its_limit() -> None:
    error = refused_opening(room="x" * 65)
    assert error["loc"] == ("room",) and error["type"] == "string_too_long"
    assert error["ctx"] == {"max_length": 64}


@pytest.mark.parametrize(("players", "message"), [
    (("a", "a", "c", "d"), "'a' is in seats 0, 1"),
    (("a", "b", "c", "a"), "'a' is in seats 0, 3"),
    (("a", "b", "b", "d"), "'b' is in seats 1, 2"),
    (("a", "b", "a", "a"), "'a' is in seats 0, 2, 3"),
    (("z", "z", "z", "z"), "'z' is in seats 0, 1, 2, 3"),
])  # fmt: skip
def test_a_player_in_two_seats_of_a_table_is_refused_naming_the_seats(
    players: tuple[str, str, str, str], message: str
) -> None:
    """Decision 18: a player sits at one table, so at one seat of it (one player in all four
    seats would play against themself): two seats are as refused as three or four."""
    error = refused_opening(players=players)
    assert error["loc"] == ("players",) and error["type"] == "value_error"
    assert "a table seats four different players" in error["msg"] and message in error["msg"]


def test_four_different_players_open_a_table_in_their_seats() -> None:
    """Decision 18: four different players, one to a seat, in the order given."""
    (opened,) = decide(TableState(), open_table(players=("d", "c", "b", "a")))
    assert isinstance(opened, ev.TableOpened) and opened.players == ("d", "c", "b", "a")


# -- StartHand -----------------------------------------------------------------------------------
@pytest.mark.parametrize("length", [8, 128])
def test_a_seed_of_8_to_128_characters_deals_a_hand(length: int) -> None:
    table = Table("harbin")
    events = table.do(StartHand(seed="s" * length))
    assert table.of_type(ev.HandStarted, events)


@pytest.mark.parametrize(("length", "kind", "limit"), [
    (7, "string_too_short", {"min_length": 8}),
    (129, "string_too_long", {"max_length": 128}),
])  # fmt: skip
def test_a_seed_shorter_than_8_or_longer_than_128_is_refused_naming_the_field(
    length: int, kind: str, limit: dict[str, int]
) -> None:
    """A seed fixes the whole wall: too short to be hard to guess, or past the limit, is none."""
    error = refused(StartHand, seed="s" * length)
    assert error["loc"] == ("seed",) and error["type"] == kind and error["ctx"] == limit


# -- Chow and Pung -------------------------------------------------------------------------------
@pytest.mark.parametrize("tiles", [("3m",), ("3m", "4m", "5m")])
def test_a_chow_takes_exactly_two_tiles_of_the_hand(tiles: tuple[str, ...]) -> None:
    """吃: "take the previous seat's discard with two tiles of the hand": one or three is no 吃."""
    error = refused(Chow, seat=1, tiles=tiles)
    assert error["loc"] == ("tiles",)
    assert error["type"] == ("too_short" if len(tiles) < 2 else "too_long")


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_chow_that_does_not_say_ready_is_a_plain_chow(variant: str) -> None:
    """The standard deal: seat 1 may 吃 the dealer's 2m with 34m. A platform that sends the 吃
    without ``ready`` asks for a plain 吃, never 吃听 (which another variant does not even have)."""
    table = Table(variant)
    table.start(STD, tail=tail_for(variant))
    table.discard(0, "2m")
    command = A_PLATFORM.validate_python({"command": "chow", "seat": 1, "tiles": ["3m", "4m"]})
    assert isinstance(command, Chow) and command.ready is False
    assert table.do(command) == [ev.ClaimAnswered(seat=1, claim="chi", tiles=("3m", "4m"))]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_pung_that_does_not_say_ready_is_a_plain_pung(variant: str) -> None:
    """The standard deal: seat 2 may 碰 the dealer's 2m with 22m. A platform that sends the 碰
    without ``ready`` asks for a plain 碰, never 碰 as 吃听 (牡丹江 alone has it)."""
    table = Table(variant)
    table.start(STD, tail=tail_for(variant))
    table.discard(0, "2m")
    command = A_PLATFORM.validate_python({"command": "pung", "seat": 2})
    assert isinstance(command, Pung) and command.ready is False
    assert table.do(command) == [ev.ClaimAnswered(seat=2, claim="pong")]


# -- TimeOut -------------------------------------------------------------------------------------
@pytest.mark.parametrize("version", [0, MAX_VERSION])
def test_a_timeout_from_version_0_to_the_limit_is_a_command_the_table_weighs(version: int) -> None:
    """A timeout names "the version at which that wait began", from 0 (a state before any
    event); one the table no longer waits on is refused by the table, not at the edge."""
    table = Table("harbin")
    command = TimeOut(wait="turn", seat=0, version=version)
    assert f"began at version {version} is still running" in table.refuse(command)


@pytest.mark.parametrize(("version", "kind", "limit"), [
    (-1, "greater_than_equal", {"ge": 0}),
    (MAX_VERSION + 1, "less_than_equal", {"le": MAX_VERSION}),
])  # fmt: skip
def test_a_timeout_before_version_0_or_past_the_limit_is_refused_naming_the_field(
    version: int, kind: str, limit: dict[str, int]
) -> None:
    error = refused(TimeOut, wait="turn", seat=0, version=version)
    assert error["loc"] == ("version",) and error["type"] == kind and error["ctx"] == limit


# -- DissolveTable -------------------------------------------------------------------------------
def test_a_dissolution_reason_of_200_characters_is_recorded_whole() -> None:
    """网管解散: the operator's reason, up to 200 characters, is recorded as given."""
    table = Table("harbin")
    table.do(StartHand(seed="s" * 8))
    events = table.do(DissolveTable(reason="解" * 200))
    (dissolved,) = table.of_type(pe.TableDissolved, events)
    assert dissolved.reason == "解" * 200 and dissolved.mid_hand


def test_a_dissolution_reason_of_201_characters_is_refused_naming_the_field() -> None:
    error = refused(DissolveTable, reason="x" * 201)
    assert error["loc"] == ("reason",) and error["type"] == "string_too_long"
    assert error["ctx"] == {"max_length": 200}
