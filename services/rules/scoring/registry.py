"""The scorer of each variant, by id.

牡丹江 and 哈尔滨 share ``scoring.bao``. 山东, 上海 and 塘沽 each have a module of their own
(``scoring.shandong`` …) exposing ``score(ctx) -> Settlement``; they are imported lazily, so this
registry works, and names what is missing, before those modules exist.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from services.rules.scoring import bao
from services.rules.scoring.base import Settlement, WinContext
from services.rules.variants import get_variant

Scorer = Callable[[WinContext], Settlement]

_MODULES: dict[str, str] = {
    "shandong": "services.rules.scoring.shandong",
    "shanghai": "services.rules.scoring.shanghai",
    "tanggu": "services.rules.scoring.tanggu",
}


class ScorerUnavailableError(LookupError):
    """The variant is known but its scoring module is missing or has no ``score``."""


def scorer_for(variant_id: str) -> Scorer:
    """The function that settles a win of this variant; UnknownVariantError for an unknown id."""
    get_variant(variant_id)  # an unknown id fails here, naming the known ones
    if variant_id in bao.BAO_VARIANTS:
        return _bao_scorer
    module_name = _MODULES[variant_id]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise  # the module exists but something it imports does not: not ours to hide
        raise ScorerUnavailableError(
            f"no scorer for {variant_id!r} yet: {module_name} is missing"
        ) from None
    scorer = getattr(module, "score", None)
    if not callable(scorer):
        raise ScorerUnavailableError(f"{module_name} has no score(ctx) function")
    return _checked(scorer)


def _bao_scorer(ctx: WinContext) -> Settlement:
    return bao.score(ctx)


def _checked(scorer: Callable[..., object]) -> Scorer:
    """Wrap a module's ``score`` so that what it returns is known to be a Settlement."""

    def settle(ctx: WinContext) -> Settlement:
        result = scorer(ctx)
        if not isinstance(result, Settlement):
            raise TypeError(
                f"{scorer.__module__}.score returned {type(result).__name__}, not a Settlement"
            )
        return result

    return settle
