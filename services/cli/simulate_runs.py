"""One variant's simulated hands (``paiju simulate``): the loop both ways of playing share, in
memory or through the table service into a store, and what the hands came to."""

from __future__ import annotations

import shlex
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from events.base import DomainEvent
from services.bots.away import away_paths
from services.bots.runner import HandRecord, InvariantBroken, hand_seed
from services.cli.progress import Progress
from services.rules.events import hand as ev

ENDINGS = ("自摸", "点炮", "抢杠", "一炮多响", "荒庄")
KONGS = {
    "concealed_kong": "暗杠",
    "added_kong": "补杠",
    "wind_kong": "风头杠",
    "dragon_kong": "风头杠",
}
READY = {"plain": "听", "open": "听 明楼", "hidden": "听 暗楼", "dubao": "听 独抱"}


def moments(events: list[DomainEvent]) -> Counter[str]:
    """The moments of play worth counting: 听 and its modes, 吃听, kongs, 换宝, 补花, 上大台, ..."""
    seen: Counter[str] = Counter()
    for e in events:
        if isinstance(e, ev.TileDiscarded) and e.ready is not None:
            seen[READY[e.ready]] += 1
        elif isinstance(e, ev.TileClaimed):
            seen["明杠" if e.kind == "kong" else "吃听" if e.ready else e.kind] += 1
        elif isinstance(e, ev.KongDeclared):
            seen[KONGS[e.kind]] += 1
        elif isinstance(e, ev.BaoChanged):
            seen["换宝"] += 1
        elif isinstance(e, ev.FlowerReplaced):
            seen["补花"] += 1
        elif isinstance(e, ev.WildcardSetAside):
            seen["上大台"] += 1
        elif isinstance(e, ev.HandWon):
            for win in e.wins:
                seen["win on a replacement (杠开)"] += win.after_kong
                seen["win on a drawn 宝/混 (wild)"] += win.wild
    return +seen


@dataclass
class VariantRun:
    """What one variant's hands came to."""

    variant: str
    hands: int = 0
    events: int = 0
    commands: int = 0
    seconds: float = 0.0
    endings: Counter[str] = field(default_factory=Counter)
    patterns: Counter[str] = field(default_factory=Counter)
    seen: Counter[str] = field(default_factory=Counter)
    away: Counter[str] = field(default_factory=Counter)  # seats coming and going: paths taken
    wins: int = 0
    kong_wins: int = 0
    table_id: str | None = None  # the table the hands were stored in (--store)
    failure: dict[str, Any] | None = None

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def count(self, record: HandRecord) -> None:
        events = record.events
        self.commands += len(record.commands)
        won = next((e for e in events if isinstance(e, ev.HandWon)), None)
        self.hands += 1
        self.events += len(events)
        self.seen.update(moments(events))
        self.away.update(away_paths(events))
        if won is None:
            self.endings["荒庄"] += 1
            return
        wins = won.wins
        if len(wins) > 1:
            self.endings["一炮多响"] += 1
        elif wins[0].robbed_kong:
            self.endings["抢杠"] += 1
        else:
            self.endings["自摸" if wins[0].self_drawn else "点炮"] += 1
        for win in wins:
            self.wins += 1
            self.kong_wins += win.after_kong
            self.patterns.update(win.patterns)

    def as_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "hands": self.hands,
            "events": self.events,
            "commands": self.commands,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 2),
            "endings": {k: self.endings[k] for k in ENDINGS},
            "wins": self.wins,
            "wins_after_kong": self.kong_wins,
            "patterns": dict(sorted(self.patterns.items())),
            "seen": dict(sorted(self.seen.items())),
            "away": dict(sorted(self.away.items())),
            "table": self.table_id,
            "ok": self.failure is None,
            "failure": self.failure,
        }


def play_hands(
    result: VariantRun,
    games: int,
    seed: str,
    bot: str,
    away: float,
    progress: Progress | None,
    play: Callable[[str], HandRecord],
    last_check: Callable[[], None] = lambda: None,
) -> VariantRun:
    """``play`` each hand from its seed, counted into ``result``; ``last_check`` once all are
    played. The first broken invariant (``InvariantBroken``) ends the run, with what reproduces
    it as ``result.failure``."""
    progress = progress or Progress(games)
    progress.start(result.variant)
    started = time.perf_counter()
    index = 0
    try:
        for index in range(games):
            result.count(play(hand_seed(seed, result.variant, index)))
            progress.hand_done(result.table_id)
        last_check()
    except InvariantBroken as error:
        result.failure = failure_of(error, result.variant, seed, bot, index, away)
    finally:
        result.seconds = time.perf_counter() - started
    return result


def failure_of(
    error: InvariantBroken, variant: str, seed: str, bot: str, index: int, away: float
) -> dict[str, Any]:
    """What reproduces a broken invariant: the run, the hand, its dealer and commands."""
    return {
        "what": error.what,
        "variant": variant,
        "seed": seed,
        "hand_index": index,
        "hand_seed": hand_seed(seed, variant, index),
        "bot": bot,
        "reproduce": f"paiju simulate --variant {variant} --games {index + 1} --seed {shlex.quote(seed)} --bot {bot} --away {away} --check",
        "dealer": next((e.dealer for e in error.events if isinstance(e, ev.HandStarted)), None),
        "commands": [c.model_dump(mode="json") for c in error.commands],
    }
