"""关桌: the platform closes a table after the hand in play.

The close is asked for (``table_close_requested``) and done (``table_closed``) as two facts: the
hand in play, if any, is played and settled like any other between them (its turn and 托管
timers included), and the table closes by itself once it is settled. A closed table deals no
hand and takes no command again, so nothing waits on a seat, no timer fires and nobody is
charged for a hand that is never played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.base import DomainEvent
from services.rules.events import presence as pe
from services.rules.table.commands import CloseTable, Command
from services.rules.table.guards import refuse
from services.rules.table.state import TableState, patch


def _in_hand(table: TableState) -> bool:
    return table.hand is not None and not table.hand_over


def check_not_closed(table: TableState, command: Command) -> None:
    """A closed table refuses every command, naming why it closed."""
    if table.closed:
        why = f" ({table.closing})" if table.closing else ""
        name = type(command).model_fields["command"].default
        raise refuse(f"table {table.table_id} is closed{why}: it takes no {name} or other command")


def close_table(table: TableState, cmd: CloseTable) -> list[DomainEvent]:
    if not table.opened:
        raise refuse("the table is not open")
    if table.closing is not None:
        raise refuse(f"table {table.table_id} closes after the hand in play already")
    return [pe.TableCloseRequested(reason=cmd.reason, mid_hand=_in_hand(table))]


def close_due(table: TableState) -> list[DomainEvent]:
    """The close, once asked for and no hand is in play (the last one settled, its series
    ended if it was to)."""
    if table.closing is None or table.closed or _in_hand(table):
        return []
    return [pe.TableClosed(reason=table.closing, hands=table.series.hands_played)]


def _close_requested(table: TableState, e: pe.TableCloseRequested) -> TableState:
    return patch(table, closing=e.reason)


def _closed(table: TableState, e: pe.TableClosed) -> TableState:
    return patch(table, closing=e.reason, closed=True)


APPLY: dict[str, Callable[[TableState, Any], TableState]] = {
    "table_close_requested": _close_requested,
    "table_closed": _closed,
}
