"""Rulings explained to one seat: its waits and what each would score, and the rule that keeps
听, a claim or a win from it — what a player disputes most, answered before the dispute.

``rulings(table, seat)`` answers only from what that seat may see (``visibility``): the scorers
are asked about a hand in which the 宝 is unknown until the seat is 听 and another seat's silent
听 (山东 暗楼, 塘沽's plain 听) is not there. Other seats' concealed tiles are never read; so a
seat cannot learn from its rulings anything its view does not show.

- a seat holding 3n+1 tiles: its waits, each with what 自摸 and a discard from each other seat
  would score (patterns by their Chinese names, 番, payments) or the rule that forbids that win;
  and, not yet 听, why it may not declare 听 with them (the blockers of ``ready``);
- on its turn with 3n+2 tiles, not 听: each discard that leaves a wait, with those waits scored
  as if it declared 听 (when it may) and the 听 blockers after it; and, if the drawn tile
  completes the hand, whether 自摸 is allowed;
- in a claim window on another seat's discard: each claim the variant knows, offered or not,
  and why not;
- a 听 seat that sees the 宝 (牡丹江, 哈尔滨): the 宝, and what drawing it would score (摸宝).
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from services.rules import ready as ready_rules
from services.rules.scoring.base import ScoringError, Settlement, WinContext
from services.rules.table import settle
from services.rules.table.claims import chow_options, claim_readies, kong_keeps_ready, near_ready
from services.rules.table.options import table_scorer
from services.rules.table.state import HandState, SeatState, TableState, patch
from services.rules.table.visibility import ready_announced, sees_bao
from services.rules.table.walls import in_last_draws, replacement_available
from services.rules.table.winning import is_winning_shape
from services.rules.tiles import Tile, is_flower, name
from services.rules.variants.base import ReadyMode

NOT_READY = "not 听: this variant wins only after 听 (先听后胡)"
OPEN_READY_SELF_DRAWN = "明楼: a seat that showed its hand wins by 自摸 only"
XIANGGONG = "相公: a seat that discarded a 混 may not win this hand"
HUN_UNCLAIMABLE = "a discarded 混 is claimed by nobody"
LAST_DRAWS = "荒庄前最后{}张: the last tiles are drawn for 自摸 only; nobody wins on their discards"
NOT_WINNING = "the tile does not complete the hand"
ROBBING_ONLY_WINS = "抢杠: the tile of an 补杠 may only be won on, never claimed"
AFTER_READY = "after 听 no 吃 or 碰 (听牌后不能吃碰)"
KONG_AFTER_READY = "after 听 no 明杠 on a discard"
KONG_LOSES_READY = "the kong would leave the hand unable to 听 (杠后不能听)"
NO_REPLACEMENT = "no tile left in the wall to replace a kong (杠)"
NOT_NEXT_SEAT = "吃 only from the seat before (上家)"
NOT_NEAR_READY = "吃听/碰听: no discard after the claim lets the seat declare 听"
UNRULED = ("deal", "setup", "ended")  # no hand in play yet, or no more
CLAIM_KINDS = ("win", "kong", "pong", "ready_pong", "chi", "ready_chi")


class Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class Score(Model):
    """What a win would settle: the patterns (their Chinese names), 番, and each seat's payment."""

    patterns: list[str]
    fan: int
    payments: list[int]


class WinRuling(Model):
    """One way of winning: by 自摸 (``discarder`` None) or on a seat's discard; allowed with its
    score, or the rule that forbids it."""

    discarder: int | None
    allowed: bool
    score: Score | None
    blocker: str | None


class WaitRuling(Model):
    tile: str
    wins: list[WinRuling]


class DiscardRuling(Model):
    """A discard that leaves the hand waiting: the waits after it (scored as if the seat then
    declared 听, where it may) and why 听 may not be declared after it ([]: it may)."""

    discard: str
    waits: list[WaitRuling]
    ready_blockers: list[str]


class ClaimRuling(Model):
    kind: str
    offered: bool
    blocker: str | None


class Rulings(Model):
    table_id: str
    seat: int
    variant: str
    hand_number: int | None
    step: str | None
    ready: str | None
    waits: list[WaitRuling]
    ready_blockers: list[str]
    discards: list[DiscardRuling]
    self_drawn: WinRuling | None
    bao_draw: WaitRuling | None
    claims: list[ClaimRuling]


def rulings(table: TableState, seat: int) -> Rulings:
    """The rulings ``seat`` may be told now (nothing but its seat and the table without a hand)."""
    if not 0 <= seat <= 3:
        raise ValueError(f"seat must be 0–3, got {seat}")
    hand = table.hand
    empty = Rulings(table_id=table.table_id, seat=seat, variant=table.variant_id,
                    hand_number=None, step=None, ready=None, waits=[], ready_blockers=[],
                    discards=[], self_drawn=None, bao_draw=None, claims=[])  # fmt: skip
    if hand is None or not table.opened or hand.step in UNRULED or table.hand_over:
        return empty.model_copy(update={"hand_number": hand.number if hand else None,
                                        "step": hand.step if hand else None})  # fmt: skip
    seen = seen_by(table, hand, seat)
    me = seen.seat(seat)
    found = empty.model_copy(update={"hand_number": hand.number, "step": hand.step,
                                     "ready": me.ready})  # fmt: skip
    if any(is_flower(t) for t in me.hand):
        return found  # a flower still to be replaced (补花): no hand to rule on yet
    if len(me.hand) % 3 == 1:
        found = found.model_copy(update={
            "waits": _waits(table, seen, seat),
            "ready_blockers": _ready_blockers(table, me) if me.ready is None else [],
            "claims": _claims(table, seen, seat),
        })  # fmt: skip
    elif len(me.hand) % 3 != 2:
        return found  # between a kong and its replacement: nothing to rule on yet
    elif me.ready is not None:  # 听 and on its turn: the waits are its concealed tiles'
        found = found.model_copy(update={"waits": _waits(table, _without_drawn(seen, seat), seat)})
    else:
        found = found.model_copy(update={"discards": _discards(table, seen, seat)})
    if me.drawn is not None and is_winning_shape(table.variant.config, me.hand, me.melds,
                                                 seen.wildcards):  # fmt: skip
        found = found.model_copy(update={"self_drawn": _win(table, seen, seat, me.drawn, None)})
    if me.ready is not None and seen.bao is not None and len(me.concealed) % 3 == 1:
        drawn = _win(table, _without_drawn(seen, seat), seat, seen.bao, None)
        bao = WaitRuling(tile=name(seen.bao), wins=[drawn])
        found = found.model_copy(update={"bao_draw": bao})
    return found


def seen_by(table: TableState, hand: HandState, seat: int) -> HandState:
    """The hand as far as ``seat`` may know it for scoring: no 宝 before its 听, and another
    seat's 听 only if it was announced."""
    config = table.variant.config
    seats = tuple(
        s if i == seat or ready_announced(config, s.ready) else patch(s, ready=None)
        for i, s in enumerate(hand.seats)
    )
    return patch(hand, seats=seats, bao=hand.bao if sees_bao(hand, seat) else None)


def _without_drawn(hand: HandState, seat: int) -> HandState:
    me = hand.seat(seat)
    return hand.with_seat(seat, patch(me, drawn=None), after_kong=False, kong_fed_by=None)


def _ready_blockers(table: TableState, me: SeatState) -> list[str]:
    hand = table.hand
    assert hand is not None
    return ready_rules.ready_blockers(table.variant.config, me.concealed, me.melds, hand.wildcards)


def _waits(table: TableState, hand: HandState, seat: int) -> list[WaitRuling]:
    me = hand.seat(seat)
    found = ready_rules.hand_waits(table.variant.config, me.concealed, me.melds, hand.wildcards)
    future = patch(hand, after_kong=False, kong_fed_by=None)  # a later draw, not this one
    return [
        WaitRuling(
            tile=name(w), wins=[_win(table, future, seat, w, d) for d in (None, *others(seat))]
        )
        for w in found
    ]


def others(seat: int) -> tuple[int, int, int]:
    return ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)


def _discards(table: TableState, hand: HandState, seat: int) -> list[DiscardRuling]:
    config = table.variant.config
    me = hand.seat(seat)
    found = []
    for t, _ in ready_rules.ready_discards(config, me.hand, me.melds, hand.wildcards).items():
        rest = list(me.hand)
        rest.remove(t)
        kept = patch(me, concealed=tuple(sorted(rest)), drawn=None)
        blockers = ready_rules.ready_blockers(config, kept.concealed, kept.melds, hand.wildcards)
        if not blockers:  # scored as the seat would stand once it declared 听 with this discard
            kept = patch(kept, ready=_mode(config.ready_modes), has_discarded=True)
        after = hand.with_seat(seat, kept, after_kong=False, kong_fed_by=None)
        found.append(DiscardRuling(discard=name(t), waits=_waits(table, after, seat),
                                   ready_blockers=blockers))  # fmt: skip
    return found


def _mode(modes: tuple[ReadyMode, ...]) -> ReadyMode:
    """The 听 a discard ruling assumes: one that still wins on a discard (not 明楼), if any."""
    return next((m for m in modes if m != "open"), modes[0])


def _win(
    table: TableState, hand: HandState, seat: int, tile: Tile, discarder: int | None
) -> WinRuling:
    """Winning on ``tile`` (自摸 when ``discarder`` is None): its score, or what forbids it."""
    blocker = _win_blocker(table, hand, seat, tile, discarder)
    if blocker is not None:
        return WinRuling(discarder=discarder, allowed=False, score=None, blocker=blocker)
    claim = settle.WinClaim(seat, tile, discarder is None, discarder)
    context = settle.win_context(table, hand, claim)
    settled = _settle(table.variant_id, table.options, context)
    if isinstance(settled, str):
        return WinRuling(discarder=discarder, allowed=False, score=None, blocker=settled)
    score = Score(patterns=list(settled.patterns), fan=settled.fan, payments=list(settled.payments))
    return WinRuling(discarder=discarder, allowed=True, score=score, blocker=None)


@lru_cache(maxsize=4096)
def _settle(
    variant_id: str, options: tuple[tuple[str, bool], ...], context: WinContext
) -> Settlement | str:
    """The scorer's settlement, or why it refused the win: remembered, since a client asks
    again for the same seat's rulings while its hand stays the same (塘沽's scorer, trying every
    reading of its 混, takes milliseconds a win). The context names the table's rules version,
    so a settlement remembered is one of that version's."""
    try:
        return table_scorer(variant_id, dict(options), context.rules_version)(context)
    except ScoringError as refused:
        return str(refused)


def _win_blocker(
    table: TableState, hand: HandState, seat: int, tile: Tile, discarder: int | None
) -> str | None:
    """The rule of ``winning.can_win`` that forbids this win, named; None: the shape wins."""
    variant, me = table.variant, hand.seat(seat)
    self_drawn = discarder is None
    if me.xianggong:
        return XIANGGONG
    if variant.config.ready_rule == "required" and me.ready is None:
        return NOT_READY
    if me.ready == "open" and not self_drawn:
        return OPEN_READY_SELF_DRAWN
    if self_drawn and variant.wildcards.wins_on_draw(hand, me, tile):
        return None
    if not self_drawn and not variant.wildcards.discard_claimable(hand, tile):
        return HUN_UNCLAIMABLE
    if not self_drawn and _thrown_in_last_draws(table, hand, discarder):
        return LAST_DRAWS.format(variant.config.last_draws_auto)
    if not is_winning_shape(variant.config, me.concealed + (tile,), me.melds, hand.wildcards):
        return NOT_WINNING
    return None


def _thrown_in_last_draws(table: TableState, hand: HandState, discarder: int | None) -> bool:
    """The discarder's tile will be (or is) one of the last draws, thrown for nobody to win on;
    the seat on turn throws a tile it drew before them unless its own draw was one."""
    if discarder == hand.turn and hand.step == "discard":
        return hand.last_draws
    return in_last_draws(table.variant.config, hand)


def _claims(table: TableState, hand: HandState, seat: int) -> list[ClaimRuling]:
    """Each claim the variant knows on the discard in the window, offered or why not."""
    window = hand.window
    if hand.step not in ("claims", "rob") or window is None or window.from_seat == seat:
        return []
    offered = window.options_of(seat)
    config = table.variant.config
    kinds = [k for k in CLAIM_KINDS
             if not k.startswith("ready_") or k.removeprefix("ready_") in config.ready_claim_kinds]  # fmt: skip
    return [
        ClaimRuling(kind=k, offered=True, blocker=None) if k in offered
        else ClaimRuling(kind=k, offered=False, blocker=_claim_blocker(table, hand, seat, k))
        for k in kinds
    ]  # fmt: skip


def _claim_blocker(table: TableState, hand: HandState, seat: int, kind: str) -> str:
    """Why ``claims.claim_options`` does not offer ``kind``, in the order it asks."""
    window = hand.window
    assert window is not None
    config, me, tile = table.variant.config, hand.seat(seat), window.tile
    if kind == "win":
        win = _win(table, hand, seat, tile, window.from_seat)
        return win.blocker or "胡 is not offered on this tile"
    if window.robbing:
        return ROBBING_ONLY_WINS
    if not table.variant.wildcards.discard_claimable(hand, tile):
        return HUN_UNCLAIMABLE
    if len(me.concealed) < config.min_concealed_to_claim:
        return (f"only {len(me.concealed)} concealed tiles: no 吃碰杠 with fewer than"
                f" {config.min_concealed_to_claim}")  # fmt: skip
    held = me.concealed.count(tile)
    if kind == "kong":
        return _kong_blocker(table, hand, seat, tile, held)
    if me.ready is not None:
        return AFTER_READY
    if kind in ("pong", "ready_pong") and held < 2:
        return f"holds {held} {name(tile)}: a 碰 needs two"
    pairs = chow_options(tile, me.concealed)
    if kind in ("chi", "ready_chi") and not pairs:
        return f"no two held tiles make a run (顺) with {name(tile)}"
    if kind == "chi":
        return NOT_NEXT_SEAT
    if not near_ready(config, me.concealed, hand.wildcards) or not any(
        claim_readies(config, hand, seat, kind.removeprefix("ready_"), tile, used)
        for used in ([(tile, tile)] if kind == "ready_pong" else pairs)
    ):
        return NOT_NEAR_READY
    return f"{kind} is not offered on this tile"


def _kong_blocker(table: TableState, hand: HandState, seat: int, tile: Tile, held: int) -> str:
    config, me = table.variant.config, hand.seat(seat)
    if held < 3:
        return f"holds {held} {name(tile)}: a 明杠 needs three"
    if not replacement_available(config, hand):
        return NO_REPLACEMENT
    if me.ready is not None:
        if config.kong_after_ready != "if_still_ready":
            return KONG_AFTER_READY
        rest = list(me.concealed)
        for _ in range(3):
            rest.remove(tile)
        if not kong_keeps_ready(config, hand, seat, tuple(rest), tile):
            return KONG_LOSES_READY
    return "杠 is not offered on this tile"
