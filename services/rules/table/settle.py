"""From a declared win (or 荒庄) to the settlement: contexts for the scorers, next dealer, counters."""

from __future__ import annotations

from dataclasses import dataclass

from services.rules.events import hand as ev
from services.rules.scoring.base import ScoringError, WinContext
from services.rules.table.options import table_scorer
from services.rules.table.state import HandState, TableState
from services.rules.table.winning import can_win
from services.rules.tiles import Tile, name, names
from services.rules.variants import Variant


@dataclass(frozen=True)
class WinClaim:
    seat: int
    tile: Tile
    self_drawn: bool
    discarder: int | None = None
    robbed_kong: bool = False


def _four(values: list[int] | tuple[int, ...]) -> tuple[int, int, int, int]:
    return (values[0], values[1], values[2], values[3])


def _four_flags(values: list[bool]) -> tuple[bool, bool, bool, bool]:
    return (values[0], values[1], values[2], values[3])


def win_context(table: TableState, hand: HandState, claim: WinClaim) -> WinContext:
    variant = table.variant
    config = variant.config
    seat = hand.seat(claim.seat)
    ready = tuple(s.ready is not None for s in hand.seats)
    wild = claim.self_drawn and variant.wildcards.drawn_is_wild(hand, seat, claim.tile)
    return WinContext(
        variant=config.id,
        concealed=seat.concealed,
        melds=seat.melds,
        win_tile=claim.tile,
        self_drawn=claim.self_drawn,
        seat=claim.seat,
        dealer=hand.dealer,
        discarder=claim.discarder,
        ready=(ready[0], ready[1], ready[2], ready[3]),
        bao=hand.bao if seat.ready is not None else None,
        win_tile_is_wild=wild,
        wildcards=hand.wildcards,
        flowers=_four([len(s.flowers) for s in hand.seats]),
        melds_by_seat=tuple(s.melds for s in hand.seats),
        after_kong=claim.self_drawn and hand.after_kong,
        robbed_kong=claim.robbed_kong,
        kong_fed_by=hand.kong_fed_by if claim.self_drawn and hand.after_kong else None,
        first_draw=not hand.claims_made and not seat.has_discarded,
        open_declared=_four_flags([s.ready == "open" for s in hand.seats]),
        drawn_streak=table.series.drawn_streak,
        huangfan_hand=table.series.huangfan > 0,
        base_stake=table.base_stake,
        xianggong=_four_flags([s.xianggong for s in hand.seats]),
        rules_version=table.rules_version,
    )


def may_win(table: TableState, hand: HandState, claim: WinClaim) -> bool:
    """The hand wins by shape and the variant's scorer accepts it (相公, 二五八将 …)."""
    if not can_win(table.variant, hand, claim.seat, claim.tile, claim.self_drawn):
        return False
    try:
        table_scorer(table.variant_id, dict(table.options), table.rules_version)(
            win_context(table, hand, claim)
        )
    except ScoringError:
        return False
    return True


def hand_won(table: TableState, hand: HandState, claims: list[WinClaim]) -> ev.HandWon:
    """Score each winner with the variant's scorer."""
    scorer = table_scorer(table.variant_id, dict(table.options), table.rules_version)
    wins = []
    for claim in claims:
        context = win_context(table, hand, claim)
        settlement = scorer(context)
        seat = hand.seat(claim.seat)
        wins.append(
            ev.Win(
                seat=claim.seat,
                tile=name(claim.tile),
                self_drawn=claim.self_drawn,
                discarder=claim.discarder,
                robbed_kong=claim.robbed_kong,
                after_kong=claim.self_drawn and hand.after_kong,
                wild=context.win_tile_is_wild,
                concealed=tuple(names(seat.concealed)),
                patterns=settlement.patterns,
                fan=settlement.fan,
                payments=settlement.payments,
            )
        )
    return ev.HandWon(wins=tuple(wins))


def next_dealer(
    variant: Variant, hand: HandState, winners: list[int], discarder: int | None
) -> int | None:
    """Who deals next (decision 13, the variant's succession); None: drawn at random from the
    next hand's seed."""
    return variant.dealers.next_dealer(hand.dealer, winners, discarder)


def _names(hand: HandState, seat: int) -> tuple[str, ...]:
    return tuple(names(hand.seat(seat).hand))


def escaped(table: TableState, hand: HandState) -> list[int]:
    """Seats that escaped this hand (逃跑): they left, or earned an escape penalty."""
    return [s for s in range(4) if table.presence[s].left or hand.penalized[s]]


def hand_settled(table: TableState, hand: HandState, wins: tuple[ev.Win, ...]) -> ev.HandSettled:
    from services.rules.table import counters

    variant = table.variant
    hands = (_names(hand, 0), _names(hand, 1), _names(hand, 2), _names(hand, 3))
    bao = name(hand.bao) if hand.bao is not None else None
    if hand.abandoned:  # 网管解散: nothing is paid or scored, and the series ends after it
        return ev.HandSettled(payments=counters.NO_CHANGE, hands=hands, bao=bao)
    winners = [w.seat for w in wins]
    discarder = wins[0].discarder if wins and not wins[0].self_drawn else None
    payments = [0, 0, 0, 0]
    for win in wins:
        for seat in range(4):
            payments[seat] += win.payments[seat]
    return ev.HandSettled(
        payments=_four(payments),
        hand_payments=counters.hand_payments(variant, hand),
        level_scores=counters.level_scores(variant, winners, escaped(table, hand)),
        next_dealer=next_dealer(variant, hand, winners, discarder),
        drawn_streak=0 if wins else table.series.drawn_streak + 1,
        huangfan=counters.huangfan_after(variant, table.series.huangfan, won=bool(wins)),
        hands=hands,
        bao=bao,
    )
