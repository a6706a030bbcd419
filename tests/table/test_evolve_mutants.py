"""The table's fold (``services/rules/table/evolve.py``): the bookkeeping ``evolve`` keeps as facts
are applied, shown by what it decides next — a win after a kong replacement is 杠上开花 and one on
a head draw is not, the tiles taken from the tail decide 山东's 荒庄, a 换宝 keeps the old 宝, 上大台
passes the turn on, a settlement adds up every seat's points (issue 28: the rules its mutants broke).

Given events (a ``Table`` driven by commands, or facts folded straight in), when a command or one
more fact, then the events and the folded state."""

from __future__ import annotations

import pytest

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.table import evolve, replay
from services.rules.table.conservation import conservation_errors
from services.rules.table.state import TableState
from services.rules.table.walls import drawable
from services.rules.tiles import names, tile

from .builders import DICE, Table, head_draws, play_out, tail_for, wall_for

SHANDONG_DEALER = "147p258s369p6z7z3s9s"  # 13 quiet tiles; the 14th is the tile seat 0 throws
TANGGU_DEALER = "147p258s369p6z7z1s2z"  # 13 quiet tiles (no 西/北: the 混 below)
HUN_DIAO = "123m789m789s111z3z"  # 塘沽: four sets and a lone 混 (3z): 混钓


def folded_through(table: Table, kind: type[DomainEvent]) -> TableState:
    """The table as it stood right after the last ``kind`` fact (a fold of the events so far)."""
    last = max(i for i, e in enumerate(table.events) if isinstance(e, kind))
    return replay(table.events[: last + 1])


# -- 杠上开花 is the replacement's alone ----------------------------------------------------------
def kong_then_discard() -> Table:
    """山东: seat 1 draws 5p, kongs 5555p and throws its replacement 9m; seat 2 draws 5m next,
    which completes its hand."""
    table = Table("shandong")
    table.start(
        {0: SHANDONG_DEALER + "1m", 1: "555p147m258s369m1z", 2: "123s789p456s22z46m"},
        draws=["5p", "5m"],
        tail=["9m"],
    )
    table.play(0, "1m")
    table.kong(1, "5p")
    assert table.drawn(1) == "9m" and table.hand.after_kong  # 杠开 on offer to seat 1
    table.play(1, "9m")
    return table


def test_a_self_drawn_win_on_a_tile_from_the_head_of_the_wall_is_no_gang_shang_kai_hua() -> None:
    """002 杠上开花: 摸到花补牌和牌或者明杠、暗杠以及补杠和时，从牌尾拿到的牌也刚好组成和牌 — the
    tile from the tail only: the next seat's draw from the head, just after a kong, is a plain 自摸."""
    table = kong_then_discard()
    drawn = table.last(ev.TileDrawn)
    assert (drawn.seat, drawn.tile, drawn.from_tail) == (2, "5m", False)
    won = table.of_type(ev.HandWon, table.win(2))[0].wins[0]
    assert won.self_drawn and not won.after_kong
    assert "杠上开花" not in won.patterns


def test_a_discard_ends_the_kong_replacements_gang_kai() -> None:
    """杠开 is a win on the replacement itself: once the konger throws it, no seat is left on a
    replacement (the state the next claim or draw is decided on)."""
    table = kong_then_discard()
    after = folded_through(table, ev.TileDiscarded)
    assert after.hand is not None and after.hand.step in ("claims", "draw")
    assert after.hand.after_kong is False and after.hand.kong_fed_by is None


# -- every tile taken from the tail is counted (山东 counts its stacks by them) -------------------
@pytest.mark.parametrize(
    "dealt, replaced, draws",
    [
        pytest.param(SHANDONG_DEALER + "1m", 0, 79, id="no-flower"),
        pytest.param("1f" + SHANDONG_DEALER, 1, 79, id="one-flower"),
        pytest.param("1f2f" + SHANDONG_DEALER[:-2], 2, 77, id="two-flowers"),
    ],
)
def test_shandong_a_flower_replaced_at_the_deal_leaves_a_lone_tile_that_counts_as_a_stack(
    dealt: str, replaced: int, draws: int
) -> None:
    """002 荒庄: 牌墙需保留最后6墩…杠完后留的单数海底牌也算一墩; 补花…在牌尾补摸一张牌. One 补花 takes
    one tile from the tail, and the lone tile it leaves is a stack: the head still draws 79 tiles
    before 荒庄; a second 补花 closes the stack up and two fewer are drawn."""
    table = Table("shandong")
    table.start({0: dealt}, tail=["3z", "3z"])
    assert len(table.seat(0).flowers) == replaced
    assert table.hand.tail_draws == replaced == len(table.hand.wall) - table.hand.tail
    play_out(table)
    assert table.of_type(ev.HandDrawn)
    assert head_draws(table) == draws


def test_shandong_a_kongs_replacement_is_counted_as_a_tile_from_the_tail() -> None:
    """002 荒庄: 杠完后留的单数海底牌也算一墩 — the replacement draws are what the stacks are counted by:
    one replacement, one tile from the tail, and the 12 reserved tiles become 11."""
    table = Table("shandong")
    table.start({0: "1111m2222p369s5z6z7z"}, tail=["3z", "3z"])
    before = drawable(table.state.variant.config, table.hand)
    table.kong(0, "1m")
    assert table.last(ev.TileDrawn).from_tail
    assert table.hand.tail_draws == 1 == len(table.hand.wall) - table.hand.tail
    assert drawable(table.state.variant.config, table.hand) == before
    table.kong(0, "2p")
    assert table.hand.tail_draws == 2 == len(table.hand.wall) - table.hand.tail
    assert drawable(table.state.variant.config, table.hand) == before - 2


def test_tanggu_feng_tou_gang_of_the_winds_takes_its_replacement_from_the_tail_and_counts_it() -> (
    None
):
    """004 风头杠 (东南西北): a kong of four with a replacement; decision 9: kong replacements come
    from the tail and shorten the live wall by exactly one tile each."""
    table = Table("tanggu")
    table.start(
        {0: TANGGU_DEALER + "1m", 2: "1234z"},
        tail=tail_for("tanggu", ["5p"], indicator="9m"),
        dice=DICE["tanggu"],
    )
    before = drawable(table.state.variant.config, table.hand)
    declared = table.of_type(ev.KongDeclared, table.honour_kong(2, "winds"))[0]
    assert (declared.kind, declared.replacement) == ("wind_kong", "5p")
    assert "5p" in names(table.seat(2).concealed)
    assert table.hand.tail_draws == 1 == len(table.hand.wall) - table.hand.tail
    assert drawable(table.state.variant.config, table.hand) == before - 1


# -- 上大台 passes the turn on ------------------------------------------------------------------
def test_tanggu_shang_da_tai_on_a_kong_replacement_passes_the_turn_to_the_next_seat() -> None:
    """004 上大台: 混钓过程中，如果钓上的"将"牌仍为"混"，可报出"上大台"，继续"混钓" — the 混 is laid
    aside and play goes on with the next seat (seat 3's next is seat 0), whose draw is from the head;
    nobody is left on a kong replacement."""
    table = Table("tanggu")
    table.start(
        {0: TANGGU_DEALER + "1m", 3: HUN_DIAO},
        draws=[None, None, "1z"],
        tail=tail_for("tanggu", ["4z"], indicator="3z"),
        dice=DICE["tanggu"],
    )
    table.play(0, "1m")
    play_out(table, until=lambda t: t.hand.turn == 3 and t.hand.step == "discard")
    assert table.drawn(3) == "1z"
    table.kong(3, "1z")
    assert table.drawn(3) == "4z" and table.hand.after_kong  # a 混 on the replacement
    events = table.raise_wild_pair(3)
    assert [(e.seat, e.tile) for e in table.of_type(ev.WildcardSetAside, events)] == [(3, "4z")]
    drawn = table.of_type(ev.TileDrawn, events)
    assert [(e.seat, e.from_tail) for e in drawn] == [(0, False)]
    assert table.hand.turn == 0 and table.drawn(0) is not None
    aside = folded_through(table, ev.WildcardSetAside)
    assert aside.hand is not None
    assert (aside.hand.step, aside.hand.turn, aside.hand.after_kong) == ("draw", 0, False)


# -- 换宝 with no tile left for a new 宝 ----------------------------------------------------------
@pytest.mark.parametrize("variant", ["mudanjiang", "harbin"])
def test_a_bao_change_with_no_new_bao_sends_the_old_one_to_the_dealers_discards_and_keeps_it(
    variant: str,
) -> None:
    """000 换宝: 旧的宝牌放入庄家打出的牌列中…换宝没有次数上限，直到没有牌换为止. A 换宝 that finds no
    tile for a new 宝 (``new`` is None) still puts the old one among the dealer's discards, keeps
    it in the 宝's history and leaves the hand without a 宝 — and without setting one aside again."""
    table = Table(variant)
    table.start(tail=tail_for(variant, bao="9s"))
    hand = table.hand
    assert hand.bao == tile("9s") and hand.bao_history == ()
    after = evolve(table.state, ev.BaoChanged(old="9s", new=None))
    changed = after.hand
    assert changed is not None
    assert changed.bao is None and changed.bao_history == (tile("9s"),)
    assert changed.seat(hand.dealer).discards[-1:] == (tile("9s"),)
    assert changed.tail == hand.tail  # no tile was taken for a new 宝
    assert not after.variant.wildcards.setup_pending(changed)
    assert conservation_errors(after) is None


# -- the series' points ------------------------------------------------------------------------
def test_the_series_scores_add_up_each_seats_payments_and_hand_points_over_the_hands() -> None:
    """decision 18: a player's points are what the tables paid and charged them; 004: 每个人都要
    计分 — 塘沽's 局分 (``hand_payments``) count beside what the wins paid, seat by seat."""
    table = Table("tanggu")
    state = table.state
    settled = [
        ev.HandSettled(
            payments=(8, -2, -2, -4), hand_payments=(0, 4, -1, -3), level_scores=(3, -1, -1, -1)
        ),
        ev.HandSettled(
            payments=(-1, 3, -1, -1), hand_payments=(2, 2, -2, -2), level_scores=(-1, 3, -1, -1)
        ),
    ]
    state = evolve(state, settled[0])
    assert state.series.scores == (8, 2, -3, -7)
    state = evolve(state, settled[1])
    assert state.series.scores == (9, 7, -6, -10)
    assert state.series.level_scores == (2, 2, -2, -2)
    assert state.series.hands_played == 2 and state.hand_over


# -- the deal's seed, revealed once its hand is over ---------------------------------------------
def test_a_revealed_seed_is_kept_by_its_own_hand_only() -> None:
    """The seed of a hand's deal is revealed when the hand ends (its commitment can then be checked
    by anyone): it belongs to the hand of that number, not to any other, nor to a table between
    hands."""
    table = Table("shandong")
    opened = table.state
    quiet = evolve(opened, ev.SeedRevealed(hand_number=1, seed="s-1"))
    assert quiet.hand is None and quiet.version == opened.version + 1

    second = evolve(
        opened,
        ev.HandStarted(hand_number=2, dealer=0, dice=DICE["shandong"], wall=wall_for("shandong")),
    )
    assert second.hand is not None and second.hand.seed is None
    for other in (1, 3):
        kept = evolve(second, ev.SeedRevealed(hand_number=other, seed=f"s-{other}"))
        assert kept.hand is not None and kept.hand.seed is None
    own = evolve(second, ev.SeedRevealed(hand_number=2, seed="s-2"))
    assert own.hand is not None and own.hand.seed == "s-2"


def test_a_fact_of_a_kind_the_table_does_not_know_is_refused_by_name() -> None:
    """A table is a fold of the facts it knows; any other is refused, naming its type."""
    with pytest.raises(ValueError, match="cannot apply an event of type 'table_painted'"):
        evolve(TableState(), DomainEvent(type="table_painted"))
