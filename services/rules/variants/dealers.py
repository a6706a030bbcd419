"""Who deals (decision 13): the successions of the five documents, each a ``DealerSuccession``."""

from __future__ import annotations

from collections.abc import Sequence


def _next_seat(seat: int) -> int:
    return (seat + 1) % 4


class RandomDealerKeptOnDraw:
    """牡丹江: a random dealer each hand, kept on 荒庄."""

    def first_dealer(self) -> int | None:
        return None

    def next_dealer(self, dealer: int, winners: Sequence[int], discarder: int | None) -> int | None:
        return dealer if not winners else None


class DealerKeepsOnWinOrDraw:
    """哈尔滨 连庄: the dealer stays on a win of its own or on 荒庄; else the winner deals."""

    def first_dealer(self) -> int | None:
        return None

    def next_dealer(self, dealer: int, winners: Sequence[int], discarder: int | None) -> int | None:
        if not winners or dealer in winners:
            return dealer
        return winners[0]


class WinnerDealsDrawPasses:
    """山东: the winner deals (on 一炮多响 the discarder); 荒庄 passes the deal on."""

    def first_dealer(self) -> int | None:
        return None

    def next_dealer(self, dealer: int, winners: Sequence[int], discarder: int | None) -> int | None:
        if not winners:
            return _next_seat(dealer)
        if len(winners) > 1 and discarder is not None:
            return discarder
        return winners[0]


class WinnerDealsDrawKeeps:
    """上海: the winner deals; a drawn hand keeps the dealer."""

    def first_dealer(self) -> int | None:
        return None

    def next_dealer(self, dealer: int, winners: Sequence[int], discarder: int | None) -> int | None:
        return winners[0] if winners else dealer


class DealerWinKeepsElseNext:
    """塘沽: the first seated player deals first; the dealer stays on its own win, else (荒庄
    included) the next seat deals."""

    def first_dealer(self) -> int | None:
        return 0

    def next_dealer(self, dealer: int, winners: Sequence[int], discarder: int | None) -> int | None:
        return dealer if dealer in winners else _next_seat(dealer)
