"""规则版本 (``services/rules/variants/versions.py``): which rules versions this process has, the
one new tables open under, and a later version derived from an earlier one (issue 28: the rules
its mutants broke). Each test changes the registry only inside ``known_only``, which puts it back.
"""

from __future__ import annotations

import dataclasses

import pytest

from services.rules import RULES_VERSION
from services.rules.variants import VARIANTS, UnknownVariantError
from services.rules.variants import versions as rv


def _with_dice(variant_id: str, dice: int, as_id: str | None = None):
    variant = VARIANTS[variant_id]
    config = dataclasses.replace(variant.config, dice_count=dice, id=as_id or variant_id)
    return dataclasses.replace(variant, config=config)


SECOND = rv.ENGINE.derived(
    "paiju-rules/2-test", "上海 rolls four dice", shanghai=_with_dice("shanghai", 4)
)
THIRD = SECOND.derived(
    "paiju-rules/3-test", "哈尔滨 rolls two dice", harbin=_with_dice("harbin", 2)
)


# -- a version derived from another ------------------------------------------------------------
def test_a_derived_version_changes_the_variants_named_and_keeps_every_other() -> None:
    assert SECOND.id == "paiju-rules/2-test" and SECOND.note == "上海 rolls four dice"
    assert SECOND.variant("shanghai").config.dice_count == 4
    assert rv.ENGINE.variant("shanghai").config.dice_count == 2
    assert sorted(SECOND.variants) == sorted(VARIANTS)
    for kept in ("mudanjiang", "harbin", "shandong", "tanggu"):
        assert SECOND.variant(kept) is rv.ENGINE.variant(kept)
    assert THIRD.variant("shanghai") is SECOND.variant("shanghai")
    assert THIRD.variant("harbin").config.dice_count == 2


def test_a_derived_version_may_not_name_a_variant_its_base_lacks() -> None:
    with pytest.raises(UnknownVariantError, match="has no variant hongkong"):
        rv.ENGINE.derived("x", hongkong=VARIANTS["harbin"])


@pytest.mark.parametrize(
    ("slot", "other"),
    [("harbin", "mudanjiang"), ("shanghai", "harbin")],  # an id sorting after, and before
)
def test_a_changed_variant_must_keep_its_id(slot: str, other: str) -> None:
    with pytest.raises(ValueError, match=f"must keep its id: {slot}"):
        rv.ENGINE.derived("x", **{slot: _with_dice(slot, 4, as_id=other)})


def test_a_variant_a_version_lacks_is_refused_naming_the_ones_it_has() -> None:
    with pytest.raises(UnknownVariantError, match="known variants: harbin, mudanjiang, shandong"):
        rv.ENGINE.variant("hongkong")


def test_a_version_is_frozen_and_its_repr_leaves_out_its_variants() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        SECOND.note = "changed"  # type: ignore[misc]
    assert repr(SECOND) == "RulesVersion(id='paiju-rules/2-test', note='上海 rolls four dice')"


# -- the versions this process has ------------------------------------------------------------
def test_the_process_decides_under_the_engines_version_and_opens_tables_under_it() -> None:
    with rv.known_only(rv.ENGINE):
        assert rv.known() == (RULES_VERSION,) and rv.current() == RULES_VERSION
        assert rv.knows(RULES_VERSION) and rv.rules(RULES_VERSION) is rv.ENGINE
        assert rv.variant_in("", "harbin") is VARIANTS["harbin"]
        assert rv.variant_in(RULES_VERSION, "harbin") is VARIANTS["harbin"]


def test_a_version_this_process_lacks_is_unavailable_naming_the_ones_it_has() -> None:
    with rv.known_only(rv.ENGINE, SECOND):
        for ask in (
            lambda: rv.rules("paiju-rules/9"),
            lambda: rv.variant_in("paiju-rules/9", "harbin"),
        ):
            with pytest.raises(rv.RulesVersionUnavailable) as raised:
                ask()
            assert raised.value.version == "paiju-rules/9"
            assert raised.value.known == (RULES_VERSION, SECOND.id)
            assert f"(it has: {RULES_VERSION}, {SECOND.id})" in str(raised.value)
        assert not rv.knows("paiju-rules/9")
    assert "(it has: none)" in str(rv.RulesVersionUnavailable("v", ()))


def test_a_table_is_decided_under_its_own_version_beside_the_one_new_tables_open_under() -> None:
    with rv.known_only(rv.ENGINE, SECOND):
        assert rv.current() == RULES_VERSION
        assert rv.variant_in(SECOND.id, "shanghai").config.dice_count == 4
        assert rv.variant_in(RULES_VERSION, "shanghai").config.dice_count == 2
        assert rv.variant_in("", "shanghai").config.dice_count == 2
        rv.set_current(SECOND.id)
        assert rv.current() == SECOND.id
        assert rv.variant_in("", "shanghai").config.dice_count == 4
        with pytest.raises(rv.RulesVersionUnavailable):
            rv.set_current("paiju-rules/9")
        assert rv.current() == SECOND.id


def test_registering_a_version_makes_it_decidable_and_current_only_when_asked() -> None:
    with rv.known_only(rv.ENGINE):
        rv.register(SECOND)
        assert rv.known() == (RULES_VERSION, SECOND.id) and rv.current() == RULES_VERSION
        rv.register(SECOND)  # the same one again: nothing changes
        assert rv.known() == (RULES_VERSION, SECOND.id)
        rv.register(THIRD, make_current=True)
        assert rv.current() == THIRD.id and rv.rules(THIRD.id) is THIRD


def test_a_second_version_of_the_same_id_is_refused() -> None:
    with rv.known_only(rv.ENGINE, SECOND):
        again = rv.ENGINE.derived(SECOND.id, "another", shanghai=_with_dice("shanghai", 4))
        with pytest.raises(ValueError, match="already registered, differently"):
            rv.register(again)
        assert rv.rules(SECOND.id) is SECOND


def test_whether_a_registered_version_becomes_current_is_said_by_keyword_only() -> None:
    with rv.known_only(rv.ENGINE), pytest.raises(TypeError):
        rv.register(SECOND, True)  # type: ignore[misc]


def test_known_only_opens_new_tables_under_its_first_version_or_the_one_named() -> None:
    before = (rv.known(), rv.current())
    with rv.known_only(SECOND, THIRD):
        assert rv.known() == (SECOND.id, THIRD.id) and rv.current() == SECOND.id
    with rv.known_only(SECOND, THIRD, current=THIRD.id):
        assert rv.current() == THIRD.id
    with rv.known_only(SECOND):
        assert rv.current() == SECOND.id
    assert (rv.known(), rv.current()) == before


def test_known_only_puts_the_registry_back_even_when_the_block_fails() -> None:
    before = (rv.known(), rv.current())
    with pytest.raises(RuntimeError), rv.known_only(SECOND, THIRD, current=THIRD.id):
        raise RuntimeError
    assert (rv.known(), rv.current()) == before


def test_a_process_must_know_at_least_one_version() -> None:
    with pytest.raises(ValueError, match="at least one"), rv.known_only():
        pass
