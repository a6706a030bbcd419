"""A recorded 哈尔滨 hand for the replay tests: played through ``TableService`` into a SQLite
store, so that it carries actors, commands and a hash chain as a live table does.

The wall (``table.builders``) deals seat 1 ``23m555p789s11s68p9m``: it 吃s the dealer's 1m,
throws 9m declaring 听 on 7p alone (68p: a 卡当 wait). Seats 2, 3 and 0 throw what they draw
(8p, 8p, 2s; seat 2's 8p is claimable by nobody who wants it), and seat 1 draws the 宝 3s: 自摸,
摸宝 read as the 卡当 7p, so 卡当宝, 8 番; the dealer (seat 0) pays double: 16, seats 2 and 3
pay 8 each, seat 1 gets 32.
"""

from __future__ import annotations

import sqlite3
import uuid
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from table.builders import DICE, wall_for

from events.store import open_store
from services.rules.table.commands import (
    Chow,
    Command,
    DeclareWin,
    DiscardTile,
    PassClaim,
    StartHand,
)
from services.tables.service import Accepted, TableService

QUIET = "147p258s369p4s5m6m8m"
READY_ON_7P = "23m555p789s11s68p9m"
PLAYERS = ("ann", "bo", "cy", "di")
KADANG_BAO_PAYMENTS = [-16, 32, -8, -8]


@dataclass(frozen=True)
class Recorded:
    url: str
    path: Path
    table_id: str


def _do(service: TableService, table_id: str, command: Command) -> None:
    done = service.handle(table_id, command, command_id=f"c-{uuid.uuid4().hex[:12]}")
    assert isinstance(done, Accepted), done


def _pass_all(service: TableService, table_id: str, but: tuple[int, ...] = ()) -> None:
    for _ in range(4):
        hand = service.load(table_id).hand
        assert hand is not None
        if hand.window is None or hand.step not in ("claims", "rob"):
            return
        waiting = [s for s, _ in hand.window.options
                   if hand.window.answer_of(s) is None and s not in but]  # fmt: skip
        if not waiting:
            return
        _do(service, table_id, PassClaim(seat=waiting[0]))


def record_kadang_bao_hand(
    path: Path, table_id: str = "t-kadang-bao", rules_version: str | None = None
) -> Recorded:
    """The hand above, at a table opened under ``rules_version`` (None: the current one)."""
    url = f"sqlite:///{path}"
    with closing(open_store(url)) as store:
        service = TableService(store, chosen_deals=True, rules_version=rules_version)
        opened = service.open_table(table_id, "harbin", PLAYERS, command_id=f"open-{table_id}")
        assert isinstance(opened, Accepted), opened
        wall = wall_for("harbin", {0: QUIET + "1m", 1: READY_ON_7P},
                        draws=["8p", "8p", "2s", "3s"], tail=["3s"])  # fmt: skip
        _do(service, table_id, StartHand(wall=wall, dealer=0, dice=DICE["harbin"]))
        _do(service, table_id, DiscardTile(seat=0, tile="1m"))
        _pass_all(service, table_id, but=(1,))
        _do(service, table_id, Chow(seat=1, tiles=("2m", "3m")))
        _do(service, table_id, DiscardTile(seat=1, tile="9m", ready="plain"))
        _pass_all(service, table_id)
        for seat in (2, 3, 0):
            drawn = service.load(table_id).hand.seat(seat).drawn  # type: ignore[union-attr]
            assert drawn is not None
            from services.rules.tiles import name

            _do(service, table_id, DiscardTile(seat=seat, tile=name(drawn)))
            _pass_all(service, table_id)
        _do(service, table_id, DeclareWin(seat=1))
    return Recorded(url, path, table_id)


def tamper(recorded: Recorded, version: int, payload: str) -> None:
    """Alter a stored event's payload in the database itself, as an intruder would."""
    with closing(sqlite3.connect(recorded.path)) as conn:
        conn.execute("UPDATE events SET payload = ? WHERE stream_id = ? AND version = ?",
                     (payload, recorded.table_id, version))  # fmt: skip
        conn.commit()


def build_points(url: str) -> None:
    """Fold the store into the points read model once (a player's hands are found there)."""
    from readmodels.db import open_projection_db
    from readmodels.points import Points
    from readmodels.runner import Projector

    with closing(open_store(url)) as store:
        projector = Projector(store, open_projection_db(url), [Points()])
        try:
            projector.attach()
            projector.catch_up(limit=100)
        finally:
            projector.close()
