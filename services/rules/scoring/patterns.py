"""The one shape of a scoring pattern, for every variant.

A pattern is a small named unit: a function of one argument (the variant's reading of a win:
``WinFacts``, ``ShandongHand``, ``ShanghaiWin``, ``TangguHand``) answering how many times the
win holds it (a ``bool`` is once or not at all), whose docstring starts with the pattern's
Chinese name as the rule document writes it (``卡当: ...``), and what it is worth each time
under the variant's scoring config. How the worths combine (added, or multiplied as the 宝
variants' factors are) is the variant scorer's business.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

Win = TypeVar("Win", contravariant=True)
Rules = TypeVar("Rules", contravariant=True)


class PatternError(ValueError):
    """A pattern written in another shape: its docstring does not start with its Chinese name."""


@dataclass(frozen=True)
class Pattern(Generic[Win, Rules]):
    """A named scoring pattern: its Chinese name, how often a win holds it, its worth."""

    name: str
    holds: Callable[[Win], int]
    worth: Callable[[Rules], int]

    def times(self, win: Win) -> int:
        """How many times the win holds the pattern (0: not at all)."""
        return int(self.holds(win))


def pattern(holds: Callable[[Win], int], worth: Callable[[Rules], int]) -> Pattern[Win, Rules]:
    """The pattern ``holds`` names: its name is the docstring's first word, before the colon."""
    doc = holds.__doc__ or ""
    name, colon, _ = doc.partition(":")
    if not colon or not name or not all(_is_chinese(c) for c in name):
        raise PatternError(
            f"{holds.__qualname__}: a pattern's docstring starts with its Chinese name and a colon"
        )
    return Pattern(name, holds, worth)


def _is_chinese(c: str) -> bool:
    return "\u4e00" <= c <= "\u9fff"
