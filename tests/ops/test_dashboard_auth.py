"""Who may watch the dashboard: an operator key signs in to a session cookie; anything else is
shown the sign-in form (the page) or a problem (the stream and the snapshot)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import jwt
import pytest

from services.api import dashboard_session
from services.api.app import create_api
from services.api.context import ApiContext
from services.api.server import ApiServer
from services.settings import load_settings


@dataclass
class Served:
    ctx: ApiContext
    base: str


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root: Path = tmp_path_factory.mktemp("dashboard")
    ctx = ApiContext.open(load_settings(store_url=f"sqlite:///{root}/store.sqlite3"))
    server = ApiServer(create_api(ctx)).start()
    try:
        yield Served(ctx, server.address)
    finally:
        server.stop()
        ctx.close()


@pytest.fixture
def http(served: Served) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=served.base, timeout=10) as client:
        yield client


def operator_key(served: Served) -> tuple[str, str]:
    made = served.ctx.keys.create(["operator"], "night shift")
    return made.token, made.key.key_id


def first_event(served: Served, headers: dict[str, str] | None = None,
                params: dict[str, str] | None = None, timeout: float = 10) -> dict[str, str]:  # fmt: skip
    """The stream's first event (``event`` and ``data``), or its refusal's status and body."""
    found: dict[str, str] = {}
    with httpx.stream("GET", f"{served.base}/ops/dashboard/events", headers=headers, params=params,
                      timeout=timeout) as response:  # fmt: skip
        if response.status_code != 200:
            return {"status": str(response.status_code), "body": response.read().decode()}
        deadline = time.monotonic() + timeout
        for line in response.iter_lines():
            assert time.monotonic() < deadline, "no event in time"
            if line.startswith("event:"):
                found["event"] = line[6:].strip()
            elif line.startswith("data:"):
                found["data"] = line[5:].strip()
            elif line == "" and found:
                return found
    raise AssertionError("the stream ended without an event")


def test_without_a_credential_the_page_is_the_sign_in_form_and_refuses_nothing(
    http: httpx.Client,
) -> None:
    page = http.get("/ops/dashboard")
    assert page.status_code == 200  # a 401 was a console error before every sign-in
    assert '<form id="signin" method="post" action="/ops/dashboard/session">' in page.text


def test_a_key_without_the_operator_scope_is_refused_by_name(served: Served, http: httpx.Client) -> None:
    key = served.ctx.keys.create(["tables", "reads"], "platform").token
    page = http.post("/ops/dashboard/session", data={"key": key})
    assert page.status_code == 403 and "lacks the &#x27;operator&#x27; scope" in page.text
    assert http.post("/ops/dashboard/session", data={"key": "pk_nonsense"}).status_code == 401
    assert "sign in with a platform API key" in http.post("/ops/dashboard/session", data={"key": "x"}).text


def test_an_operator_key_signs_in_to_a_session_cookie_that_shows_the_dashboard(
    served: Served, http: httpx.Client
) -> None:
    key, key_id = operator_key(served)
    signed = http.post("/ops/dashboard/session", data={"key": key})
    assert signed.status_code == 303 and signed.headers["location"] == "/ops/dashboard"
    cookie = signed.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/ops/dashboard" in cookie
    assert key not in cookie  # the browser keeps a session, never the key
    page = http.get("/ops/dashboard")
    assert page.status_code == 200 and "signed in as night shift" in page.text
    assert '<div id="tables" class="panel">' in page.text
    assert http.get("/ops/dashboard/snapshot").json()["head"] == 0
    ended = http.post("/ops/dashboard/session/end")
    assert ended.status_code == 303 and 'paiju_ops=""' in ended.headers["set-cookie"]


def test_revoking_the_key_ends_its_sessions(served: Served, http: httpx.Client) -> None:
    key, key_id = operator_key(served)
    http.post("/ops/dashboard/session", data={"key": key})
    assert http.get("/ops/dashboard").status_code == 200
    served.ctx.keys.revoke(key_id)
    page = http.get("/ops/dashboard")
    assert page.status_code == 401 and f"the API key {key_id} of this session is revoked" in page.text


def test_a_forged_or_foreign_session_is_refused(served: Served) -> None:
    _, key_id = operator_key(served)
    forged = jwt.encode({"kind": "ops", "key": key_id, "aud": "paiju-ops", "iat": 1,
                         "exp": int(time.time()) + 60, "jti": "x"}, b"k" * 32)  # fmt: skip
    table_operator, _ = served.ctx.signer.mint("operator", "t1", "support", 60)
    for token in (forged, table_operator):
        with httpx.Client(base_url=served.base, cookies={"paiju_ops": token}) as client:
            page = client.get("/ops/dashboard")
            assert page.status_code == 401 and "the dashboard session is not valid" in page.text


def test_the_stream_takes_the_key_as_access_token_and_refuses_none(served: Served) -> None:
    key, _ = operator_key(served)
    refused = first_event(served)
    assert refused["status"] == "401" and "sign in with an API key" in refused["body"]
    event = first_event(served, params={"access_token": key})
    assert event["event"] == "snapshot"
    body = json.loads(event["data"])
    assert set(body["panels"]) == {"health", "tables", "rooms", "boards", "penalties"}
    assert body["state"] in ("ok", "warn", "red", "unknown")
    session, _ = dashboard_session.mint(served.ctx, operator_key(served)[1])
    assert first_event(served, headers={"Authorization": f"Bearer {session}"})["event"] == "snapshot"


def test_an_open_stream_signs_out_once_its_key_is_revoked(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dashboard_session, "RECHECK_SECONDS", 0.2)
    key, key_id = operator_key(served)
    seen: list[str] = []
    with httpx.stream("GET", f"{served.base}/ops/dashboard/events", params={"access_token": key},
                      timeout=10) as response:  # fmt: skip
        deadline = time.monotonic() + 10
        for line in response.iter_lines():
            assert time.monotonic() < deadline, f"still streaming after 10 s: {seen}"
            if line.startswith("event:"):
                seen.append(line[6:].strip())
                if len(seen) == 1:
                    served.ctx.keys.revoke(key_id)
    assert seen[0] == "snapshot" and seen[-1] == "signed_out"


def test_paiju_serve_prints_where_to_watch_and_the_demos_link_signs_in_with_one_live_key(
    served: Served, http: httpx.Client
) -> None:
    plain = dashboard_session.where_to_watch(served.ctx, served.base)
    assert plain == (f"dashboard on {served.base}/ops/dashboard"
                     " (sign in with a key: paiju keys create --scopes operator)")  # fmt: skip
    first = dashboard_session.where_to_watch(served.ctx, served.base, demo=True)
    second = dashboard_session.where_to_watch(served.ctx, served.base, demo=True)
    link = second.split()[2]
    assert link.startswith(f"{served.base}/ops/dashboard#key=pk_")
    key = link.split("#key=")[1]
    assert http.post("/ops/dashboard/session", data={"key": key}).status_code == 303
    old = first.split()[2].split("#key=")[1]
    assert http.post("/ops/dashboard/session", data={"key": old}).status_code == 401  # revoked


def test_an_open_stream_signs_out_once_its_session_is_signed_out_elsewhere(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dashboard_session, "RECHECK_SECONDS", 0.2)
    session, _ = dashboard_session.mint(served.ctx, operator_key(served)[1])
    seen: list[str] = []
    with httpx.stream("GET", f"{served.base}/ops/dashboard/events", params={"access_token": session},
                      timeout=10) as response:  # fmt: skip
        deadline = time.monotonic() + 10
        for line in response.iter_lines():
            assert time.monotonic() < deadline, f"still streaming after 10 s: {seen}"
            if line.startswith("event:"):
                seen.append(line[6:].strip())
                if len(seen) == 1:  # another tab of the same browser signs out
                    ended = httpx.post(f"{served.base}/ops/dashboard/session/end",
                                       cookies={"paiju_ops": session})  # fmt: skip
                    assert ended.status_code == 303
    assert seen[0] == "snapshot" and seen[-1] == "signed_out"
