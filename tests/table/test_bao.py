"""The 宝 (牡丹江, 哈尔滨): set aside after the deal, seen only by a ready seat, wild only when a
ready seat draws it (摸宝), 换宝 when three copies are in view, the last four tiles drawn for
自摸 only, kongs and 换宝 near the end of the wall, 荒庄."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table.commands import DeclareWin
from services.rules.table.walls import drawable
from services.rules.tiles import name, names

from .builders import (
    BAO_VARIANTS,
    Table,
    draws_at,
    head_draws,
    play_out,
    play_until_draws,
    seat_one_chows_1m_and_declares_ready,
    tail_for,
)

QUIET = "147p258s369p4s5m6m8m"  # seat 0's 13 quiet tiles; its 14th is the tile it throws first
READY_ON_7P = "23m555p789s11s68p9m"  # 吃 1m with 23m, throw 9m: waits on 7p only
LIVE = 112 - 53 - 1  # tiles drawn from the head in a hand without kongs or 换宝


def ready_seat_one(
    variant: str,
    draws: list[str | None],
    bao: str = "3s",
    more: list[str | None] | None = None,
    hands: dict[int, str] | None = None,
) -> Table:
    """Seat 1 吃s seat 0's 1m and declares 听 on 7p; seat 2 draws ``draws[0]`` next."""
    table = Table(variant)
    table.start(
        {0: QUIET + "1m", 1: READY_ON_7P, **(hands or {})},
        draws=draws,
        tail=tail_for(variant, more or [], bao=bao),
    )
    seat_one_chows_1m_and_declares_ready(table)
    assert table.seat(1).ready == "plain" and table.hand.turn == 2
    return table


# -- who sees the 宝 -------------------------------------------------------------------------
@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_the_bao_is_hidden_from_every_seat_before_it_is_ready(variant: str) -> None:
    table = Table(variant)
    table.start({0: QUIET + "1m"}, tail=tail_for(variant, bao="3s"))
    for seat in (0, 1, 2, 3, None):
        view = table.view(seat)["hand"]
        assert view["bao"] is None and view["bao_hidden"] is True


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_the_bao_is_shown_to_the_seat_that_declared_ready_and_to_nobody_else(variant: str) -> None:
    table = ready_seat_one(variant, ["8p"])
    assert table.view(1)["hand"]["bao"] == "3s"
    for seat in (0, 2, 3, None):
        assert table.view(seat)["hand"]["bao"] is None


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_the_bao_is_shown_to_all_when_the_hand_ends(variant: str) -> None:
    table = ready_seat_one(variant, ["8p", "8p", "2s", "3s"])
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    table.win(1)
    for seat in (0, 2, 3, None):
        assert table.view(seat)["hand"]["bao"] == "3s"
    assert table.last(ev.HandSettled).bao == "3s"


# -- 摸宝 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_ready_seat_that_draws_the_bao_wins_with_it_as_any_tile(variant: str) -> None:
    table = ready_seat_one(variant, ["8p", "8p", "2s", "3s"])
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    assert table.drawn(1) == "3s"
    events = table.win(1)
    won = table.of_type(ev.HandWon, events)[0].wins[0]
    assert won.seat == 1 and won.self_drawn and won.wild and won.tile == "3s"
    assert {"自摸", "摸宝"} <= set(won.patterns)
    assert won.payments[1] > 0 and sum(won.payments) == 0


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_ready_seat_cannot_win_on_a_drawn_tile_that_is_neither_its_wait_nor_the_bao(
    variant: str,
) -> None:
    table = ready_seat_one(variant, ["8p", "8p", "2s", "4s"])
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    assert "does not complete" in table.refuse(DeclareWin(seat=1))


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_discarded_bao_is_an_ordinary_tile(variant: str) -> None:
    table = ready_seat_one(variant, ["3s"])
    table.discard(2, "3s")
    assert "win" not in table.options_of(1)


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_ready_seat_wins_on_its_wait_from_a_discard_without_the_bao(variant: str) -> None:
    table = ready_seat_one(variant, ["7p"])
    table.discard(2, "7p")
    table.pass_all(but=[1])
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert not won.wild and not won.self_drawn and won.discarder == 2 and "摸宝" not in won.patterns


# -- 换宝 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_three_copies_of_the_bao_in_view_change_it_and_the_old_one_goes_to_the_dealers_discards(
    variant: str,
) -> None:
    table = Table(variant)
    table.start(
        {0: QUIET + "1m"}, draws=["3s", "3s", "3s"], tail=tail_for(variant, ["2m"], bao="3s")
    )
    table.play(0, "1m")
    table.play(1, "3s")
    events = table.play(2, "3s")
    assert not table.of_type(ev.BaoChanged, events)
    before = drawable(table.state.variant.config, table.hand)
    events = table.discard(3, "3s")
    changed = table.of_type(ev.BaoChanged, events)
    assert [(c.old, c.new) for c in changed] == [("3s", "2m")]
    assert name(table.hand.bao) == "2m" and names(table.hand.bao_history) == ["3s"]
    assert names(table.seat(0).discards) == ["1m", "3s"]
    assert drawable(table.state.variant.config, table.hand) == before - 1


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_the_bao_is_changed_again_when_the_new_one_also_has_three_copies_in_view(
    variant: str,
) -> None:
    table = Table(variant)
    # 1m: seat 0, 1 and 2 throw one each; the fourth is the next 宝
    table.start(
        {0: QUIET + "1m", 1: "1m", 2: "1m"},
        draws=["8p", "8p", "3s", "3s", "3s"],
        tail=tail_for(variant, ["1m", "2m"], bao="3s"),
    )
    table.play(0, "1m")
    table.play(1, "1m")
    table.play(2, "1m")
    table.play(3, "3s")
    table.play(0, "3s")
    events = table.discard(1, "3s")
    changed = table.of_type(ev.BaoChanged, events)
    assert [(c.old, c.new) for c in changed] == [("3s", "1m"), ("1m", "2m")]
    assert name(table.hand.bao) == "2m"
    assert names(table.seat(0).discards)[-2:] == ["3s", "1m"]


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_pong_of_the_bao_kind_counts_toward_the_three_in_view(variant: str) -> None:
    table = Table(variant)
    table.start(
        {0: QUIET + "1m", 2: "3s3s"}, draws=["3s"], tail=tail_for(variant, ["2m"], bao="3s")
    )
    table.play(0, "1m")
    table.discard(1, "3s")  # seat 1 drew 3s
    table.pass_all(but=[2])
    events = table.pung(2)
    assert [(c.old, c.new) for c in table.of_type(ev.BaoChanged, events)] == [("3s", "2m")]


# -- the last four tiles ----------------------------------------------------------------------
@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_the_last_four_tiles_are_drawn_in_turn_and_thrown_automatically_with_no_claims(
    variant: str,
) -> None:
    # 9s is the 宝; the other three copies stay in hands, so the 宝 never changes. Seat 1 holds a
    # pair of 7z: the 7z drawn at the last draws cannot be ponged.
    table = Table(variant)
    table.start(
        {0: QUIET + "1m", 1: "7z7z9s", 2: "9s", 3: "9s"},
        draws=draws_at(d54="7z"),
        tail=tail_for(variant, bao="9s"),
    )
    play_until_draws(table, 54)
    assert drawable(table.state.variant.config, table.hand) == 4
    start = len(table.events)
    table.discard(table.hand.turn, table.drawn(table.hand.turn))
    table.pass_all()
    tail = table.events[start:]
    last = [e for e in tail if isinstance(e, ev.TileDrawn) and e.last_draws]
    thrown = [e for e in tail if isinstance(e, ev.TileDiscarded) and e.automatic]
    assert len(last) == 4 and len(thrown) == 4
    assert [e.seat for e in last] == [3, 0, 1, 2] and last[0].tile == "7z"
    assert not table.of_type(ev.ClaimAnswered, tail[tail.index(last[0]) :])
    assert table.of_type(ev.HandDrawn, tail) and table.hand.step == "ended"


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_nobody_may_act_during_the_last_draws(variant: str) -> None:
    table = Table(variant)
    table.start({0: QUIET + "1m", 1: "9s", 2: "9s", 3: "9s"}, tail=tail_for(variant, bao="9s"))
    play_until_draws(table, 54)
    table.discard(table.hand.turn, table.drawn(table.hand.turn))
    table.pass_all()
    assert table.hand.step == "ended" and table.state.hand_over


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_drawn_hand_keeps_the_dealer_and_pays_nothing(variant: str) -> None:
    table = Table(variant)
    table.start({0: QUIET + "1m", 1: "9s", 2: "9s", 3: "9s"}, tail=tail_for(variant, bao="9s"))
    play_out(table)
    settled = table.last(ev.HandSettled)
    assert table.of_type(ev.HandDrawn) and not table.of_type(ev.HandWon)
    assert settled.payments == (0, 0, 0, 0) and settled.next_dealer == 0
    assert head_draws(table) == LIVE


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_ready_seat_wins_by_self_draw_in_the_last_draws_automatically(variant: str) -> None:
    # after seat 1's 吃, draw i goes to seat (2 + i) % 4: seat 1 draws d55
    table = ready_seat_one(variant, draws_at(d0="8p", d55="7p"), bao="9s", hands={2: "9s", 3: "9s"})
    play_out(table)
    won = table.last(ev.HandWon).wins[0]
    assert won.seat == 1 and won.self_drawn and won.tile == "7p"
    assert head_draws(table) == 56


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_ready_seat_cannot_win_on_a_tile_thrown_in_the_last_draws(variant: str) -> None:
    table = ready_seat_one(variant, draws_at(d0="8p", d54="7p"), bao="9s", hands={2: "9s", 3: "9s"})
    play_out(table)
    assert not table.of_type(ev.HandWon)
    thrown = [
        e
        for e in table.events
        if isinstance(e, ev.TileDiscarded) and e.tile == "7p" and e.automatic
    ]
    assert thrown and thrown[0].seat == 0


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_ready_seat_that_draws_the_bao_in_the_last_draws_wins(variant: str) -> None:
    table = ready_seat_one(variant, draws_at(d0="8p", d55="3s"), bao="3s", hands={2: "9s", 3: "9s"})
    play_out(table)
    won = table.last(ev.HandWon).wins[0]
    assert won.seat == 1 and won.wild and "摸宝" in won.patterns


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_kong_when_four_tiles_remain_leaves_three_to_draw(variant: str) -> None:
    # d53 goes to seat 2, which throws 5p; seat 3 kongs it and takes the replacement
    table = Table(variant)
    table.start(
        {0: QUIET + "1m", 1: "9s", 2: "9s", 3: "555p9s"},
        draws=draws_at(d53="5p"),
        tail=tail_for(variant, ["7z"], bao="9s"),
    )
    play_until_draws(table, 54)
    assert table.hand.turn == 2 and table.drawn(2) == "5p"
    assert drawable(table.state.variant.config, table.hand) == 4
    table.discard(2, "5p")
    table.pass_all(but=[3])
    table.kong(3)
    assert table.drawn(3) == "7z" and drawable(table.state.variant.config, table.hand) == 3
    start = len(table.events)
    table.discard(3, "7z")
    table.pass_all()
    tail = table.events[start:]
    last = [e for e in tail if isinstance(e, ev.TileDrawn) and e.last_draws]
    assert [e.seat for e in last] == [0, 1, 2]
    assert table.of_type(ev.HandDrawn, tail)


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_bao_change_when_four_tiles_remain_leaves_three_to_draw(variant: str) -> None:
    # 9s: the 宝, seat 0's first throw, d1 (seat 2) and d53 (seat 2): the third in view at 4 left
    table = Table(variant)
    table.start(
        {0: QUIET + "9s"},
        draws=draws_at(d1="9s", d53="9s"),
        tail=tail_for(variant, ["7z"], bao="9s"),
    )
    play_until_draws(table, 54)
    assert table.drawn(2) == "9s" and drawable(table.state.variant.config, table.hand) == 4
    start = len(table.events)
    table.discard(2, "9s")
    table.pass_all()
    tail = table.events[start:]
    changed = table.of_type(ev.BaoChanged, tail)
    assert [(c.old, c.new) for c in changed] == [("9s", "7z")]
    last = [e for e in tail if isinstance(e, ev.TileDrawn) and e.last_draws]
    assert [e.seat for e in last] == [3, 0, 1]
    assert table.of_type(ev.HandDrawn, tail)


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_claim_on_the_dealers_discard_takes_that_tile_even_after_a_bao_change(
    variant: str,
) -> None:
    """换宝 during the window on the dealer's own discard puts old 宝 on the dealer's pile; the
    claim still takes the discarded tile (random play found it: mudanjiang smudanjiang00115-1)."""
    # 1m: seats 1–3 throw one each in the first round; the 宝 3s: seats 1 and 2 throw one in the
    # second, the dealer the third in the third round → 换宝 3s→1m, and 1m (three in view) → 2m.
    table = Table(variant)
    table.start(
        {0: QUIET + "9m", 1: "1m45s", 2: "1m", 3: "1m"},
        draws=["8p", "8p", "8p", "7z", "3s", "3s", "7z", "3s"],
        tail=tail_for(variant, ["1m", "2m"], bao="3s"),
    )
    table.play(0, "9m")
    for seat in (1, 2, 3):
        table.play(seat, "1m")
    table.play(0, "7z")
    table.play(1, "3s")
    table.play(2, "3s")
    table.play(3, "7z")
    assert table.drawn(0) == "3s"
    events = table.discard(0, "3s")
    assert [(c.old, c.new) for c in table.of_type(ev.BaoChanged, events)] == [
        ("3s", "1m"),
        ("1m", "2m"),
    ]
    table.pass_all(but=[1])
    table.chow(1, "45s")
    assert [names(m.tiles) for m in table.seat(1).melds] == [["3s", "4s", "5s"]]
    assert names(table.seat(0).discards) == ["9m", "7z", "3s", "1m"]  # the two old 宝 stay
    from services.rules.table.conservation import conservation_errors

    assert conservation_errors(table.state) is None


# -- 卡当 as the table settles it ----------------------------------------------------------------
def _ready_after_pong(variant: str, seat1: str, first: str, throw: str, winning: str) -> Table:
    """Seat 1 pongs seat 0's first tile, throws ``throw`` declaring 听; seat 2 throws ``winning``."""
    table = Table(variant)
    table.start(
        {0: "147p258s369p4s5m6m3m" + first, 1: seat1}, draws=[winning], tail=tail_for(variant)
    )
    table.discard(0, first)
    table.pass_all(but=[1])
    table.pung(1)
    table.discard(1, throw, ready="plain")
    table.pass_all()
    table.discard(2, winning)
    table.pass_all(but=[1])
    table.win(1)
    return table


@pytest.mark.parametrize("variant, kadang", [("mudanjiang", True), ("harbin", False)])
def test_the_mudanjiang_example_wins_on_8m_as_kadang_but_not_in_harbin(
    variant: str, kadang: bool
) -> None:
    """``000``: 11s 88m 789m 222p 345s waits on 1s and 8m; 8m is 卡当 (any reading) in 牡丹江,
    and not in 哈尔滨, where 卡当 needs a single wait."""
    table = _ready_after_pong(variant, "22p11s88m789m345s7z", "2p", "7z", "8m")
    won = table.last(ev.HandWon).wins[0]
    assert won.seat == 1 and ("卡当" in won.patterns) == kadang


@pytest.mark.parametrize(
    "variant, winning, kadang",
    [
        ("harbin", "8m", False),
        ("harbin", "5m", False),
        ("mudanjiang", "8m", True),
        ("mudanjiang", "5m", False),
    ],
)
def test_the_harbin_example_67789m_waits_on_5m_and_8m_so_8m_is_no_kadang_in_harbin(
    variant: str, winning: str, kadang: bool
) -> None:
    table = _ready_after_pong(variant, "67789m11p99s234s7z", "1p", "7z", winning)
    won = table.last(ev.HandWon).wins[0]
    assert won.seat == 1 and won.tile == winning and ("卡当" in won.patterns) == kadang


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_single_middle_wait_is_kadang_in_both(variant: str) -> None:
    table = _ready_after_pong(variant, "11p79m99s234s567s7z", "1p", "7z", "8m")
    assert "卡当" in table.last(ev.HandWon).wins[0].patterns


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_win_on_the_dealers_discard_takes_that_tile_even_after_a_bao_change(variant: str) -> None:
    # seat 1 吃s 9m and waits on 3s; 1m: seats 2, 3 and 0 throw one each; the 宝 3s: seats 2 and
    # 3 throw one, the dealer the third → 换宝 3s→1m→2m, and seat 1 wins on the dealer's 3s
    table = Table(variant)
    table.start(
        {0: "147p258s369p4s5m6m1m" + "9m", 1: "78m555p789s11s12s7z", 2: "1m", 3: "1m"},
        draws=["8p", "8p", "8p", "6p", "3s", "3s", "3s"],
        tail=tail_for(variant, ["1m", "2m"], bao="3s"),
    )
    table.discard(0, "9m")
    table.pass_all(but=[1])
    table.chow(1, "78m")
    table.discard(1, "7z", ready="plain")
    table.pass_all()
    table.play(2, "1m")
    table.play(3, "1m")
    table.play(0, "1m")
    table.play(1, "6p")
    table.play(2, "3s")
    table.play(3, "3s")
    events = table.discard(0, "3s")
    assert [(c.old, c.new) for c in table.of_type(ev.BaoChanged, events)] == [
        ("3s", "1m"),
        ("1m", "2m"),
    ]
    table.pass_all(but=[1])
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert won.seat == 1 and won.tile == "3s" and won.discarder == 0
    assert names(table.seat(0).discards) == ["1m", "3s", "1m"]
