"""``paiju rules analyze`` and ``paiju rules score``: JSON on stdin, one JSON object on stdout.

The contracts are those of issue 2. ``analyze`` reads ``{"variant", "hand", "melds", "wildcards"}``
and prints, for 3n+1 tiles, ``{"waits", "can_declare_ready", "blockers"}``, for 3n+2 tiles
``{"complete", "ready_discards"}``. ``score`` reads ``{"variant", "hand", "melds", "win_tile",
"self_drawn", "seat", "dealer", "discarder", "ready_declared", "bao", "wildcards", "flowers"}``
(``hand`` without the winning tile; absent keys mean none/false; ``dealer`` is required) and
prints ``{"patterns", "fan", "payments"}``.

Input that cannot be read (not UTF-8, not JSON, nested too deeply, a key neither command
knows, a value out of range), a hand that is not complete, or a win the variant does not allow,
ends with exit status 2 and one line on stderr naming what was wrong. ``run_analyze``/``run_score`` are the pure cores: text in,
``(exit status, text out)``; the ``*_main`` wrappers only move text between streams.
"""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from services.rules.melds import MELD_KINDS, Meld, meld_tiles_valid
from services.rules.ready import (
    complete_hand,
    hand_waits,
    held_wildcards,
    ready_blockers,
    ready_discards,
)
from services.rules.scoring.base import ScoringError, WinContext
from services.rules.table.options import table_scorer
from services.rules.tiles import (
    FLOWERS,
    NUM_KINDS,
    Tile,
    TileParseError,
    is_flower,
    name,
    names,
    parse_tiles,
    to_string,
)
from services.rules.variants import UnknownVariantError, VariantConfig, get_variant

USAGE_ERROR = 2
INTERNAL_ERROR = 1


class InputError(ValueError):
    """Input a command cannot read; the message names what was wrong."""


@dataclass(frozen=True)
class AnalyzeRequest:
    config: VariantConfig
    counts: list[int]  # the concealed hand, per kind
    melds: tuple[Meld, ...]
    wildcards: frozenset[Tile]


ANALYZE_KEYS = ("variant", "hand", "melds", "wildcards")
SCORE_KEYS = (
    "variant",
    "hand",
    "melds",
    "win_tile",
    "self_drawn",
    "seat",
    "dealer",
    "discarder",
    "ready_declared",
    "bao",
    "wildcards",
    "flowers",
)
MELD_KEYS = ("kind", "tiles", "from_seat")


def parse_analyze(text: str) -> AnalyzeRequest:
    """The ``analyze`` request, checked: 3n+1 or 3n+2 concealed tiles, at most 14 with the melds."""
    data = _load(text, ANALYZE_KEYS)
    config = _variant(data)
    hand = _tiles(config, _required(data, "hand"), "hand")
    melds = _melds(config, data.get("melds"))
    wildcards = _wildcards(config, data.get("wildcards"))
    if len(hand) % 3 == 0:
        raise InputError(
            f"wrong tile count: hand has {len(hand)} tiles; analyze takes 3n+1 or 3n+2"
        )
    _check_size(hand, melds, most=14)
    _check_copies(hand, melds)
    return AnalyzeRequest(config, _counts(hand), melds, wildcards)


def parse_score(text: str) -> WinContext:
    """The ``score`` request as the scorer's WinContext; absent keys are none/false."""
    data = _load(text, SCORE_KEYS)
    config = _variant(data)
    hand = _tiles(config, _required(data, "hand"), "hand")
    melds = _melds(config, data.get("melds"))
    win_tile = _one_tile(config, _required(data, "win_tile"), "win_tile")
    _check_size(hand, melds, most=13, least=13)
    _check_copies([*hand, win_tile], melds)
    seat = _seat(_required(data, "seat"), "seat")
    self_drawn = _flag(data.get("self_drawn"), "self_drawn")
    discarder = None if data.get("discarder") is None else _seat(data["discarder"], "discarder")
    if self_drawn and discarder is not None:
        raise InputError("discarder: a self-drawn win has no discarder")
    if not self_drawn and discarder in (None, seat):
        raise InputError("discarder: a win on a discard needs another seat's discarder (0-3)")
    wildcards = _wildcards(config, data.get("wildcards"))
    bao = None if data.get("bao") is None else _one_tile(config, data["bao"], "bao")
    if bao is not None and not config.drawn_bao_is_wild:
        raise InputError(f"bao: {config.id} has no 宝")
    return WinContext(
        variant=config.id,
        concealed=tuple(sorted(hand)),
        melds=melds,
        win_tile=win_tile,
        self_drawn=self_drawn,
        seat=seat,
        dealer=_seat(_required(data, "dealer"), "dealer"),
        discarder=discarder,
        ready=_per_seat(data.get("ready_declared"), seat, "ready_declared", bool),
        bao=bao,
        win_tile_is_wild=self_drawn and win_tile in held_wildcards(config, wildcards),
        wildcards=wildcards,
        flowers=_flowers(config, data.get("flowers"), seat),
        melds_by_seat=tuple(melds if s == seat else () for s in range(4)),
    )


def _load(text: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not text.strip():
        raise InputError("input is empty: give one JSON object on stdin (paiju rules --help)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"input is not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise InputError("input is nested too deeply to be a request") from None
    if not isinstance(data, dict):
        raise InputError("input must be one JSON object")
    _known_keys(data, keys, "input")
    return data


def _known_keys(data: dict[str, Any], keys: tuple[str, ...], where: str) -> None:
    """A key the command does not read is a mistake (``meld`` for ``melds``), never ignored."""
    for key in data:
        if key not in keys:
            close = difflib.get_close_matches(str(key), keys, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise InputError(f"{where}: unknown key {key!r}{hint}; the keys are {', '.join(keys)}")


def _required(data: dict[str, Any], key: str) -> Any:
    if data.get(key) is None:
        raise InputError(f"missing required key {key!r}")
    return data[key]


def _variant(data: dict[str, Any]) -> VariantConfig:
    value = _required(data, "variant")
    if not isinstance(value, str):
        raise InputError("variant must be a string such as 'harbin'")
    try:
        return get_variant(value)
    except UnknownVariantError as error:
        raise InputError(str(error)) from None


def _tiles(config: VariantConfig, value: Any, field: str) -> list[Tile]:
    """Tiles of a string, each one the variant's set holds; flowers are set aside, never held."""
    if not isinstance(value, str):
        raise InputError(f"{field} must be a tile string such as '11s88m'")
    try:
        tiles = parse_tiles(value)
    except TileParseError as error:
        raise InputError(f"{field}: {error}") from None
    kinds = set(config.kinds)
    for t in tiles:
        if is_flower(t):
            raise InputError(
                f"{field}: flower {name(t)} is set aside, not held (give 'flowers' as a count)"
            )
        if t not in kinds:
            raise InputError(f"{field}: {name(t)} is not a tile of {config.name} ({config.id})")
    return tiles


def _one_tile(config: VariantConfig, value: Any, field: str) -> Tile:
    tiles = _tiles(config, value, field)
    if len(tiles) != 1:
        raise InputError(f"{field} must be one tile, got {len(tiles)}")
    return tiles[0]


def _melds(config: VariantConfig, value: Any) -> tuple[Meld, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InputError('melds must be a list of {"kind", "tiles"} objects')
    melds: list[Meld] = []
    for i, raw in enumerate(value):
        if not isinstance(raw, dict) or "kind" not in raw or "tiles" not in raw:
            raise InputError(f"melds[{i}] must be an object with 'kind' and 'tiles'")
        _known_keys(raw, MELD_KEYS, f"melds[{i}]")
        kind = raw["kind"]
        if kind not in MELD_KINDS:
            raise InputError(
                f"melds[{i}]: unknown kind {kind!r}; kinds are {', '.join(MELD_KINDS)}"
            )
        tiles = tuple(sorted(_tiles(config, raw["tiles"], f"melds[{i}].tiles")))
        problem = meld_tiles_valid(kind, tiles)
        if problem:
            raise InputError(f"melds[{i}]: {problem}")
        from_seat = (
            None
            if raw.get("from_seat") is None
            else _seat(raw["from_seat"], f"melds[{i}].from_seat")
        )
        melds.append(Meld(kind, tiles, from_seat=from_seat))
    return tuple(melds)


def _wildcards(config: VariantConfig, value: Any) -> frozenset[Tile]:
    """The wild kinds: a tile string (or a list of them); only 宝 and 混 variants have any."""
    if value is None:
        return frozenset()
    parts = value if isinstance(value, list) else [value]
    kinds = frozenset(t for part in parts for t in _tiles(config, part, "wildcards"))
    if kinds and config.wildcard == "none":
        raise InputError(f"wildcards: {config.id} has no wildcards")
    return kinds


def _check_size(hand: list[Tile], melds: tuple[Meld, ...], most: int, least: int = 0) -> None:
    size = len(hand) + 3 * len(melds)
    if not least <= size <= most:
        wanted = f"{most}" if least == most else f"at most {most}"
        raise InputError(
            f"wrong tile count: hand and melds hold {size} tiles (a kong counts 3); expected {wanted}"
        )


def _check_copies(hand: list[Tile], melds: tuple[Meld, ...]) -> None:
    counts = _counts([*hand, *(t for m in melds for t in m.tiles)])
    for t, c in enumerate(counts):
        if c > 4:
            raise InputError(
                f"wrong tile count: {c} copies of {name(t)} in hand and melds; a set has 4"
            )


def _counts(tiles: list[Tile]) -> list[int]:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def _seat(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise InputError(f"{field} must be a seat 0-3, got {value!r}")
    return value


def _flag(value: Any, field: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise InputError(f"{field} must be true or false, got {value!r}")
    return value


def _per_seat(value: Any, seat: int, field: str, kind: type) -> Any:
    """A per-seat value given for the winner alone, or as a list of four; absent is 0/false."""
    if value is None:
        value = kind()
    if isinstance(value, list):
        if len(value) != 4:
            raise InputError(f"{field} must be one value or a list of 4, got {len(value)}")
        values = [_per_seat_item(v, field, kind) for v in value]
    else:
        values = [kind()] * 4
        values[seat] = _per_seat_item(value, field, kind)
    return tuple(values)


def _flowers(config: VariantConfig, value: Any, seat: int) -> tuple[int, int, int, int]:
    """Flowers set aside per seat: a set has one of each of the eight, and some variants none."""
    flowers: tuple[int, int, int, int] = _per_seat(value, seat, "flowers", int)
    most = len(FLOWERS) if config.flowers else 0
    if sum(flowers) > most:
        held = f"only {most}" if most else "none"
        raise InputError(
            f"flowers: {sum(flowers)} given, but {config.name} ({config.id}) has {held}"
        )
    return flowers


def _per_seat_item(value: Any, field: str, kind: type) -> Any:
    if type(value) is not kind or (
        isinstance(value, int) and not isinstance(value, bool) and value < 0
    ):
        wanted = "true or false" if kind is bool else "a count of 0 or more"
        raise InputError(f"{field} must be {wanted} (or a list of 4), got {value!r}")
    return value


def run_analyze(text: str) -> tuple[int, str]:
    """Analyse one hand: ``(0, json line)`` or ``(2, what was wrong)``."""
    try:
        request = parse_analyze(text)
    except InputError as error:
        return USAGE_ERROR, str(error)
    config, counts, melds, wildcards = (
        request.config,
        request.counts,
        request.melds,
        request.wildcards,
    )
    if sum(counts) % 3 == 1:
        blockers = ready_blockers(config, counts, melds, wildcards)
        out: dict[str, Any] = {
            "waits": names(hand_waits(config, counts, melds, wildcards)),
            "can_declare_ready": not blockers,
            "blockers": blockers,
        }
    else:
        discards = ready_discards(config, counts, melds, wildcards)
        out = {
            "complete": complete_hand(config, counts, melds, wildcards),
            "ready_discards": {name(t): names(w) for t, w in discards.items()},
        }
    return 0, _dump(out)


def run_score(text: str) -> tuple[int, str]:
    """Settle one win: ``(0, json line)`` or ``(2, error line)``.

    The scorer is the table's own (``table_scorer``) with a table's default options.
    """
    try:
        ctx = parse_score(text)
        settlement = table_scorer(ctx.variant, {})(ctx)
    except InputError as error:
        return USAGE_ERROR, str(error)
    except ScoringError as error:
        return USAGE_ERROR, _why_not(ctx, error)
    out = {
        "patterns": list(settlement.patterns),
        "fan": settlement.fan,
        "payments": list(settlement.payments),
    }
    return 0, _dump(out)


def _why_not(ctx: WinContext, error: ScoringError) -> str:
    """A refused win: first whether the tiles are a winning hand at all, then the scorer's why."""
    config = get_variant(ctx.variant)
    wild = ctx.wildcards | ({ctx.bao} if ctx.bao is not None else set())
    tiles = [*ctx.concealed, ctx.win_tile]
    if not complete_hand(config, _counts(tiles), ctx.melds, wild):
        melds = (
            f" and {len(ctx.melds)} meld{'s' if len(ctx.melds) > 1 else ''}" if ctx.melds else ""
        )
        return (
            f"not a complete hand: {to_string(ctx.concealed)} with {name(ctx.win_tile)}{melds} "
            "is not four sets and a pair"
            + (", nor seven pairs" if config.seven_pairs and not ctx.melds else "")
        )
    return str(error)


def _dump(out: dict[str, Any]) -> str:
    return json.dumps(out, ensure_ascii=False)


def read_request(stdin: IO[str]) -> str:
    """All of stdin as text; bytes that are not UTF-8 are an input error, not a traceback."""
    raw = getattr(stdin, "buffer", None)
    if raw is None:
        return stdin.read()
    data = raw.read()
    try:
        return str(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise InputError(
            f"input is not UTF-8: byte 0x{data[error.start]:02x} at offset {error.start}"
        ) from None


def _main(
    name: str, run: Callable[[str], tuple[int, str]], stdin: IO[str], stdout: IO[str],
    stderr: IO[str] | None,
) -> int:  # fmt: skip
    if stdin.isatty():  # a person at a terminal, who may not know a request is awaited
        (stderr or sys.stderr).write("reading one JSON object from stdin; end it with Ctrl-D\n")
    try:
        text = read_request(stdin)
    except InputError as error:
        status, text = USAGE_ERROR, str(error)
    else:
        status, text = run(text)
    if status == 0:
        stdout.write(text + "\n")
    else:  # one line, as every paiju command says what was wrong: "paiju COMMAND: ..."
        (stderr or sys.stderr).write(f"paiju rules {name}: {text}\n")
    return status


def analyze_main(stdin: IO[str], stdout: IO[str], stderr: IO[str] | None = None) -> int:
    """``paiju rules analyze``: read stdin, write stdout (or one error line to stderr)."""
    return _main("analyze", run_analyze, stdin, stdout, stderr)


def score_main(stdin: IO[str], stdout: IO[str], stderr: IO[str] | None = None) -> int:
    """``paiju rules score``: read stdin, write stdout (or one error line to stderr)."""
    return _main("score", run_score, stdin, stdout, stderr)


def main(argv: list[str] | None = None) -> int:
    """``python -m services.cli.rules_cmd analyze|score``, for use before ``paiju`` wires it."""
    args = sys.argv[1:] if argv is None else argv
    commands = {"analyze": analyze_main, "score": score_main}
    if len(args) != 1 or args[0] not in commands:
        sys.stderr.write("usage: python -m services.cli.rules_cmd analyze|score < request.json\n")
        return USAGE_ERROR
    return commands[args[0]](sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
