"""The league's own site (R24) in a real browser: Debian's Chromium, driven by Playwright, against
gunicorn serving the demo league on each database, on a phone (390 px) and on a desk (1280 px).
It starts at `/` and reaches, by clicks alone, every kind of page: a venue, its season and the
qualifiers, a player, a head-to-head (the player page's chooser), a night's result, the ratings
(the demo's players are in its region's table, a link away), a region's ratings and the search.
On each page: nothing scrolls sideways, axe-core finds nothing serious or critical, the page has
its title, description, canonical address and Open Graph title, and its Content-Security-Policy
names no other origin.

axe-core is the npm package pinned in tests/client/ts (installed by the client tests' `npm ci`);
without it the test is skipped, unless REQUIRE_NODE=1 (or CI=true), which makes that a failure.
Without Chromium the tests are skipped, unless REQUIRE_BROWSER=1."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, Response, expect

from app import create_app
from models.services.demo.writes import DEMO_REGION
from tests.support.browser import OFF_SCREEN, PATIENCE_MS
from tests.support.databases import ScratchDatabases
from tests.support.league import new_key
from tests.support.node import MODULES, node_required
from tests.support.servers import PATIENCE, REPO, ServedLeague, Server, gunicorn

AXE = MODULES / "axe-core" / "axe.min.js"
SCREENS = {"phone": {"width": 390, "height": 844}, "desk": {"width": 1280, "height": 800}}
VENUE = "Dockside Tap"  # one of the demo's venues (models/services/demo/writes.py)
# What axe must never find on a page of the site.
SERIOUS = ("serious", "critical")
AXE_RUN = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations.map(v => ({
  id: v.id, impact: v.impact, help: v.help,
  nodes: v.nodes.map(n => ({target: n.target.join(' '), impact: n.impact, summary: n.failureSummary}))
}))"""
# What each page is, told by its address.
KINDS = {
    "front": r"/$",
    "venue": r"/venues/\d+$",
    "season": r"/seasons/\d+$",
    "player": r"/players/\d+$",
    "head-to-head": r"/players/\d+/against\?other=\d+$",
    "result": r"/results/\d+$",
    "ratings": r"/ratings$",
    "region's ratings": r"/ratings\?region=\d+$",
    "search": r"/search$",
}


@cache
def axe_script() -> str:
    """axe-core's script, or the test is skipped (failed when Node.js tools are required)."""
    if not AXE.exists():
        message = f"no axe-core at {AXE} (`npm ci` in tests/client/ts installs it)"
        if node_required():
            pytest.fail(f"REQUIRE_NODE=1 but {message}", pytrace=False)
        pytest.skip(f"{message}; .ci/run requires it")
    return AXE.read_text(encoding="utf-8")


def demo_league(url: str) -> ServedLeague:
    """The demo league loaded as `./scripts/serve` loads it (`flask demo load`), and an office key
    (the site needs none: the key only makes the served league whole)."""
    flask = [sys.executable, "-m", "flask", "--app", "app", "demo", "load"]
    loaded = subprocess.run(
        flask,
        cwd=REPO,
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )
    assert loaded.returncode == 0 and "Demo league loaded" in loaded.stdout, loaded.stdout + loaded.stderr
    app = create_app({"DATABASE_URL": url, "TESTING": True, "RATELIMIT_ENABLED": False, "CACHE_URL": ""})
    office = new_key(app, "office", name="Office: Site")
    app.extensions["league_db"].engine.dispose()
    return ServedLeague(office=office, season_id=1, venue_id=1, ann=1, bob=2)


@pytest.fixture(scope="module")
def site(
    backend: str, scratch: ScratchDatabases, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """gunicorn serving the demo league on a new database of the backend, for both screens."""
    axe_script()  # skipped before a server is started for nothing
    url = scratch.migrated(backend)
    logs = tmp_path_factory.mktemp(f"site-{backend}")
    # Threads: a browser opens spare connections ahead of need, and a sync worker would wait on one.
    options = ("--worker-class", "gthread", "--threads", "4")
    with gunicorn(url, 1, logs, *options, league=demo_league(url)) as (server, _process):
        yield server
    scratch.discard(url)


def follow(control: Locator) -> Response:
    """Click a link or a form's button, and wait until the page it brings has loaded whole: the
    page's answer (its headers are checked)."""
    with control.page.expect_navigation(wait_until="load") as navigation:
        control.click()
    answer = navigation.value
    assert answer is not None and answer.status == 200, answer
    return answer


def opened(page: Page, summary: str) -> None:
    """A chart's figures (a <details> under it) opened by a click, so axe reads their table too."""
    page.locator("summary", has_text=summary).click()
    expect(page.locator("details", has=page.locator("summary", has_text=summary))).to_have_attribute(
        "open", ""
    )


def checked(page: Page, answer: Response, kind: str, screen: str, seen: dict[str, list[str]]) -> None:
    """The page is the kind expected, whole, reads well on the screen, and axe finds nothing
    serious; any problem is kept in `seen` (every page is checked before the test fails)."""
    expect(page).to_have_url(re.compile(KINDS[kind]))
    page.wait_for_function("document.readyState === 'complete'", timeout=PATIENCE_MS)
    problems = seen.setdefault(f"{kind} ({page.url})", [])
    # Nothing scrolls sideways, and nothing that must be seen is off the screen.
    fit = page.evaluate(OFF_SCREEN)
    if fit["scrolled"] > fit["width"] or fit["off"]:
        problems.append(f"wider than the {screen}: {fit}")
    # What a search engine and a link preview read.
    if not page.title().strip():
        problems.append("no <title>")
    for selector, attribute in (
        ('meta[name="description"]', "content"),
        ('link[rel="canonical"]', "href"),
        ('meta[property="og:title"]', "content"),
    ):
        found = page.locator(f"head {selector}")
        value = found.first.get_attribute(attribute) if found.count() == 1 else None
        if not value or not value.strip():
            problems.append(f"no {selector} with a {attribute} (found {found.count()})")
        elif selector.startswith("link") and value != page.url.split("?")[0]:
            problems.append(f"canonical {value} is not the page's own address")
    # The page loads nothing from anywhere: no other origin in its policy.
    policy = answer.headers.get("content-security-policy", "")
    if "default-src 'none'" not in policy or "http" in policy or "*" in policy:
        problems.append(f"Content-Security-Policy names other origins or is missing: {policy!r}")
    # axe-core, injected past the page's policy (the context bypasses it), on the whole page.
    page.add_script_tag(content=axe_script())
    violations: list[dict[str, Any]] = page.evaluate(AXE_RUN)
    for violation in violations:
        if violation["impact"] in SERIOUS:
            targets = "; ".join(f"{n['target']}" for n in violation["nodes"][:6])
            problems.append(
                f"axe {violation['impact']} {violation['id']} ({violation['help']}) "
                f"on {len(violation['nodes'])}: {targets}"
            )
    if not problems:
        del seen[f"{kind} ({page.url})"]


@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_kind_of_page_by_clicks_from_the_front_page(
    browser: Browser, site: Server, screen: str
) -> None:
    base = f"http://127.0.0.1:{site.port}"
    context = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
    page = context.new_page()
    seen: dict[str, list[str]] = {}
    try:
        answer = page.goto(f"{base}/", wait_until="load")
        assert answer is not None and answer.status == 200
        expect(page.get_by_role("heading", name="Playing now")).to_be_visible()  # the demo's night
        checked(page, answer, "front", screen, seen)

        venues = page.locator("section", has=page.get_by_role("heading", name="Venues", exact=True))
        answer = follow(venues.get_by_role("link", name=VENUE, exact=True))
        expect(page.get_by_role("heading", level=1)).to_have_text(VENUE)
        expect(page.locator("table").first).to_contain_text("Points")
        opened(page, "The chart's figures")
        checked(page, answer, "venue", screen, seen)

        answer = follow(page.get_by_role("link", name="the season and its qualifiers"))
        expect(page.get_by_role("heading", name="Qualifiers")).to_be_visible()
        qualifiers = page.get_by_role("table", name=re.compile(f"Who goes from {VENUE}"))
        expect(qualifiers).to_contain_text("Qualifies")
        checked(page, answer, "season", screen, seen)

        answer = follow(qualifiers.get_by_role("row").nth(1).get_by_role("link"))
        expect(page.get_by_role("heading", name="Head to head")).to_be_visible()
        opened(page, "The rating after each night")
        checked(page, answer, "player", screen, seen)

        answer = follow(page.get_by_role("button", name="Compare"))
        meetings = page.get_by_role("table", name="Every night both played, latest first")
        expect(meetings.get_by_role("row")).not_to_have_count(0)
        checked(page, answer, "head-to-head", screen, seen)

        answer = follow(meetings.get_by_role("row").nth(1).get_by_role("link").first)
        expect(page.get_by_role("table", name=re.compile("Places and points"))).to_be_visible()
        checked(page, answer, "result", screen, seen)

        site_nav = page.get_by_role("navigation", name="The site")
        answer = follow(site_nav.get_by_role("link", name="Ratings"))
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        checked(page, answer, "ratings", screen, seen)

        # The league-wide table leaves the demo's players out; its region's table shows them.
        regions = page.get_by_role("navigation", name="Regions")
        answer = follow(regions.get_by_role("link", name=DEMO_REGION, exact=True))
        ratings = page.get_by_role("table", name=re.compile(f"Ratings in {DEMO_REGION}"))
        expect(ratings.get_by_role("row")).not_to_have_count(0)
        checked(page, answer, "region's ratings", screen, seen)

        answer = follow(ratings.get_by_role("row").nth(1).get_by_role("link"))
        checked(page, answer, "player", screen, seen)

        answer = follow(site_nav.get_by_role("link", name="Find a player"))
        expect(page.get_by_role("searchbox", name="Name")).to_be_visible()
        checked(page, answer, "search", screen, seen)
    finally:
        context.close()
    assert not seen, "\n".join(f"{where}:\n  " + "\n  ".join(problems) for where, problems in seen.items())
