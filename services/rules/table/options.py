"""Room options of a table: named fields of the variant's scoring config, switched per table.

塘沽 ``pair_258_only`` (二五八将), 上海 ``discarder_pays_alone``, and every other boolean field of
a scoring config. An unknown option is refused when the table opens.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields, replace
from typing import Any

from services.rules.scoring import bao, shandong, shanghai, tanggu
from services.rules.scoring.base import Settlement, WinContext

Scorer = Callable[[WinContext], Settlement]


def _default(variant_id: str) -> Any:
    if variant_id in ("mudanjiang", "harbin"):
        return bao.BAO_SCORING
    return {"shandong": shandong.DEFAULT, "shanghai": shanghai.DEFAULT, "tanggu": tanggu.DEFAULT}[
        variant_id
    ]


def known_options(variant_id: str) -> dict[str, bool]:
    """The boolean switches a table of this variant may set, with their defaults."""
    config = _default(variant_id)
    return {
        f.name: getattr(config, f.name)
        for f in fields(config)
        if isinstance(getattr(config, f.name), bool)
    }


def unknown_options(variant_id: str, options: Mapping[str, bool]) -> list[str]:
    known = known_options(variant_id)
    return sorted(name for name in options if name not in known)


def table_scorer(variant_id: str, options: Mapping[str, bool]) -> Scorer:
    """The variant's scorer with this table's options applied."""
    config = replace(_default(variant_id), **dict(options))
    if variant_id in ("mudanjiang", "harbin"):
        return lambda ctx: bao.score(ctx, config)
    module = {"shandong": shandong, "shanghai": shanghai, "tanggu": tanggu}[variant_id]
    score_with: Callable[[WinContext, Any], Settlement] = module.score_with
    return lambda ctx: score_with(ctx, config)
