"""等级分 and 称号 (level score and title) per player and variant (decisions 12, 17).

A player's level score in a variant is the sum of ``hand_settled``'s ``level_scores`` for the
seat they held, at every table of that variant: +3 to each winner, −1 to each other seat,
nothing on a drawn hand, −3 to a seat that left and nothing to the others. The rules decided
those numbers when the hand was settled; this projection only adds them up. The title is
``003``'s ladder (白丁 below 0, 书童 0–10, …, 状元 15611–22650, 大学士 from 22651), taken from
``services.rules.levels``, with the next title and the score still needed to reach
it. The ladder is part of this projection's code: a change to it is a new ``code_version``,
rebuilt beside the old (title_rules_v1).
"""

from __future__ import annotations

from typing import ClassVar

from events.envelope import RecordedEvent
from readmodels.base import Rows, TableSpec, latest
from readmodels.seating import payload_of, seats_of, seats_spec, table_opened
from services.rules.levels import level_grade, level_title, next_level_title

SEATS = seats_spec("levels_seats")
LEVELS = TableSpec(
    "levels",
    (
        ("player", "text"),
        ("variant", "text"),
        ("level_score", "int"),
        ("hands", "int"),  # settled hands it was seated in
        ("title", "text"),
        ("grade", "int"),  # 0 白丁, 1 书童 … 10 大学士
        ("next_title", "text"),  # None at 大学士
        ("to_next", "int"),  # the level score still needed for next_title
        ("last_position", "int"),
    ),
    ("player", "variant"),
    indexes=(("variant", "level_score"),),
)


def title_columns(level_score: int) -> dict[str, object]:
    following = next_level_title(level_score)
    return {
        "title": level_title(level_score),
        "grade": level_grade(level_score),
        "next_title": following[0] if following else None,
        "to_next": following[1] - level_score if following else None,
    }


class Levels:
    name: ClassVar[str] = "levels"
    code_version: ClassVar[int] = 2  # 2: last_position the latest across partitions
    tables: ClassVar[tuple[TableSpec, ...]] = (SEATS, LEVELS)

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        if event.type == "table_opened":
            table_opened(rows, SEATS, None, event)
        elif event.type == "hand_settled":
            scores = payload_of(event).get("level_scores", [0, 0, 0, 0])
            for seat in seats_of(rows, SEATS.name, event.stream_id):
                key = {"player": seat["player"], "variant": seat["variant"]}
                old = rows.get(LEVELS.name, key)
                score = (int(old["level_score"]) if old else 0) + int(scores[seat["seat"]])
                rows.put(LEVELS.name, key, {
                    "level_score": score, "hands": (int(old["hands"]) if old else 0) + 1,
                    **title_columns(score),  # the latest, whatever order partitions come in
                    "last_position": latest(old, event.position),
                })  # fmt: skip
