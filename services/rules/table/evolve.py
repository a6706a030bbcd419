"""``evolve(state, event) -> state``: apply one fact. Replay is a fold of ``evolve``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.table import closing, counters
from services.rules.table import presence as away
from services.rules.table import seats as seat_ops
from services.rules.table.claims import open_window
from services.rules.table.deal import shuffled_wall, wall_in_draw_order
from services.rules.table.setup import setup_pending
from services.rules.table.state import Claim, HandState, SeatState, Series, TableState, patch
from services.rules.table.walls import in_last_draws, next_head, next_tail
from services.rules.tiles import tile as parse_one
from services.rules.variants.timing import with_overrides
from services.rules.variants.versions import variant_in

_T = {
    f"{r}{s}": parse_one(f"{r}{s}")
    for s, n in (("m", 9), ("p", 9), ("s", 9), ("z", 7), ("f", 8))
    for r in range(1, n + 1)
}


def t(name: str) -> int:
    return _T[name]


def ts(names: Iterable[str]) -> tuple[int, ...]:
    return tuple(_T[n] for n in names)


def _hand(table: TableState) -> HandState:
    if table.hand is None:
        raise ValueError("no hand in play")
    return table.hand


def _with_hand(table: TableState, hand: HandState) -> TableState:
    return patch(table, hand=hand)


def _table_opened(table: TableState, e: ev.TableOpened) -> TableState:
    return TableState(
        table_id=e.table_id,
        variant_id=e.variant,
        players=e.players,
        base_stake=e.base_stake,
        options=tuple(sorted(e.options.items())),
        series=Series(),
        timing=with_overrides(variant_in(e.rules_version, e.variant).config.timing, e.timing),
        rules_version=e.rules_version,
    )


def _hand_started(table: TableState, e: ev.HandStarted) -> TableState:
    variant = table.variant
    if e.wall is not None:
        wall = ts(e.wall)
    else:
        assert e.seed is not None
        wall = wall_in_draw_order(variant, shuffled_wall(variant.config, e.seed), e.dice, e.dealer)
    hand = HandState(
        number=e.hand_number,
        dealer=e.dealer,
        dice=e.dice,
        wall=wall,
        head=0,
        tail=len(wall),
        seats=(SeatState(), SeatState(), SeatState(), SeatState()),
        turn=e.dealer,
        step="deal",
        seed=e.seed,
    )
    huangfan = counters.huangfan_at_start(variant, table.series.huangfan, e.dice)
    table = patch(table, hand=hand, hand_over=False, series=patch(table.series, huangfan=huangfan))
    return away.restart_graces(table)


def _after_setup(table: TableState, hand: HandState) -> TableState:
    """Leave the setup once nothing is left to set up: the dealer plays."""
    if hand.step == "setup" and not setup_pending(table.variant, hand):
        hand = patch(hand, step="discard")
    return _with_hand(table, hand)


def _tiles_dealt(table: TableState, e: ev.TilesDealt) -> TableState:
    hand = _hand(table)
    seats = []
    for index, names in enumerate(e.hands):
        tiles = ts(names)
        if index == hand.dealer:  # the dealer's 14th tile is shown last, like a draw
            seats.append(SeatState(concealed=tuple(sorted(tiles[:-1])), drawn=tiles[-1]))
        else:
            seats.append(SeatState(concealed=tuple(sorted(tiles))))
    head = sum(len(h) for h in e.hands)
    return _after_setup(
        table,
        patch(hand, seats=(seats[0], seats[1], seats[2], seats[3]), head=head, step="setup"),
    )


def _bao_set_aside(table: TableState, e: ev.BaoSetAside) -> TableState:
    hand = _hand(table)
    return _after_setup(table, patch(hand, bao=t(e.tile), tail=next_tail(hand)))


def _bao_changed(table: TableState, e: ev.BaoChanged) -> TableState:
    hand = _hand(table)
    dealer = hand.seat(hand.dealer)
    hand = hand.with_seat(hand.dealer, patch(dealer, discards=dealer.discards + (t(e.old),)))
    if e.new is None:
        return _with_hand(table, patch(hand, bao=None, bao_history=hand.bao_history + (t(e.old),)))
    return _with_hand(
        table,
        patch(hand, bao=t(e.new), bao_history=hand.bao_history + (t(e.old),), tail=next_tail(hand)),
    )


def _wildcards_revealed(table: TableState, e: ev.WildcardsRevealed) -> TableState:
    hand = _hand(table)
    index = len(hand.wall) - e.position_from_end
    return _after_setup(
        table, patch(hand, wildcards=frozenset(ts(e.wildcards)), indicator_index=index)
    )


def _flower_replaced(table: TableState, e: ev.FlowerReplaced) -> TableState:
    hand = _hand(table)
    seat = seat_ops.replace_flower(hand.seat(e.seat), t(e.flower), t(e.replacement))
    in_play = hand.step != "setup"  # 补花 at the deal is part of the deal, not a 杠开
    hand = patch(hand.with_seat(e.seat, seat), tail=next_tail(hand), tail_draws=hand.tail_draws + 1)
    return _after_setup(table, patch(hand, after_kong=hand.after_kong or in_play))


def _tile_drawn(table: TableState, e: ev.TileDrawn) -> TableState:
    hand = _hand(table)
    seat = patch(hand.seat(e.seat), drawn=t(e.tile), has_drawn=True)
    moved: dict[str, Any]
    if e.from_tail:
        moved = {
            "tail": next_tail(hand),
            "tail_draws": hand.tail_draws + 1,
            "after_kong": True,
            "pending_kong": None,
        }
    else:
        moved = {"head": next_head(hand) + 1, "after_kong": False, "kong_fed_by": None}
    hand = hand.with_seat(
        e.seat, seat, turn=e.seat, step="discard", window=None, last_draws=e.last_draws, **moved
    )
    return _with_hand(table, hand)


def _tile_discarded(table: TableState, e: ev.TileDiscarded) -> TableState:
    hand = _hand(table)
    tile = t(e.tile)
    seat = seat_ops.discard(hand.seat(e.seat), tile, e.ready, tile in hand.wildcards)
    hand = hand.with_seat(e.seat, seat, after_kong=False, kong_fed_by=None)
    config = table.variant.config
    window = (
        None
        if e.automatic and in_last_draws(config, hand)
        else open_window(table, hand, e.seat, tile)
    )
    if window is not None:
        return _with_hand(table, patch(hand, window=window, step="claims", turn=e.seat))
    return _with_hand(table, patch(hand, window=None, step="draw", turn=(e.seat + 1) % 4))


def _claim_answered(table: TableState, e: ev.ClaimAnswered) -> TableState:
    hand = _hand(table)
    assert hand.window is not None
    claim = Claim(e.claim, ts(e.tiles))
    window = patch(hand.window, answers=hand.window.answers + ((e.seat, claim),))
    return _with_hand(table, patch(hand, window=window))


def _tile_claimed(table: TableState, e: ev.TileClaimed) -> TableState:
    hand = _hand(table)
    tile = t(e.tile)
    feeder = hand.seat(e.from_seat)
    hand = hand.with_seat(
        e.from_seat, patch(feeder, discards=seat_ops.without_last(feeder.discards, tile))
    )
    seat = seat_ops.claim(hand.seat(e.seat), e.kind, tile, ts(e.tiles), e.from_seat, e.ready)
    hand = patch(hand.with_seat(e.seat, seat), turn=e.seat, window=None, claims_made=True)
    if e.kind == "kong":
        return _with_hand(table, patch(hand, step="replace", kong_fed_by=e.from_seat))
    return _with_hand(table, patch(hand, step="discard", kong_fed_by=None))


def _kong_declared(table: TableState, e: ev.KongDeclared) -> TableState:
    hand = _hand(table)
    tiles = ts(e.tiles)
    seat, meld = seat_ops.declare_kong(hand.seat(e.seat), e.kind, tiles)
    # an 暗杠 ends the first go-round's 地和 as a claim does (decision 8)
    hand = patch(hand.with_seat(e.seat, seat), kong_fed_by=None, claims_made=True)
    if e.kind == "dragon_kong":
        return _with_hand(table, hand)  # three tiles, a set already: no replacement
    if e.replacement is not None:  # 风头杠 before the first draw: the replacement joins the hand
        taker = hand.seat(e.seat)
        taker = patch(taker, concealed=tuple(sorted(taker.concealed + (t(e.replacement),))))
        return _with_hand(
            table,
            patch(
                hand.with_seat(e.seat, taker), tail=next_tail(hand), tail_draws=hand.tail_draws + 1
            ),
        )
    config = table.variant.config
    if e.kind == "added_kong" and config.robbable_added_kong:
        window = open_window(table, hand, e.seat, tiles[0], robbing=True)
        if window:
            return _with_hand(table, patch(hand, step="rob", window=window, pending_kong=meld))
    return _with_hand(table, patch(hand, step="replace"))


def _hand_shown(table: TableState, e: ev.HandShown) -> TableState:
    hand = _hand(table)
    return _with_hand(table, hand.with_seat(e.seat, patch(hand.seat(e.seat), shown=True)))


def _concealed_kongs_shown(table: TableState, e: ev.ConcealedKongsShown) -> TableState:
    return table  # who sees a 暗杠 follows from its seat's openness and the hand's end


def _wildcard_set_aside(table: TableState, e: ev.WildcardSetAside) -> TableState:
    hand = _hand(table)
    seat = hand.seat(e.seat)
    seat = patch(seat, drawn=None, set_aside=seat.set_aside + (t(e.tile),))
    return _with_hand(
        table,
        patch(hand.with_seat(e.seat, seat), step="draw", turn=(e.seat + 1) % 4, after_kong=False),
    )


def _hand_won(table: TableState, e: ev.HandWon) -> TableState:
    hand = seat_ops.take_wins(_hand(table), e.wins)
    return _with_hand(table, patch(hand, step="ended", window=None, wins=e.wins))


def _hand_drawn(table: TableState, e: ev.HandDrawn) -> TableState:
    return _with_hand(table, patch(_hand(table), step="ended", window=None))


def _hand_settled(table: TableState, e: ev.HandSettled) -> TableState:
    series = table.series
    scores = tuple(
        s + p + k for s, p, k in zip(series.scores, e.payments, e.hand_payments, strict=True)
    )
    levels = tuple(s + d for s, d in zip(series.level_scores, e.level_scores, strict=True))
    series = patch(
        series,
        next_dealer=e.next_dealer,
        drawn_streak=e.drawn_streak,
        huangfan=e.huangfan,
        scores=(scores[0], scores[1], scores[2], scores[3]),
        level_scores=(levels[0], levels[1], levels[2], levels[3]),
        hands_played=series.hands_played + 1,
        hands_in_series=series.hands_in_series + 1,
    )
    return patch(table, series=series, hand_over=True)


def _seed_revealed(table: TableState, e: ev.SeedRevealed) -> TableState:
    hand = table.hand
    if hand is None or hand.number != e.hand_number:
        return table
    return _with_hand(table, patch(hand, seed=e.seed))


_APPLY: dict[str, Callable[[TableState, Any], TableState]] = {
    "table_opened": _table_opened,
    "hand_started": _hand_started,
    "tiles_dealt": _tiles_dealt,
    "bao_set_aside": _bao_set_aside,
    "bao_changed": _bao_changed,
    "wildcards_revealed": _wildcards_revealed,
    "flower_replaced": _flower_replaced,
    "tile_drawn": _tile_drawn,
    "tile_discarded": _tile_discarded,
    "claim_answered": _claim_answered,
    "tile_claimed": _tile_claimed,
    "kong_declared": _kong_declared,
    "hand_shown": _hand_shown,
    "concealed_kongs_shown": _concealed_kongs_shown,
    "wildcard_set_aside": _wildcard_set_aside,
    "hand_won": _hand_won,
    "hand_drawn": _hand_drawn,
    "hand_settled": _hand_settled,
    "seed_revealed": _seed_revealed,
    **away.APPLY,
    **closing.APPLY,
}


def evolve(table: TableState, event: DomainEvent) -> TableState:
    """The table after one more fact (one version further on)."""
    try:
        apply = _APPLY[event.type]
    except KeyError:
        raise ValueError(f"the table cannot apply an event of type {event.type!r}") from None
    after = apply(table, event)
    version = table.version + 1
    since = after.wait_since if event.type in away.KEEPS_WAIT else version
    if after is table:
        return patch(after, version=version, wait_since=since)
    # ``after`` is the copy the handler made for this event, seen by nobody yet: stamping it
    # in place spares a second copy of the table per event (folding is the engine's hot path)
    object.__setattr__(after, "version", version)
    object.__setattr__(after, "wait_since", since)
    return after


def replay(events: Iterable[DomainEvent], table: TableState | None = None) -> TableState:
    """Fold events into a table, from the empty table or from ``table`` (a snapshot)."""
    state = table if table is not None else TableState()
    for event in events:
        state = evolve(state, event)
    return state
