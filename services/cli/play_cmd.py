"""``paiju play``: four winning bots play one whole hand, printed move by move as a player reads it.

    paiju play --variant harbin --seed paiju-demo-0001 [--store URL]

This is the operator's view: every hand, the wall's 宝 and 混 are shown as they happen. Tiles
are written ``5m`` (万), ``5p`` (饼), ``5s`` (条); honours and flowers by their characters.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from typing import TextIO

from events.base import DomainEvent
from services.bots.runner import BOTS, InvariantBroken, hand_seed, open_table, play_hand
from services.cli.failures import CHECK_FAILED, CliError, Interrupted, command
from services.cli.stores import StoreChoice, open_for_writing
from services.rules.events import hand as ev
from services.rules.table.state import TableState
from services.rules.table.winning import hand_waits
from services.rules.tiles import Tile, name, tile
from services.rules.variants import VARIANTS

HONOURS = dict(zip(("1z", "2z", "3z", "4z", "5z", "6z", "7z"), "东南西北白发中", strict=True))
FLOWERS = dict(zip((f"{r}f" for r in range(1, 9)), "春夏秋冬梅兰竹菊", strict=True))
READY = {
    "plain": "听",
    "open": "听 as 明楼 (hand shown to all)",
    "hidden": "听 as 暗楼 (hidden)",
    "dubao": "听 as 独抱",
}
CLAIM = {"chi": "吃", "pong": "碰", "kong": "明杠"}
KONG = {
    "concealed_kong": "暗杠",
    "added_kong": "补杠",
    "wind_kong": "风头杠 (winds)",
    "dragon_kong": "风头杠 (dragons)",
}


def face(text: str) -> str:
    """A tile as a player reads it: ``5m``, ``中``, ``春``."""
    return HONOURS.get(text) or FLOWERS.get(text) or text


def faces(tiles: tuple[str, ...] | list[str]) -> str:
    return " ".join(face(t) for t in sorted(tiles, key=tile))


def _int_faces(tiles: tuple[Tile, ...] | list[Tile]) -> str:
    return faces([name(t) for t in tiles])


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _payments(values: tuple[int, ...]) -> str:
    return ", ".join(f"seat {s} {_signed(v)}" for s, v in enumerate(values))


class Narrator:
    """Turns the hand's events into lines, folding them to know what a line needs."""

    def __init__(self, table: TableState, out: TextIO) -> None:
        self.table = table
        self.out = out

    def say(self, line: str) -> None:
        print(line, file=self.out)

    def tell(self, event: DomainEvent) -> None:
        from services.rules.table import evolve

        before = self.table
        self.table = evolve(self.table, event)
        method = getattr(self, f"_{event.type}", None)
        if method is not None:
            method(event, before)

    def _hand_started(self, e: ev.HandStarted, before: TableState) -> None:
        config = self.table.variant.config
        self.say(f"{config.name} ({config.id}), hand {e.hand_number}, seed {e.seed}")
        self.say(f"dealer: seat {e.dealer}; dice: {' '.join(str(d) for d in e.dice)}")
        self.say("tiles: 1m-9m 万, 1p-9p 饼, 1s-9s 条, 东南西北白发中, flowers 春夏秋冬梅兰竹菊")

    def _tiles_dealt(self, e: ev.TilesDealt, before: TableState) -> None:
        for seat, tiles in enumerate(e.hands):
            self.say(f"seat {seat} is dealt {faces(tiles)}")

    def _bao_set_aside(self, e: ev.BaoSetAside, before: TableState) -> None:
        self.say(f"宝 set aside face down: {face(e.tile)} (shown to the operator only)")

    def _bao_changed(self, e: ev.BaoChanged, before: TableState) -> None:
        new = f"new 宝 {face(e.new)} (operator only)" if e.new else "no tile left for a new 宝"
        self.say(
            f"换宝: three {face(e.old)} in view; the old 宝 goes to the dealer's discards; {new}"
        )

    def _wildcards_revealed(self, e: ev.WildcardsRevealed, before: TableState) -> None:
        kinds = sorted(set(e.wildcards), key=tile)
        self.say(
            f"混 indicator {face(e.indicator)} turned up; the 混 are {' '.join(face(t) for t in kinds)}"
        )

    def _flower_replaced(self, e: ev.FlowerReplaced, before: TableState) -> None:
        self.say(
            f"seat {e.seat} 补花 {face(e.flower)}, replaced by {face(e.replacement)} from the tail"
        )

    def _tile_drawn(self, e: ev.TileDrawn, before: TableState) -> None:
        where = " from the tail" if e.from_tail else ""
        last = " (last draws: 自摸 only)" if e.last_draws else ""
        self.say(f"seat {e.seat} draws {face(e.tile)}{where}{last}")

    def _tile_discarded(self, e: ev.TileDiscarded, before: TableState) -> None:
        how = " automatically" if e.automatic else ""
        line = f"seat {e.seat} discards {face(e.tile)}{how}"
        hand = self.table.hand
        if e.ready is not None and hand is not None:
            seat = hand.seat(e.seat)
            waits = hand_waits(self.table.variant.config, seat.concealed, seat.melds, hand.wildcards)
            line += f" and declares {READY[e.ready]}, waiting on {_int_faces(waits)}"
            if hand.bao is not None:
                line += f"; sees the 宝 {face(name(hand.bao))}"
        self.say(line)

    def _claim_answered(self, e: ev.ClaimAnswered, before: TableState) -> None:
        return  # private until the window closes; what was taken is told by the claim itself

    def _tile_claimed(self, e: ev.TileClaimed, before: TableState) -> None:
        kind = CLAIM[e.kind] + ("听" if e.ready and e.kind == "chi" else "")
        kind = "碰听" if e.ready and e.kind == "pong" else kind
        line = f"seat {e.seat} {kind} {face(e.tile)} from seat {e.from_seat}"
        if e.kind == "chi":
            line += f" with {faces(e.tiles)}"
        self.say(line)

    def _kong_declared(self, e: ev.KongDeclared, before: TableState) -> None:
        shown = faces(e.tiles) if e.kind != "concealed_kong" else f"{face(e.tiles[0])} (face down)"
        extra = f", takes {face(e.replacement)} from the tail" if e.replacement else ""
        self.say(f"seat {e.seat} {KONG[e.kind]} {shown}{extra}")

    def _hand_shown(self, e: ev.HandShown, before: TableState) -> None:
        self.say(f"seat {e.seat} 明楼 shows {faces(e.tiles)}")

    def _wildcard_set_aside(self, e: ev.WildcardSetAside, before: TableState) -> None:
        self.say(f"seat {e.seat} 上大台: sets the drawn 混 {face(e.tile)} aside and waits again")

    def _hand_won(self, e: ev.HandWon, before: TableState) -> None:
        hand = before.hand
        for win in e.wins:
            if win.robbed_kong:
                how = f"抢杠, robbing seat {win.discarder}'s 补杠 of {face(win.tile)}"
            elif win.self_drawn:
                how = f"自摸 on {face(win.tile)}" + (" (the 宝, wild)" if win.wild else "")
            else:
                how = f"点炮 on {face(win.tile)} from seat {win.discarder}"
            self.say(f"seat {win.seat} wins: {how}")
            if hand is not None:
                winner = hand.seat(win.seat)
                line = f"  hand: {faces(win.concealed)} + {face(win.tile)}"
                if winner.melds:
                    line += "  melds: " + " ".join(f"[{_int_faces(m.tiles)}]" for m in winner.melds)
                if winner.flowers:
                    line += f"  flowers: {_int_faces(winner.flowers)}"
                self.say(line)
            self.say(f"  patterns: {' '.join(win.patterns) or '(none)'}; 番 {win.fan}")
            self.say(f"  pays: {_payments(win.payments)}")

    def _hand_drawn(self, e: ev.HandDrawn, before: TableState) -> None:
        self.say("荒庄: the wall ran out and nobody won")

    def _hand_settled(self, e: ev.HandSettled, before: TableState) -> None:
        self.say(f"settlement: {_payments(e.payments)}")
        if any(e.hand_payments):
            self.say(f"局分 (kongs, 独抱, 上大台): {_payments(e.hand_payments)}")
        if any(e.level_scores):
            self.say(f"level scores: {_payments(e.level_scores)}")
        if e.bao:
            self.say(f"the 宝 was {face(e.bao)}")
        for seat, tiles in enumerate(e.hands):
            if tiles:
                self.say(f"seat {seat} held {faces(tiles)}")
        dealer = f"seat {e.next_dealer}" if e.next_dealer is not None else "drawn at random"
        self.say(f"next dealer: {dealer}")


@command("play", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    variant = args.variant
    if variant not in VARIANTS:
        raise CliError(
            f"unknown variant {variant!r}; known variants: {', '.join(sorted(VARIANTS))}"
        )
    seed = hand_seed(str(args.seed), variant, 0)  # the first hand simulate deals for this seed
    table, _ = open_table(variant, table_id="demo")
    try:
        if getattr(args, "store", None) is not None:
            events, footer = _through_store(variant, seed, StoreChoice(args.store, "--store"))
        else:
            try:
                _, record = play_hand(table, seed, [BOTS["winning"]] * 4)
            except KeyboardInterrupt:
                raise Interrupted("the hand was played in memory: nothing was stored") from None
            events, footer = record.events, None
    except InvariantBroken as error:
        raise CliError(
            f"{error.what} (variant {variant}, seed {args.seed})", CHECK_FAILED
        ) from None
    narrator = Narrator(table if footer is None else TableState(), out)
    try:
        for event in events:
            narrator.tell(event)
    except KeyboardInterrupt:
        raise Interrupted(footer or "the hand was played in memory: nothing was stored") from None
    if footer:
        print(footer, file=out)
    return 0


def _through_store(variant: str, seed: str, choice: StoreChoice) -> tuple[list[DomainEvent], str]:
    """Play the hand through the table service into an event store, then read it back."""
    import random
    import uuid

    from services.bots.runner import PLAYERS
    from services.rules.table.commands import StartHand
    from services.rules.table.legal import seats_to_act
    from services.tables import Accepted, TableService
    from services.tables.codec import decode
    from services.tables.loader import revealed_seeds, with_seed

    table_id = f"play-{variant}-{uuid.uuid4().hex[:8]}"
    with closing(open_for_writing(choice)) as store:
        try:
            service = TableService(store, chosen_deals=True)  # the hand is dealt from --seed
            service.open_table(table_id, variant, PLAYERS, command_id=f"{table_id}/open")
            outcome = service.handle(table_id, StartHand(seed=seed), command_id=f"{table_id}/deal")
            rng = random.Random(f"{seed}/bots")
            moves = 0
            while (
                isinstance(outcome, Accepted)
                and outcome.state is not None
                and not outcome.state.hand_over
            ):
                seat = seats_to_act(outcome.state)[0]
                command = BOTS["winning"](outcome.state, seat, rng)
                moves += 1
                outcome = service.handle(table_id, command, command_id=f"{table_id}/move-{moves}")
        except KeyboardInterrupt:
            held = store.stream_version(table_id)
            raise Interrupted(
                f"table {table_id} holds the {held} events played so far in {choice.shown}"
                if held
                else "nothing was stored"
            ) from None
        if not isinstance(outcome, Accepted):
            raise InvariantBroken(f"the table refused a bot's command: {outcome.reason}", [], [])
        recorded = store.read_stream(table_id)
        seeds = revealed_seeds(recorded)
        events = [with_seed(store, table_id, decode(e), seeds) for e in recorded]
    head = recorded[-1]  # the settling batch's last event: the head published to every seat
    footer = (
        f"recorded as table {table_id} ({len(recorded)} events); replay it against the head "
        f"the seats were sent with: paiju replay {table_id} --store {choice.shown} "
        f"--head {head.version}:{head.hash}"
    )
    return events, footer
