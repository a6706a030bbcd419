"""``player_view(state, seat)``: the table as one seat may see it, and nothing more.

No other seat's concealed tiles (unless laid open by 明楼 or the hand's end), no wall order,
no 宝 before the viewer is 听, no face of another seat's hidden 暗杠, no other seat's answer
in a claim window, and of the seats a claim window asks only the viewer itself (the others' are
read from their tiles). ``seat=None`` is a spectator; ``operator=True`` sees everything.
"""

from __future__ import annotations

from typing import Any

from services.rules.melds import Meld
from services.rules.table.deadlines import deadlines
from services.rules.table.state import HandState, SeatState, TableState
from services.rules.table.visibility import (
    asked_seats_seen,
    concealed_kong_faces_shown,
    ready_announced,
    sees_bao,
)
from services.rules.table.walls import drawable
from services.rules.tiles import name, names, to_string
from services.rules.variants import VariantConfig

FACE_DOWN = "face_down"


def _meld_view(meld: Meld, visible: bool) -> dict[str, Any]:
    if meld.kind == "concealed_kong" and not visible:
        return {"kind": meld.kind, "tiles": None, "face_down": True}
    return {"kind": meld.kind, "tiles": to_string(meld.tiles), "from_seat": meld.from_seat}


def _kong_faces_visible(
    config: VariantConfig, owner: SeatState, is_owner: bool, ended: bool
) -> bool:
    return is_owner or ended or concealed_kong_faces_shown(config, owner)


def _ready_visible(
    config: VariantConfig, owner: SeatState, is_owner: bool, ended: bool
) -> str | None:
    """A silent 听 (山东 暗楼, 塘沽's plain 听): others learn of it only when the hand ends."""
    if is_owner or ended or ready_announced(config, owner.ready):
        return owner.ready
    return None


def _seat_view(
    config: VariantConfig, hand: HandState, index: int, viewer: int | None, operator: bool
) -> dict[str, Any]:
    seat = hand.seat(index)
    is_owner = operator or viewer == index
    ended = hand.step == "ended"
    open_hand = is_owner or ended or seat.shown
    return {
        "seat": index,
        "concealed": to_string(seat.concealed) if open_hand else None,
        "drawn": name(seat.drawn) if seat.drawn is not None and (is_owner or ended) else None,
        "tile_count": len(seat.hand),
        "melds": [
            _meld_view(m, _kong_faces_visible(config, seat, is_owner, ended)) for m in seat.melds
        ],
        "discards": names(seat.discards),
        "flowers": names(seat.flowers),
        "set_aside": names(seat.set_aside),
        "ready": _ready_visible(config, seat, is_owner, ended),
        "xianggong": seat.xianggong,
    }


def _window_view(hand: HandState, viewer: int | None, operator: bool) -> dict[str, Any] | None:
    window = hand.window
    if window is None:
        return None
    view: dict[str, Any] = {
        "tile": name(window.tile),
        "from_seat": window.from_seat,
        "robbing": window.robbing,
    }
    if operator:
        view["options"] = {str(s): list(k) for s, k in window.options}
        view["answers"] = {str(s): a.kind for s, a in window.answers}
    elif viewer is not None:
        view["my_options"] = list(window.options_of(viewer))
        answer = window.answer_of(viewer)
        view["my_answer"] = answer.kind if answer else None
    return view


def _bao_view(hand: HandState, viewer: int | None, operator: bool) -> str | None:
    if hand.bao is None:
        return None
    if operator or hand.step == "ended" or sees_bao(hand, viewer):
        return name(hand.bao)
    return None


def _waits_view(table: TableState, viewer: int | None, operator: bool) -> list[dict[str, Any]]:
    """What the table waits on: whose turn and who may reconnect are public, as at a table; a
    claim window is shown as waited on, with the viewer itself named only if it is asked."""
    return [
        {
            "wait": d.wait,
            "seats": list(d.seats)
            if operator or d.wait != "claim"
            else asked_seats_seen(d.seats, viewer),
            "seconds": d.seconds,
        }
        for d in deadlines(table)
    ]


def player_view(table: TableState, seat: int | None, operator: bool = False) -> dict[str, Any]:
    """What ``seat`` may see of the table now (a JSON-ready dict)."""
    if seat is not None and not 0 <= seat <= 3:
        raise ValueError(f"seat must be 0–3 or None for a spectator, got {seat}")
    view: dict[str, Any] = {
        "table_id": table.table_id,
        "variant": table.variant_id,
        "players": list(table.players),
        "viewer": "operator" if operator else seat,
        "scores": list(table.series.scores),
        "level_scores": list(table.series.level_scores),
        "hands_played": table.series.hands_played,
        "series": table.series.number,
        # 关桌: the platform's close, asked for (its reason) and done: a closed table deals no more
        "closing": table.closing,
        "closed": table.closed,
        # who is played by 托管, dropped or gone, and what the table waits on: public, as at a table
        "presence": [
            {"autoplay": p.autoplay, "connected": p.connected, "left": p.left}
            for p in table.presence
        ],
        "waits": _waits_view(table, seat, operator),
        "hand": None,
    }
    hand = table.hand
    if hand is None:
        return view
    config = table.variant.config
    view["hand"] = {
        "number": hand.number,
        "dealer": hand.dealer,
        "dice": list(hand.dice),
        "turn": hand.turn,
        "step": hand.step,
        "wall_remaining": drawable(config, hand),
        "bao": _bao_view(hand, seat, operator),
        "bao_hidden": hand.bao is not None and _bao_view(hand, seat, operator) is None,
        "wildcards": names(sorted(hand.wildcards)),
        "indicator": name(hand.wall[hand.indicator_index])
        if hand.indicator_index is not None
        else None,
        "seats": [_seat_view(config, hand, i, seat, operator) for i in range(4)],
        "window": _window_view(hand, seat, operator),
        "wins": [w.model_dump(exclude={"type"}) for w in hand.wins],
    }
    if operator:
        view["hand"]["wall"] = names(hand.wall[hand.head : hand.tail])
        view["hand"]["seed"] = hand.seed
    return view
