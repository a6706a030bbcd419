"""积分 queries: a player's balance, and their history a hand at a time, newest first."""

from __future__ import annotations

from pydantic import BaseModel

from readmodels.db import ProjectionDB
from readmodels.points import BALANCES, HISTORY, Points
from readmodels.queries import (
    DEFAULT_PAGE_SIZE,
    Page,
    QueryError,
    View,
    page_window,
    paged,
    query,
)

POINTS = Points()


class Balance(BaseModel):
    """A player's 积分: the sum of their lines, how many, and the position of the last."""

    player: str
    points: int
    lines: int
    last_position: int | None
    position: int  # the read model's checkpoint this was read at


class HistoryLine(BaseModel):
    """One move of a player's points: a settled hand, an adjudicated penalty, or the
    platform's adjustment (no table: ``table_id`` and ``variant`` None, ``seat`` -1)."""

    position: int
    table_id: str | None
    variant: str | None
    hand_number: int
    seat: int
    cause: str
    amount: int
    balance: int
    recorded_at: str


def _player(player: str) -> str:
    if not isinstance(player, str) or not player.strip():
        raise QueryError(f"a player is named by a non-empty id, not {player!r}")
    return player


def balance(db: ProjectionDB, player: str, *, min_position: int | None = None) -> Balance:
    """The player's balance (0 with no lines for a player no table has paid or charged)."""
    _player(player)

    def answer(view: View) -> Balance:
        row = view.rows.get(BALANCES.name, {"player": player})
        if row is None:
            return Balance(player=player, points=0, lines=0, last_position=None,
                           position=view.position)  # fmt: skip
        return Balance(**row, position=view.position)

    return query(db, POINTS, answer, min_position=min_position)


def _balances(view: View, player: str, lines: list[dict[str, object]]) -> list[int]:
    """The balance after each line of a page (newest first): the player's total less every
    newer line. Worked out when read, so lines of several partitions add up the same
    whatever order they were applied in."""
    if not lines:
        return []
    row = view.rows.get(BALANCES.name, {"player": player})
    total = int(row["points"]) if row else 0
    first = lines[0]
    m = view.rows.mark
    newer = view.rows.total(HISTORY.name, "amount", {"player": player}, also=(
        (f"(position > {m} OR (position = {m} AND seat > {m}))",
         (first["position"], first["position"], first["seat"])),))  # fmt: skip
    after, out = total - newer, []
    for line in lines:
        out.append(after)
        after -= int(line["amount"])  # type: ignore[call-overload]
    return out


def history(
    db: ProjectionDB, player: str, page: int = 1, size: int = DEFAULT_PAGE_SIZE, *,
    min_position: int | None = None,
) -> Page[HistoryLine]:  # fmt: skip
    """The player's lines, newest first (by position, then seat: a unique order)."""
    _player(player)
    page_window(page, size)  # a bad page is refused before any wait

    def answer(view: View) -> Page[HistoryLine]:
        found, more = paged(view, HISTORY.name, {"player": player}, ("-position", "-seat"),
                            page, size)  # fmt: skip
        items = [HistoryLine.model_validate({**{k: v for k, v in r.items() if k != "player"},
                                             "balance": after})
                 for r, after in zip(found, _balances(view, player, found), strict=True)]  # fmt: skip
        return Page[HistoryLine](items=items, page=page, size=size, more=more,
                                 position=view.position)  # fmt: skip

    return query(db, POINTS, answer, min_position=min_position)
