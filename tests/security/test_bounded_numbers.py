"""Issue 21, item 4: every number a client sends is bounded at the edge, by one set of limits
(``events.limits``), so no request can make a number the read models cannot hold.

The attack: ``POST /v1/tables`` took ``base_stake`` 10^18; one 上海 leave then charged 66 × 底注,
past a 64-bit integer, and points, penalties, boards and statistics stopped for everyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from security_kit import SeatedTable, Served, new_id, wait_until

from events import limits
from events.envelope import NewEvent
from events.store import open_store
from services.rules.scoring import bao, shandong, shanghai, tanggu
from services.rules.table.commands import LeaveTable, OpenTable, StartHand
from services.tables import Accepted, TableService
from services.tables.transfer import export_lines

EVERY_SCOPE = "tables,tokens,reads,operator"


@dataclass(frozen=True)
class Edge:
    """One number of one route, sent one past its limit."""

    method: str
    path: str  # {table} and {player}: the seated table's id and its first player
    field: str
    value: Any
    where: str = "body"  # body (JSON), query, path (already in ``path``)
    body: dict[str, Any] | None = None  # the rest of the body
    seat_token: bool = False  # sent with seat 0's token (else the platform key)

    @property
    def id(self) -> str:
        return f"{self.method} {self.path} {self.field}={self.value}"


def _open(**fields: Any) -> dict[str, Any]:
    return {"table_id": new_id("edge"), "variant": "harbin",
            "players": [new_id(p) for p in "abcd"], **fields}  # fmt: skip


def _room(**fields: Any) -> dict[str, Any]:
    return {"variant": "harbin", **fields}


L = limits
READS = ["/v1/reads/players/{player}/points/history", "/v1/reads/players/{player}/stats",
         "/v1/reads/players/{player}/penalties", "/v1/reads/leaderboards/harbin",
         "/v1/reads/stats/harbin", "/v1/reads/tables", "/v1/reads/tables/{table}/penalties",
         "/v1/reads/rooms", "/v1/rooms"]  # fmt: skip
POSITIONED = [*READS, "/v1/reads/players/{player}/points", "/v1/reads/players/{player}/levels",
              "/v1/reads/tables/{table}", "/v1/reads/rooms/lobby"]  # fmt: skip
EDGES = [
    Edge("POST", "/v1/tables", "base_stake", L.MAX_BASE_STAKE + 1, body=_open()),
    Edge("POST", "/v1/tables", "base_stake", 0, body=_open()),
    Edge("POST", "/v1/tables", "base_stake", 10**18, body=_open()),
    *(Edge("POST", "/v1/tables", f"timing.{name}", L.MAX_WAIT_SECONDS + 1, body=_open())
      for name in ("turn", "claim", "autoplay_window", "reconnect_grace")),
    Edge("POST", "/v1/tables", "timing.turn", L.MIN_WAIT_SECONDS - 1, body=_open()),
    Edge("POST", "/v1/tables", "options", {f"o{n}": True for n in range(L.MAX_OPTIONS + 1)},
         body=_open()),
    Edge("POST", "/v1/tables/{table}/commands", "version", L.MAX_VERSION + 1, seat_token=True,
         body={"command": "time_out", "wait": "turn", "seat": 0}),
    Edge("POST", "/v1/tables/{table}/commands", "seat", 4, seat_token=True,
         body={"command": "leave_table"}),
    Edge("POST", "/v1/tables/{table}/seats/0/tokens", "seconds", L.MAX_TOKEN_SECONDS + 1,
         body={"player": "{player}"}),
    Edge("POST", "/v1/tables/{table}/seats/0/tokens", "seconds", L.MIN_TOKEN_SECONDS - 1,
         body={"player": "{player}"}),
    Edge("POST", "/v1/tables/{table}/seats/4/tokens", "seat", 4, where="path",
         body={"player": "{player}"}),
    Edge("POST", "/v1/tables/{table}/tokens", "seconds", L.MAX_TOKEN_SECONDS + 1,
         body={"role": "spectator", "subject": "watcher"}),
    Edge("PUT", "/v1/rooms/edge-room", "base_stake", L.MAX_BASE_STAKE + 1, body=_room()),
    Edge("PUT", "/v1/rooms/edge-room", "minimum_points", L.MAX_POINTS + 1, body=_room()),
    Edge("PUT", "/v1/rooms/edge-room", "minimum_points", -L.MAX_POINTS - 1, body=_room()),
    Edge("PUT", "/v1/rooms/edge-room", "turn_seconds", L.MAX_WAIT_SECONDS + 1, body=_room()),
    Edge("PUT", "/v1/rooms/edge-room", "claim_seconds", L.MAX_WAIT_SECONDS + 1, body=_room()),
    Edge("PUT", "/v1/rooms/edge-room", "options", {f"o{n}": True for n in range(L.MAX_OPTIONS + 1)},
         body=_room()),
    Edge("POST", "/v1/players/{player}/points", "amount", L.MAX_ADJUSTMENT + 1,
         body={"kind": "grant"}),
    Edge("POST", "/v1/players/{player}/points", "amount", -L.MAX_ADJUSTMENT - 1,
         body={"kind": "correction"}),
    *(Edge("GET", path, "page", L.MAX_PAGE + 1, where="query") for path in READS),
    *(Edge("GET", path, "size", L.MAX_PAGE_SIZE + 1, where="query") for path in READS),
    *(Edge("GET", path, "min_position", L.MAX_POSITION + 1, where="query") for path in POSITIONED),
    *(Edge("GET", path, "wait", L.MAX_READ_WAIT_SECONDS + 0.5, where="query")
      for path in POSITIONED if path != "/v1/rooms"),
    Edge("GET", "/v1/commands/some-command", "wait", L.MAX_READ_WAIT_SECONDS + 0.5,
         where="query", seat_token=True),
    Edge("GET", "/v1/tables/{table}/seats/0/events", "after", L.MAX_VERSION + 1, where="query",
         seat_token=True),
    Edge("GET", "/v1/tables/{table}/seats/0/events", "refusals_after", L.MAX_SEQUENCE + 1,
         where="query", seat_token=True),
    Edge("GET", f"/v1/ops/replay/tables/{{table}}/hands/{L.MAX_HAND_NUMBER + 1}", "hand",
         L.MAX_HAND_NUMBER + 1, where="path"),
    Edge("GET", "/v1/ops/replay/search", "page", L.MAX_PAGE + 1, where="query"),
    Edge("GET", "/v1/ops/replay/tables/{table}/hands/1/seats/4", "seat", 4, where="path"),
    Edge("GET", f"/v1/ops/replay/tables/{{table}}/hands/{L.MAX_HAND_NUMBER + 1}/seats/0", "hand",
         L.MAX_HAND_NUMBER + 1, where="path"),
]


@pytest.fixture(scope="module")
def platform_key(embedded: Served) -> str:
    return embedded.key(EVERY_SCOPE)


@pytest.fixture(scope="module")
def table(embedded: Served, platform_key: str) -> SeatedTable:
    return embedded.seated_table(platform_key)


def _filled(value: Any, table: SeatedTable) -> Any:
    if isinstance(value, str):
        return value.replace("{table}", table.table_id).replace("{player}", table.players[0])
    if isinstance(value, dict):
        return {k: _filled(v, table) for k, v in value.items()}
    return value


def _send(embedded: Served, key: str, table: SeatedTable, edge: Edge) -> Any:
    auth = table.seat(0) if edge.seat_token else {"Authorization": f"Bearer {key}"}
    headers = {**auth, "Idempotency-Key": new_id("edge")}
    path, params, body = _filled(edge.path, table), None, _filled(edge.body, table)
    if edge.where == "query":
        params = {edge.field: edge.value}
    elif edge.where == "body":
        body = dict(body or {})
        if "." in edge.field:  # a number inside a mapping: timing.turn
            outer, inner = edge.field.split(".")
            body[outer] = {inner: edge.value}
        else:
            body[edge.field] = edge.value
    with embedded.client() as http:
        return http.request(edge.method, path, params=params, json=body, headers=headers)


def test_a_table_with_a_base_stake_of_ten_to_the_eighteenth_is_refused_naming_the_limit(
    embedded: Served, platform_key: str
) -> None:
    body = _open(base_stake=10**18)
    with embedded.client() as http:
        auth = {"Authorization": f"Bearer {platform_key}"}
        refused = http.post("/v1/tables", json=body,
                            headers={**auth, "Idempotency-Key": new_id("open")})  # fmt: skip
        assert refused.status_code == 422, refused.text
        detail = refused.json()["detail"]
        assert "base_stake" in detail and str(limits.MAX_BASE_STAKE) in detail, detail
        opened = http.post("/v1/tables", json={**body, "base_stake": limits.MAX_BASE_STAKE},
                           headers={**auth, "Idempotency-Key": new_id("open")})  # fmt: skip
        assert opened.status_code == 200 and opened.json()["status"] == "accepted", opened.text


@pytest.mark.parametrize("edge", EDGES, ids=lambda e: e.id)
def test_a_number_one_past_its_limit_is_refused_naming_the_field(
    embedded: Served, platform_key: str, table: SeatedTable, edge: Edge
) -> None:
    answer = _send(embedded, platform_key, table, edge)
    assert answer.status_code == 422, f"{edge.id}: {answer.status_code} {answer.text[:300]}"
    assert edge.field.split(".")[-1] in answer.json()["detail"], answer.text


def test_the_worst_hand_at_the_largest_stake_fits_the_read_models_integers() -> None:
    """The scorers' own factors, at their worst, stay under ``MAX_STAKES_A_HAND`` 底注; the
    ones that do not scale with the 底注 stay under ``MAX_HAND_AMOUNT``."""
    sh = shanghai.DEFAULT
    most_hua = sh.bottom_hua + 8 * sh.flower + 4 * sh.wind_concealed_kong  # 8 flowers, 4 kongs
    most_fan = sh.huangfan + sh.da_diao_che + sh.gang_kai + sh.men_qing
    shanghai_worst = max(3 * most_hua * sh.fan_base**most_fan,
                         sh.escape_quit, sh.escape_disconnected, sh.escape_timeouts)  # fmt: skip
    b = bao.BAO_SCORING
    bao_fan = b.base_fan * b.self_drawn_factor * b.bao_factor * b.kadang_factor
    bao_worst = 3 * bao_fan * b.bao_zhong_bao_factor * b.dealer_factor * max(
        b.chuchong_discarder_factor, b.chuchong_others_factor)  # fmt: skip
    sd, hua = shandong.DEFAULT, shandong.DEFAULT.hua
    sd_fan = sum(v for v in vars(sd).values() if isinstance(v, int) and not isinstance(v, bool))
    sd_worst = ((sd.base + 8 * hua.flower + 4 * hua.honour_concealed_kong) * sd_fan
                * sd.open_win_multiplier * sd.drawn_factor_cap * 3 * sd.open_pay_multiplier)  # fmt: skip
    tg = tanggu.DEFAULT
    tg_value = sum(v for v in vars(tg).values() if isinstance(v, int) and not isinstance(v, bool))
    tg_worst = 3 * 4 * tg_value * tg.after_kong_multiplier
    assert max(shanghai_worst, bao_worst) <= limits.MAX_STAKES_A_HAND
    assert max(sd_worst, tg_worst) <= limits.MAX_HAND_AMOUNT
    assert limits.MAX_HAND_AMOUNT * limits.HANDS_OF_HEADROOM <= limits.READ_MODEL_INT_MAX
    assert limits.HANDS_OF_HEADROOM > 10**8  # a balance outlives any platform's players


def _old_table_export(root: Path, table_id: str, players: list[str]) -> Path:
    """An export of a 上海 table from before the limits: 底注 10^18, seat 0 left mid-hand, so
    its penalty is 66 × 10^18, past any 64-bit integer. Played at 底注 1 on a scratch store and
    recorded again at 10^18 (today's commands refuse such a 底注), hash chain and all."""
    played, old = open_store(f"sqlite:///{root}/played.sqlite3"), open_store(f"sqlite:///{root}/old.sqlite3")
    service = TableService(played)
    for n, command in enumerate([OpenTable(table_id=table_id, variant="shanghai", players=players),
                                 StartHand(), LeaveTable(seat=0)]):  # fmt: skip
        assert isinstance(service.handle(table_id, command, command_id=f"old-{n}"), Accepted)
    for event in played.read_stream(table_id):
        payload = dict(event.payload)
        if event.type == "table_opened":
            payload["base_stake"] = 10**18
        if event.type == "penalty_adjudicated":
            payload["amounts"] = [a * 10**18 for a in payload["amounts"]]
        old.append(table_id, event.version - 1, [NewEvent(
            event.type, payload, event.actor, event.rules_version, event.schema_version)])  # fmt: skip
    assert any(e.type == "penalty_adjudicated" for e in old.read_stream(table_id))
    path = root / "old-table.jsonl"
    path.write_text("".join(f"{line}\n" for line in export_lines(old.read_stream(table_id))))
    played.close()
    old.close()
    return path


def test_an_imported_table_no_read_model_can_hold_stops_its_projections_alone_and_the_rest_answer(
    embedded: Served, platform_key: str, tmp_path: Path
) -> None:
    """An operator imports an old table (``paiju import``) whose penalty overflows: points,
    penalties, boards and statistics stop there, saying so; live tables, levels and rooms go
    on, and so does play."""
    old_id, players = new_id("old-shanghai"), [new_id(p) for p in "wxyz"]
    embedded.paiju("import", str(_old_table_export(tmp_path, old_id, players)))
    table = embedded.seated_table(platform_key)  # a table played after the import
    auth = {"Authorization": f"Bearer {platform_key}"}

    def settled() -> bool:  # the stopped ones stopped, the others at the store's head
        lines = embedded.paiju("projections", "status").splitlines()
        return any(line.startswith("points: stopped") for line in lines) and all(
            "lag 0" in line for line in lines if line.startswith(("levels", "live_tables", "rooms")))

    assert wait_until(settled, 20)
    shown = embedded.paiju("projections", "status")
    for name in ("points", "penalties", "leaderboards", "player_stats"):
        assert f"{name}: stopped" in shown and f"of {old_id}" in shown, shown
    for name in ("levels", "live_tables", "rooms"):
        assert f"{name}: live" in shown, shown
    with embedded.client() as http:
        head = http.get("/v1/reads/tables", headers=auth).json()["position"]
        for path in (f"/v1/reads/tables/{table.table_id}", "/v1/reads/tables",
                     f"/v1/reads/players/{table.players[0]}/levels", "/v1/reads/rooms"):  # fmt: skip
            answer = http.get(path, params={"min_position": head}, headers=auth)
            assert answer.status_code == 200, f"{path}: {answer.text}"
        behind = http.get(f"/v1/reads/players/{table.players[0]}/points",
                          params={"min_position": head, "wait": 0}, headers=auth)  # fmt: skip
        assert behind.status_code == 503 and "stopped at position" in behind.json()["detail"]
        ready = http.get("/readyz").json()
        problems = " ".join(p for part in ready["parts"].values() for p in part["problems"])
        assert "projector points stopped at position" in problems, ready
        assert http.get(f"/v1/tables/{table.table_id}/view", headers=table.seat(1)).status_code == 200
