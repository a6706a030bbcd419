"""The variants: the one registry, by id.

Each variant is a module of this package exposing ``VARIANT`` (a ``Variant``); registering one
is its line in ``REGISTERED``. The modules are imported on the first look-up, not with this
package: their hooks use table code, and the table's state looks variants up here.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from services.rules.variants.base import Variant, VariantConfig

REGISTERED = (
    "mudanjiang",
    "harbin",
    "shandong",
    "shanghai",
    "tanggu",
)

_by_id: dict[str, Variant] = {}


class UnknownVariantError(ValueError):
    pass


def _load() -> dict[str, Variant]:
    if not _by_id:
        found: dict[str, Variant] = {}
        for module_name in REGISTERED:
            module = importlib.import_module(f"{__name__}.{module_name}")
            variant = getattr(module, "VARIANT", None)
            if not isinstance(variant, Variant):
                raise TypeError(f"{module.__name__} registers no VARIANT (a Variant)")
            if variant.id in found:
                raise ValueError(f"two variants registered as {variant.id!r}")
            found[variant.id] = variant
        _by_id.update(found)
    return _by_id


def variant_of(variant_id: str) -> Variant:
    """The variant of an id; an unknown id names the known ones."""
    variant = _by_id.get(variant_id) or _load().get(variant_id)
    if variant is None:
        known = ", ".join(sorted(_load()))
        raise UnknownVariantError(f"unknown variant {variant_id!r}; known variants: {known}")
    return variant


def get_variant(variant_id: str) -> VariantConfig:
    """The frozen config of a variant id; an unknown id names the known ones."""
    return variant_of(variant_id).config


class _Registry(Mapping[str, Variant]):
    """Every registered variant by id, loaded on first use."""

    def __getitem__(self, variant_id: str) -> Variant:
        return _load()[variant_id]

    def __iter__(self) -> Iterator[str]:
        return iter(_load())

    def __len__(self) -> int:
        return len(_load())


VARIANTS: Mapping[str, Variant] = _Registry()

__all__ = [
    "REGISTERED",
    "VARIANTS",
    "UnknownVariantError",
    "Variant",
    "VariantConfig",
    "get_variant",
    "variant_of",
]
