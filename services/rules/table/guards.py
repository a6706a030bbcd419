"""Refusals: an illegal command is refused with a reason and changes nothing."""

from __future__ import annotations

from services.rules.table.state import HandState, TableState


class CommandRejected(ValueError):
    """The command is not legal now; ``reason`` says why in words a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def refuse(reason: str) -> CommandRejected:
    return CommandRejected(reason)


def hand_in_play(table: TableState) -> HandState:
    if not table.opened:
        raise refuse("the table is not open")
    if table.hand is None:
        raise refuse("no hand has started")
    if table.hand_over or table.hand.step == "ended":
        raise refuse("the hand has ended")
    return table.hand


def on_turn(table: TableState, seat: int) -> HandState:
    """The seat must be the one to play, with a tile to play (after its draw or claim)."""
    hand = hand_in_play(table)
    if hand.step in ("claims", "rob"):
        raise refuse("a claim window is open: answer it (claim or pass) first")
    if hand.step != "discard":
        raise refuse("the table is dealing or drawing; wait for your turn")
    if seat != hand.turn:
        raise refuse(f"it is seat {hand.turn}'s turn, not seat {seat}'s")
    return hand
