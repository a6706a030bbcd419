"""The replay viewer's settlement frames read the table's variant under the table's rules
version: a table opened under a version whose 摸宝 doubles twice shows that worth and that 番,
whatever version new tables open under now."""

from __future__ import annotations

import dataclasses
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from replay_kit import record_kadang_bao_hand

from events.store import open_store
from services.rules.scoring.bao import BaoScoring, score
from services.rules.variants import VARIANTS
from services.rules.variants import versions as rv
from services.rules.variants.base import Scoring
from services.tables.frames import hand_frames

HARBIN = VARIANTS["harbin"]
BIG_BAO = rv.ENGINE.derived(
    "paiju-rules/big-bao-test", "哈尔滨 摸宝 ×4",
    harbin=dataclasses.replace(HARBIN, scoring=Scoring(BaoScoring(bao_factor=4), score)),
)  # fmt: skip


def won_frame(path: Path, version: str) -> dict[str, Any]:
    """The settlement frame of the recorded 卡当宝 win, at a table opened under ``version``."""
    recorded = record_kadang_bao_hand(path, rules_version=version)
    with closing(open_store(recorded.url)) as store:
        replay = hand_frames(store.read_stream(recorded.table_id), 1)
    assert replay.stopped is None
    (won,) = [f for f in replay.frames if f["type"] == "hand_won"]
    win: dict[str, Any] = won["settlement"]["wins"][0]
    return win


@pytest.mark.parametrize("current", [rv.ENGINE.id, BIG_BAO.id])
def test_the_frames_show_each_patterns_worth_under_the_tables_version(
    tmp_path: Path, current: str
) -> None:
    with rv.known_only(rv.ENGINE, BIG_BAO, current=current):
        engine = won_frame(tmp_path / "engine.sqlite3", rv.ENGINE.id)
        big = won_frame(tmp_path / "big.sqlite3", BIG_BAO.id)
    worth = {p["name"]: p["worth"] for p in engine["patterns"]}
    assert (worth["摸宝"], engine["fan"]) == (2, 8)
    worth = {p["name"]: p["worth"] for p in big["patterns"]}
    assert (worth["摸宝"], big["fan"]) == (4, 16)
