"""Room options of a table: named fields of the variant's scoring config, switched per table.

塘沽 ``pair_258_only`` (二五八将), 上海 ``discarder_pays_alone``, and every other boolean field of
a scoring config (``Variant.scoring``). An unknown option is refused when the table opens.

Each takes the rules version the variant is read under: a table's own (``TableState.
rules_version``), or "" for the version new tables open under (a room's settings, ``paiju
rules score``); a version this process lacks raises ``RulesVersionUnavailable``.
"""

from __future__ import annotations

from collections.abc import Mapping

from services.rules.variants.base import Scorer
from services.rules.variants.versions import variant_in

__all__ = ["Scorer", "known_options", "table_scorer", "unknown_options"]


def known_options(variant_id: str, rules_version: str = "") -> dict[str, bool]:
    """The boolean switches a table of this variant may set, with their defaults."""
    return variant_in(rules_version, variant_id).scoring.options()


def unknown_options(
    variant_id: str, options: Mapping[str, bool], rules_version: str = ""
) -> list[str]:
    return variant_in(rules_version, variant_id).scoring.unknown_options(options)


def table_scorer(variant_id: str, options: Mapping[str, bool], rules_version: str = "") -> Scorer:
    """The variant's scorer, as the rules version has it, with this table's options applied."""
    return variant_in(rules_version, variant_id).scoring.scorer(options)
