"""规则版本 in the engine: a table keeps the rules version it opened under, and is decided under
it beside tables of another version; a version this process lacks is never decided under other
rules.

The second version here is the engine's with one rule changed: 上海 rolls four dice (两次掷骰)
instead of two, which the first command after the opening (the deal) shows.
"""

from __future__ import annotations

import dataclasses

import pytest

from events.registry import registry
from services.rules import RULES_VERSION
from services.rules.events.hand import HandStarted, TableOpened
from services.rules.table import TableState, decide, decide_and_evolve, evolve
from services.rules.table.commands import OpenTable, StartHand
from services.rules.table.state import patch
from services.rules.variants import VARIANTS, UnknownVariantError
from services.rules.variants import versions as rv

PLAYERS = ("ann", "bo", "cy", "di")
SEED = "a-seed-of-this-test"


def four_dice() -> rv.RulesVersion:
    shanghai = VARIANTS["shanghai"]
    changed = dataclasses.replace(
        shanghai, config=dataclasses.replace(shanghai.config, dice_count=4)
    )
    return rv.ENGINE.derived("paiju-rules/2-test", "上海 rolls four dice", shanghai=changed)


SECOND = four_dice()


def opened_under(version: str | None) -> TableState:
    start = TableState() if version is None else patch(TableState(), rules_version=version)
    _, table = decide_and_evolve(
        start, OpenTable(table_id="t1", variant="shanghai", players=PLAYERS)
    )
    return table


def dealt_dice(table: TableState) -> tuple[int, ...]:
    (deal, *_) = decide(table, StartHand(seed=SEED))
    assert isinstance(deal, HandStarted)
    return deal.dice


def test_a_table_records_the_rules_version_it_opened_under() -> None:
    with rv.known_only(rv.ENGINE, SECOND):
        (opening,) = decide(
            patch(TableState(), rules_version=SECOND.id),
            OpenTable(table_id="t1", variant="shanghai", players=PLAYERS),
        )
    assert isinstance(opening, TableOpened)
    assert opening.rules_version == SECOND.id


def test_a_table_opened_with_no_version_named_opens_under_the_current_one() -> None:
    assert opened_under(None).rules_version == rv.current() == RULES_VERSION


def test_two_tables_of_two_versions_are_each_decided_under_their_own_rules() -> None:
    with rv.known_only(rv.ENGINE, SECOND):
        first, second = opened_under(RULES_VERSION), opened_under(SECOND.id)
        assert len(dealt_dice(first)) == 2
        assert len(dealt_dice(second)) == 4


def test_the_current_version_does_not_change_the_rules_of_a_table_already_open() -> None:
    with rv.known_only(rv.ENGINE, SECOND):
        table = opened_under(RULES_VERSION)
        rv.set_current(SECOND.id)
        assert len(dealt_dice(table)) == 2
        assert len(dealt_dice(opened_under(None))) == 4


def test_a_table_of_a_version_this_process_lacks_is_not_decided_under_other_rules() -> None:
    with rv.known_only(rv.ENGINE, SECOND):
        table = opened_under(SECOND.id)
    with rv.known_only(rv.ENGINE), pytest.raises(rv.RulesVersionUnavailable) as raised:
        decide(table, StartHand(seed=SEED))
    assert raised.value.version == SECOND.id
    assert raised.value.known == (RULES_VERSION,)
    assert SECOND.id in str(raised.value) and RULES_VERSION in str(raised.value)


def test_a_table_opened_before_versions_were_recorded_reads_as_the_first_version() -> None:
    opening = OpenTable(table_id="t1", variant="shanghai", players=PLAYERS)
    (event,) = decide(TableState(), opening)
    _, _, payload = registry.encode(event)
    del payload["rules_version"]  # as a store written before the field was
    read = registry.model("table_opened").model_validate({**payload, "type": "table_opened"})
    assert isinstance(read, TableOpened)
    assert read.rules_version == rv.BEFORE_VERSIONS == "paiju-rules/1"
    assert evolve(TableState(), read).rules_version == "paiju-rules/1"


def test_a_derived_version_must_change_a_variant_it_has_and_keep_its_id() -> None:
    with pytest.raises(UnknownVariantError, match="sichuan"):
        rv.ENGINE.derived("x", sichuan=VARIANTS["shanghai"])
    with pytest.raises(ValueError, match="keep its id"):
        rv.ENGINE.derived("x", harbin=VARIANTS["shanghai"])


def test_a_version_registered_twice_differently_is_refused() -> None:
    with rv.known_only(rv.ENGINE, SECOND):
        rv.register(SECOND)  # the same one again: nothing changes
        with pytest.raises(ValueError, match="already registered"):
            rv.register(four_dice())
        with pytest.raises(rv.RulesVersionUnavailable):
            rv.set_current("paiju-rules/9")
    assert rv.known() == (RULES_VERSION,)
