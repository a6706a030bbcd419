"""The one registry of variants (``services/rules/variants/__init__.py``): the rules its mutants
broke (issue 28). The registry loads on the first look-up, whichever way it comes, so each test
starts from an empty registry."""

from __future__ import annotations

import sys
import types
from dataclasses import replace

import pytest

from services.rules import variants
from services.rules.variants import UnknownVariantError, get_variant, variant_of

FIVE = ("mudanjiang", "harbin", "shandong", "shanghai", "tanggu")


@pytest.fixture
def unloaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry as a fresh process has it: nothing looked up yet."""
    monkeypatch.setattr(variants, "_by_id", {})


@pytest.mark.parametrize("variant_id", FIVE)
def test_the_first_look_up_of_a_variant_by_its_id_finds_it(unloaded: None, variant_id: str) -> None:
    variant = variant_of(variant_id)
    assert variant.id == variant_id
    assert get_variant(variant_id) is variant.config
    assert variant_of(variant_id) is variant  # and the second finds the same one


def test_the_first_look_up_through_the_mapping_loads_all_five(unloaded: None) -> None:
    assert sorted(variants.VARIANTS) == sorted(FIVE)
    assert len(variants.VARIANTS) == 5
    assert all(variants.VARIANTS[v].id == v for v in FIVE)


@pytest.mark.parametrize("first", [True, False])
def test_an_unknown_variant_is_refused_naming_the_known_ones(unloaded: None, first: bool) -> None:
    if not first:
        variant_of("harbin")
    with pytest.raises(UnknownVariantError, match="known variants: harbin, mudanjiang, shandong"):
        variant_of("hongkong")


def _register(monkeypatch: pytest.MonkeyPatch, name: str, **attrs: object) -> None:
    module = types.ModuleType(f"services.rules.variants.{name}")
    for key, value in attrs.items():
        setattr(module, key, value)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(variants, "REGISTERED", (*variants.REGISTERED, name))


def test_a_registered_module_without_a_variant_is_refused(
    unloaded: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    _register(monkeypatch, "nothing_here", VARIANT="not a Variant")
    with pytest.raises(TypeError, match="nothing_here registers no VARIANT"):
        variant_of("harbin")


def test_two_modules_registering_one_id_are_refused(
    unloaded: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    harbin = variant_of("harbin")
    variants._by_id.clear()
    _register(monkeypatch, "harbin_again", VARIANT=replace(harbin))
    with pytest.raises(ValueError, match="two variants registered as 'harbin'"):
        variant_of("harbin")
