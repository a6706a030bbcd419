"""Answers to a claim window: 胡, 吃, 碰, 明杠 (each perhaps as 吃听) or 过."""

from __future__ import annotations

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.table.claims import chow_options, claim_readies
from services.rules.table.commands import Chow, DeclareWin, Kong, PassClaim, Pung
from services.rules.table.guards import hand_in_play, refuse
from services.rules.table.state import ClaimWindow, HandState, TableState
from services.rules.tiles import name, names, tile

_WORDS = {
    "win": "胡",
    "chi": "吃",
    "pong": "碰",
    "kong": "明杠",
    "ready_chi": "吃听",
    "ready_pong": "碰 as 吃听",
}


def _window(table: TableState, seat: int) -> tuple[HandState, ClaimWindow]:
    hand = hand_in_play(table)
    window = hand.window
    if hand.step not in ("claims", "rob") or window is None:
        raise refuse("there is no discard to claim now")
    if not window.options_of(seat):
        raise refuse(f"seat {seat} has no claim on {name(window.tile)}")
    if window.answer_of(seat) is not None:
        raise refuse(f"seat {seat} has already answered on {name(window.tile)}")
    return hand, window


def _allowed(window: ClaimWindow, seat: int, kind: str) -> None:
    if kind not in window.options_of(seat):
        options = ", ".join(_WORDS[k] for k in window.options_of(seat))
        raise refuse(
            f"seat {seat} cannot {_WORDS[kind]} {name(window.tile)}; it may: {options}, or pass"
        )


def declare_win(table: TableState, cmd: DeclareWin) -> list[DomainEvent]:
    _, window = _window(table, cmd.seat)
    _allowed(window, cmd.seat, "win")
    return [ev.ClaimAnswered(seat=cmd.seat, claim="win")]


def chow(table: TableState, cmd: Chow) -> list[DomainEvent]:
    hand, window = _window(table, cmd.seat)
    kind = "ready_chi" if cmd.ready else "chi"
    _allowed(window, cmd.seat, kind)
    pair = tuple(sorted(tile(t) for t in cmd.tiles))
    options = chow_options(window.tile, hand.seat(cmd.seat).concealed)
    if pair not in options:
        raise refuse(
            f"{' '.join(cmd.tiles)} do not make a run with {name(window.tile)} from seat {cmd.seat}'s hand"
        )
    if cmd.ready and not claim_readies(
        table.variant.config, hand, cmd.seat, "chi", window.tile, (pair[0], pair[1])
    ):
        raise refuse(
            "吃听 needs a 吃 after which a discard leaves the hand ready; this one does not"
        )
    return [ev.ClaimAnswered(seat=cmd.seat, claim=kind, tiles=tuple(names(pair)))]


def pung(table: TableState, cmd: Pung) -> list[DomainEvent]:
    _, window = _window(table, cmd.seat)
    kind = "ready_pong" if cmd.ready else "pong"
    _allowed(window, cmd.seat, kind)
    return [ev.ClaimAnswered(seat=cmd.seat, claim=kind)]


def kong(table: TableState, cmd: Kong) -> list[DomainEvent]:
    _, window = _window(table, cmd.seat)
    if cmd.tile is not None and tile(cmd.tile) != window.tile:
        raise refuse(f"the discard is {name(window.tile)}, not {cmd.tile}")
    _allowed(window, cmd.seat, "kong")
    return [ev.ClaimAnswered(seat=cmd.seat, claim="kong")]


def pass_claim(table: TableState, cmd: PassClaim) -> list[DomainEvent]:
    _window(table, cmd.seat)
    return [ev.ClaimAnswered(seat=cmd.seat, claim="pass")]
