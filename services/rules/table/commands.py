"""What a seat, the system or an operator asks the table to do (imperative names).

Every number a command carries is bounded by ``events.limits`` (the API's request models use
the same limits), so a command is refused where it is read, naming the field and its limit.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from events.limits import (
    MAX_BASE_STAKE,
    MAX_OPTIONS,
    MAX_VERSION,
    MAX_WAIT_SECONDS,
    MIN_WAIT_SECONDS,
)
from services.rules.events.types import Seat, TileName, Tiles

WaitSeconds = Annotated[int, Field(ge=MIN_WAIT_SECONDS, le=MAX_WAIT_SECONDS)]

IssuedBy = Literal["seat", "system", "operator"]


class Command(BaseModel):
    """``issued_by``: who may give it: the seat it names, the system (the platform, its timers
    and its view of connections), or an operator."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    issued_by: ClassVar[IssuedBy] = "seat"


class OpenTable(Command):
    """Open a table for four players, with the variant and room settings (``timing``: seconds
    overriding the variant's defaults, by name: turn, claim, autoplay_window, reconnect_grace)."""

    issued_by: ClassVar[IssuedBy] = "system"
    command: Literal["open_table"] = "open_table"
    table_id: str = Field(min_length=1)
    variant: str
    players: tuple[str, str, str, str]
    base_stake: int = Field(default=1, ge=1, le=MAX_BASE_STAKE)
    options: dict[str, bool] = Field(default_factory=dict, max_length=MAX_OPTIONS)
    timing: dict[str, WaitSeconds] = Field(default_factory=dict, max_length=MAX_OPTIONS)
    room: str = Field(default="", max_length=64)  # the platform's room (decision 18); "": none

    @field_validator("players")
    @classmethod
    def _four_different(cls, players: tuple[str, str, str, str]) -> tuple[str, str, str, str]:
        # Decision 18: a player sits at one table, so at one seat of it (one player in all four
        # seats would play against themself, and their points could only go round).
        for player in dict.fromkeys(players):
            seats = [seat for seat, p in enumerate(players) if p == player]
            if len(seats) > 1:
                raise ValueError(f"a table seats four different players; {player!r} is in "
                                 f"seats {', '.join(map(str, seats))}")  # fmt: skip
        return players


class StartHand(Command):
    """Deal the next hand, from a seed (or, in tests and disputes, an explicit wall)."""

    issued_by: ClassVar[IssuedBy] = "system"
    command: Literal["start_hand"] = "start_hand"
    seed: str | None = Field(default=None, min_length=8, max_length=128)
    wall: Tiles | None = None
    dealer: Seat | None = None
    dice: tuple[int, ...] | None = None


class DiscardTile(Command):
    """Discard a tile; ``ready`` declares 听 with it (``open``/``hidden``: 明楼/暗楼; ``dubao``: 独抱)."""

    command: Literal["discard_tile"] = "discard_tile"
    seat: Seat
    tile: TileName
    ready: Literal["plain", "open", "hidden", "dubao"] | None = None


class Chow(Command):
    """吃: take the previous seat's discard with two tiles of the hand (``ready``: 吃听)."""

    command: Literal["chow"] = "chow"
    seat: Seat
    tiles: Annotated[Tiles, Field(min_length=2, max_length=2)]
    ready: bool = False


class Pung(Command):
    """碰: take a discard with a pair of the hand (``ready``: 碰 as 吃听, 牡丹江)."""

    command: Literal["pung"] = "pung"
    seat: Seat
    ready: bool = False


class Kong(Command):
    """杠: 明杠 on a discard in the claim window, or 暗杠/补杠 of ``tile`` on one's own turn."""

    command: Literal["kong"] = "kong"
    seat: Seat
    tile: TileName | None = None


class DeclareWin(Command):
    """胡: on one's own draw (自摸), on a discard, or robbing an 补杠 (抢杠)."""

    command: Literal["declare_win"] = "declare_win"
    seat: Seat


class PassClaim(Command):
    """过: let a discard (or an 补杠) go."""

    command: Literal["pass_claim"] = "pass_claim"
    seat: Seat


class DeclareHonourKong(Command):
    """风头杠 (塘沽): 中发白 as an exposed kong or 东南西北 as a concealed one, before the first draw."""

    command: Literal["declare_honour_kong"] = "declare_honour_kong"
    seat: Seat
    honours: Literal["dragons", "winds"]


class RaiseWildPair(Command):
    """上大台 (塘沽): in 混钓, set the drawn 混 aside and wait on again."""

    command: Literal["raise_wild_pair"] = "raise_wild_pair"
    seat: Seat


class RequestAutoplay(Command):
    """主动托管: let the system play this seat (rightmost tile, 自摸, else pass)."""

    command: Literal["request_autoplay"] = "request_autoplay"
    seat: Seat


class CancelAutoplay(Command):
    """取消托管: take control back, from 主动托管 or from 超时托管."""

    command: Literal["cancel_autoplay"] = "cancel_autoplay"
    seat: Seat


class LeaveTable(Command):
    """离开 / 主动逃跑: the player closes the game; mid-hand, 托管 plays the seat to the end."""

    command: Literal["leave_table"] = "leave_table"
    seat: Seat


class ReportDisconnect(Command):
    """断线: the system lost the seat's connection."""

    issued_by: ClassVar[IssuedBy] = "system"
    command: Literal["report_disconnect"] = "report_disconnect"
    seat: Seat


class ReportReconnect(Command):
    """The seat's connection is back: its player plays again."""

    issued_by: ClassVar[IssuedBy] = "system"
    command: Literal["report_reconnect"] = "report_reconnect"
    seat: Seat


WaitKind = Literal["turn", "claim", "autoplay_window", "reconnect_grace"]


class TimeOut(Command):
    """A wait the table announced (``deadlines``) ran out. ``version`` is the one the deadline
    gave: the version at which that wait began; once the table waits on something else, the
    timeout is refused, so a late one changes nothing."""

    issued_by: ClassVar[IssuedBy] = "system"
    command: Literal["time_out"] = "time_out"
    wait: WaitKind
    seat: Seat | None = None  # None for a claim window (every seat still to answer)
    version: int = Field(ge=0, le=MAX_VERSION)


class DissolveTable(Command):
    """网管解散: an operator ends the series; a hand in play is abandoned, nothing paid."""

    issued_by: ClassVar[IssuedBy] = "operator"
    command: Literal["dissolve_table"] = "dissolve_table"
    reason: str = Field(default="", max_length=200)


class CloseTable(Command):
    """关桌: the platform closes the table after the hand in play (at once between hands): that
    hand is played and settled, then no next hand is dealt and nobody is waited on."""

    issued_by: ClassVar[IssuedBy] = "system"
    command: Literal["close_table"] = "close_table"
    reason: str = Field(default="", max_length=200)


AnyCommand = Annotated[
    OpenTable
    | StartHand
    | DiscardTile
    | Chow
    | Pung
    | Kong
    | DeclareWin
    | PassClaim
    | DeclareHonourKong
    | RaiseWildPair
    | RequestAutoplay
    | CancelAutoplay
    | LeaveTable
    | ReportDisconnect
    | ReportReconnect
    | TimeOut
    | DissolveTable
    | CloseTable,
    Field(discriminator="command"),
]
