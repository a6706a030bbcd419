"""The replay viewer in a real browser: Debian's chromium driven by Playwright, headless, against
the API under uvicorn on 127.0.0.1:0. Set ``PAIJU_SCREENSHOTS=1`` to write the screenshots
under docs/ (docs/replay-viewer.png, docs/replay-viewer-tampered.png, docs/replay-seat-view.png)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest
from replay_kit import Recorded, build_points, record_kadang_bao_hand, tamper

from events.store import open_store
from services.api.app import create_api
from services.api.context import ApiContext
from services.api.server import ApiServer
from services.cli.simulate_store import run_variant_on_store
from services.settings import load_settings
from services.tables.transfer import export_lines

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]  # fmt: skip
DOCS = Path(__file__).resolve().parents[2] / "docs"
TIMEOUT_MS = 10_000

if not shutil.which("chromium") and not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("the viewer tests need Debian's chromium: apt-get install -y chromium")
    pytest.skip("no chromium here: apt-get install -y chromium", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402


@dataclass(frozen=True)
class Served:
    base: str
    key: str
    good: Recorded
    tampered: Recorded
    tampered_version: int
    played: str  # a table the bots played from a sealed seed: its seed_revealed follows the settlement


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    path = tmp_path_factory.mktemp("viewer") / "store.sqlite3"
    good = record_kadang_bao_hand(path, "t-kadang-bao")
    bad = record_kadang_bao_hand(path, "t-tampered")
    with closing(open_store(bad.url)) as store:
        discard = next(e for e in store.read_stream(bad.table_id)
                       if e.type == "tile_discarded" and e.payload["seat"] == 2)  # fmt: skip
    # seat 2 threw 8p; the row now says 9p: the hash no longer matches, the fold goes on
    tamper(bad, discard.version, json.dumps({**discard.payload, "tile": "9p"}))
    with closing(open_store(good.url)) as store:
        run = run_variant_on_store("harbin", 1, "viewer", "winning", store, good.url)
    assert run.failure is None and run.table_id is not None, run.failure
    ctx = ApiContext.open(load_settings(store_url=good.url))
    server = ApiServer(create_api(ctx)).start()
    try:
        yield Served(server.address, ctx.keys.create(["operator"], "support").token, good, bad,
                     discard.version, run.table_id)  # fmt: skip
    finally:
        server.stop()
        ctx.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        found = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield found
        finally:
            found.close()


@pytest.fixture
def page(browser: Browser, served: Served) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    context.set_default_timeout(TIMEOUT_MS)
    found = context.new_page()
    found.goto(f"{served.base}/ops/replay")
    found.fill("#key", served.key)
    found.click("#key-form button")
    expect(found.locator("#key-state")).to_have_text("key set for this tab")
    try:
        yield found
    finally:
        context.close()


def open_table(page: Page, table_id: str) -> None:
    page.fill("#table-id", table_id)
    page.click("#table-form button")
    expect(page.locator("#table-title")).to_contain_text(table_id)


def open_hand(page: Page, table_id: str, hand: int = 1) -> None:
    open_table(page, table_id)
    page.click(f"#hands button[data-hand='{hand}']")
    expect(page.locator("#counter")).to_contain_text("step 1 of")


def step_to(page: Page, kind: str) -> None:
    """Step on (▶) until the operator's event is one of ``kind`` (bounded by the hand)."""
    for _ in range(200):
        if f" {kind}" in (page.locator("#event b").text_content() or ""):
            return
        page.click("#next")
    raise AssertionError(f"no {kind} in the hand")


def screenshot(page: Page, name: str) -> None:
    if os.environ.get("PAIJU_SCREENSHOTS") == "1":
        page.screenshot(path=str(DOCS / name), full_page=True)


def test_the_viewer_steps_through_a_kadang_bao_win_to_its_payments_with_the_chain_intact(
    page: Page, served: Served
) -> None:
    open_table(page, served.good.table_id)
    expect(page.locator("#verdict")).to_have_text("chain intact")
    page.click("#hands button[data-hand='1']")
    expect(page.locator("#event")).to_contain_text("hand_started")
    expect(page.locator("#counter")).to_have_text("step 1 of 17")
    page.click("#next")
    page.click("#next")
    expect(page.locator("#event")).to_contain_text("bao_set_aside")
    expect(page.locator("#centre [data-tile='3s']")).to_have_count(1)  # the 宝, drawn as a tile
    expect(page.locator("#wall")).to_have_text("wall: 58 to draw")
    page.click("#next")  # the dealer throws 1m: seat 1 may 吃
    expect(page.locator("#claims")).to_contain_text("seat 1 may 吃/吃听")
    page.click("#next")
    expect(page.locator("#actor")).to_have_text("bo (seat 1)")
    page.click("#next")
    expect(page.locator("#closed")).to_contain_text("seat 1's 吃 was the only claim")
    expect(page.locator(".seat[data-seat='1'] .melds [data-tile]")).to_have_count(3)
    page.keyboard.press("End")
    expect(page.locator("#event")).to_contain_text("hand_settled")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#event")).to_contain_text("hand_won")
    expect(page.locator("#event")).not_to_contain_text("null")
    expect(page.locator(".patterns")).to_contain_text("卡当宝")
    expect(page.locator(".win")).to_contain_text("8 番")
    expect(page.locator(".patterns .worth")).to_have_text(["2", "2", "2", "1"])
    payments = page.locator(".payments[data-label='payments'] .payment")
    expect(payments).to_have_text(["-16", "+32", "-8", "-8"])
    screenshot(page, "replay-viewer.png")
    with page.expect_download() as downloaded:
        page.click("#export")
    with closing(open_store(served.good.url)) as store:
        expected = "".join(line + "\n" for line in export_lines(store.read_stream(served.good.table_id)))
    assert downloaded.value.suggested_filename == f"{served.good.table_id}.jsonl"
    assert Path(downloaded.value.path()).read_text(encoding="utf-8") == expected


def test_a_tampered_table_names_the_altered_event(page: Page, served: Served) -> None:
    open_table(page, served.tampered.table_id)
    verdict = page.locator("#verdict")
    expect(verdict).to_have_class("bad")
    expect(verdict).to_contain_text(f"hash chain broken: stream '{served.tampered.table_id}'")
    expect(verdict).to_contain_text(f"at version {served.tampered_version} ")
    page.click("#goto-broken")
    expect(page.locator("#event")).to_contain_text(f"v{served.tampered_version} tile_discarded")
    expect(page.locator("#altered")).to_contain_text("does not match its hash")
    expect(page.locator(".seat[data-seat='2'] .discards [data-tile]")).to_have_count(1)
    screenshot(page, "replay-viewer-tampered.png")


def test_a_players_hands_are_found_once_the_points_read_model_is_built(
    page: Page, served: Served
) -> None:
    page.fill("#player", "bo")
    page.click("#player-form button")
    expect(page.locator("#problem")).to_contain_text("is a projector running?")
    build_points(served.good.url)
    page.click("#player-form button")
    link = page.get_by_role("link", name=f"{served.good.table_id} hand 1")
    expect(page.locator("#found li")).to_have_count(2)  # bo sat at both tables
    expect(page.locator("#found")).to_contain_text("+32")
    link.click()
    expect(page.locator("#counter")).to_have_text("step 1 of 17")
    expect(page.locator("#verdict")).to_have_text("chain intact")


def test_the_demos_link_gives_the_tab_its_key_and_opens_a_table_from_the_dashboard(
    browser: Browser, served: Served
) -> None:
    """paiju serve --demo prints the viewer with the operator key in the fragment, and each
    live table on the dashboard links to /ops/replay?table=ID: that link opens the table."""
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        table_id = served.good.table_id
        page.goto(f"{served.base}/ops/replay?table={table_id}#key={served.key}")
        expect(page.locator("#key-state")).to_have_text("key set for this tab")
        expect(page.locator("#table-title")).to_contain_text(table_id)
        assert "#key=" not in page.url  # taken out of the address bar
    finally:
        context.close()


def test_as_seat_n_saw_it_shows_that_seats_stream_its_options_and_rulings_beside_the_operator(
    page: Page, served: Served
) -> None:
    page.set_viewport_size({"width": 1500, "height": 1000})
    open_hand(page, served.good.table_id)
    page.select_option("#seat-choice", "1")
    expect(page.locator("#seat-title")).to_have_text("As seat 1 (bo) saw it")
    step_to(page, "bao_set_aside")
    expect(page.locator("#centre [data-tile='3s']")).to_have_count(1)  # the operator sees the 宝
    expect(page.locator("#seat-centre")).to_contain_text("宝: set aside, not shown before its 听")
    expect(page.locator("#seat-centre [data-tile]")).to_have_count(0)
    expect(page.locator("#seat-payload")).to_have_text('{"type":"bao_set_aside","tile":null}')
    others = page.locator("#seat-seats .seat:not(.me) .concealed")
    expect(others.locator("[data-tile]")).to_have_count(0)  # no other seat's tile, face up
    expect(others.locator(".tile.back")).to_have_count(13 * 2 + 14)  # the dealer holds 14
    expect(page.locator("#seat-seats .seat.me .concealed [data-tile]")).to_have_count(13)
    step_to(page, "tile_discarded")  # the dealer's 1m: seat 1 may 吃
    expect(page.locator("#seat-claim-window")).to_contain_text("it may 吃/吃听")
    expect(page.locator("#seat-could")).to_contain_text("chow 2m 3m as 听")
    expect(page.locator("#seat-claims [data-claim='chi']")).to_have_text("吃 ✓")
    expect(page.locator("#seat-claims [data-claim='pong']")).to_contain_text("✗")
    screenshot(page, "replay-seat-view.png")
    page.select_option("#seat-choice", "2")  # seat 2 was not asked: it is not told seat 1 was
    expect(page.locator("#seat-title")).to_have_text("As seat 2 (cy) saw it")
    expect(page.locator("#seat-claim-window")).to_contain_text("it may not claim")
    expect(page.locator("#seat-could")).to_have_text("could do: nothing to choose")
    page.keyboard.press("End")
    expect(page.locator("#seat-event")).to_contain_text("hand_settled")
    expect(page.locator("#seat-seats .tile.back")).to_have_count(0)  # the hand's end lays all open


def test_opening_a_second_table_leaves_nothing_of_the_first_on_screen(page: Page, served: Served) -> None:
    open_hand(page, served.good.table_id)
    page.select_option("#seat-choice", "1")
    step_to(page, "tile_claimed")
    expect(page.locator("#seat-side")).to_be_visible()
    open_table(page, served.played)
    expect(page.locator("#hand")).to_be_hidden()
    expect(page.locator("[data-tile]")).to_have_count(0)  # not one tile of the first table
    for where in ("#table-title", "#hand", "#seat-choice"):
        for name in ("ann", "bo", "cy", "di"):
            expect(page.locator(where)).not_to_contain_text(name)
    expect(page.locator("#seat-choice")).to_have_value("")
    page.click("#hands button[data-hand='1']")
    expect(page.locator("#seats .seat")).to_have_count(4)
    expect(page.locator("#seat-side")).to_be_hidden()
    for name in ("ann", "bo", "cy", "di"):
        expect(page.locator("#hand")).not_to_contain_text(f"· {name}")


def test_the_last_step_button_lands_on_the_settlement_not_on_the_seed_revealed_after_it(
    page: Page, served: Served
) -> None:
    open_hand(page, served.played)
    page.click("#last")
    expect(page.locator("#event b")).to_contain_text("hand_settled")
    expect(page.locator("#settlement")).to_contain_text("hand payments")
    page.click("#next")  # the sealed seed, revealed once the hand is settled, is still a step on
    expect(page.locator("#event b")).to_contain_text("seed_revealed")
    page.keyboard.press("End")
    expect(page.locator("#event b")).to_contain_text("hand_settled")
