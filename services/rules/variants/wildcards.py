"""The three ways the five variants use wildcards: none, the 宝 (牡丹江, 哈尔滨), the 混 (塘沽).

Each is a ``WildcardRules``: how the wildcards are set up after the deal, what the table does
with them by itself in play, and which wins and claims they make or forbid.
"""

from __future__ import annotations

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.table.state import HandState, SeatState
from services.rules.table.system import visible_copies
from services.rules.table.walls import drawable, next_tail, peek_tail
from services.rules.tiles import Tile, name
from services.rules.variants.base import VariantConfig
from services.rules.variants.tanggu_hun import reveal_wildcards
from services.rules.variants.tanggu_play import in_hun_diao

BAO_CHANGE_COPIES = 3  # 换宝: three copies of the 宝 in view


class NoWildcards:
    """山东, 上海: no tile is wild."""

    def setup_pending(self, hand: HandState) -> bool:
        return False

    def setup_events(self, hand: HandState) -> list[DomainEvent]:
        return []

    def changed(self, config: VariantConfig, hand: HandState) -> list[DomainEvent]:
        return []

    def wins_on_draw(self, hand: HandState, seat: SeatState, tile: Tile) -> bool:
        return False

    def drawn_is_wild(self, hand: HandState, seat: SeatState, tile: Tile) -> bool:
        return False

    def discard_claimable(self, hand: HandState, tile: Tile) -> bool:
        return True

    def in_wild_pair_wait(self, concealed: tuple[Tile, ...], wildcards: frozenset[Tile]) -> bool:
        return False


class Bao:
    """宝: set aside face down after the deal (the last tile of the wall), seen by ready seats,
    wild only as the tile a ready seat draws (decision 7); 换宝 once three copies are in view."""

    def setup_pending(self, hand: HandState) -> bool:
        return hand.bao is None and not hand.bao_history

    def setup_events(self, hand: HandState) -> list[DomainEvent]:
        if not self.setup_pending(hand):
            return []
        return [ev.BaoSetAside(tile=name(hand.wall[next_tail(hand)]))]

    def changed(self, config: VariantConfig, hand: HandState) -> list[DomainEvent]:
        """换宝: three copies of the 宝 in view; the next 宝 is the last tile of the wall."""
        if hand.bao is None or hand.step == "ended":
            return []
        if (
            visible_copies(config, hand, hand.bao) < BAO_CHANGE_COPIES
            or drawable(config, hand) == 0
        ):
            return []
        return [ev.BaoChanged(old=name(hand.bao), new=name(peek_tail(hand)))]

    def wins_on_draw(self, hand: HandState, seat: SeatState, tile: Tile) -> bool:
        """摸宝: the drawn 宝 stands for any tile the ready hand waits on."""
        return seat.ready is not None and tile == hand.bao

    def drawn_is_wild(self, hand: HandState, seat: SeatState, tile: Tile) -> bool:
        return self.wins_on_draw(hand, seat, tile)

    def discard_claimable(self, hand: HandState, tile: Tile) -> bool:
        return True  # a discarded 宝 is an ordinary tile

    def in_wild_pair_wait(self, concealed: tuple[Tile, ...], wildcards: frozenset[Tile]) -> bool:
        return False  # the 宝 is never raised (上大台 is 塘沽's, with the 混)


class Hun:
    """混: turned up for all after the deal, wild wherever they are held; a discarded 混 is
    claimed by nobody (``004``)."""

    def setup_pending(self, hand: HandState) -> bool:
        return not hand.wildcards

    def setup_events(self, hand: HandState) -> list[DomainEvent]:
        return [reveal_wildcards(hand)] if self.setup_pending(hand) else []

    def changed(self, config: VariantConfig, hand: HandState) -> list[DomainEvent]:
        return []

    def wins_on_draw(self, hand: HandState, seat: SeatState, tile: Tile) -> bool:
        return False  # a drawn 混 is wild, but the hand must still read as a win with it

    def drawn_is_wild(self, hand: HandState, seat: SeatState, tile: Tile) -> bool:
        return tile in hand.wildcards

    def discard_claimable(self, hand: HandState, tile: Tile) -> bool:
        return tile not in hand.wildcards

    def in_wild_pair_wait(self, concealed: tuple[Tile, ...], wildcards: frozenset[Tile]) -> bool:
        return in_hun_diao(concealed, wildcards)
