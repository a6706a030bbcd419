"""Room options of a table: named fields of the variant's scoring config, switched per table.

塘沽 ``pair_258_only`` (二五八将), 上海 ``discarder_pays_alone``, and every other boolean field of
a scoring config (``Variant.scoring``). An unknown option is refused when the table opens.
"""

from __future__ import annotations

from collections.abc import Mapping

from services.rules.variants import variant_of
from services.rules.variants.base import Scorer

__all__ = ["Scorer", "known_options", "table_scorer", "unknown_options"]


def known_options(variant_id: str) -> dict[str, bool]:
    """The boolean switches a table of this variant may set, with their defaults."""
    return variant_of(variant_id).scoring.options()


def unknown_options(variant_id: str, options: Mapping[str, bool]) -> list[str]:
    return variant_of(variant_id).scoring.unknown_options(options)


def table_scorer(variant_id: str, options: Mapping[str, bool]) -> Scorer:
    """The variant's scorer with this table's options applied."""
    return variant_of(variant_id).scoring.scorer(options)
