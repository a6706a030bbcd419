"""A second rules version for the rolling-upgrade tests, and a ``paiju`` that has it.

``NEWER`` is the engine's rules with one changed (上海 rolls four dice, 两次掷骰). Run as a
script, this module is ``paiju`` in a process that knows both versions and opens new tables
under ``NEWER``, as an upgraded worker would (``python rules_versions_kit.py worker ...``).
"""

from __future__ import annotations

import dataclasses
import sys

from services.rules.variants import VARIANTS
from services.rules.variants import versions as rv

NEWER_ID = "paiju-rules/2-test"


def newer() -> rv.RulesVersion:
    shanghai = VARIANTS["shanghai"]
    four_dice = dataclasses.replace(shanghai.config, dice_count=4)
    return rv.ENGINE.derived(
        NEWER_ID, "上海 rolls four dice", shanghai=dataclasses.replace(shanghai, config=four_dice)
    )


if __name__ == "__main__":
    from services.cli.main import main

    rv.register(newer(), make_current=True)  # before the worker forks its pool: inherited
    sys.exit(main(sys.argv[1:]))
