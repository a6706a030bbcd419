"""``decide(state, command) -> events``: the rules' verdict on one command.

A legal command becomes the events it causes, followed by what the table then does by
itself (draws, 补花, closing claim windows, settlement) until a player must act again.
An illegal one raises ``CommandRejected`` with the reason, and nothing changes.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from typing import Any

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.table import answers, away, closing, turn
from services.rules.table.autoplay import autoplay_command
from services.rules.table.commands import (
    CancelAutoplay,
    Chow,
    CloseTable,
    Command,
    DeclareHonourKong,
    DeclareWin,
    DiscardTile,
    DissolveTable,
    Kong,
    LeaveTable,
    OpenTable,
    PassClaim,
    Pung,
    RaiseWildPair,
    ReportDisconnect,
    ReportReconnect,
    RequestAutoplay,
    StartHand,
    TimeOut,
)
from services.rules.table.deal import full_set, random_seat, roll_dice
from services.rules.table.evolve import evolve
from services.rules.table.guards import CommandRejected, refuse
from services.rules.table.state import TableState
from services.rules.table.system import next_system_events
from services.rules.tiles import names, tile
from services.rules.variants import UnknownVariantError
from services.rules.variants.timing import timing_errors, with_overrides
from services.rules.variants.versions import current, variant_in

MAX_SYSTEM_STEPS = 2000  # far above any hand's length; a loop past it is a bug, not a game

__all__ = ["CommandRejected", "advance", "decide", "decide_and_evolve"]


def open_table(table: TableState, cmd: OpenTable) -> list[DomainEvent]:
    if table.opened:
        raise refuse(f"table {table.table_id} is already open")
    # The table opens under the version its (unopened) state names: the service sets the one
    # it opens tables under, a replay the one recorded; "": this process's current version.
    rules_version = table.rules_version or current()
    try:
        variant = variant_in(rules_version, cmd.variant)
    except UnknownVariantError as error:
        raise refuse(str(error)) from None
    bad_timing = timing_errors(cmd.timing)
    if bad_timing:
        raise refuse("; ".join(bad_timing))
    scoring = variant.scoring
    unknown = scoring.unknown_options(cmd.options)
    if unknown:
        known = ", ".join(scoring.options()) or "none"
        raise refuse(f"unknown option(s) {', '.join(unknown)} for {cmd.variant}; known: {known}")
    return [
        ev.TableOpened(
            table_id=cmd.table_id,
            variant=cmd.variant,
            players=cmd.players,
            base_stake=cmd.base_stake,
            options=cmd.options,
            timing=with_overrides(variant.config.timing, cmd.timing).as_dict(),
            room=cmd.room,
            rules_version=rules_version,
        )
    ]


def start_hand(table: TableState, cmd: StartHand) -> list[DomainEvent]:
    if not table.opened:
        raise refuse("the table is not open")
    if table.hand is not None and not table.hand_over:
        raise refuse("a hand is in play")
    if cmd.seed is None and cmd.wall is None:
        raise refuse("a hand needs a seed (or an explicit wall)")
    config = table.variant.config
    if cmd.wall is not None:
        _check_wall(table, cmd.wall)
    source = cmd.seed or hashlib.sha256(" ".join(cmd.wall or ()).encode()).hexdigest()
    dice = cmd.dice if cmd.dice is not None else roll_dice(source, config.dice_count)
    if len(dice) != config.dice_count or not all(1 <= d <= 6 for d in dice):
        raise refuse(f"{config.name} rolls {config.dice_count} dice of 1–6, got {list(dice)}")
    return [
        ev.HandStarted(
            hand_number=table.series.hands_played + 1,
            dealer=_dealer(table, cmd, source),
            dice=tuple(dice),
            seed=cmd.seed,
            seed_commitment=hashlib.sha256(cmd.seed.encode()).hexdigest() if cmd.seed else None,
            wall=cmd.wall,
        )
    ]


def _dealer(table: TableState, cmd: StartHand, source: str) -> int:
    if cmd.dealer is not None:
        return cmd.dealer
    if table.series.next_dealer is not None:
        return table.series.next_dealer
    first = table.variant.dealers.first_dealer()
    if table.series.hands_in_series == 0 and first is not None:
        return first  # 塘沽: the first seated player deals a series' first hand
    return random_seat(source)


def _check_wall(table: TableState, wall: tuple[str, ...]) -> None:
    config = table.variant.config
    expected = Counter(full_set(config))
    given = Counter(tile(t) for t in wall)
    if given != expected:
        missing = sorted((expected - given).elements())
        extra = sorted((given - expected).elements())
        raise refuse(
            f"the wall must be the {sum(expected.values())} tiles of {config.name}; "
            f"missing {' '.join(names(missing)) or 'none'}, extra {' '.join(names(extra)) or 'none'}"
        )


_HANDLERS: dict[type[Command], Callable[[TableState, Any], list[DomainEvent]]] = {
    OpenTable: open_table,
    StartHand: start_hand,
    DiscardTile: turn.discard,
    Chow: answers.chow,
    Pung: answers.pung,
    PassClaim: answers.pass_claim,
    DeclareHonourKong: turn.declare_honour_kong,
    RaiseWildPair: turn.raise_wild_pair,
    RequestAutoplay: away.request_autoplay,
    CancelAutoplay: away.cancel_autoplay,
    LeaveTable: away.leave_table,
    ReportDisconnect: away.report_disconnect,
    ReportReconnect: away.report_reconnect,
    TimeOut: away.time_out,
    DissolveTable: away.dissolve_table,
    CloseTable: closing.close_table,
}


def _route(table: TableState, command: Command) -> list[DomainEvent]:
    """胡 and 杠 mean different things in a claim window and on one's own turn."""
    in_window = (
        table.hand is not None and table.hand.step in ("claims", "rob") and not table.hand_over
    )
    if isinstance(command, DeclareWin):
        return (
            answers.declare_win(table, command) if in_window else turn.declare_win(table, command)
        )
    if isinstance(command, Kong):
        return answers.kong(table, command) if in_window else turn.kong(table, command)
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise refuse(f"unknown command {type(command).__name__}")
    return handler(table, command)


Observer = Callable[[DomainEvent, TableState], None]


def advance(
    table: TableState, observe: Observer | None = None
) -> tuple[list[DomainEvent], TableState]:
    """The events the table produces by itself until a player must act, and the table after."""
    produced: list[DomainEvent] = []
    for _ in range(MAX_SYSTEM_STEPS):
        step = (
            away.penalties_due(table)
            or next_system_events(table)
            or _autoplay_events(table)
            or away.series_end(table)
            or closing.close_due(table)
        )
        if not step:
            return produced, table
        for event in step:
            table = evolve(table, event)
            produced.append(event)
            if observe is not None:
                observe(event, table)
    raise RuntimeError("the table kept acting by itself past any possible hand length")


def _autoplay_events(table: TableState) -> list[DomainEvent]:
    """托管: the system's move for a seat that is away, or whose wait ran out."""
    marker = away.seat_to_autoplay(table)
    if marker is None:
        return []
    return [marker, *_route(table, autoplay_command(table, marker.seat))]


def decide_and_evolve(
    table: TableState, command: Command, observe: Observer | None = None
) -> tuple[list[DomainEvent], TableState]:
    """``decide``, with the table after its events (folded on the way, so never twice);
    ``observe`` sees each event with the table just after it."""
    closing.check_not_closed(table, command)
    events = away.check_seat_plays(table, command) + _route(table, command)
    for event in events:
        table = evolve(table, event)
        if observe is not None:
            observe(event, table)
    more, table = advance(table, observe)
    return events + more, table


def decide(table: TableState, command: Command) -> list[DomainEvent]:
    """The events a command causes, or ``CommandRejected`` naming why it is not allowed."""
    return decide_and_evolve(table, command)[0]
