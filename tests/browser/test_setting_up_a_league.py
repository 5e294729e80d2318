"""A league set up from nothing to its first report through the console alone, on a phone (390 ×
844), against gunicorn on each database: the office signs in to an empty league (its home lists
the first steps, none done), sets the league's time zone, makes a region, two venues (one in
another zone) with their weekly nights, a points chart, a season with an attendance bonus, and a
host key (R2, R2a, R7, R9). The host signs in with that key and posts the night's results; the
standings show them. After the season's last day the office publishes its qualifier lists (R12)
and finds the publishing in the audit log (R18). Every page fits the phone (nothing needed off the
screen's edge, no sideways scroll), and a screenshot of each step goes to the test's folder, or to
SETUP_SCREENSHOTS when set (`scripts/screenshots.py setup` sets it to docs/setup/)."""

from __future__ import annotations

import os
from datetime import date, timedelta
from pathlib import Path

from playwright.sync_api import Browser, Page

from app import create_app
from tests.builders import days_ago, iso
from tests.support.browser import PHONE, field, fits, submit
from tests.support.databases import ScratchDatabases
from tests.support.league import new_key
from tests.support.servers import ServedLeague, gunicorn

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def shots_folder(tmp_path: Path) -> Path:
    wanted = os.environ.get("SETUP_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def saved(page: Page, button: str) -> None:
    submit(page.get_by_role("button", name=button))
    refused = page.locator(".refused")
    assert refused.count() == 0, refused.all_inner_texts()


def test_a_league_set_up_in_the_console_from_nothing_to_its_first_report_r2_r2a_r7_r9_r12_r18(
    browser: Browser, backend: str, scratch: ScratchDatabases, tmp_path: Path
) -> None:
    url = scratch.migrated(backend)
    app = create_app({"DATABASE_URL": url, "TESTING": True, "RATELIMIT_ENABLED": False, "CACHE_URL": ""})
    office_key = new_key(app, "office", name="Office: First Night")
    app.extensions["league_db"].engine.dispose()
    empty = ServedLeague(office=office_key, season_id=0, venue_id=0, ann=0, bob=0)
    shots = shots_folder(tmp_path)
    threads = ("--worker-class", "gthread", "--threads", "4")
    with gunicorn(url, 1, tmp_path, *threads, league=empty) as (server, _process):
        base = f"http://127.0.0.1:{server.port}"
        office = signed_in(browser, base, office_key)
        assert "0 of 6 steps done" in office.locator("main").inner_text()
        fits(office, "setup-1-home", shots)
        host_key = set_up(office, base, shots)
        host = signed_in(browser, base, host_key)
        first_report(host, tmp_path, shots)
        host.context.close()
        published(office, base, shots)
        office.context.close()
    scratch.discard(url)


def signed_in(browser: Browser, base: str, key: str) -> Page:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{base}/console/sign-in")
    field(page, "API key").fill(key)
    submit(page.get_by_role("button", name="Sign in"))
    page.wait_for_url(f"{base}/console/")
    return page


def set_up(page: Page, base: str, shots: Path) -> str:
    """R2, R2a, R7, R9: the time zone, a region, two venues and their nights, a chart, a season
    with an attendance bonus and a host key, each on its own page; the host key's secret."""
    submit(page.get_by_role("link", name="The league's time zone"))
    field(page, "Time zone (optional)").fill("America/Chicago")
    fits(page, "setup-2-time-zone", shots)
    saved(page, "Save the settings")
    page.goto(f"{base}/console/regions")
    field(page, "Name").fill("River Valley")
    fits(page, "setup-3-region", shots)
    saved(page, "Make the region")
    for name, zone in (("The Anchor", ""), ("The Lighthouse", "America/Denver")):
        page.goto(f"{base}/console/venues")
        field(page, "Name").fill(name)
        page.get_by_label("Region", exact=True).select_option(label="River Valley")
        if zone:
            field(page, "Time zone (optional)").fill(zone)
            fits(page, "setup-4-venue", shots)
        saved(page, "Make the venue")  # on to the venue's settings page
        page.get_by_label("Weekday, row 1", exact=True).select_option(label=WEEKDAYS[NIGHT().weekday()])
        page.get_by_label("Starts at, row 1", exact=True).fill("19:30")
        if zone:
            fits(page, "setup-5-nights", shots)
        saved(page, "Save the regular nights")
    page.goto(f"{base}/console/charts")
    field(page, "Name").fill("Binder")
    page.get_by_label("Kind", exact=True).select_option("top_fraction")
    saved(page, "Make the chart")
    page.goto(f"{base}/console/seasons/new")
    field(page, "Name").fill("Winter")
    field(page, "First day").fill(iso(NIGHT() - timedelta(days=28)))
    field(page, "Last day").fill(iso(days_ago(2)))
    page.get_by_label("River Valley", exact=True).check()
    page.get_by_label("Points chart (optional)", exact=True).select_option(label="Binder")
    page.get_by_label("Nights played, row 1", exact=True).fill("1")
    page.get_by_label("Bonus points, row 1", exact=True).fill("5")
    fits(page, "setup-6-season", shots)
    saved(page, "Make the season")
    page.goto(f"{base}/console/keys")
    field(page, "Who holds it (e.g. Host: Crown, Sam)").fill("Host: Anchor")
    page.get_by_label("Venue", exact=True).select_option(label="The Anchor")
    saved(page, "Make the key")
    host_key = page.locator("#new-key").inner_text().strip()
    fits(page, "setup-7-host-key", shots)
    page.goto(f"{base}/console/")
    assert "Setting up your league" not in page.locator("main").inner_text()
    fits(page, "setup-8-home-done", shots)
    return host_key


def first_report(host: Page, tmp_path: Path, shots: Path) -> None:
    """The host's first night: the spreadsheet previewed, stored, the standings shown."""
    submit(host.get_by_role("link", name="Post results").first)
    sheet = tmp_path / "first-night.csv"
    sheet.write_text(
        "Place,Full Name,E-mail\n1,Rita Moreno,rita@example.org\n2,Tom Hale,tom@example.org\n"
        "3,Uma Roy,uma@example.org\n"
    )
    field(host, "Date").fill(iso(NIGHT()))
    field(host, "Spreadsheet (CSV, .xlsx or .ods)").set_input_files(str(sheet))
    submit(host.get_by_role("button", name="Preview"))
    submit(host.get_by_role("button", name="Store the report"))
    assert "Stored: report" in host.locator("main").inner_text()
    # The season has ended: the page shows the standings of the report's season all the same.
    host.wait_for_load_state("load")
    shown = host.locator("main").inner_text()
    assert "Rita" in shown and "Winter" in shown, shown
    fits(host, "setup-9-first-report", shots)


def published(page: Page, base: str, shots: Path) -> None:
    """R12, R18: after the season's last day, its lists published, and the audit log says so."""
    page.goto(f"{base}/console/seasons/all")
    submit(page.get_by_role("link", name="Qualifier lists").first)
    saved(page, "Publish the lists")
    assert "Published: the lists of Winter" in page.locator("main").inner_text()
    page.goto(f"{base}/console/audit")
    entries = page.locator("main").inner_text()
    assert "Office: First Night" in entries and "ublish" in entries, entries
    fits(page, "setup-10-audit", shots)


def NIGHT() -> date:  # noqa: N802 - a constant, reckoned when the test runs
    """The venues' weekly night: three days ago (on every clock of the league, UTC to Denver), and
    within the season, which ended the day before yesterday."""
    return days_ago(3)
