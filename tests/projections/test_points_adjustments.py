"""Decision 18: the platform's grants, top-ups and corrections are lines of a player's 积分
beside what the tables paid, recorded once per command id, refused by name when malformed."""

from __future__ import annotations

import pytest
from projection_kit import play_series

from events.store import open_store
from readmodels import points_queries
from readmodels.db import open_projection_db
from readmodels.points import Points
from readmodels.runner import Projector
from services.accounts import AdjustmentError, adjust_points

PLAYERS = ("ann", "bo", "cy", "di")


def test_a_grant_and_a_top_up_join_what_the_tables_paid(url: str) -> None:
    store = open_store(url)
    adjust_points(store, "ann", 1000, "grant", reason="welcome", command_id="grant-ann")
    state = play_series(store, "t1", "harbin", PLAYERS, hands=1)
    adjust_points(store, "ann", 250, "top_up", command_id="top-up-1")
    adjust_points(store, "ann", 250, "top_up", command_id="top-up-1")  # sent twice: once
    db = open_projection_db(url)
    projector = Projector(store, db, [Points()])
    projector.attach()
    projector.catch_up()
    projector.close()
    balance = points_queries.balance(db, "ann")
    assert balance.points == 1000 + state.series.scores[0] + 250
    lines = points_queries.history(db, "ann", 1, 50).items
    assert [line.cause for line in lines] == ["top_up", "settlement", "grant"]  # newest first
    assert lines[-1].table_id is None and lines[-1].balance == 1000
    db.close()
    store.close()


@pytest.mark.parametrize(
    ("player", "amount", "kind", "said"),
    [
        ("ann", 0, "grant", "an amount of 0 changes nothing"),
        ("ann", 10, "gift", "kind"),
        ("a b", 10, "grant", "holds a space"),
        ("ann", 10**12, "grant", "amount"),
    ],
)
def test_a_malformed_adjustment_is_refused_by_name_and_writes_nothing(
    url: str, player: str, amount: int, kind: str, said: str
) -> None:
    store = open_store(url)
    with pytest.raises(AdjustmentError, match=said):
        adjust_points(store, player, amount, kind, command_id="bad")  # type: ignore[arg-type]
    assert store.read_all(0) == []
    store.close()
