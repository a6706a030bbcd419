"""Rulings explained to a seat: its waits scored by the variant (the rule documents' golden
hands), the rule that refuses a 听, a claim or a win, named with its Chinese term, and never
anything the seat may not see."""

from __future__ import annotations

import random

import pytest

from services.bots.runner import MAX_COMMANDS_PER_HAND, hand_seed, lineup, open_table
from services.rules import ready as ready_rules
from services.rules.table import TableState, decide, evolve
from services.rules.table.commands import Command, StartHand
from services.rules.table.legal import legal_commands, seats_to_act
from services.rules.table.rulings import (
    AFTER_READY,
    LAST_DRAWS,
    NOT_NEXT_SEAT,
    NOT_READY,
    OPEN_READY_SELF_DRAWN,
    Rulings,
    rulings,
)
from services.rules.table.state import SeatState, patch
from services.rules.table.visibility import ready_announced, sees_bao
from services.rules.table.walls import in_last_draws

from .builders import (
    VARIANTS,
    Table,
    draws_at,
    play_out,
    seat_one_chows_1m_and_declares_ready,
    tail_for,
)

DEALER = "147p258s369p4s5m6m3m"  # seat 0's quiet tiles; its 14th is the tile it throws first


def ready_after_pong(
    variant: str, seat1: str, first: str, throw: str, draws: list[str | None] | None = None
) -> Table:
    """Seat 1 pongs seat 0's first discard and throws ``throw`` declaring 听 (seat 2 then draws
    ``draws[0]``)."""
    table = pong_by_seat_one(variant, seat1, first, draws or [])
    table.discard(1, throw, ready="plain")
    table.pass_all()
    return table


def pong_by_seat_one(
    variant: str, seat1: str, first: str, draws: list[str | None] | None = None, bao: str = "9s"
) -> Table:
    table = Table(variant)
    table.start({0: DEALER + first, 1: seat1}, draws=draws or [], tail=tail_for(variant, bao=bao))
    table.discard(0, first)
    table.pass_all(but=[1])
    table.pung(1)
    return table


def waits_of(found: Rulings) -> dict[str, list[list[str]]]:
    """Each wait's patterns: 自摸 first, then a discard from each other seat."""
    return {
        w.tile: [win.score.patterns if win.score else [] for win in w.wins] for w in found.waits
    }


def test_the_mudanjiang_example_waits_on_1s_and_8m_and_8m_is_kadang() -> None:
    """``000``: 11s 88m 789m 222p 345s waits on 1s and 8m; 8m is 卡当 on the 789m reading."""
    table = ready_after_pong("mudanjiang", "22p11s88m789m345s7z", "2p", "7z")
    found = rulings(table.state, 1)
    waits = waits_of(found)
    assert sorted(waits) == ["1s", "8m"]
    assert all("卡当" in patterns for patterns in waits["8m"])
    assert not any("卡当" in patterns for patterns in waits["1s"])
    self_drawn, *on_discards = found.waits[0].wins
    assert self_drawn.discarder is None and "自摸" in self_drawn.score.patterns  # type: ignore[union-attr]
    assert [w.discarder for w in on_discards] == [2, 3, 0]
    for win in found.waits[0].wins:
        assert win.allowed and win.score is not None
        assert sum(win.score.payments) == 0 and win.score.payments[1] > 0 and win.score.fan > 0


def test_the_harbin_example_67789m_waits_on_5m_and_8m_so_8m_is_not_kadang() -> None:
    """``001``: 卡当 needs a single wait; 67789m waits on 5m and 8m."""
    harbin = waits_of(
        rulings(ready_after_pong("harbin", "67789m11p99s234s7z", "1p", "7z").state, 1)
    )
    assert sorted(harbin) == ["5m", "8m"]
    assert not any("卡当" in p for patterns in harbin.values() for p in patterns)
    mudanjiang = waits_of(
        rulings(ready_after_pong("mudanjiang", "67789m11p99s234s7z", "1p", "7z").state, 1)
    )
    assert all("卡当" in patterns for patterns in mudanjiang["8m"])


def test_a_ready_seat_that_sees_the_bao_is_told_what_drawing_it_scores() -> None:
    table = ready_after_pong("mudanjiang", "22p11s88m789m345s7z", "2p", "7z")
    found = rulings(table.state, 1)
    assert found.bao_draw is not None
    (drawn,) = found.bao_draw.wins
    assert drawn.allowed and "摸宝" in drawn.score.patterns  # type: ignore[union-attr]
    assert rulings(table.state, 2).bao_draw is None  # seat 2 is not 听: it is not told the 宝


def test_a_ting_refused_by_the_yaojiu_condition_names_it() -> None:
    """牡丹江: 听 needs a 幺九 or 红中; 345m 456s 678s 3m after a 碰 of 2p has none."""
    table = pong_by_seat_one("mudanjiang", "22p345m456s678s3m7z", "2p")
    discards = {d.discard: d for d in rulings(table.state, 1).discards}
    discard = discards["7z"]  # (a discard of 3m would keep 红中 and wait on it)
    assert discard.ready_blockers == [ready_rules.NO_TERMINAL]
    assert [w.tile for w in discard.waits] == ["3m", "6m"]
    assert all(w.blocker == NOT_READY for wait in discard.waits for w in wait.wins)
    ready_discards = [c for c in legal_commands(table.state, 1) if getattr(c, "ready", None)]
    assert "7z" not in {getattr(c, "tile", None) for c in ready_discards}


def test_a_seat_not_open_is_told_it_needs_to_open_before_ting() -> None:
    table = Table("mudanjiang")
    table.start({0: DEALER + "1p", 1: "11s88m789m222p345s"}, tail=tail_for("mudanjiang"))
    found = rulings(table.state, 1)
    assert found.ready_blockers == [ready_rules.NOT_OPEN]
    assert [w.tile for w in found.waits] == ["8m", "1s"]


def test_a_ready_seat_is_offered_the_win_on_a_discard_and_told_why_not_the_pong() -> None:
    table = ready_after_pong("mudanjiang", "22p11s88m789m345s7z", "2p", "7z", draws=["1s"])
    table.discard(2, "1s")
    claims = {c.kind: c for c in rulings(table.state, 1).claims}
    assert claims["win"].offered and claims["win"].blocker is None
    assert not claims["pong"].offered and claims["pong"].blocker == AFTER_READY
    assert claims["kong"].blocker == "holds 2 1s: a 明杠 needs three"


def test_a_chi_from_a_seat_not_before_it_names_shangjia() -> None:
    table = Table("mudanjiang")
    table.start({0: DEALER + "5p", 2: "46p", 3: "55p"}, tail=tail_for("mudanjiang"))
    table.discard(0, "5p")
    claims = {c.kind: c for c in rulings(table.state, 2).claims}
    assert not claims["chi"].offered and claims["chi"].blocker == NOT_NEXT_SEAT
    assert {c.kind: c for c in rulings(table.state, 3).claims}["pong"].offered


def test_in_the_last_draws_a_ready_seat_is_told_it_wins_by_self_draw_only() -> None:
    """``000``: 荒庄前最后四张牌 are drawn in turn, and their discards are won by nobody."""
    table = Table("mudanjiang")
    table.start({0: "147p258s369p4s5m6m8m1m", 1: "23m555p789s11s68p9m", 2: "9s", 3: "9s"},
                draws=draws_at(d0="8p", d54="7p"), tail=tail_for("mudanjiang"))  # fmt: skip
    seat_one_chows_1m_and_declares_ready(table)
    config = table.state.variant.config
    play_out(table, until=lambda t: in_last_draws(config, t.hand))
    (wait,) = rulings(table.state, 1).waits
    assert wait.tile == "7p" and wait.wins[0].allowed
    later = [w for w in wait.wins[1:] if w.discarder != table.hand.turn]  # their draws: last ones
    assert len(later) >= 2 and all(w.blocker == LAST_DRAWS.format(4) for w in later)


def test_a_shandong_open_ting_wins_by_self_draw_only() -> None:
    table = Table("shandong")
    table.start({0: DEALER + "1p", 1: "11s88m789m222p34s"}, tail=tail_for("shandong"))
    state = table.state
    hand = state.hand
    assert hand is not None
    seat = patch(hand.seat(1), ready="open")
    found = rulings(patch(state, hand=hand.with_seat(1, seat)), 1)
    (wait, *_) = found.waits
    assert wait.wins[0].allowed
    assert all(w.blocker == OPEN_READY_SELF_DRAWN for w in wait.wins[1:])


# -- nothing hidden ---------------------------------------------------------------------------
def hidden_shuffled(state: TableState, viewer: int, rng: random.Random) -> TableState:
    """The same table as ``viewer`` sees it, with every tile it may not see dealt anew (other
    seats' concealed and drawn tiles, the live wall), an unseen 宝 another tile, and another
    seat's silent 听 dropped."""
    hand = state.hand
    assert hand is not None
    config = state.variant.config
    others = [i for i in range(4) if i != viewer and not hand.seat(i).shown]
    live = [i for i in range(hand.head, hand.tail) if i != hand.indicator_index]
    pool = [t for i in others for t in hand.seat(i).hand] + [hand.wall[i] for i in live]
    rng.shuffle(pool)
    seats: list[SeatState] = list(hand.seats)
    for i in others:
        seat = hand.seat(i)
        dealt, pool = pool[: len(seat.concealed)], pool[len(seat.concealed) :]
        drawn = None
        if seat.drawn is not None:
            drawn, pool = pool[0], pool[1:]
        ready = seat.ready if ready_announced(config, seat.ready) else None
        seats[i] = patch(seat, concealed=tuple(sorted(dealt)), drawn=drawn, ready=ready)
    wall = list(hand.wall)
    for i, t in zip(live, pool, strict=True):
        wall[i] = t
    bao = hand.bao
    if bao is not None and not sees_bao(hand, viewer):
        bao = rng.choice([t for t in config.kinds if t != bao])
    shuffled = patch(hand, seats=tuple(seats), wall=tuple(wall), bao=bao)
    return patch(state, hand=shuffled)


def test_a_seat_about_to_ting_is_not_told_the_bao_by_the_scores_of_its_waits() -> None:
    """The 宝 is 1s, one of the waits seat 1 would have after throwing 7z: were the scorer told
    it, 自摸 on 1s would read as 摸宝; the seat is not 听 yet, so it must not."""
    table = pong_by_seat_one("mudanjiang", "22p11s88m789m345s7z", "2p", bao="1s")
    found = rulings(table.state, 1)
    (discard,) = [d for d in found.discards if d.discard == "7z"]
    assert not any("宝" in p for w in discard.waits for win in w.wins
                   for p in (win.score.patterns if win.score else []))  # fmt: skip
    assert found == rulings(hidden_shuffled(table.state, 1, random.Random(3)), 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seats_rulings_never_depend_on_what_it_may_not_see(variant: str) -> None:
    """Over a hand the bots play, every third state: each seat's rulings are the same when
    every tile hidden from it is dealt anew (and an unseen 宝, a silent 听, changed); and a
    ruling is given after every event (补花 and kong replacements half done included)."""
    table, _ = open_table(variant)
    seats = lineup("winning")
    rng = random.Random(f"{variant}/rulings")
    command: Command = StartHand(seed=hand_seed("7", variant, 0))
    checked = changed = 0
    for step in range(MAX_COMMANDS_PER_HAND):
        for event in decide(table, command):
            table = evolve(table, event)
            for viewer in range(4):  # at every point, 补花 and kong replacements included
                rulings(table, viewer)
        if table.hand_over:
            break
        if step % 3 == 0 and table.hand is not None:
            for viewer in range(4):
                shuffled = hidden_shuffled(table, viewer, rng)
                assert rulings(shuffled, viewer) == rulings(table, viewer)
                checked += 1
                changed += shuffled.hand != table.hand
        seat = seats_to_act(table)[0]
        command = seats[seat](table, seat, rng)
    assert table.hand_over and checked > 12 and changed > checked // 2
