"""等级分 and 称号: the level score a hand moves and the title it earns, on every variant
(README decisions 12 and 17, from ``seeds/003``).

Level score (等级分): +3 to a winner, −1 to each other seat, nothing on a drawn hand; when a
seat leaves, it loses 3 and nobody else scores. With several winners on one discard each winner
gets +3 and each seat that did not win −1 (once: a hand is lost once, however many win).

Level titles bound their ranges inclusively; 状元 starts at 15611 (README decision 12: the
document gives 15610 to both 榜眼 and 状元); 白丁 is any negative level score.
"""

from __future__ import annotations

from collections.abc import Iterable

SEATS = 4
WIN_LEVEL = 3
LOSS_LEVEL = -1
LEAVE_LEVEL = -3

# (lowest level score, grade, title); 白丁 has no grade in 003's table, so grade 0
LEVEL_TITLES: tuple[tuple[int, int, str], ...] = (
    (22651, 10, "大学士"),
    (15611, 9, "状元"),
    (10321, 8, "榜眼"),
    (6531, 7, "探花"),
    (3991, 6, "进士"),
    (2271, 5, "贡士"),
    (926, 4, "举人"),
    (151, 3, "秀才"),
    (11, 2, "书生"),
    (0, 1, "书童"),
)
NEGATIVE_TITLE = "白丁"


def level_deltas(
    winners: Iterable[int] = (), leaver: int | None = None
) -> tuple[int, int, int, int]:
    """Level score changes of one hand; no winner and no leaver is a drawn hand (all 0)."""
    if leaver is not None:
        _check_seat(leaver)
        return _per_seat([LEAVE_LEVEL if s == leaver else 0 for s in range(SEATS)])
    won = set(winners)
    for seat in won:
        _check_seat(seat)
    if not won:
        return (0, 0, 0, 0)
    return _per_seat([WIN_LEVEL if s in won else LOSS_LEVEL for s in range(SEATS)])


def level_grade(level_score: int) -> int:
    """The grade (1 书童 … 10 大学士; 0 for 白丁) a level score has reached."""
    for lowest, grade, _ in LEVEL_TITLES:
        if level_score >= lowest:
            return grade
    return 0


def level_title(level_score: int) -> str:
    """The title of a level score: 白丁 below 0, 书童 0–10, …, 状元 15611–22650, 大学士 above."""
    for lowest, _, title in LEVEL_TITLES:
        if level_score >= lowest:
            return title
    return NEGATIVE_TITLE


def next_level_title(level_score: int) -> tuple[str, int] | None:
    """The next title up the ladder and the lowest level score that reaches it (None at 大学士)."""
    higher = [(lowest, title) for lowest, _, title in LEVEL_TITLES if lowest > level_score]
    if not higher:
        return None
    lowest, title = min(higher)
    return title, lowest


def _check_seat(seat: int) -> None:
    if not 0 <= seat < SEATS:
        raise ValueError(f"seats are 0–3, got {seat}")


def _per_seat(values: list[int]) -> tuple[int, int, int, int]:
    return (values[0], values[1], values[2], values[3])
