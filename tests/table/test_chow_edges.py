"""The edges of 吃: a run is three consecutive tiles of one suit, so honours are never chowed,
a 1 or a 9 never crosses into the next suit, the middle 吃 of a 2 or an 8 is a run, and only
the seat after the discarder (下家) chows."""

from __future__ import annotations

import pytest

from services.rules.table.claims import chow_options
from services.rules.tiles import parse_tiles, tile

from .builders import Table, tail_for

DEALER = "147p258s369p4s5m6m8m"  # 13 quiet tiles; the 14th is the tile seat 0 throws first


def runs(discard: str, held: str) -> list[str]:
    """The runs chow_options finds, each as the two held tiles (``"13m"``-like pairs)."""
    found = chow_options(tile(discard), tuple(parse_tiles(held)))
    return [f"{a % 9 + 1}{b % 9 + 1}{'mpsz'[a // 9]}" for a, b in found]


@pytest.mark.parametrize(
    ("discard", "held", "expected"),
    [
        ("2m", "13m", ["13m"]),  # the middle 吃 of a 2
        ("8m", "79m", ["79m"]),  # the middle 吃 of an 8
        ("2p", "1p3p4p", ["13p", "34p"]),
        ("8s", "6s7s9s", ["67s", "79s"]),
        ("3m", "12m45m", ["12m", "24m", "45m"]),  # all three places
        ("7s", "5689s", ["56s", "68s", "89s"]),
        ("1m", "23m", ["23m"]),
        ("9m", "78m", ["78m"]),
    ],
)
def test_a_run_is_found_in_every_place_the_discard_can_take(
    discard: str, held: str, expected: list[str]
) -> None:
    """吃: the discard with two held tiles makes three consecutive tiles of its suit."""
    assert runs(discard, held) == expected


@pytest.mark.parametrize(
    ("discard", "held"),
    [
        ("1p", "9m2p"),  # no middle 吃 of a 1: 9m is another suit
        ("9m", "8m1p"),  # no middle 吃 of a 9: 1p is another suit
        ("2p", "9m1p"),  # a 2 is never the top of a run
        ("8m", "9m1p"),  # an 8 is never the foot of a run
        ("1s", "8p9p"),
        ("9p", "1s2s"),
        ("1z", "2z3z"),  # 东 with 南西: honours are never chowed
        ("2z", "1z3z"),
        ("3z", "1z2z"),
        ("7z", "5z6z"),  # 中 with 白发
        ("1z", "8s9s"),  # nor does a 9 run into the honours
        ("9s", "1z2z"),
    ],
)
def test_no_run_crosses_a_suit_or_takes_an_honour(discard: str, held: str) -> None:
    """A run is three consecutive tiles of one suit (m, p or s); honours make no runs."""
    assert runs(discard, held) == []


@pytest.mark.parametrize("variant", ["shandong", "shanghai", "tanggu"])
def test_east_is_not_chowed_with_south_and_west(variant: str) -> None:
    """东 discarded to a 下家 holding 南 and 西 offers no 吃 (honours make no runs)."""
    table = Table(variant)
    table.start({0: DEALER + "1z", 1: "2z3z147m258p369s1s"}, tail=tail_for(variant, indicator="5z"))
    table.discard(0, "1z")
    assert "chi" not in table.options_of(1)


@pytest.mark.parametrize("variant", ["mudanjiang", "shandong", "shanghai", "tanggu"])
@pytest.mark.parametrize(("dealer", "next_seat"), [(0, 1), (3, 0)])
def test_only_the_seat_after_the_discarder_is_offered_chi(
    variant: str, dealer: int, next_seat: int
) -> None:
    """吃 is taken from the 上家 only: on the dealer's 2m, the next seat in turn order (seat 0
    after seat 3) may chow 13m; the two other seats holding 13m may not."""
    table = Table(variant)
    others = {s: "13m" for s in range(4) if s != dealer}
    table.start(
        {**others, dealer: DEALER + "2m"}, dealer=dealer, tail=tail_for(variant, indicator="5z")
    )
    table.discard(dealer, "2m")
    for seat in others:
        assert ("chi" in table.options_of(seat)) == (seat == next_seat), seat
