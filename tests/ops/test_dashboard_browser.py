"""The dashboard in a real browser (Debian's chromium, driven by Playwright): bots play tables
through the embedded service, an operator signs in, and the page shows the tables and their
turns moving, live from the stream. Every wait is bounded.

``PAIJU_DASHBOARD_SCREENSHOT=docs/dashboard.png`` also waits (bounded) for a settled hand, so
that the boards have lines, and saves the screenshot there (the one in docs/ is made so).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from services.demo.http_demo import Plan
from services.serve import Embedded
from services.settings import load_settings

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]  # fmt: skip
MS = 1000

if not Path(CHROMIUM).exists():  # as the replay viewer's test: CI must have it
    if os.environ.get("CI"):
        raise RuntimeError("the dashboard's test needs Debian's chromium: apt-get install -y chromium")
    pytest.skip("no chromium here: apt-get install -y chromium", allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

# the demo's first tables, a room per variant in the registry's order; the first has the idle seat
FIRST, SECOND = (f"{Plan().room(n).room}.1" for n in range(2))


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Embedded]:
    root = tmp_path_factory.mktemp("dashboard-browser")
    settings = load_settings(store_url=f"sqlite:///{root}/store.sqlite3", api_port=0,
                             turn_seconds=3, claim_seconds=2)  # fmt: skip
    running = Embedded(settings, out=io.StringIO(), demo_tables=2, demo_pace=0.05)
    running.start()
    try:
        yield running
    finally:
        running.close()


@pytest.fixture(scope="module")
def page(service: Embedded) -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            found = browser.new_page(viewport={"width": 1400, "height": 1000})
            found.set_default_timeout(20 * MS)
            yield found
        finally:
            browser.close()


def test_an_operator_signs_in_and_watches_the_bots_turns_move(service: Embedded, page: Page) -> None:
    assert service.api is not None
    key = service.api.ctx.keys.create(["operator"], "browser test").token
    errors: list[str] = []
    on_console = lambda m: errors.append(f"{m.text} ({m.location.get('url')})") if m.type == "error" else None  # noqa: E731
    page.on("console", on_console)
    page.goto(f"{service.api.address}/ops/dashboard")
    page.fill("#key", key)
    page.click("#signin button")
    expect(page.locator("#live")).to_have_attribute("data-live", "live")
    page.remove_listener("console", on_console)
    assert errors == []  # the sign-in form is no refused request: no 401 in the console
    row = page.locator(f'#tables tr[data-table="{SECOND}"]')  # no idle seat: its turns move
    expect(row).to_be_visible()
    expect(page.locator(f'#tables tr[data-table="{FIRST}"]')).to_be_visible()
    first = row.get_attribute("data-waiting")
    page.wait_for_function(
        "([table, first]) => { const r = document.querySelector(`#tables tr[data-table=\"${table}\"]`);"
        " return r && r.dataset.waiting !== first; }", arg=[SECOND, first], timeout=20 * MS)  # fmt: skip
    assert row.get_attribute("data-waiting") != first
    expect(page.locator('#health [data-figure="lag"]')).to_be_visible()
    expect(page.locator('#health [data-figure="commands"]')).not_to_have_attribute("data-state", "unknown")
    shot = os.environ.get("PAIJU_DASHBOARD_SCREENSHOT")
    if shot:  # for docs/: a board with lines and the idle seat's 托管 shown
        expect(page.locator("#boards .board").first).to_be_visible(timeout=120 * MS)
        expect(page.locator("#tables .badge.autoplay").first).to_be_visible(timeout=60 * MS)
        page.screenshot(path=shot, full_page=True)


def test_the_demos_link_signs_in_by_itself_and_leaves_no_key_in_the_address(
    service: Embedded, page: Page
) -> None:
    from services.api.dashboard_session import where_to_watch

    assert service.api is not None
    page.goto("about:blank")  # else the link is the same page with a new fragment: no load
    page.context.clear_cookies()
    link = where_to_watch(service.api.ctx, service.api.address, demo=True).split()[2]
    page.goto(link)
    expect(page.locator("#live")).to_have_attribute("data-live", "live")
    expect(page.locator("header")).to_contain_text("signed in as paiju serve --demo: dashboard")
    assert "pk_" not in page.url and page.url.endswith("/ops/dashboard")
    page.click("text=sign out")
    expect(page.locator("#signin")).to_be_visible()


def test_the_pages_run_under_their_content_security_policy_with_no_violation(
    service: Embedded, page: Page
) -> None:
    """Every answer carries a strict policy (``services.api.page_headers``): the sign-in form,
    the live dashboard and the replay viewer, its export included, must not need more."""
    assert service.api is not None
    address = service.api.address
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text
            else None)  # fmt: skip
    page.goto("about:blank")
    page.context.clear_cookies()
    key = service.api.ctx.keys.create(["operator"], "policy test").token
    page.goto(f"{address}/ops/dashboard")
    page.fill("#key", key)
    page.click("#signin button")
    expect(page.locator("#live")).to_have_attribute("data-live", "live")
    page.goto(f"{address}/ops/replay?table={FIRST}#key={key}")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#verdict")).not_to_be_empty()
    with page.expect_download() as download:
        page.click("#export")
    assert download.value.suggested_filename == f"{FIRST}.jsonl"
    assert refused == []
