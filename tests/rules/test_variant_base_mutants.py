"""What every variant's config and ``Variant`` object hold by default
(``services/rules/variants/base.py``), through the rules that read them: the values and shapes
its mutants changed (issue 28)."""

from __future__ import annotations

import dataclasses

import pytest

from services.rules.melds import Meld
from services.rules.scoring.base import WinContext
from services.rules.table.commands import DeclareHonourKong, RaiseWildPair
from services.rules.table.counters import level_scores
from services.rules.table.state import SeatState
from services.rules.table.visibility import concealed_kong_faces_shown
from services.rules.table.walls import in_last_draws, reserved
from services.rules.table.winning import is_winning_shape
from services.rules.tiles import parse_tiles, tile
from services.rules.variants import VARIANTS, get_variant, variant_of
from services.rules.variants.base import NO_CHANGE, NoCounters, no_hand_payments
from tests.table.builders import Table, tail_for

FIVE = ("mudanjiang", "harbin", "shandong", "shanghai", "tanggu")


def _tiles(text: str) -> tuple[int, ...]:
    return tuple(parse_tiles(text))


# -- the wildcard kinds, as the table asks them ------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "held", "drawn_bao"),
    [
        ("mudanjiang", False, True),
        ("harbin", False, True),
        ("shandong", False, False),
        ("shanghai", False, False),
        ("tanggu", True, False),
    ],
)
def test_only_tanggus_hun_is_wild_when_held_and_only_the_bao_variants_wild_when_drawn(
    variant: str, held: bool, drawn_bao: bool
) -> None:
    # 004: 混 wild wherever held; 000/001: 宝牌只有在听牌后自摸摸到，才可替代任何牌 (decision 7)
    config = get_variant(variant)
    assert config.held_wildcards_are_wild is held
    assert config.drawn_bao_is_wild is drawn_bao


# -- what a variant has unless its config says otherwise ---------------------------------------
def test_seven_pairs_win_only_in_shandong_and_tanggu() -> None:
    # 002: 七对 和牌牌型全部由七个对子组成; 004: 七小对. The other documents list no 七对.
    pairs = _tiles("1122m3344p5566s7z7z")
    found = {v: is_winning_shape(get_variant(v), pairs, (), frozenset()) for v in FIVE}
    assert found == {v: v in ("shandong", "tanggu") for v in FIVE}


def test_only_shandong_counts_its_dead_wall_in_stacks() -> None:
    # 002: 牌墙需保留最后6墩…杠完后留的单数海底牌也算一墩: after one replacement draw the lone
    # tile on top is a stack, so 11 tiles are kept; 塘沽 keeps its 34 (全副的反数第35张牌).
    tanggu = Table("tanggu")
    tanggu.start(tail=tail_for("tanggu"))
    once = dataclasses.replace(tanggu.hand, tail_draws=1)
    assert reserved(get_variant("tanggu"), once) == 34
    assert reserved(get_variant("shandong"), once) == 11
    assert reserved(get_variant("shandong"), dataclasses.replace(once, tail_draws=2)) == 12


@pytest.mark.parametrize(("variant", "kept"), [("mudanjiang", 0), ("harbin", 0), ("shanghai", 0)])
def test_variants_without_a_dead_wall_draw_to_the_last_tile(variant: str, kept: int) -> None:
    table = Table(variant)
    table.start(tail=tail_for(variant))
    assert reserved(get_variant(variant), table.hand) == kept


@pytest.mark.parametrize("variant", ["shandong", "shanghai", "tanggu"])
def test_only_the_bao_variants_draw_their_last_four_tiles_for_self_draw_only(variant: str) -> None:
    # 000/001: 荒庄前最后四张牌（宝牌不算在内）系统按顺序轮流发给玩家看是否能自摸
    table = Table(variant)
    table.start(tail=tail_for(variant))
    config, hand = get_variant(variant), table.hand
    last = dataclasses.replace(hand, head=hand.tail - reserved(config, hand) - 1)
    assert not in_last_draws(config, last)
    assert get_variant(variant).last_draws_auto == 0


def test_only_shandong_and_shanghai_rob_an_added_kong() -> None:
    # 003: 抢杠 on 上杠; 002: 抢杠. The other documents give no 抢杠.
    robbing = {v for v in FIVE if get_variant(v).robbable_added_kong}
    assert robbing == {"shandong", "shanghai"}


def test_harbin_keeps_a_concealed_kong_face_down_after_its_seat_opens() -> None:
    # 001: 碰或杠牌后必须亮明暗杠除外 (decision 4)
    kong = Meld("concealed_kong", _tiles("1111m"))
    pong = Meld("pong", _tiles("999p"), tile("9p"), 2)
    opened = SeatState(melds=(kong, pong))
    assert not concealed_kong_faces_shown(get_variant("harbin"), opened)
    assert not concealed_kong_faces_shown(get_variant("shandong"), opened)


def test_only_tanggu_plays_a_ready_seat_by_the_system() -> None:
    # 004: 系统自动为其摸牌和和牌
    assert {v for v in FIVE if get_variant(v).system_plays_after_ready} == {"tanggu"}


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "shandong", "shanghai"])
def test_only_tanggu_has_honour_kongs_and_wild_pair_raises(variant: str) -> None:
    # 004 alone has 风头杠 and 上大台
    table = Table(variant)
    table.start(tail=tail_for(variant))
    name = get_variant(variant).name
    assert table.refuse(DeclareHonourKong(seat=0, honours="dragons")) == f"{name} has no 风头杠"
    assert table.refuse(RaiseWildPair(seat=0)) == f"{name} has no 上大台"


def test_every_variant_scores_level_points_as_003_does() -> None:
    # 003: 和牌者可得到3分的等级分，其他玩家扣除一分的等级分 (decision 17)
    for variant in VARIANTS.values():
        assert variant.config.level_score
        assert level_scores(variant, [2], []) == (-1, -1, 3, -1)


# -- the hooks a variant has unless it names its own -------------------------------------------
@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "shandong"])
def test_a_variant_without_local_hand_payments_pays_nothing_at_the_end_of_a_hand(
    variant: str,
) -> None:
    table = Table(variant)
    table.start(tail=tail_for(variant))
    assert NO_CHANGE == (0, 0, 0, 0)
    assert variant_of(variant).hand_payments(table.hand) == (0, 0, 0, 0)
    assert no_hand_payments(table.hand) == (0, 0, 0, 0)


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "shandong", "tanggu"])
def test_a_variant_without_huangfan_keeps_no_count(variant: str) -> None:
    counters = variant_of(variant).counters
    assert isinstance(counters, NoCounters)
    assert counters.huangfan_at_start(0, (1, 1)) == 0
    assert counters.huangfan_after(0, won=False) == 0
    assert counters.huangfan_after(0, won=True) == 0


def test_a_tables_scoring_options_change_what_its_scorer_settles() -> None:
    # 003: 其他人相应地扣分 by default; "the discarder pays alone" is an option (decision 8)
    ctx = WinContext(
        variant="shanghai",
        concealed=_tiles("123m456p789s1112z"),
        melds=(),
        win_tile=tile("2z"),
        self_drawn=False,
        seat=1,
        dealer=0,
        discarder=3,
        ready=(False, True, False, False),
    )
    scoring = variant_of("shanghai").scoring
    assert scoring.scorer()(ctx).payments == (-4, 12, -4, -4)
    assert scoring.scorer({"discarder_pays_alone": True})(ctx).payments == (0, 4, 0, -4)


# -- the values cannot change once made --------------------------------------------------------
def test_a_variant_its_config_and_its_scoring_are_frozen() -> None:
    variant = variant_of("harbin")
    for value, field in (
        (variant, "wall_break"),
        (variant.config, "id"),
        (variant.scoring, "default"),
    ):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, None)


@pytest.mark.parametrize("variant_id", FIVE)
def test_a_variant_answers_its_id_name_and_ready_rules_from_its_config(variant_id: str) -> None:
    variant = variant_of(variant_id)
    assert variant.id == variant_id
    assert variant.name == variant.config.name
    assert variant.ready is variant.config.ready_conditions
