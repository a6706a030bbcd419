"""The frames of a hand: a recorded table folded event by event, for the replay viewer.

``hand_frames(events, hand, seeds)`` folds a table's stream from its first event through the
pure engine (``evolve``) and keeps one frame per event of that hand: what happened and who did
it (a seat's player, 托管 for a seat, the timer, the system, an operator) and when; the four
hands, melds, discards, the wall count and the 宝/混 as they stood after it; the claim window a
discard opened (who could claim what) and, when it closed, whose claim was taken and why (the
variant's claim classes, nearest seat first); the settlement with each pattern's rule sentence.

Pure: the stream and the seeds come in (revealed ones are read from the stream; a hand in
play needs its sealed seed from the caller). A stream that cannot be folded (tampered) gives
the frames up to the event that could not be read or applied, and names that event.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from events.envelope import RecordedEvent
from services.rules.events.hand import ClaimAnswered, HandStarted
from services.rules.events.presence import SeatAutoplayed
from services.rules.melds import Meld
from services.rules.table import TableState, evolve
from services.rules.table.claims import seats_after, winning_claims
from services.rules.table.legal import play_commands
from services.rules.table.state import Claim, ClaimWindow, patch
from services.rules.table.walls import drawable
from services.rules.tiles import name, names
from services.rules.variants import Variant
from services.tables.codec import decode
from services.tables.loader import revealed_seeds, with_given_seed

CLAIM_NAMES = {"win": "胡", "kong": "杠", "pong": "碰", "chi": "吃", "ready_chi": "吃听",
               "ready_pong": "碰听", "pass": "pass"}  # fmt: skip


class NoSuchHand(LookupError):
    """The table has not played (or started) that hand; the message says which it has."""


@dataclass
class HandReplay:
    table_id: str
    variant: str
    players: list[str]
    hand: int
    frames: list[dict[str, Any]] = field(default_factory=list)
    stopped: str | None = None  # the event the fold could not read or apply, named

    def to_dict(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "variant": self.variant, "players": self.players,
                "hand": self.hand, "frames": self.frames, "stopped": self.stopped}  # fmt: skip


def hands_of(events: list[RecordedEvent]) -> list[dict[str, Any]]:
    """Each hand the stream started: its number and the versions it spans (read, not folded)."""
    found: list[dict[str, Any]] = []
    for recorded in events:
        if recorded.type == "hand_started":
            number = recorded.payload.get("hand_number")
            found.append({"hand": number, "from_version": recorded.version,
                          "to_version": recorded.version, "ended": None})  # fmt: skip
        elif found:
            found[-1]["to_version"] = recorded.version
            if recorded.type in ("hand_won", "hand_drawn"):
                found[-1]["ended"] = recorded.type
    return found


def hand_frames(events: list[RecordedEvent], hand: int, seeds: dict[int, str] | None = None) -> HandReplay:
    """The frames of hand ``hand`` of this stream (see the module)."""
    hands = [h["hand"] for h in hands_of(events)]
    if hand not in hands:
        which = "no hand yet" if not hands else f"hands {hands[0]} to {hands[-1]}"
        raise NoSuchHand(f"hand {hand}: the table has {which}")
    known = {**(seeds or {}), **revealed_seeds(events)}
    state = TableState()
    opened = events[0].payload if events and events[0].type == "table_opened" else {}
    replay = HandReplay(events[0].stream_id, str(opened.get("variant", "")),
                        list(opened.get("players", [])), hand)  # fmt: skip
    autoplayed: tuple[str | None, int | None] = (None, None)  # (command id, seat) under 托管
    for recorded in events:
        try:
            event = decode(recorded)
        except Exception as error:  # tampered beyond what the registry reads
            replay.stopped = _named(recorded, "cannot be read", error)
            return replay
        dealt = with_given_seed(event, known)
        if dealt is None:
            replay.stopped = (f"version {recorded.version} (hand_started): hand "
                              f"{recorded.payload['hand_number']}'s seed is sealed and was not"
                              " given")  # fmt: skip
            return replay
        event = dealt
        before = state
        try:
            state = evolve(state, event)
        except Exception as error:  # a fact the table cannot take where it stands
            if _in_hand(before, hand, event):
                replay.stopped = _named(recorded, "cannot be applied", error)
            else:
                replay.stopped = _named(recorded, "cannot be applied (before this hand)", error)
            return replay
        if isinstance(event, SeatAutoplayed):
            autoplayed = (recorded.command_id, event.seat)
        elif autoplayed[0] != recorded.command_id:
            autoplayed = (None, None)
        if _in_hand(state, hand, event):
            replay.frames.append(_frame(recorded, event, before, state, autoplayed[1]))
        elif replay.frames:
            break  # the next hand began
        if autoplayed[1] is not None and _moved(recorded, autoplayed[1]):
            autoplayed = (None, None)  # what follows in the batch is the table's own steps
    return replay


def _moved(recorded: RecordedEvent, seat: int) -> bool:
    """The 托管 move itself: the seat's own event after ``seat_autoplayed`` (or its win)."""
    if recorded.type == "seat_autoplayed":
        return False
    return recorded.payload.get("seat") == seat or recorded.type == "hand_won"


def _in_hand(state: TableState, hand: int, event: Any) -> bool:
    if isinstance(event, HandStarted):
        return bool(event.hand_number == hand)
    return state.hand is not None and state.hand.number == hand


def _named(recorded: RecordedEvent, what: str, error: Exception) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return f"version {recorded.version} ({recorded.type}) {what}: {text}"


# -- one frame -------------------------------------------------------------------------------
def _frame(recorded: RecordedEvent, event: Any, before: TableState, after: TableState,
           autoplay_seat: int | None) -> dict[str, Any]:  # fmt: skip
    frame: dict[str, Any] = {
        "version": recorded.version,
        "type": recorded.type,
        "at": recorded.recorded_at.isoformat(),
        "actor": _actor(recorded, after, autoplay_seat),
        "command": recorded.command,
        "payload": recorded.payload,
        "table": _table(after),
        "window": _window(after, before if isinstance(event, ClaimAnswered) else None, event),
        "closed": _closed(before, after, event),
        "settlement": _settlement(after, event),
    }
    return frame


def _actor(recorded: RecordedEvent, table: TableState, autoplay_seat: int | None) -> dict[str, Any]:
    """Who acted: the one who gave the command, for the move it names; the table's own steps
    that follow (the next seat's draw, a claim taken once the last seat answered, the
    settlement) say whose command they follow."""
    kind, seat = recorded.actor.kind, recorded.actor.seat
    players = table.players

    def who(s: int) -> str:
        return f"{players[s]} (seat {s})" if 0 <= s < len(players) else f"seat {s}"

    command = recorded.command or {}
    mover = autoplay_seat if autoplay_seat is not None else command.get("seat")
    if autoplay_seat is not None:
        giver = f"托管 for {who(autoplay_seat)}"  # the system moves for it (decision 14)
    elif kind == "seat" and seat is not None:
        giver = who(seat)
    elif kind == "timer":
        giver = "the timer" + (f" for {who(mover)}" if isinstance(mover, int) else "")
    else:
        giver = f"the {kind}"
    direct = (recorded.payload.get("seat") == mover and mover is not None) or (
        recorded.type == "hand_won" and command.get("command") == "declare_win"
    ) or recorded.type == "seat_autoplayed" or mover is None  # fmt: skip
    after = giver if autoplay_seat is not None else f"{giver}'s {command.get('command')}"
    label = giver if direct else f"the table, after {after}"
    if recorded.type == "tile_discarded" and recorded.payload.get("automatic"):
        label += " (thrown automatically: last draws)"
    return {"kind": kind, "seat": seat, "autoplay_seat": autoplay_seat, "label": label}


def _meld(meld: Meld) -> dict[str, Any]:
    return {"kind": meld.kind, "tiles": names(meld.tiles), "from_seat": meld.from_seat}


def _table(table: TableState) -> dict[str, Any]:
    hand = table.hand
    shown: dict[str, Any] = {"scores": list(table.series.scores),
                             "presence": [{"autoplay": p.autoplay, "connected": p.connected,
                                           "left": p.left} for p in table.presence]}  # fmt: skip
    if hand is None:
        return shown
    config = table.variant.config
    seats = []
    for index, seat in enumerate(hand.seats):
        seats.append({
            "seat": index, "player": table.players[index] if index < len(table.players) else "",
            "concealed": names(seat.concealed), "drawn": None if seat.drawn is None else name(seat.drawn),
            "melds": [_meld(m) for m in seat.melds], "discards": names(seat.discards),
            "flowers": names(seat.flowers), "set_aside": names(seat.set_aside), "ready": seat.ready,
        })  # fmt: skip
    indicator = hand.wall[hand.indicator_index] if hand.indicator_index is not None else None
    shown.update({
        "hand": hand.number, "dealer": hand.dealer, "turn": hand.turn, "step": hand.step,
        "wall_remaining": drawable(config, hand), "bao": None if hand.bao is None else name(hand.bao),
        "wildcards": names(sorted(hand.wildcards)),
        "indicator": None if indicator is None else name(indicator), "seats": seats,
    })  # fmt: skip
    return shown


def _legal(table: TableState, seat: int) -> list[str]:
    """What the seat could answer, as ``legal`` offers it on the state before its answer."""
    found = []
    for command in play_commands(table, seat):
        kind = command.command  # type: ignore[attr-defined]
        tiles = getattr(command, "tiles", None)
        text = f"{kind} {' '.join(tiles)}" if tiles else str(kind)
        found.append(text + (" as 听" if getattr(command, "ready", False) else ""))
    return found


def _window(after: TableState, before: TableState | None, event: Any) -> dict[str, Any] | None:
    """The open claim window: who may claim what, and the answers so far."""
    hand = after.hand
    if hand is None or hand.window is None:
        return None
    window = hand.window
    shown: dict[str, Any] = {
        "tile": name(window.tile), "from_seat": window.from_seat, "robbing": window.robbing,
        "options": [{"seat": s, "kinds": list(k)} for s, k in window.options],
        "answers": [{"seat": s, "claim": c.kind, "tiles": names(c.tiles)} for s, c in window.answers],
    }  # fmt: skip
    if before is not None and isinstance(event, ClaimAnswered):
        shown["answering"] = {"seat": event.seat, "could": _legal(before, event.seat)}
    return shown


def _closed(before: TableState, after: TableState, event: Any) -> dict[str, Any] | None:
    """The window this event closed: whose claim was taken, and why."""
    old = before.hand.window if before.hand is not None else None
    new = after.hand.window if after.hand is not None else None
    if old is None or (new is not None and (new.tile, new.from_seat) == (old.tile, old.from_seat)):
        return None
    if isinstance(event, ClaimAnswered):  # the last answer closed it at once
        old = patch(old, answers=old.answers + ((event.seat, Claim(event.claim)),))
    config = after.variant.config
    taken = winning_claims(config, old)
    return {
        "tile": name(old.tile), "from_seat": old.from_seat,
        "answers": [{"seat": s, "claim": c.kind} for s, c in old.answers],
        "taken": [{"seat": s, "claim": c.kind} for s, c in taken],
        "why": why_taken(config.claim_classes, config.multiple_winners, old, taken),
    }  # fmt: skip


def why_taken(classes: tuple[tuple[str, ...], ...], multiple: bool, window: ClaimWindow,
              taken: list[tuple[int, Claim]]) -> str:  # fmt: skip
    """The claim priority (``claims.winning_claims``) in a sentence."""
    made = [(s, c) for s in seats_after(window.from_seat) if (c := window.answer_of(s))
            and c.kind != "pass"]  # fmt: skip
    order = " > ".join("/".join(CLAIM_NAMES[k] for k in cls) for cls in classes)
    if not made:
        return "every seat asked passed: the tile stays in the discards"
    if len(made) == 1:
        seat, claim = made[0]
        return f"seat {seat}'s {CLAIM_NAMES[claim.kind]} was the only claim"
    winners = ", ".join(f"seat {s}'s {CLAIM_NAMES[c.kind]}" for s, c in taken)
    others = ", ".join(f"seat {s}'s {CLAIM_NAMES[c.kind]}" for s, c in made if (s, c) not in taken)
    rank = {k: i for i, cls in enumerate(classes) for k in cls}
    first = taken[0][1].kind
    if multiple and first == "win" and len(taken) > 1:
        return f"一炮多响: every 胡 is taken ({winners}); claim order {order}"
    beaten = [c for s, c in made if (s, c) not in taken]
    if all(rank.get(c.kind, 99) == rank.get(first, 99) for c in beaten):
        return (f"{winners} over {others}: the same class, and the nearest seat after the "
                f"discarder (seat {window.from_seat}) in turn order takes it")  # fmt: skip
    return f"{winners} over {others}: claim order {order}"


# -- the settlement --------------------------------------------------------------------------
# read from the table's own variant (``TableState.variant``: as the table's rules version has
# it, whose scorer and config may not be the engine's current ones)
def _patterns(module_name: str) -> list[Any]:
    module = sys.modules[module_name]
    held = list(getattr(module, "PATTERNS", ()))
    if getattr(module, "FALLBACK", None) is not None:
        held.append(module.FALLBACK)
    return held


def _scorer_module(variant: Variant) -> str:
    return variant.scoring.score_with.__module__


@cache
def _sentences(module_name: str) -> dict[str, str]:
    return {p.name: " ".join((p.holds.__doc__ or "").split()) for p in _patterns(module_name)}


def rule_sentences(variant: Variant) -> dict[str, str]:
    """Each pattern's rule sentence (its docstring, which starts with its Chinese name)."""
    return _sentences(_scorer_module(variant))


def pattern_worths(variant: Variant, options: tuple[tuple[str, bool], ...]) -> dict[str, int]:
    """What each pattern is worth under the table's scoring config (a factor in the 宝
    variants, 番 added in the others: the payment rule says which)."""
    scoring = variant.scoring
    config = replace(scoring.default, **{k: v for k, v in options if k in scoring.options()})
    return {p.name: int(p.worth(config)) for p in _patterns(_scorer_module(variant))}


@cache
def _module_doc(module_name: str) -> str:
    return " ".join((sys.modules[module_name].__doc__ or "").split())


def payment_rule(variant: Variant) -> str:
    """The scorer's own account of how a win is paid: its module's docstring."""
    return _module_doc(_scorer_module(variant))


def _settlement(after: TableState, event: Any) -> dict[str, Any] | None:
    kind = getattr(event, "type", "")
    if kind not in ("hand_won", "hand_drawn", "hand_settled"):
        return None
    variant = after.variant
    sentences, worths = rule_sentences(variant), pattern_worths(variant, after.options)
    found: dict[str, Any] = {"kind": kind, "payment_rule": payment_rule(variant)}
    if kind == "hand_won":
        found["wins"] = [{
            "seat": w.seat, "tile": w.tile, "self_drawn": w.self_drawn, "discarder": w.discarder,
            "wild": w.wild, "fan": w.fan, "payments": list(w.payments),
            "patterns": [{"name": p, "worth": worths.get(p), "rule": sentences.get(p, "")}
                         for p in w.patterns],
        } for w in event.wins]  # fmt: skip
    elif kind == "hand_settled":
        found.update({"payments": list(event.payments), "hand_payments": list(event.hand_payments),
                      "next_dealer": event.next_dealer, "scores": list(after.series.scores)})  # fmt: skip
    return found

