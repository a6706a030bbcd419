"""Players' accounts: the platform's point adjustments (decision 18), as events in the log.

``adjust_points`` appends one ``points_adjusted`` to the player's stream ``player:<id>``
under the caller's command id: sent twice, it is recorded once (the store answers a recorded
id with its first result). Bad input is refused by name before anything is written, and so is
a grant or top-up below 0 or a correction that would take the balance below 0
(``services.rooms.account.adjustment_refusal``): decided on the player's stream as folded at a
version, and appended at that version, so two corrections racing cannot both spend one balance.
"""

from __future__ import annotations

from pydantic import ValidationError

from events.envelope import Actor, RecordedEvent, check_id
from events.registry import registry
from events.store.base import ConcurrencyError, EventStore
from services.rooms.account import adjustment_refusal, fold_account
from services.rules import RULES_VERSION
from services.rules.events.accounts import AdjustmentKind, PointsAdjusted

ATTEMPTS = 8


class AdjustmentError(ValueError):
    """An adjustment that cannot be recorded; the message says what was wrong."""


class AdjustmentConflict(AdjustmentError):
    """An adjustment well made that the account refuses as it is now: a correction taking back
    more than the player has (the API's 409, where a malformed one is 422)."""


class AdjustmentBusy(AdjustmentError):
    """Other adjustments kept landing first: nothing was recorded; send it again."""


def account_stream(player: str) -> str:
    return f"player:{player}"


def adjust_points(
    store: EventStore,
    player: str,
    amount: int,
    kind: AdjustmentKind,
    *,
    reason: str = "",
    command_id: str,
) -> RecordedEvent:
    """Record the adjustment (or answer with the one first recorded under ``command_id``)."""
    try:
        check_id("player", player)
        check_id("command_id", command_id)
        event = PointsAdjusted(player=player, amount=amount, kind=kind, reason=reason)
    except (ValueError, ValidationError) as error:
        raise AdjustmentError(f"points adjustment refused: {error}") from None
    if amount == 0:
        raise AdjustmentError("points adjustment refused: an amount of 0 changes nothing")
    stream = account_stream(player)
    record = {"command": "adjust_points", **event.model_dump(mode="json")}
    draft = registry.new_event(event, actor=Actor.operator(), rules_version=RULES_VERSION)
    for _ in range(ATTEMPTS):
        first = store.find_command(command_id, stream, record)
        if first:  # sent again: the first answer, though the balance has moved since
            return first[0]
        account = fold_account(player, store.read_stream(stream))
        refusal = adjustment_refusal(account, amount, kind)
        if refusal is not None:
            # a grant's or top-up's sign is its shape; a correction is refused by the balance
            refused = AdjustmentConflict if kind == "correction" else AdjustmentError
            raise refused(f"points adjustment refused: {refusal}")
        try:
            (recorded,) = store.append(stream, account.version, [draft], command_id, record)
            return recorded
        except ConcurrencyError:
            continue  # another adjustment of this player landed first: append after it
    raise AdjustmentBusy(f"points adjustment of {player}: the account stayed busy; send it again")
