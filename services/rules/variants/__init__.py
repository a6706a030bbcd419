"""The five variants, by id."""

from __future__ import annotations

from services.rules.variants.base import VariantConfig
from services.rules.variants.harbin import HARBIN
from services.rules.variants.mudanjiang import MUDANJIANG
from services.rules.variants.shandong import SHANDONG
from services.rules.variants.shanghai import SHANGHAI
from services.rules.variants.tanggu import TANGGU

VARIANTS: dict[str, VariantConfig] = {
    v.id: v for v in (MUDANJIANG, HARBIN, SHANDONG, SHANGHAI, TANGGU)
}


class UnknownVariantError(ValueError):
    pass


def get_variant(variant_id: str) -> VariantConfig:
    """The config of a variant id; an unknown id names the known ones."""
    try:
        return VARIANTS[variant_id]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise UnknownVariantError(
            f"unknown variant {variant_id!r}; known variants: {known}"
        ) from None


__all__ = ["VARIANTS", "VariantConfig", "get_variant", "UnknownVariantError"]
