"""Reads of the read models over HTTP: rows from series played through the table service and
a projector's catch-up, paged and bounded, fresh to ``min_position`` or a 503 saying how far
behind, and read only by a key with the ``reads`` scope or a seat token for its own player."""

from __future__ import annotations

import httpx
import pytest
from api_kit import Api, open_dealt_table, platform_headers
from projections.projection_kit import play_series

from readmodels import catalog
from readmodels.runner import Projector
from services.rules.table.commands import StartHand
from services.tables import TableService

pytestmark = pytest.mark.anyio
PLAYERS = ("ann", "bo", "cy", "di")


@pytest.fixture(scope="module")
def played(api: Api) -> dict[str, object]:
    """Two series played through the service (one in a room), and every read model caught up."""
    first = play_series(api.ctx.store, "reads-1", "shanghai", PLAYERS, hands=3, leaver=2)
    play_series(api.ctx.store, "reads-2", "harbin", PLAYERS, hands=2, seed=4)
    catch_up(api)
    return {"scores": first.series.scores}


def catch_up(api: Api) -> None:
    projector = Projector(api.ctx.store, api.ctx.read_models(), list(catalog.ALL))
    projector.attach()
    projector.catch_up()


@pytest.fixture(scope="module")
def reads_key(api: Api) -> dict[str, str]:
    return platform_headers(api.ctx.keys.create(["reads"], "reads tests").token)


async def test_a_players_points_and_history_are_read_page_by_page(
    client: httpx.AsyncClient, played: dict[str, object], reads_key: dict[str, str]
) -> None:
    balance = (await client.get("/v1/reads/players/ann/points", headers=reads_key)).json()
    lines: list[dict[str, object]] = []
    for page in range(1, 50):
        found = await client.get("/v1/reads/players/ann/points/history",
                                 params={"page": page, "size": 2}, headers=reads_key)  # fmt: skip
        assert found.status_code == 200, found.text
        lines += found.json()["items"]
        if not found.json()["more"]:
            break
    assert len(lines) == balance["lines"] > 2
    assert sum(int(line["amount"]) for line in lines) == balance["points"]  # type: ignore[call-overload]
    assert lines[0]["balance"] == balance["points"]


async def test_levels_boards_stats_tables_rooms_and_penalties_answer_their_rows(
    client: httpx.AsyncClient, played: dict[str, object], reads_key: dict[str, str]
) -> None:
    get = lambda path, **params: client.get(f"/v1/reads{path}", params=params, headers=reads_key)  # noqa: E731
    levels = (await get("/players/ann/levels")).json()
    assert {line["variant"] for line in levels} == {"harbin", "shanghai"}
    assert (await get("/players/ann/levels/harbin")).json()["hands"] == 2
    board = (await get("/leaderboards/shanghai", period="all", size=4)).json()
    assert sorted(e["player"] for e in board["items"]) == sorted(PLAYERS)
    assert [e["rank"] for e in board["items"]] == [1, 2, 3, 4]
    top = board["items"][0]
    mine = (await get(f"/leaderboards/shanghai/players/{top['player']}", period="all")).json()
    assert mine == top
    assert (await get("/players/ann/stats")).json()["items"][0]["variant"] == "harbin"
    ranked = (await get("/stats/harbin", order="wins")).json()["items"]
    assert [s["wins"] for s in ranked] == sorted((s["wins"] for s in ranked), reverse=True)
    assert (await get("/tables/reads-1")).json()["table_id"] == "reads-1"
    assert (await get("/rooms")).json()["items"][0]["room"] == ""
    penalties = (await get("/tables/reads-1/penalties")).json()
    assert penalties["items"] and all(p["table_id"] == "reads-1" for p in penalties["items"])
    charged = penalties["items"][0]["player"]
    assert (await get(f"/players/{charged}/penalties")).json()["items"][0] == penalties["items"][0]


async def test_what_no_row_holds_is_a_404_naming_it(
    client: httpx.AsyncClient, played: dict[str, object], reads_key: dict[str, str]
) -> None:
    for path, named in (("/tables/no-such", "no-such"), ("/rooms/nowhere", "nowhere"),
                        ("/leaderboards/harbin/players/zoe", "zoe")):  # fmt: skip
        found = await client.get(f"/v1/reads{path}", headers=reads_key)
        assert found.status_code == 404 and named in found.json()["detail"], found.text


@pytest.mark.parametrize("params, named", [
    ({"page": 0}, "page"), ({"size": 0}, "size"), ({"size": 201}, "size"),
    ({"page": "two"}, "page"), ({"min_position": -1}, "min_position"), ({"wait": 11}, "wait"),
])  # fmt: skip
async def test_a_page_out_of_bounds_is_refused_naming_it(
    client: httpx.AsyncClient, reads_key: dict[str, str], params: dict[str, object], named: str
) -> None:
    found = await client.get("/v1/reads/players/ann/points/history", params=params,
                             headers=reads_key)  # fmt: skip
    assert found.status_code == 422 and named in found.json()["detail"], found.text


async def test_a_bad_period_key_is_refused_with_its_shape(
    client: httpx.AsyncClient, reads_key: dict[str, str]
) -> None:
    found = await client.get("/v1/reads/leaderboards/harbin", headers=reads_key,
                             params={"key": "2026-12"})  # fmt: skip
    assert found.status_code == 422 and "key: String should match pattern" in found.json()["detail"]


async def test_a_key_names_its_boards_period_whatever_the_period_says(
    client: httpx.AsyncClient, reads_key: dict[str, str], played: dict[str, object]
) -> None:
    """The document cannot say "a week's key with period=week": a key names its period."""
    as_day = await client.get("/v1/reads/leaderboards/harbin", headers=reads_key,
                              params={"period": "week", "key": "2026-12-02"})  # fmt: skip
    day = await client.get("/v1/reads/leaderboards/harbin", headers=reads_key,
                           params={"period": "day", "key": "2026-12-02"})  # fmt: skip
    assert as_day.status_code == 200, as_day.text
    assert as_day.json()["items"] == day.json()["items"]


async def test_a_read_model_behind_min_position_is_a_503_then_reads_the_write(
    api: Api, client: httpx.AsyncClient, played: dict[str, object], reads_key: dict[str, str]
) -> None:
    done = TableService(api.ctx.store).handle("reads-2", StartHand(), command_id="reads-2/again")
    head = done.events[-1].position  # type: ignore[union-attr]
    params = {"min_position": head, "wait": 0.1}
    behind = await client.get("/v1/reads/tables/reads-2", params=params, headers=reads_key)
    assert behind.status_code == 503, behind.text
    assert behind.headers["Retry-After"] == "1"
    assert f"asked for {head}" in behind.json()["detail"]
    catch_up(api)
    fresh = await client.get("/v1/reads/tables/reads-2", params=params, headers=reads_key)
    assert fresh.status_code == 200 and fresh.json()["last_position"] == head, fresh.text


async def test_a_min_position_beyond_the_stores_last_is_refused_at_once(
    api: Api, client: httpx.AsyncClient, played: dict[str, object], reads_key: dict[str, str]
) -> None:
    head = api.ctx.store.last_position()  # type: ignore[attr-defined]
    found = await client.get("/v1/reads/players/ann/points", headers=reads_key,
                             params={"min_position": head + 1, "wait": 10})  # fmt: skip
    assert found.status_code == 409 and f"last position {head}" in found.json()["detail"]


async def test_a_key_without_the_reads_scope_is_refused(
    api: Api, client: httpx.AsyncClient, played: dict[str, object]
) -> None:
    found = await client.get("/v1/reads/rooms", headers=platform_headers(api.key))
    assert found.status_code == 403 and "'reads' scope" in found.json()["detail"], found.text
    anonymous = await client.get("/v1/reads/rooms")
    assert anonymous.status_code == 401 and "'reads' scope" in anonymous.json()["detail"]


async def test_a_seat_token_reads_its_own_players_rows_and_nothing_else(
    api: Api, client: httpx.AsyncClient, played: dict[str, object]
) -> None:
    table = await open_dealt_table(client, api.key, deal=False, players=PLAYERS)  # seat 0: ann
    mine = table.seat(0)
    assert (await client.get("/v1/reads/players/ann/points", headers=mine)).status_code == 200
    assert (await client.get("/v1/reads/players/ann/levels", headers=mine)).status_code == 200
    theirs = await client.get("/v1/reads/players/bo/points", headers=mine)
    assert theirs.status_code == 403 and "'bo'" in theirs.json()["detail"], theirs.text
    boards = await client.get("/v1/reads/leaderboards/harbin", headers=mine)
    assert boards.status_code == 403 and "API key" in boards.json()["detail"]
    other_table = await client.get("/v1/reads/tables/reads-1", headers=mine)
    assert other_table.status_code == 403, other_table.text


async def test_the_tables_are_filtered_and_searched_with_bounded_checked_parameters(
    client: httpx.AsyncClient, played: dict[str, object], reads_key: dict[str, str]
) -> None:
    async def ids(**params: object) -> list[str]:
        found = await client.get("/v1/reads/tables", params=params, headers=reads_key)
        assert found.status_code == 200, found.text
        return [row["table_id"] for row in found.json()["items"]]

    both = await ids(state="all", table_prefix="reads-", player="ann")
    assert both == ["reads-1", "reads-2"]
    live, ended = await ids(table_prefix="reads-"), await ids(state="ended", table_prefix="reads-")
    assert sorted(live + ended) == both and "reads-1" in ended  # its series ended: a seat left
    assert await ids(state="all", player="nobody-sits-here") == []
    for bad in ({"state": "gone"}, {"table_prefix": "a b"}, {"player": "x" * 129},
                {"table_prefix": ""}):  # fmt: skip
        refused = await client.get("/v1/reads/tables", params=bad, headers=reads_key)
        assert refused.status_code == 422, (bad, refused.text)
        assert next(iter(bad)) in refused.text
