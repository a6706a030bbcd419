"""牡丹江 and 哈尔滨 settlement (decision 8), and the scorer registry."""

from __future__ import annotations

from typing import Any

import pytest

from services.rules.melds import Meld
from services.rules.scoring.bao import PATTERNS, BaoScoring, score
from services.rules.scoring.base import ScoringError, WinContext
from services.rules.table.options import table_scorer
from services.rules.tiles import parse_tiles, tile
from services.rules.variants import VARIANTS, UnknownVariantError

PONG_2P = (Meld("pong", tuple(parse_tiles("222p"))),)
EXAMPLE_000 = "11s88m789m345s"  # with a 碰 of 2p: waits on 1s and 8m, 8m 卡当 in 牡丹江
CLOSED_WAIT = "13m345s789s11s"  # with a 碰 of 2p: waits on 2m alone


def win(
    hand: str = EXAMPLE_000, win_tile: str = "1s", variant: str = "mudanjiang", **kw: Any
) -> WinContext:
    """Seat 1 wins, seat 0 deals, everyone is 听 unless told; 自摸 unless a discarder is given."""
    fields: dict[str, Any] = {
        "variant": variant,
        "concealed": tuple(parse_tiles(hand)),
        "melds": PONG_2P,
        "win_tile": tile(win_tile),
        "self_drawn": "discarder" not in kw,
        "seat": 1,
        "dealer": 0,
        "ready": (True, True, True, True),
    }
    fields.update(kw)
    if isinstance(fields.get("bao"), str):
        fields["bao"] = tile(fields["bao"])
    return WinContext(**fields)


def test_pinghu_is_one_fan_paid_by_every_loser() -> None:
    result = score(win(discarder=2, dealer=1))
    assert (result.patterns, result.fan, result.payments) == (("平胡",), 1, (-2, 6, -2, -2))


def test_a_non_dealer_win_costs_the_dealer_double() -> None:
    assert score(win(discarder=2)).payments == (-2, 4, -1, -1)


def test_zimo_doubles() -> None:
    result = score(win())
    assert (result.patterns, result.fan, result.payments) == (("自摸",), 2, (-4, 8, -2, -2))


def test_kadang_on_a_discard_doubles() -> None:
    result = score(win(win_tile="8m", discarder=2))
    assert (result.patterns, result.fan) == (("平胡", "卡当"), 2)


def test_harbin_kadang_needs_a_single_wait() -> None:
    assert score(win(win_tile="8m", discarder=2, variant="harbin")).patterns == ("平胡",)
    assert score(win(CLOSED_WAIT, "2m", discarder=2, variant="harbin")).patterns == ("平胡", "卡当")


def test_mobao_doubles_on_top_of_zimo() -> None:
    result = score(win(win_tile="5p", bao="5p", variant="harbin"))
    assert (result.patterns, result.fan) == (("自摸", "摸宝"), 4)


def test_kadang_bao_is_eight_fan() -> None:
    result = score(win(win_tile="5p", bao="5p"))
    assert (result.patterns, result.fan) == (("自摸", "摸宝", "卡当", "卡当宝"), 8)
    assert result.payments == (-16, 32, -8, -8)


def test_bao_zhong_bao_doubles_kadang_bao_to_sixteen() -> None:
    result = score(win(CLOSED_WAIT, "2m", bao="2m", variant="harbin"))
    assert (result.patterns, result.fan) == (("自摸", "摸宝", "卡当", "卡当宝", "宝中宝"), 16)


def test_a_discarded_bao_is_an_ordinary_tile() -> None:
    assert score(win(win_tile="1s", bao="1s", discarder=2)).patterns == ("平胡",)


def test_the_dealer_winning_is_paid_double_by_all() -> None:
    assert score(win(dealer=1)).payments == (-4, 12, -4, -4)


def test_chuchong_discarder_pays_three_and_the_others_two_shares() -> None:
    result = score(win(discarder=2, dealer=1, ready=(False, True, False, False)))
    assert result.payments == (-4, 14, -6, -4)


def test_chuchong_with_a_paying_dealer_doubles_its_share_too() -> None:
    assert score(win(discarder=2, ready=(False, True, False, False))).payments == (-4, 9, -3, -2)


def test_the_stake_multiplies_every_payment() -> None:
    assert score(win(base_stake=5)).payments == (-20, 40, -10, -10)


def test_every_factor_is_a_config_value() -> None:
    config = BaoScoring(self_drawn_factor=3, dealer_factor=1, kadang_factor=5)
    assert score(win(win_tile="8m"), config).fan == 15
    assert score(win(win_tile="8m"), config).payments == (-15, 45, -15, -15)


def test_a_hand_that_is_not_complete_is_no_win() -> None:
    with pytest.raises(ScoringError, match="not four sets and a pair"):
        score(win(win_tile="5m"))


def test_a_seat_that_is_not_ready_cannot_win() -> None:
    with pytest.raises(ScoringError, match="听"):
        score(win(ready=(True, False, True, True)))


def test_a_hand_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ScoringError, match="13"):
        score(win(hand="11s88m789m34s"))


def test_a_discard_win_needs_another_seat_as_discarder() -> None:
    with pytest.raises(ScoringError, match="discarder"):
        score(win(self_drawn=False))
    with pytest.raises(ScoringError, match="discarder"):
        score(win(discarder=1))


def test_other_variants_are_not_settled_by_the_bao_scorer() -> None:
    with pytest.raises(ScoringError, match="shandong"):
        score(win(variant="shandong"))


def test_payments_always_sum_to_zero() -> None:
    for dealer in range(4):
        for discarder in (0, 2, 3):
            for ready in ((True, True, True, True), (False, True, False, False)):
                result = score(win(win_tile="8m", dealer=dealer, discarder=discarder, ready=ready))
                assert sum(result.payments) == 0


def test_each_pattern_docstring_starts_with_its_chinese_name() -> None:
    for pattern in PATTERNS:
        assert (pattern.holds.__doc__ or "").startswith(f"{pattern.name}:")


def test_the_registry_gives_the_bao_scorer_for_both_bao_variants() -> None:
    assert table_scorer("harbin", {})(win(variant="harbin")).fan == 2
    assert table_scorer("mudanjiang", {})(win()).fan == 2


def test_the_registry_names_an_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError, match="known variants"):
        table_scorer("sichuan", {})


def test_the_registry_names_a_missing_variant_module(monkeypatch: pytest.MonkeyPatch) -> None:
    from services.rules import variants

    monkeypatch.setattr(variants, "REGISTERED", (*variants.REGISTERED, "no_such_module"))
    monkeypatch.setattr(variants, "_by_id", {})
    with pytest.raises(ModuleNotFoundError, match="no_such_module"):
        variants.variant_of("shanghai")


def test_bao_variants_are_the_two_with_a_bao() -> None:
    with_bao = tuple(v.id for v in VARIANTS.values() if v.config.drawn_bao_is_wild)
    assert with_bao == ("mudanjiang", "harbin")


def test_a_drawn_tile_that_is_not_the_bao_is_no_mobao() -> None:
    """摸宝 is the 宝 itself drawn by a 听 seat: a self-drawn 1s with 5p as the 宝 is a plain 自摸."""
    assert score(win(win_tile="1s", bao="5p")).patterns == ("自摸",)
    assert score(win(win_tile="1s", bao="8m", variant="harbin")).patterns == ("自摸",)
