"""What the subcommands share on their command line: the variants, the seed, the parser's errors.

One rule for a seed, in ``play`` and ``simulate`` alike: 1 to 128 characters, none of them a
control character. Hand ``i`` of a run is dealt from ``hand_seed(seed, variant, i)``, so
``paiju play --seed S`` deals the first hand of ``paiju simulate --seed S``.
"""

from __future__ import annotations

import argparse
import unicodedata
from typing import NoReturn

from services.rules.variants import VARIANTS

SEED_MOST = 128
SEED_HELP = (
    f"any text of 1 to {SEED_MOST} characters (no control characters); the same seed deals the "
    "same hands, and play deals the first hand simulate deals for it"
)


def seed(text: str) -> str:
    """An argparse type: the seed rule above, or the reason it is broken."""
    if not 1 <= len(text) <= SEED_MOST:
        raise argparse.ArgumentTypeError(f"a seed is 1 to {SEED_MOST} characters, got {len(text)}")
    control = next((c for c in text if unicodedata.category(c).startswith("C")), None)
    if control is not None:
        raise argparse.ArgumentTypeError(f"a seed has no control characters, got {control!r}")
    return text


def variants_text() -> str:
    """The known variants, one per line, for an epilog."""
    return "variants:\n" + "\n".join(
        f"  {vid:<11} {config.name}" for vid, config in sorted(VARIANTS.items())
    )


def variant_help(also: str = "") -> str:
    return f"a variant id: {', '.join(sorted(VARIANTS))}{also}"


class Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line, naming the subcommand, status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")
