"""The replay viewer for support staff: find a table or a player's hands, step through a hand,
see the three replay checks, download the table as ``paiju export`` writes it.

Who may look: an API key with the ``operator`` scope (``paiju keys create --scope operator``),
which sees every table, hidden tiles and sealed seeds included; for one table's routes, an
operator token of that table too. The page (``/ops/replay``) holds no data: its script asks
for the key, keeps it in the tab's ``sessionStorage`` and reads the JSON routes below with it.

    GET /ops/replay                                    the viewer (HTML, a little script)
    GET /v1/ops/replay/search?player=P | ?table=T      a player's hands (read model), a table
    GET /v1/ops/replay/tables/{table}                  its hands and the replay checks
    GET /v1/ops/replay/tables/{table}/hands/{hand}     the frames of one hand
    GET /v1/ops/replay/tables/{table}/export           the JSONL of ``paiju export``
"""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Path, Query
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse
from starlette.concurrency import run_in_threadpool

from events.envelope import ID_IN_PATH_PATTERN, MAX_ID_CHARS, RecordedEvent
from events.hashchain import HEAD_PATTERN, find_break, parse_head
from events.limits import MAX_HAND_NUMBER, MAX_PAGE
from events.store.base import CorruptRowError, SeedError
from readmodels import points_queries
from services.api.auth import Credentials, Ctx, forbidden, table_token, verify_key
from services.api.context import ApiContext
from services.api.keys import PREFIX
from services.api.problems import PROBLEM_SCHEMA, Problem
from services.api.routes_reads import POINTS, read
from services.api.tables import TableId
from services.tables.frames import NoSuchHand, hand_frames, hands_of
from services.tables.loader import revealed_seeds
from services.tables.transfer import export_lines
from services.tables.verify import Verification, verify_table

HERE = FilePath(__file__).parent
router = APIRouter(tags=["replay"], responses={401: PROBLEM_SCHEMA, 403: PROBLEM_SCHEMA})
HandNumber = Annotated[int, Path(ge=1, le=MAX_HAND_NUMBER, description="The hand, from 1")]
Head = Annotated[str | None, Query(max_length=80, pattern=HEAD_PATTERN,
                                   description="A published head, [VERSION:]HASH")]  # fmt: skip


async def operator_key(credentials: Credentials, ctx: Ctx) -> None:
    """Searching across tables takes an API key with the ``operator`` scope."""
    await verify_key(ctx, None if credentials is None else credentials.credentials, "operator")


async def operator_of(table_id: TableId, credentials: Credentials, ctx: Ctx) -> None:
    """One table's replay: an ``operator`` API key, or an operator token of that table."""
    raw = None if credentials is None else credentials.credentials
    if raw is None or raw.startswith(PREFIX):
        await verify_key(ctx, raw, "operator")
        return
    token = table_token(credentials, ctx)
    if token.role != "operator" or token.table_id != table_id:
        raise forbidden(f"a replay needs an operator key, or an operator token of {table_id!r}")


OperatorKey = Depends(operator_key)
OperatorOf = Depends(operator_of)


# -- the page ------------------------------------------------------------------------------------
@router.get("/ops/replay", response_class=HTMLResponse, include_in_schema=False)
async def viewer() -> FileResponse:
    return FileResponse(HERE / "templates" / "replay.html", media_type="text/html")


@router.get("/ops/static/{name}", include_in_schema=False)
async def static(name: Annotated[str, Path(pattern=r"^(replay\.(js|css)|replay_seat\.js)$")]) -> FileResponse:
    kind = "text/javascript" if name.endswith(".js") else "text/css"
    return FileResponse(HERE / "static" / name, media_type=kind)


# -- the JSON the page reads ---------------------------------------------------------------------
def _events(ctx: ApiContext, table_id: str) -> list[RecordedEvent]:
    try:
        events = ctx.store.read_stream(table_id)
    except CorruptRowError as error:  # a row that is no event at all: the first failing one
        raise Problem(409, "Unreadable table", f"table {table_id!r}: {error}") from None
    if not events:
        raise Problem(404, "No such table", f"no table {table_id!r} in the store")
    return events


def _sealed(ctx: ApiContext, table_id: str, events: list[RecordedEvent]) -> dict[int, str]:
    """The sealed seed of a hand still in play (operators may replay it as it goes)."""
    revealed = revealed_seeds(events)
    sealed: dict[int, str] = {}
    for e in events:
        hand = e.payload.get("hand_number")
        if e.type != "hand_started" or not e.payload.get("seed_commitment"):
            continue
        if isinstance(hand, int) and hand not in revealed:
            try:
                sealed[hand] = ctx.store.load_seed(table_id, hand)
            except SeedError:
                continue  # the checks name a deal they cannot check
    return sealed


def checks(report: Verification) -> dict[str, Any]:
    """The three replay checks, with the verdict: "chain intact" or the first failure named."""
    if report.chain_break is not None:
        verdict = f"hash chain broken: {report.chain_break}"
    elif report.unreadable is not None:
        verdict = f"unreadable: {report.unreadable}"
    elif report.seed_problems:
        verdict = f"seed check failed: {report.seed_problems[0]}"
    elif report.first_divergence is not None:
        verdict = f"re-decision diverges: {report.first_divergence}"
    else:
        verdict = "chain intact"
    return {"ok": report.ok, "verdict": verdict, "lines": report.lines(),
            "chain_break": report.chain_break, "seeds_checked": report.seeds_checked,
            "seed_problems": report.seed_problems, "replayed": report.batches_replayed,
            "divergence": report.first_divergence, "unreadable": report.unreadable}  # fmt: skip


def _table(ctx: ApiContext, table_id: str, head: str | None) -> dict[str, Any]:
    try:
        published = parse_head(head) if head else None
    except ValueError as error:
        raise Problem(422, "Invalid head", str(error)) from None
    events = _events(ctx, table_id)
    opened = events[0].payload if events[0].type == "table_opened" else {}
    report = verify_table(events, _sealed(ctx, table_id, events), published)
    broken = find_break(events, head=published) if report.chain_break is not None else None
    return {"table_id": table_id, "variant": opened.get("variant"),
            "players": opened.get("players", []), "room": opened.get("room", ""),
            "events": len(events), "hands": hands_of(events), "checks": checks(report),
            "broken_version": None if broken is None else broken.version}  # fmt: skip


@router.get("/v1/ops/replay/tables/{table_id}", dependencies=[OperatorOf],
            summary="A table's hands and its three replay checks")  # fmt: skip
async def table_replay(table_id: TableId, ctx: Ctx, head: Head = None) -> dict[str, Any]:
    return await run_in_threadpool(_table, ctx, table_id, head)


def _hand(ctx: ApiContext, table_id: str, hand: int) -> dict[str, Any]:
    events = _events(ctx, table_id)
    try:
        return hand_frames(events, hand, _sealed(ctx, table_id, events)).to_dict()
    except NoSuchHand as error:
        raise Problem(404, "No such hand", f"table {table_id!r}: {error}") from None


@router.get("/v1/ops/replay/tables/{table_id}/hands/{hand}", dependencies=[OperatorOf],
            summary="The frames of one hand, move by move")  # fmt: skip
async def hand_replay(table_id: TableId, hand: HandNumber, ctx: Ctx) -> dict[str, Any]:
    return await run_in_threadpool(_hand, ctx, table_id, hand)


def _export(ctx: ApiContext, table_id: str) -> str:
    return "".join(line + "\n" for line in export_lines(_events(ctx, table_id)))


@router.get("/v1/ops/replay/tables/{table_id}/export", dependencies=[OperatorOf],
            response_class=PlainTextResponse, summary="The table as `paiju export` writes it",
            responses={200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}}})  # fmt: skip
async def export(table_id: TableId, ctx: Ctx) -> PlainTextResponse:
    body = await run_in_threadpool(_export, ctx, table_id)
    return PlainTextResponse(body, media_type="application/x-ndjson", headers={
        "Content-Disposition": attachment(f"{table_id}.jsonl")})  # fmt: skip


def attachment(filename: str) -> str:
    """``Content-Disposition`` for a download named ``filename`` (RFC 6266): the name itself,
    UTF-8 and percent-encoded (RFC 5987 ``filename*``), and a plain ASCII ``filename`` for old
    clients. A header holds only latin-1, so a table id in 汉字 made the answer a 500."""
    fallback = "".join(c if c.isascii() and c.isprintable() and c not in '"\\%' else "_"
                       for c in filename)  # fmt: skip
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"


Player = Annotated[str | None, Query(min_length=1, max_length=128, pattern=r"^[^\x00-\x1f\x7f-\x9f]+$")]
TableQuery = Annotated[str | None, Query(min_length=1, max_length=MAX_ID_CHARS, pattern=ID_IN_PATH_PATTERN)]


@router.get("/v1/ops/replay/search", dependencies=[OperatorKey],
            summary="A player's hands (from the points history), or a table by id")  # fmt: skip
async def search(ctx: Ctx, player: Player = None, table: TableQuery = None,
                 page: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1) -> dict[str, Any]:  # fmt: skip
    # each parameter narrows the search (a document cannot say "exactly one of"): none finds
    # nothing, both the table if the player sat at it
    if player is None and table is None:
        return {"tables": []}
    if table is not None:
        found = await run_in_threadpool(_table, ctx, table, None)
        if player is not None and player not in found["players"]:
            return {"tables": []}
        return {"tables": [{k: found[k] for k in ("table_id", "variant", "players", "hands")}]}
    lines = await read(ctx, POINTS, None, 0, points_queries.history, player, page, 50)
    hands = [{"table_id": line.table_id, "variant": line.variant, "hand": line.hand_number,
              "seat": line.seat, "cause": line.cause, "amount": line.amount,
              "recorded_at": line.recorded_at}
             for line in lines.items if line.table_id is not None]  # fmt: skip
    return {"player": player, "hands": hands, "page": page, "more": lines.more}
