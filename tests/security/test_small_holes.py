"""Issue 21, item 7: the small holes, each tried from outside against a real ``paiju serve``.

A header that is a digit only to ``str.isdigit`` (``²``), a table id beyond latin-1 in a
download's file name, a dashboard cookie kept after signing out (at the API that signed it
and at another sharing the store), pages a hostile site could frame or feed scripts to, and a
refusal that tells a seat the stream of a command it never sent.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import httpx
import pytest
from security_kit import Served, new_id

from services.api.app import create_api
from services.api.context import ApiContext
from services.api.server import ApiServer
from services.settings import load_settings


def sign_in(http: httpx.Client, key: str) -> str:
    """The dashboard session cookie an operator key signs in to."""
    signed = http.post("/ops/dashboard/session", data={"key": key})
    assert signed.status_code == 303, signed.text
    cookie = http.cookies.get("paiju_ops")
    assert cookie
    return cookie


# -- (a) a digit that is no int --------------------------------------------------------------
@pytest.mark.parametrize("sent", ["²", "¹³", "1²"])  # latin-1: what a header decodes to
def test_a_last_event_id_of_unicode_digits_is_a_400_naming_the_header(
    embedded: Served, sent: str
) -> None:
    table = embedded.seated_table(embedded.key())
    with embedded.client() as http:
        answer = http.get(f"/v1/tables/{table.table_id}/seats/0/events",
                          headers={**table.seat(0), "Last-Event-ID": sent.encode("latin-1")})  # fmt: skip
    assert answer.status_code == 400, answer.text
    assert "Last-Event-ID" in answer.json()["detail"]


@pytest.mark.parametrize("sent", ['"²"', "²", '"1²"', 'W/"¹³"'])
def test_an_if_match_of_unicode_digits_is_a_400_naming_the_header(embedded: Served, sent: str) -> None:
    table = embedded.seated_table(embedded.key())
    with embedded.client() as http:
        answer = http.post(f"/v1/tables/{table.table_id}/commands",
                           json={"command": "pass_claim", "seat": 0},
                           headers={**table.seat(0), "Idempotency-Key": "k-if-match",
                                    "If-Match": sent.encode("latin-1")})  # fmt: skip
    assert answer.status_code == 400, answer.text
    assert "If-Match is the table's version" in answer.json()["detail"]


def test_a_replay_head_whose_version_is_a_unicode_digit_is_refused_by_name(
    embedded: Served,
) -> None:
    table = embedded.seated_table(embedded.key())
    with embedded.client() as http:
        answer = http.get(f"/v1/ops/replay/tables/{table.table_id}",
                          params={"head": f"²:{'ab' * 32}"},
                          headers={"Authorization": f"Bearer {embedded.key('operator')}"})  # fmt: skip
    assert answer.status_code == 422, answer.text  # the document's pattern: [0-9], not \d
    assert answer.json()["detail"].startswith("query.head: String should match pattern")


# -- (b) a download named beyond latin-1 -----------------------------------------------------
def test_a_table_whose_id_is_not_latin_1_exports_under_an_rfc_6266_file_name(
    embedded: Served,
) -> None:
    table_id = new_id('桌"一')  # beyond latin-1, and a quote the plain filename cannot hold
    key = embedded.key()
    with embedded.client() as http:
        opened = http.post("/v1/tables", json={"table_id": table_id, "variant": "harbin",
                                               "players": [new_id(p) for p in "abcd"]},
                           headers={"Authorization": f"Bearer {key}",
                                    "Idempotency-Key": new_id("open")})  # fmt: skip
        assert opened.status_code == 200 and opened.json()["status"] == "accepted", opened.text
        operator = {"Authorization": f"Bearer {embedded.key('operator')}"}
        exported = http.get(f"/v1/ops/replay/tables/{quote(table_id, safe='')}/export",
                            headers=operator)  # fmt: skip
    assert exported.status_code == 200, exported.text
    disposition = exported.headers["content-disposition"]
    assert f"filename*=UTF-8''{quote(table_id + '.jsonl', safe='')}" in disposition
    fallback = disposition.split('filename="')[1].split('"')[0]
    assert fallback.isascii() and fallback.endswith(".jsonl") and '"' not in fallback
    assert '"table_opened"' in exported.text


# -- (e) signing out ends the session --------------------------------------------------------
def test_a_dashboard_cookie_is_refused_once_its_session_signed_out(embedded: Served) -> None:
    key = embedded.key("operator")
    with embedded.client() as http:
        cookie = sign_in(http, key)
        assert http.get("/ops/dashboard/snapshot").status_code == 200
        assert http.post("/ops/dashboard/session/end").status_code == 303
    with embedded.client(cookies={"paiju_ops": cookie}) as kept:  # the old cookie, kept
        assert kept.get("/ops/dashboard/snapshot").status_code == 401
        page = kept.get("/ops/dashboard")
        assert page.status_code == 401 and "signed out" in page.text
    with embedded.client() as http:
        events = http.get("/ops/dashboard/events", params={"access_token": cookie})
        assert events.status_code == 401


@pytest.fixture(scope="module")
def two_apis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ApiContext, list[str]]]:
    """Two API processes' worth of apps on one store and one token secret."""
    root = tmp_path_factory.mktemp("two-apis")
    settings = load_settings(store_url=f"sqlite:///{root}/store.sqlite3",
                             api_token_secret="s" * 40)  # fmt: skip
    contexts = [ApiContext.open(settings) for _ in range(2)]
    servers = [ApiServer(create_api(ctx)).start() for ctx in contexts]
    try:
        yield contexts[0], [server.address for server in servers]
    finally:
        for server in servers:
            server.stop()
        for ctx in contexts:
            ctx.close()


def test_a_session_signed_out_at_one_api_is_refused_at_another_sharing_the_store(
    two_apis: tuple[ApiContext, list[str]],
) -> None:
    ctx, (first, second) = two_apis
    key = ctx.keys.create(["operator"], "night shift").token
    with httpx.Client(base_url=first, timeout=10) as http:
        cookie = sign_in(http, key)
    with httpx.Client(base_url=second, timeout=10, cookies={"paiju_ops": cookie}) as other:
        assert other.get("/ops/dashboard/snapshot").status_code == 200  # one secret: good there
        assert other.post("/ops/dashboard/session/end").status_code == 303
    for base in (first, second):
        with httpx.Client(base_url=base, timeout=10, cookies={"paiju_ops": cookie}) as kept:
            assert kept.get("/ops/dashboard/snapshot").status_code == 401, base


# -- (f) the pages' headers ------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/ops/dashboard", "/ops/replay"])
def test_the_html_pages_forbid_framing_sniffing_referrers_and_foreign_scripts(
    embedded: Served, path: str
) -> None:
    with embedded.client() as http:
        page = http.get(path)
    assert page.headers["content-type"].startswith("text/html")
    policy = page.headers.get("content-security-policy", "")
    assert "default-src 'none'" in policy and "script-src 'self'" in policy, policy
    assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
    assert page.headers.get("x-frame-options") == "DENY"
    assert page.headers.get("x-content-type-options") == "nosniff"
    assert page.headers.get("referrer-policy") == "no-referrer"


def test_the_signed_in_dashboard_page_carries_the_same_headers(embedded: Served) -> None:
    with embedded.client() as http:
        sign_in(http, embedded.key("operator"))
        page = http.get("/ops/dashboard")
    assert page.status_code == 200 and "sign out" in page.text
    assert "frame-ancestors 'none'" in page.headers.get("content-security-policy", "")
    assert page.headers.get("x-frame-options") == "DENY"


# -- (g) a refusal names only what its sender may know ---------------------------------------
def test_a_refusal_never_names_the_stream_of_a_command_the_seat_did_not_send(
    embedded: Served,
) -> None:
    key = embedded.key()
    table = embedded.seated_table(key)
    player, grant = new_id("eve"), new_id("grant")
    with embedded.client() as http:
        granted = http.post(f"/v1/players/{player}/points", json={"amount": 5, "kind": "grant"},
                            headers={"Authorization": f"Bearer {key}", "Idempotency-Key": grant})  # fmt: skip
        assert granted.status_code == 200, granted.text
        sent = http.post(f"/v1/tables/{table.table_id}/commands",
                         json={"command": "discard_tile", "seat": 1, "tile": "5m"},
                         headers={**table.seat(1), "Idempotency-Key": grant})  # fmt: skip
    assert sent.status_code in (200, 409), sent.text
    text = sent.text
    assert player not in text and "player:" not in text, text
