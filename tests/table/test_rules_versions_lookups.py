"""Every look-up of a table's variant goes through the table's rules version: the 宝 scorer (its
卡当 and its wildcard test), the settlement's scoring config, the rulings and the tile set the
conservation check counts — each follows the version the table opened under, not the version
new tables open under now.

Each second version changes one thing of one variant (``RulesVersion.derived``); each test
holds the process's current version to the other one, so only the table's version can explain
what it sees.
"""

from __future__ import annotations

import dataclasses

import pytest

from services.rules.events import hand as ev
from services.rules.melds import Meld
from services.rules.scoring import bao
from services.rules.scoring.base import ScoringError, WinContext
from services.rules.table import TableState
from services.rules.table.commands import StartHand
from services.rules.table.conservation import conservation_errors
from services.rules.table.rulings import rulings
from services.rules.table.state import patch
from services.rules.tiles import parse_tiles, tile
from services.rules.variants import VARIANTS
from services.rules.variants import versions as rv
from services.rules.variants.base import Scoring

from .builders import Table, tail_for

HARBIN = VARIANTS["harbin"]
DEALER = "147p258s369p4s5m6m3m"  # seat 0's quiet tiles; its 14th is the tile it throws first
EXAMPLE_000 = "22p11s88m789m345s7z"  # seat 1 pongs 2p, throws 7z: waits on 1s and 8m


def harbin_with(version_id: str, note: str, **changed: object) -> rv.RulesVersion:
    config = dataclasses.replace(HARBIN.config, **changed)
    return rv.ENGINE.derived(version_id, note, harbin=dataclasses.replace(HARBIN, config=config))


ANY_READING = harbin_with("paiju-rules/kadang-test", "哈尔滨 卡当 on any reading", kadang="any_reading")
NO_BAO = harbin_with("paiju-rules/no-bao-test", "哈尔滨 without a 宝", wildcard="none")
DOUBLE_BASE = rv.ENGINE.derived(
    "paiju-rules/base-fan-test", "哈尔滨 wins start at 2 番",
    harbin=dataclasses.replace(
        HARBIN, scoring=Scoring(bao.BaoScoring(base_fan=2), bao.score)
    ),
)  # fmt: skip
WITH_GREEN = harbin_with(
    "paiju-rules/green-test", "哈尔滨 plays with 发 too", kinds=(*HARBIN.config.kinds, tile("6z"))
)


def harbin_table(version: str) -> Table:
    """A 哈尔滨 table opened under ``version``."""
    return Table("harbin", state=patch(TableState(), rules_version=version))


def ready_on_000(version: str) -> Table:
    """Seat 1 pongs the dealer's 2p and throws 7z declaring 听 on 1s and 8m (``000``)."""
    table = harbin_table(version)
    table.start({0: DEALER + "2p", 1: EXAMPLE_000}, draws=["8m"], tail=tail_for("harbin"))
    table.discard(0, "2p")
    table.pass_all(but=[1])
    table.pung(1)
    table.discard(1, "7z", ready="plain")
    table.pass_all()
    return table


def wins_on_8m(version: str) -> ev.Win:
    table = ready_on_000(version)
    table.discard(2, "8m")
    table.pass_all(but=[1])
    table.win(1)
    won: ev.Win = table.last(ev.HandWon).wins[0]
    assert won.seat == 1 and won.tile == "8m"
    return won


@pytest.mark.parametrize("current", [rv.ENGINE.id, ANY_READING.id])
def test_the_bao_scorer_counts_kadang_as_the_tables_version_has_it(current: str) -> None:
    with rv.known_only(rv.ENGINE, ANY_READING, current=current):
        assert "卡当" in wins_on_8m(ANY_READING.id).patterns
        assert "卡当" not in wins_on_8m(rv.ENGINE.id).patterns


def test_the_bao_scorers_wildcard_test_reads_the_variant_of_the_contexts_version() -> None:
    context = WinContext(
        variant="harbin", concealed=tuple(parse_tiles("11s88m789m345s")),
        melds=(Meld("pong", tuple(parse_tiles("222p"))),), win_tile=tile("1s"),
        self_drawn=True, seat=1, dealer=0, ready=(True, True, True, True),
    )  # fmt: skip
    with rv.known_only(rv.ENGINE, NO_BAO, current=NO_BAO.id):
        assert bao.score(dataclasses.replace(context, rules_version=rv.ENGINE.id)).fan == 2
        with pytest.raises(ScoringError, match="settles the variants with a 宝"):
            bao.score(dataclasses.replace(context, rules_version=NO_BAO.id))


@pytest.mark.parametrize("current", [rv.ENGINE.id, DOUBLE_BASE.id])
def test_a_win_is_settled_with_the_scoring_config_of_the_tables_version(current: str) -> None:
    with rv.known_only(rv.ENGINE, DOUBLE_BASE, current=current):
        assert wins_on_8m(rv.ENGINE.id).fan == 1  # 平胡
        assert wins_on_8m(DOUBLE_BASE.id).fan == 2


@pytest.mark.parametrize("current", [rv.ENGINE.id, DOUBLE_BASE.id])
def test_a_seats_rulings_score_its_waits_under_the_tables_version(current: str) -> None:
    def fans(version: str) -> set[int]:
        found = rulings(ready_on_000(version).state, 1)
        return {w.score.fan for wait in found.waits for w in wait.wins if w.score is not None}

    with rv.known_only(rv.ENGINE, DOUBLE_BASE, current=current):
        engine, doubled = fans(rv.ENGINE.id), fans(DOUBLE_BASE.id)
    assert engine and doubled == {2 * fan for fan in engine}


@pytest.mark.parametrize("current", [rv.ENGINE.id, WITH_GREEN.id])
def test_tile_conservation_counts_the_tile_set_of_the_tables_version(current: str) -> None:
    with rv.known_only(rv.ENGINE, WITH_GREEN, current=current):
        for version, size in ((WITH_GREEN.id, 116), (rv.ENGINE.id, 112)):
            table = harbin_table(version)
            table.do(StartHand(seed=f"conservation-{version}"))  # checked after the deal, too
            assert table.hand is not None and len(table.hand.wall) == size
            assert conservation_errors(table.state) is None
