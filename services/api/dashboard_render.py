"""The dashboard's panels as HTML, from a ``Snapshot``: rendered here, once, for the first page
and for every event of its stream (the page's script only swaps each panel's HTML).

Every value from the store is escaped. Marks the page's script and tests read: each live
table's row has ``data-table`` and ``data-waiting`` (what it waits on and whose move:
``turn:1``), a time left ``data-until`` (the script counts it down between snapshots), each
health figure ``data-figure`` and ``data-state`` (ok, warn, red, unknown).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from html import escape
from urllib.parse import quote

from readmodels.queries_tables import LiveTable, SeatShown
from services.api.dashboard_data import Figure, Snapshot, variant_name

PANELS = ("health", "tables", "rooms", "boards", "penalties")
WAITING = {"turn": "turn", "claim": "claim window", "autoplay_window": "超时托管 window",
           "": "the system moves"}  # fmt: skip
AUTOPLAY = {"requested": "托管 (主动)", "timeout": "托管 (超时)"}
CAUSES = {"left": "逃跑 (left)", "dropped": "断线 (dropped)", "timeouts": "超时 (timeouts)"}
ORDER = {"red": 3, "warn": 2, "unknown": 1, "ok": 0}


def e(value: object) -> str:
    return escape(str(value), quote=True)


def _table(head: Iterable[str], rows: list[str], empty: str) -> str:
    if not rows:
        return f'<p class="empty">{e(empty)}</p>'
    cells = "".join(f"<th>{e(h)}</th>" for h in head)
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _problem(snapshot: Snapshot, *panels: str) -> str:
    return "".join(f'<p class="problem" data-problem="{e(p)}">{e(p)}: {e(snapshot.problems[p])}'
                   "</p>" for p in panels if p in snapshot.problems)  # fmt: skip


def seconds_left(until: str | None, at: datetime) -> int | None:
    if until is None:
        return None
    return max(0, round((datetime.fromisoformat(until) - at).total_seconds()))


def _seat(seat: SeatShown, waited_on: bool) -> str:
    badges = []
    if seat.autoplay:
        badges.append(f'<span class="badge autoplay">{e(AUTOPLAY.get(seat.autoplay, seat.autoplay))}</span>')
    if seat.left:
        badges.append('<span class="badge left">离开 left</span>')
    elif not seat.connected:
        back = f" until {e(seat.back_by[11:19])}" if seat.back_by else ""
        badges.append(f'<span class="badge dropped">断线 dropped{back}</span>')
    mark = ' class="waited"' if waited_on else ""
    return (f'<li{mark} data-seat="{seat.seat}"><span class="seat">{seat.seat}</span> '
            f"{e(seat.player)} {''.join(badges)}</li>")  # fmt: skip


def table_row(table: LiveTable, at: datetime) -> str:
    waits = table.waiting if table.status == "playing" else table.status
    waiting = f"{table.waiting}:{','.join(map(str, table.waiting_seats))}"
    seats = "".join(_seat(s, s.seat in table.waiting_seats) for s in table.seats)
    whose = ", ".join(e(table.seats[n].player) for n in table.waiting_seats if n < len(table.seats))
    what = WAITING.get(waits, waits.replace("_", " "))
    left = seconds_left(table.wait_until, at)
    clock = (f'<span class="left" data-until="{e(table.wait_until)}">{left} s</span>'
             if left is not None else "–")  # fmt: skip
    dealer = f" · dealer {table.dealer}" if table.dealer is not None else ""
    replay = quote(table.table_id, safe="")  # its hands in the replay viewer
    return (f'<tr data-table="{e(table.table_id)}" data-waiting="{e(waiting)}">'
            f'<td><a href="/ops/replay?table={replay}" title="replay its hands">'
            f"{e(table.table_id)}</a></td><td>{e(variant_name(table.variant))}</td>"
            f"<td>{e(table.room) or '–'}</td>"
            f"<td>series {table.series_number}, hand {table.hand_number}{dealer}</td>"
            f'<td><ul class="seats">{seats}</ul></td>'
            f'<td class="whose">{e(what)}{": " + whose if whose else ""}</td><td>{clock}</td></tr>')  # fmt: skip


def tables_panel(s: Snapshot) -> str:
    rows = [table_row(t, s.at) for t in s.tables]
    more = f'<p class="more">the first {len(rows)} shown; more are in play</p>' if s.more_tables else ""
    return _problem(s, "tables") + _table(
        ("table", "variant", "room", "hand", "seats", "waiting on", "time left"), rows,
        "no table in play") + more  # fmt: skip


def rooms_panel(s: Snapshot) -> str:
    rows = [f'<tr data-room="{e(r.room)}"><td>{e(r.room) or "(no room)"}</td><td>{r.tables_in_play}</td>'
            f"<td>{r.players_seated}</td><td>{r.tables_waiting}</td></tr>" for r in s.rooms]  # fmt: skip
    return _problem(s, "rooms") + _table(
        ("room", "tables in play", "players seated", "tables waiting"), rows, "no room yet")


def boards_panel(s: Snapshot) -> str:
    parts = [_problem(s, "boards", "titles")]
    for board in s.boards:
        rows = [f"<tr><td>{line.rank}</td><td>{e(line.player)}</td><td>{line.points}</td>"
                f"<td>{line.hands}</td><td>{e(line.title or '–')}</td></tr>" for line in board.lines]  # fmt: skip
        parts.append(f'<div class="board" data-board="{e(board.variant)}/{e(board.room)}">'
                     f"<h3>{e(board.variant_name)} · {e(board.room) or '(no room)'} · "
                     f"{e(board.period_key)}</h3>"
                     + _table(("#", "player", "积分", "hands", "称号"), rows, "") + "</div>")  # fmt: skip
    if not s.boards:
        parts.append('<p class="empty">no hand settled today</p>')
    titles = [f"<tr><td>{e(variant_name(t.variant))}</td><td>{e(t.player)}</td>"
              f"<td>{e(t.title)}</td><td>{t.level_score}</td><td>{t.hands}</td></tr>"
              for t in s.titles]  # fmt: skip
    parts.append('<div class="board titles"><h3>称号: the highest 等级分 of each variant</h3>'
                 + _table(("variant", "player", "称号", "等级分", "hands"), titles, "no level yet")
                 + "</div>")  # fmt: skip
    return "".join(parts)


def penalties_panel(s: Snapshot) -> str:
    rows = [f'<tr data-penalty="{p.position}"><td>{e(p.recorded_at[:19].replace("T", " "))}</td>'
            f"<td>{e(p.table_id)}</td><td>{e(variant_name(p.variant))}</td><td>{p.hand_number}</td>"
            f"<td>{e(p.player)} (seat {p.seat})</td><td>{e(CAUSES.get(p.cause, p.cause))}</td>"
            f"<td>{e(p.rule)}</td><td>{p.charged}</td></tr>" for p in s.penalties]  # fmt: skip
    return _problem(s, "penalties") + _table(
        ("when", "table", "variant", "hand", "player", "cause", "rule", "charged"), rows,
        "no penalty yet")  # fmt: skip


def figure(f: Figure) -> str:
    return (f'<div class="figure state-{e(f.state)}" data-figure="{e(f.key)}" data-state="{e(f.state)}">'
            f'<span class="label">{e(f.label)}</span><b>{e(f.value)}</b>'
            f"<small>{e(f.detail)}</small></div>")  # fmt: skip


def health_panel(s: Snapshot) -> str:
    failed = [k for k in ("parts", "commands", "queue", "timers", "lag", "webhooks")
              if k in s.problems]
    cards = "".join(figure(f) for f in s.health)
    cards += "".join(figure(Figure(key=k, label=k, value="?", state="unknown",
                                   detail=s.problems[k])) for k in failed)  # fmt: skip
    return f'<div class="figures">{cards}</div>'


def overall(s: Snapshot) -> str:
    """The worst state of the health figures (and red when a panel could not be read)."""
    worst = max((ORDER[f.state] for f in s.health), default=1)
    if s.problems:
        worst = max(worst, ORDER["red"])
    return next(name for name, n in ORDER.items() if n == worst)


def panels(s: Snapshot) -> dict[str, str]:
    return {"health": health_panel(s), "tables": tables_panel(s), "rooms": rooms_panel(s),
            "boards": boards_panel(s), "penalties": penalties_panel(s)}  # fmt: skip


def event_data(s: Snapshot) -> dict[str, object]:
    """One event of the stream: every panel, the snapshot's time and head, the overall state."""
    return {"at": s.at.isoformat(), "head": s.head, "state": overall(s), "panels": panels(s)}
