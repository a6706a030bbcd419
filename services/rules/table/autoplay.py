"""托管 (decision 14): the move the system makes for a seat whose player is away.

On its own turn it takes a self-drawn win when it has one, and otherwise discards the rightmost
tile as the client displays the hand: sorted by suit (m, p, s, z, f) and rank, the drawn tile
last. In a claim window it passes: it never claims a discard and never declares 听.

Where the rules refuse the rightmost tile (after 听 only the drawn tile may go; a seat that
took a 吃听 before going away must discard to stay ready), the rightmost tile they allow goes.
"""

from __future__ import annotations

from services.rules.table import turn
from services.rules.table.commands import Command, DeclareWin, DiscardTile, PassClaim
from services.rules.table.guards import CommandRejected
from services.rules.table.state import TableState
from services.rules.tiles import Tile, name


class NothingToDo(RuntimeError):
    """The table is not waiting on this seat."""


def display_order(concealed: tuple[Tile, ...], drawn: Tile | None) -> list[Tile]:
    """The hand as the client shows it, left to right: sorted by suit and rank, drawn tile last."""
    shown = sorted(concealed)  # tile ints run m, p, s, z, f and by rank within a suit
    return shown + [drawn] if drawn is not None else shown


def _allowed(table: TableState, command: DeclareWin | DiscardTile) -> bool:
    """Would the turn's own handler take it (the same check ``decide`` makes on a turn)?"""
    try:
        if isinstance(command, DeclareWin):
            turn.declare_win(table, command)
        else:
            turn.discard(table, command)
    except CommandRejected:
        return False
    return True


def autoplay_command(table: TableState, seat: int) -> Command:
    """The 托管 move of ``seat`` now (deterministic: no randomness at all)."""
    hand = table.hand
    if hand is None or table.hand_over or hand.step == "ended":
        raise NothingToDo("no hand in play")
    if hand.step in ("claims", "rob"):
        window = hand.window
        if window is None or not window.options_of(seat) or window.answer_of(seat) is not None:
            raise NothingToDo(f"seat {seat} has no claim to answer")
        return PassClaim(seat=seat)
    if hand.step != "discard" or hand.turn != seat:
        raise NothingToDo(f"it is not seat {seat}'s turn")
    me = hand.seat(seat)
    win = DeclareWin(seat=seat)
    if me.drawn is not None and _allowed(table, win):
        return win
    order = display_order(me.concealed, me.drawn)
    for t in reversed(order):
        command = DiscardTile(seat=seat, tile=name(t))
        if _allowed(table, command):
            return command
    raise NothingToDo(f"seat {seat} has no tile the rules let it discard")
