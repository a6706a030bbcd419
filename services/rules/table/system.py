"""What the table does by itself between players' decisions: deal, draw, 补花, 换宝, close claim
windows, play the last draws and the seats the variant plays after 听 (塘沽), settle."""

from __future__ import annotations

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.table import settle
from services.rules.table.claims import winning_claims
from services.rules.table.deal import deal
from services.rules.table.setup import setup_events
from services.rules.table.state import HandState, SeatState, TableState
from services.rules.table.visibility import concealed_kong_faces_shown
from services.rules.table.walls import drawable, in_last_draws, peek_head, peek_tail
from services.rules.tiles import FLOWERS, name, names
from services.rules.variants import Variant, VariantConfig


def next_system_events(table: TableState) -> list[DomainEvent]:
    """The table's own next step, or nothing when a player must act."""
    hand = table.hand
    if hand is None or table.hand_over:
        return []
    variant = table.variant
    config = variant.config
    if hand.step == "deal":
        hands, _ = deal(hand.wall, hand.dealer)
        return [
            ev.TilesDealt(
                hands=(
                    tuple(names(hands[0])),
                    tuple(names(hands[1])),
                    tuple(names(hands[2])),
                    tuple(names(hands[3])),
                )
            )
        ]
    if hand.step == "setup":
        return setup_events(variant, hand)
    if hand.step == "ended":
        settled: list[DomainEvent] = [
            ev.ConcealedKongsShown(seat=index, tiles=tuple(names(kongs)))
            for index, seat in enumerate(hand.seats)
            if (kongs := face_down_kongs(config, seat))
        ]
        settled.append(settle.hand_settled(table, hand, hand.wins))
        if hand.seed is not None:  # the deal's commitment can now be checked by anyone
            settled.append(ev.SeedRevealed(hand_number=hand.number, seed=hand.seed))
        return settled
    change = variant.wildcards.changed(config, hand)  # 换宝
    if change:
        return change
    if hand.step in ("claims", "rob") and hand.window is not None:
        if hand.window.complete:
            return _close_window(table, hand)
        return _system_answers(config, hand)
    if hand.step == "draw":
        if drawable(config, hand) == 0:
            return [ev.HandDrawn()]
        return [
            ev.TileDrawn(
                seat=hand.turn, tile=name(peek_head(hand)), last_draws=in_last_draws(config, hand)
            )
        ]
    if hand.step == "replace":
        if drawable(config, hand) == 0:
            return [ev.HandDrawn()]
        return [ev.TileDrawn(seat=hand.turn, tile=name(peek_tail(hand)), from_tail=True)]
    if hand.step == "discard":
        return _on_turn(table, hand)
    return []


def face_down_kongs(config: VariantConfig, seat: SeatState) -> list[int]:
    """The seat's 暗杠 (one tile each) that the other seats see face down (decision 4)."""
    if concealed_kong_faces_shown(config, seat):
        return []
    return [m.tile for m in seat.melds if m.kind == "concealed_kong"]


def visible_copies(config: VariantConfig, hand: HandState, t: int) -> int:
    """Copies of a tile in view: every discard pile and every meld shown face up."""
    count = 0
    for seat in hand.seats:
        count += seat.discards.count(t)
        for meld in seat.melds:
            # asked at every step in the 宝 variants: who sees an 暗杠 only when there is one
            if meld.kind != "concealed_kong" or meld.tile not in face_down_kongs(config, seat):
                count += meld.tiles.count(t)
    return count


def _close_window(table: TableState, hand: HandState) -> list[DomainEvent]:
    config = table.variant.config
    window = hand.window
    assert window is not None
    taken = winning_claims(config, window)
    if taken and taken[0][1].kind == "win":
        claims = [
            settle.WinClaim(seat, window.tile, False, window.from_seat, window.robbing)
            for seat, _ in taken
        ]
        return [settle.hand_won(table, hand, claims)]
    if window.robbing:  # nobody robbed the 补杠: its replacement comes now
        return [ev.TileDrawn(seat=window.from_seat, tile=name(peek_tail(hand)), from_tail=True)]
    if not taken:
        return _draw_for((window.from_seat + 1) % 4, config, hand)
    seat, claim = taken[0]
    kind = {"ready_chi": "chi", "ready_pong": "pong"}.get(claim.kind, claim.kind)
    used = claim.tiles if kind == "chi" else (window.tile,) * (2 if kind == "pong" else 3)
    claimed: list[DomainEvent] = [
        ev.TileClaimed(
            seat=seat,
            kind=kind,
            tile=name(window.tile),
            from_seat=window.from_seat,
            tiles=tuple(names(used)),
            ready=claim.kind.startswith("ready_"),
        )
    ]
    claimer = hand.seat(seat)
    if config.concealed_kong_shown_when_open and not claimer.is_open:
        kongs = face_down_kongs(config, claimer)  # 开门后暗杠自动明示 (牡丹江)
        if kongs:
            claimed.append(ev.ConcealedKongsShown(seat=seat, tiles=tuple(names(kongs))))
    return claimed


def _draw_for(seat: int, config: VariantConfig, hand: HandState) -> list[DomainEvent]:
    if drawable(config, hand) == 0:
        return [ev.HandDrawn()]
    return [
        ev.TileDrawn(seat=seat, tile=name(peek_head(hand)), last_draws=in_last_draws(config, hand))
    ]


def _on_turn(table: TableState, hand: HandState) -> list[DomainEvent]:
    """補花 of a drawn flower, and the seats the system plays: last draws, and after 听 where
    the variant says so (塘沽)."""
    config = table.variant.config
    seat = hand.seat(hand.turn)
    if seat.drawn is None:
        return []
    if seat.drawn in FLOWERS:
        if drawable(config, hand) == 0:
            return [ev.HandDrawn()]
        return [
            ev.FlowerReplaced(
                seat=hand.turn, flower=name(seat.drawn), replacement=name(peek_tail(hand))
            )
        ]
    auto = hand.last_draws or (config.system_plays_after_ready and seat.ready is not None)
    if not auto or _may_raise_wild_pair(table.variant, hand, seat):
        return []  # 上大台 is the player's choice: the system waits for it
    claim = settle.WinClaim(hand.turn, seat.drawn, True)
    if settle.may_win(table, hand, claim):
        return [settle.hand_won(table, hand, [claim])]
    return [ev.TileDiscarded(seat=hand.turn, tile=name(seat.drawn), automatic=True)]


def _may_raise_wild_pair(variant: Variant, hand: HandState, seat: SeatState) -> bool:
    """塘沽: a seat in 混钓 that draws another 混 may 上大台 (at most twice)."""
    return (
        seat.drawn in hand.wildcards
        and len(seat.set_aside) < variant.config.wild_pair_raises
        and variant.wildcards.in_wild_pair_wait(seat.concealed, hand.wildcards)
    )


def _system_answers(config: VariantConfig, hand: HandState) -> list[DomainEvent]:
    """塘沽: after 听 the system plays the seat, taking a win on a discard (系统自动为其摸牌和和牌)."""
    window = hand.window
    if not config.system_plays_after_ready or window is None:
        return []
    for seat, kinds in window.options:
        if hand.seat(seat).ready is not None and window.answer_of(seat) is None:
            return [ev.ClaimAnswered(seat=seat, claim="win" if "win" in kinds else "pass")]
    return []
