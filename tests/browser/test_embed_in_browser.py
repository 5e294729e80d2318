"""The embeddable pages in a real browser: headless Chromium (Debian's package, which `.ci/run`
installs) driven by Playwright, against gunicorn on each database. A page of another origin frames
them: the standings table and the points-race chart render (a path per charted player), the
qualifiers too, light and dark, on a desktop and a phone; a site the league does not allow is
refused by the browser. Screenshots are saved in the test's temporary folder. Without Chromium
the tests are skipped, unless REQUIRE_BROWSER=1 (as `.ci/run` sets)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Frame, Page, expect

from tests.builders import TOURNAMENTS, days_ago, iso
from tests.support.browser import PATIENCE_MS, players_named
from tests.support.databases import ScratchDatabases
from tests.support.servers import Server, gunicorn

NAMES = ("Ann", "Bob", "Cara", "Dev", "Eli", "Fay", "Gus")
CHARTED = 4
PHONE = 390  # a phone's width, in CSS pixels
LOADING_MS = PATIENCE_MS  # generous: two cores shared, gunicorn's first answers


@pytest.fixture()
def service(backend: str, scratch: ScratchDatabases, tmp_path: Path) -> Iterator[Server]:
    """gunicorn on a new database of the backend, its venue's season with four nights of results."""
    url = scratch.migrated(backend)
    # Threads: a browser opens spare connections ahead of need, and a sync worker would wait on one.
    with gunicorn(url, 1, tmp_path, "--worker-class", "gthread", "--threads", "4") as (server, _process):
        office = f"Bearer {server.office}"
        players = players_named(server, NAMES[2:], "Browser")
        for night in range(4):
            order = players[night:] + players[:night]
            body = {
                "venue_id": server.venue_id,
                "date": iso(days_ago(30 - 7 * night)),
                "results": [{"place": place, "player_id": pid} for place, pid in enumerate(order, start=1)],
                # R17: nights past the hosts' correction window are the office's, with a reason.
                "reason": "Entered by the office from the paper sheet",
            }
            status, _headers, answer = server.request("POST", TOURNAMENTS, body, Authorization=office)
            assert status == 201, answer
        yield server
    scratch.discard(url)


@pytest.fixture()
def rated(backend: str, scratch: ScratchDatabases, tmp_path: Path) -> Iterator[Server]:
    """gunicorn on a new database of the backend, its venue's last four nights reported (within
    the hosts' correction window, so the office needs no reason, R17): seven players rated (R20)."""
    url = scratch.migrated(backend)
    with gunicorn(url, 1, tmp_path, "--worker-class", "gthread", "--threads", "4") as (server, _process):
        players = players_named(server, NAMES[2:], "Phone")
        for night in range(4):
            order = players[night:] + players[:night]
            body = {
                "venue_id": server.venue_id,
                "date": iso(days_ago(4 - night)),
                "results": [{"place": place, "player_id": pid} for place, pid in enumerate(order, start=1)],
            }
            status, _headers, answer = server.request(
                "POST", TOURNAMENTS, body, Authorization=f"Bearer {server.office}"
            )
            assert status == 201, answer
        yield server
    scratch.discard(url)


@pytest.fixture()
def other_site() -> Iterator[tuple[str, dict[str, str]]]:
    """Another origin (127.0.0.2, not the service's 127.0.0.1) serving pages that frame ours: (its
    origin, the pages by path, to fill)."""
    pages: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.2", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.2:{server.server_address[1]}", pages
    finally:
        server.shutdown()
        server.server_close()


def framing(src: str, height: int = 1100) -> str:
    """A pub's web page with the snippet docs/website.md gives to paste."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'><title>The pub</title></head>"
        "<body style='margin:0;font-family:serif'><h1>Our poker league</h1>"
        f"<iframe id='board' src='{src}' title='League standings' width='100%' height='{height}' "
        "style='border:0'></iframe></body></html>"
    )


def framed(page: Page, url: str) -> Any:
    """The frame of the page at `url`, once the page and its frame have loaded."""
    page.goto(url, wait_until="load")
    return page.frames[1]


def test_standings_render_in_a_frame_of_another_site_light_dark_and_on_a_phone(
    browser: Browser, service: Server, other_site: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    origin, pages = other_site
    base = f"http://127.0.0.1:{service.port}"
    standings = f"{base}/embed/seasons/{service.season_id}/venues/{service.venue_id}/standings"
    for theme, viewport in (("light", (900, 1300)), ("dark", (900, 1300)), ("light", (390, 1600))):
        pages["/pub"] = framing(f"{standings}?rows=6&players={CHARTED}&theme={theme}")
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        page = context.new_page()
        frame = framed(page, f"{origin}/pub")
        assert frame.url.startswith(standings)
        frame.locator("table").first.wait_for()
        assert frame.locator("table").first.locator("tbody tr").count() == 6
        assert frame.locator("table").first.locator("thead th").all_inner_texts()[:2] == ["RANK", "PLAYER"]
        # The chart drawn for the page's width (wide, or narrow on a phone), and only that one.
        shown = "narrow" if viewport[0] < 520 else "wide"
        chart = frame.locator("svg.chart:visible")
        assert chart.count() == 1 and shown in (chart.get_attribute("class") or "")
        assert chart.locator("path.line").count() == CHARTED
        assert chart.locator("text.name").count() == CHARTED
        box = chart.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 150  # drawn, at a readable size
        # On a phone the names are written at 12 px or more.
        name_box = chart.locator("text.name").first.bounding_box()
        assert name_box is not None and name_box["height"] >= 12
        assert "Points race" in (chart.locator("title").text_content() or "")
        page.screenshot(path=str(tmp_path / f"standings-{theme}-{viewport[0]}.png"), full_page=True)
        context.close()
    assert len(list(tmp_path.glob("standings-*.png"))) == 3


def test_qualifiers_render_in_a_frame(
    browser: Browser, service: Server, other_site: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    origin, pages = other_site
    status, _headers, season = service.request("GET", f"/api/v1/seasons/{service.season_id}")
    assert status == 200
    region = season["region_ids"][0]
    pages["/pub"] = framing(
        f"http://127.0.0.1:{service.port}/embed/seasons/{service.season_id}/regions/{region}/qualifiers"
    )
    page = browser.new_page(viewport={"width": 800, "height": 900})
    frame = framed(page, f"{origin}/pub")
    frame.locator("h1").wait_for()
    assert "playoff qualifiers" in frame.locator("h1").inner_text()
    assert "Provisional:" in frame.locator("main").inner_text()
    assert frame.locator("table tbody tr").count() >= 1
    page.screenshot(path=str(tmp_path / "qualifiers.png"), full_page=True)
    page.close()


def test_a_site_the_league_does_not_allow_cannot_frame_the_pages(
    browser: Browser, service: Server, other_site: tuple[str, dict[str, str]]
) -> None:
    """The office names the sites that may frame the pages: the browser then shows them in those
    sites' frames only."""
    origin, pages = other_site
    standings = f"http://127.0.0.1:{service.port}/embed/seasons/{service.season_id}/venues/{service.venue_id}/standings"
    pages["/pub"] = framing(standings)
    office = f"Bearer {service.office}"
    for allowed, shown in (
        ("https://pub.example.org", False),
        (origin, True),
        ("'none'", False),
        ("*", True),
    ):
        status, _headers, body = service.request(
            "PATCH", "/api/v1/league-settings", {"embed_frame_ancestors": allowed}, Authorization=office
        )
        assert status == 200, body
        page = browser.new_page()
        frame = framed(page, f"{origin}/pub")
        if shown:
            frame.locator("table").first.wait_for()
        assert (frame.locator("table").count() > 0) is shown, allowed
        page.close()


def test_the_weeks_games_render_in_a_frame_with_links_to_standings_and_the_calendar(
    browser: Browser, service: Server, other_site: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    """R2a: the region's week by day, on a desktop and a phone: each night's venue links to its
    standings page, and "Add to calendar" subscribes to the region's feed (webcal://); every link
    opens outside the frame (the pub's page stays)."""
    origin, pages = other_site
    nights = [{"weekday": day, "starts_at": "19:00", "sessions": 1} for day in range(1, 8)]
    venue = service.write("PUT", f"/api/v1/venues/{service.venue_id}/schedule", {"schedule": nights})
    base = f"http://127.0.0.1:{service.port}"
    games = f"{base}/embed/regions/{venue['region_id']}/games"
    for theme, width in (("light", 900), ("dark", 390)):
        pages["/pub"] = framing(f"{games}?theme={theme}")
        context = browser.new_context(viewport={"width": width, "height": 1400})
        page = context.new_page()
        frame = framed(page, f"{origin}/pub")
        frame.locator("h1").wait_for()
        assert "games this week" in frame.locator("h1").inner_text()
        assert frame.locator("section.day").count() == 7
        assert frame.locator("li.game").count() == 7
        link = frame.locator("li.game a").first
        assert (
            link.get_attribute("href")
            == f"/embed/seasons/{service.season_id}/venues/{service.venue_id}/standings"
        )
        assert (link.get_attribute("target"), link.get_attribute("rel")) == ("_blank", "noopener")
        calendar = frame.locator("a.calendar")
        feed = f"/api/v1/regions/{venue['region_id']}/calendar.ics"
        assert calendar.get_attribute("href") == f"webcal://127.0.0.1:{service.port}{feed}"
        assert calendar.get_attribute("target") == "_top"
        box = frame.locator("main").bounding_box()
        assert box is not None and box["width"] <= width
        page.screenshot(path=str(tmp_path / f"games-{theme}-{width}.png"), full_page=True)
        context.close()
    status, headers, feed = service.request("GET", f"/api/v1/regions/{venue['region_id']}/calendar.ics")
    assert status == 200 and headers["content-type"].startswith("text/calendar") and b"BEGIN:VEVENT" in feed


def test_r20_the_rating_table_fits_a_phone_in_a_frame(
    browser: Browser, rated: Server, other_site: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    """R20, R19: the rating page framed in a pub's site at 390 px: every player's label, rating and
    sparkline within the screen, every column's header whole (HISTORY too), and neither the page
    nor its table scrolls sideways."""
    origin, pages = other_site
    pages["/pub"] = framing(f"http://127.0.0.1:{rated.port}/embed/ratings")
    context = browser.new_context(viewport={"width": PHONE, "height": 1400})
    page = context.new_page()
    frame = framed(page, f"{origin}/pub")
    expect(frame.locator("table.ratings")).to_be_visible(timeout=LOADING_MS)
    rows = frame.locator("table.ratings tbody tr")
    assert rows.count() >= len(NAMES) - 2  # the rated players of the four nights
    for cell in ("th[scope=row]", "td.n", "svg.sparkline"):
        for index in range(rows.count()):
            box = rows.nth(index).locator(cell).first.bounding_box()
            assert box is not None and box["x"] + box["width"] <= PHONE, (cell, index, box)
    assert_fits_a_phone(frame, "table.ratings thead th")
    history = frame.locator("table.ratings thead th").last
    expect(history).to_have_text("History", ignore_case=True)
    page.screenshot(path=str(tmp_path / "ratings-390.png"), full_page=True)
    context.close()


def test_r20_r19_the_rating_page_alone_fits_a_phone_with_its_history_header_whole(
    browser: Browser, rated: Server, tmp_path: Path
) -> None:
    """R20, R19: /embed/ratings opened on a 390 px phone (not framed): the document is no wider
    than the screen, and the HISTORY header, last of the table's headers, is wholly on it, neither
    cut by the screen's edge nor scrolled away inside the table's box."""
    context = browser.new_context(viewport={"width": PHONE, "height": 844})
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{rated.port}/embed/ratings", wait_until="load")
    page.wait_for_load_state("load")
    expect(page.locator("table.ratings tbody tr").first).to_be_visible(timeout=LOADING_MS)
    assert_fits_a_phone(page, "table.ratings thead th")
    expect(page.locator("table.ratings thead th.history")).to_have_text("History", ignore_case=True)
    page.screenshot(path=str(tmp_path / "ratings-alone-390.png"), full_page=True)
    context.close()


def test_the_front_door_fits_a_phone_and_lists_the_five_frameable_pages(
    browser: Browser, rated: Server, tmp_path: Path
) -> None:
    """The front door (GET /, the league's site turned off: R24) on a 390 px phone: no wider than
    the screen (the long URI templates wrap), every link on it, and the five pages other sites may
    frame listed."""
    office = {"Authorization": f"Bearer {rated.office}"}
    status, _headers, _body = rated.request(
        "PATCH", "/api/v1/league-settings", {"site": {"enabled": False}}, **office
    )
    assert status == 200
    try:
        context = browser.new_context(viewport={"width": PHONE, "height": 844})
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{rated.port}/", wait_until="load")
        page.wait_for_load_state("load")
        expect(page.locator("h1")).to_be_visible(timeout=LOADING_MS)
        assert_fits_a_phone(page, "main a, main code")
        frameable = page.locator("main code").filter(has_text="/embed/")
        expect(frameable).to_have_count(5)
        page.screenshot(path=str(tmp_path / "front-door-390.png"), full_page=True)
        context.close()
    finally:
        rated.request("PATCH", "/api/v1/league-settings", {"site": {"enabled": True}}, **office)


def assert_fits_a_phone(view: Page | Frame, shown: str) -> None:
    """The document is no wider than a 390 px phone (nothing scrolls sideways, inside a box with
    its own scrollbar neither), and each element `shown` selects lies whole within the screen."""
    assert view.evaluate("document.documentElement.scrollWidth") <= PHONE
    sideways = view.evaluate(
        "[...document.querySelectorAll('main *')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')"
        ".map(e => e.outerHTML.slice(0, 80))"
    )
    assert sideways == [], sideways
    elements = view.locator(shown)
    assert elements.count() > 0
    for index in range(elements.count()):
        element = elements.nth(index)
        box = element.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE, (
            element.inner_text(),
            box,
        )
