"""A variant is one object (issue 8, section 3): config, ready rules, scorer, options and hooks,
in one registry; the table never tests a variant's id or wildcard kind; a sixth variant is its
own module plus one registration line."""

from __future__ import annotations

import ast
import inspect
import random
import sys
import types
from dataclasses import replace
from pathlib import Path

import pytest

from services.cli.rules_cmd import parse_score, run_score
from services.rules import variants
from services.rules.events import hand as ev
from services.rules.ready import ReadyRules
from services.rules.scoring import bao, shandong_patterns, shanghai, tanggu_patterns
from services.rules.scoring.patterns import Pattern, PatternError, pattern
from services.rules.table import TableState, decide_and_evolve
from services.rules.table.commands import DeclareWin, OpenTable, StartHand
from services.rules.table.legal import legal_commands
from services.rules.table.options import table_scorer
from services.rules.variants import VARIANTS, Variant, get_variant, variant_of
from services.rules.variants.base import Scoring
from services.rules.variants.breaks import side_and_stacks
from services.rules.variants.dealers import WinnerDealsDrawKeeps
from services.rules.variants.shanghai import SHANGHAI, ShanghaiCounters
from services.rules.variants.wildcards import NoWildcards

RULES = Path(__file__).resolve().parents[2] / "services" / "rules"
# every module of the engine but the variants' own, which define them
ENGINE = sorted(p for p in RULES.rglob("*.py") if "variants" not in p.relative_to(RULES).parts)
# names whose value is a variant, its id or its wildcard kind
NAMING = {"id", "variant_id", "wildcard", "variant"}
WILDCARD_KINDS = {"bao", "hun"}  # as field names ("bao" of a view or an event) they may appear


def _operands(node: ast.Compare) -> list[ast.expr]:
    """The two sides of a comparison, a literal tuple, list or set opened up."""
    found: list[ast.expr] = []
    for side in (node.left, *node.comparators):
        found += side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
    return found


def _names(sides: list[ast.expr]) -> set[str]:
    return {
        s.attr if isinstance(s, ast.Attribute) else s.id
        for s in sides
        if isinstance(s, ast.Attribute | ast.Name)
    }


def _strings(sides: list[ast.expr]) -> set[str]:
    return {s.value for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)}


def variant_tests_in(path: Path) -> list[str]:
    """Each place in a module that tests a variant's id or wildcard kind: a comparison with a
    variant, its id or its wildcard kind, a comparison with a wildcard kind's name, a look-up
    keyed by a variant id, or a variant id written out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    ids = set(VARIANTS)
    found = []
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Compare):
            sides = _operands(node)
            if _names(sides) & NAMING or _strings(sides) & WILDCARD_KINDS:
                found.append(f"{where} compares {ast.unparse(node)}")
        elif isinstance(node, ast.Subscript) and _names([node.slice]) & {"id", "variant_id"}:
            found.append(f"{where} looks up {ast.unparse(node)}")
        elif isinstance(node, ast.Constant) and node.value in ids:
            found.append(f"{where} names {node.value!r}")
    return found


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: str(p.relative_to(RULES)))
def test_the_engine_never_tests_a_variants_id_or_wildcard_kind(path: Path) -> None:
    """Not in ``table/`` (issue 8), nor anywhere else in the engine outside ``variants/``."""
    assert variant_tests_in(path) == []


def test_the_check_finds_a_test_of_a_variant_id_and_of_a_wildcard_kind(tmp_path: Path) -> None:
    module = tmp_path / "branchy.py"
    module.write_text(
        "def f(config, hand):\n"
        "    if config.id == 'shandong':\n"
        "        return 1\n"
        "    if config.wildcard != 'hun':\n"
        "        return 2\n"
        "    return {'tanggu': 3}[config.id]\n"
    )
    flagged = {int(found.split(":")[1].split()[0]) for found in variant_tests_in(module)}
    assert flagged == {2, 4, 6}


def test_there_is_one_registry_of_the_five_variants() -> None:
    assert sorted(VARIANTS) == ["harbin", "mudanjiang", "shandong", "shanghai", "tanggu"]
    for variant_id, variant in VARIANTS.items():
        assert isinstance(variant, Variant) and variant.id == variant_id
        assert variant_of(variant_id) is variant and get_variant(variant_id) is variant.config


def test_each_variant_carries_its_ready_rules_scorer_and_options() -> None:
    assert variant_of("mudanjiang").ready == ReadyRules(red_dragons_as_triplet=2)
    assert variant_of("harbin").ready == ReadyRules(red_dragons_as_triplet=3, pairs_as_triplet=True)
    assert all(variant_of(v).ready is None for v in ("shandong", "shanghai", "tanggu"))
    assert "pair_258_only" in variant_of("tanggu").scoring.options()
    assert "discarder_pays_alone" in variant_of("shanghai").scoring.options()
    assert variant_of("harbin").scoring.default is bao.BAO_SCORING


SCORE_REQUESTS = {
    "harbin": '{"variant": "harbin", "hand": "11s88m789m222p345s", "win_tile": "8m", '
    '"self_drawn": true, "seat": 0, "dealer": 0, "ready_declared": [true, false, false, false]}',
    "shanghai": '{"variant": "shanghai", "hand": "123m456p789s1112z", "win_tile": "2z", '
    '"self_drawn": true, "seat": 1, "dealer": 0, "ready_declared": [false, true, false, false]}',
    "shandong": '{"variant": "shandong", "hand": "123m456p789s1112z", "win_tile": "2z", '
    '"self_drawn": false, "discarder": 3, "seat": 1, "dealer": 0}',
}


@pytest.mark.parametrize("variant_id", sorted(SCORE_REQUESTS))
def test_rules_score_settles_exactly_as_a_table_with_default_options(variant_id: str) -> None:
    status, out = run_score(SCORE_REQUESTS[variant_id])
    settlement = table_scorer(variant_id, {})(parse_score(SCORE_REQUESTS[variant_id]))
    assert status == 0
    assert f'"payments": {list(settlement.payments)}' in out


# -- a sixth variant: its own module and one registration line ----------------------------------

SIXTH = Variant(
    config=replace(SHANGHAI, id="sixth", name="第六麻将"),
    scoring=Scoring(shanghai.DEFAULT, shanghai.score_with),
    wildcards=NoWildcards(),
    dealers=WinnerDealsDrawKeeps(),
    wall_break=side_and_stacks,
    counters=ShanghaiCounters(),
)


@pytest.fixture
def sixth_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("services.rules.variants.sixth")
    module.VARIANT = SIXTH  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(variants, "REGISTERED", (*variants.REGISTERED, "sixth"))
    monkeypatch.setattr(variants, "_by_id", {})


def test_a_sixth_variant_registered_by_one_line_plays_a_hand_to_its_settlement(
    sixth_registered: None,
) -> None:
    rng = random.Random(8)
    _, table = decide_and_evolve(
        TableState(), OpenTable(table_id="t6", variant="sixth", players=("a", "b", "c", "d"))
    )
    _, table = decide_and_evolve(table, StartHand(seed="sixth-hand-1"))
    settled = []
    for _ in range(2000):  # far above a hand's length
        commands = [c for seat in range(4) for c in legal_commands(table, seat)]
        if table.hand_over or not commands:
            break
        wins = [c for c in commands if isinstance(c, DeclareWin)]
        events, table = decide_and_evolve(table, wins[0] if wins else rng.choice(commands))
        settled += [e for e in events if isinstance(e, ev.HandSettled)]
    assert table.variant is SIXTH and table.hand_over and len(settled) == 1


# -- one shape for the scoring patterns of the five variants -------------------------------------

ALL_PATTERNS = {
    "牡丹江 and 哈尔滨": bao.PATTERNS,
    "山东": (*shandong_patterns.PATTERNS, shandong_patterns.FALLBACK),
    "上海": shanghai.PATTERNS,
    "塘沽": tanggu_patterns.PATTERNS,
}


@pytest.mark.parametrize("variants_of", sorted(ALL_PATTERNS))
def test_every_scoring_pattern_is_a_named_unit_of_one_argument(variants_of: str) -> None:
    for each in ALL_PATTERNS[variants_of]:
        assert isinstance(each, Pattern)
        assert (each.holds.__doc__ or "").startswith(f"{each.name}:")
        assert len(inspect.signature(each.holds).parameters) == 1


def test_a_pattern_without_its_chinese_name_first_is_refused() -> None:
    def nameless(win: object) -> bool:
        """Holds always."""
        return True

    with pytest.raises(PatternError, match="nameless"):
        pattern(nameless, lambda config: 1)


HOUSE = Path(__file__).resolve().parents[2]
VARIANT_FILES = ("services/rules/variants/", "services/rules/scoring/")


def _variant_modules_imported(source: str, where: str) -> list[str]:
    """The modules named after a variant (``tanggu_play``, ``scoring.shanghai``) ``source`` imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        for name in names:
            last = name.rsplit(".", 1)[-1]
            if name.startswith("services.rules") and any(last.startswith(v) for v in VARIANTS):
                found.append(f"{where}:{node.lineno} imports {name}")
    return found


def test_no_part_of_the_house_reaches_into_a_variants_own_files() -> None:
    """What a variant does differently is reached through its object's hooks (issue 23): no
    module outside ``variants/`` and ``scoring/`` imports a module named after a variant."""
    leaks = [
        leak
        for package in ("services", "events", "workers", "readmodels", "ops")
        for path in sorted((HOUSE / package).rglob("*.py"))
        if not str(path.relative_to(HOUSE)).startswith(VARIANT_FILES)
        for leak in _variant_modules_imported(
            path.read_text(encoding="utf-8"), str(path.relative_to(HOUSE))
        )
    ]
    assert leaks == []


def test_the_leak_check_finds_an_import_of_a_variants_own_module() -> None:
    source = "import os\nfrom services.rules.variants.tanggu_play import in_hun_diao\n"
    assert _variant_modules_imported(source, "table/turn.py") == [
        "table/turn.py:2 imports services.rules.variants.tanggu_play"
    ]
    assert _variant_modules_imported("from services.rules import levels\n", "x.py") == []
