"""The one shape of a scoring pattern (``services/rules/scoring/patterns.py``): a pattern is named
by the Chinese name its docstring starts with, and nothing else passes (issue 28: the rules its
mutants broke)."""

from __future__ import annotations

import dataclasses

import pytest

from services.rules.scoring.patterns import Pattern, PatternError, pattern


def _holds(doc: str | None):
    def holds(win: int) -> int:
        return win

    holds.__doc__ = doc
    return holds


@pytest.mark.parametrize(
    ("doc", "name"),
    [
        ("卡当: the winning tile in the middle of a run", "卡当"),
        ("一条龙: 123 456 789 of one suit", "一条龙"),  # 一 is U+4E00, the first CJK ideograph
        ("宝中宝:", "宝中宝"),
        ("\u9fff\u9ffe: the last ideographs of the block", "\u9fff\u9ffe"),
    ],
)
def test_a_pattern_is_named_by_the_chinese_name_its_docstring_starts_with(
    doc: str, name: str
) -> None:
    made = pattern(_holds(doc), lambda rules: 2)
    assert made.name == name
    assert made.worth(None) == 2
    assert made.times(3) == 3 and made.times(True) == 1 and made.times(False) == 0


@pytest.mark.parametrize(
    "doc",
    [
        None,  # no docstring
        "",
        "卡当",  # no colon
        "卡当 holds",  # no colon
        ": 卡当",  # nothing before the colon
        "Holds: always",  # not Chinese
        "卡当 2: twice",  # a space and a digit in the name
        "\u4dff: just before the block",
        "\ua000: just after the block",
    ],
)
def test_a_pattern_whose_docstring_does_not_start_with_its_chinese_name_is_refused(
    doc: str | None,
) -> None:
    with pytest.raises(PatternError, match="holds: a pattern's docstring starts with its Chinese"):
        pattern(_holds(doc), lambda rules: 1)


def test_a_pattern_cannot_be_changed_once_made() -> None:
    made = pattern(_holds("卡当: x"), lambda rules: 2)
    assert isinstance(made, Pattern) and dataclasses.is_dataclass(made)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "宝中宝"  # type: ignore[misc]
