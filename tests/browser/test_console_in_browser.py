"""The web console in a real browser (headless Chromium through Playwright, as for the pages other
sites frame), against gunicorn on each database: a host signs in with their key, uploads tonight's
spreadsheet, reads the preview, stores it and sees the standings change; the office, signed in
elsewhere, suspends a player, and the host's next upload naming them is refused on the page,
under the row; a form posted without its CSRF token is refused. Screenshots go to the test's
temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.builders import days_ago, iso
from tests.support.browser import players_named, submit
from tests.support.databases import ScratchDatabases
from tests.support.servers import Server, gunicorn

NAMES = ("Cara", "Dev", "Eli")


@pytest.fixture()
def league(
    backend: str, scratch: ScratchDatabases, tmp_path: Path
) -> Iterator[tuple[Server, str, list[int]]]:
    """gunicorn on a new database: (the server, a host key of its venue, five players' ids)."""
    url = scratch.migrated(backend)
    with gunicorn(url, 1, tmp_path, "--worker-class", "gthread", "--threads", "4") as (server, _process):
        office = f"Bearer {server.office}"
        status, _headers, key = server.request(
            "POST",
            "/api/v1/api-keys",
            {"name": "Host: Browser Bar", "role": "host", "venue_ids": [server.venue_id]},
            Authorization=office,
        )
        assert status == 201, key
        players = players_named(server, NAMES, "Console")
        yield server, key["key"], players
    scratch.discard(url)


def test_a_host_posts_tonights_sheet_and_a_suspended_player_is_refused_on_the_page(
    browser: Browser,
    league: tuple[Server, str, list[int]],
    tmp_path: Path,
) -> None:
    server, host_key, players = league
    base = f"http://127.0.0.1:{server.port}"
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    page = context.new_page()
    page.goto(f"{base}/console/sign-in")
    page.get_by_label("API key").fill(host_key)
    submit(page.get_by_role("button", name="Sign in"))
    submit(page.get_by_role("link", name="Post results").first)
    sheet = tmp_path / "tonight.csv"
    sheet.write_text(
        "place,player_id\n" + "".join(f"{place},{pid}\n" for place, pid in enumerate(players, 1))
    )
    page.get_by_label("Date").fill(iso(days_ago(1)))
    page.get_by_label("Spreadsheet (CSV, .xlsx or .ods)").set_input_files(str(sheet))
    submit(page.get_by_role("button", name="Preview"))
    assert "Nothing is stored yet" in page.locator("main").inner_text()
    assert page.locator("main table tbody tr").count() == len(players)
    page.screenshot(path=str(tmp_path / "console-preview.png"), full_page=True)
    submit(page.get_by_role("button", name="Store the report"))
    assert "Stored: report" in page.locator("main").inner_text()
    assert page.locator("main table tbody tr").count() == len(players)  # the standings, now with them
    page.screenshot(path=str(tmp_path / "console-standings.png"), full_page=True)

    # The office, in a browser of its own, finds Eli and suspends him for two weeks.
    office_suspends(browser, base, server.office, "Eli", tmp_path)

    # The host's next sheet naming Eli is refused, the reason under his row.
    submit(page.get_by_role("link", name="Home"))
    submit(page.get_by_role("link", name="Post results").first)
    page.get_by_label("Date").fill(iso(days_ago(0)))
    page.get_by_label("Spreadsheet (CSV, .xlsx or .ods)").set_input_files(str(sheet))
    submit(page.get_by_role("button", name="Preview"))
    assert "Not stored" in page.locator("h1").inner_text()
    assert "Eli" in page.locator("main table tbody tr.flagged th").inner_text()
    reason = page.locator("main table tbody tr.reason td.problem")  # under Eli's row, in full
    assert reason.count() == 1 and "suspend" in reason.inner_text().lower()
    page.screenshot(path=str(tmp_path / "console-refused.png"), full_page=True)

    # A form posted without its CSRF token, with this browser's own session cookie: refused.
    forged = context.request.post(
        f"{base}/console/venues/{server.venue_id}/report",
        multipart={"date": iso(days_ago(0)), "session": "3", "kind": "regular", "pasted": sheet.read_text()},
    )
    assert forged.status == 400 and "security token" in forged.text()
    context.close()
    assert len(list(tmp_path.glob("console-*.png"))) == 4


def office_suspends(browser: Browser, base: str, office_key: str, name: str, tmp_path: Path) -> None:
    """The office signs in, finds the player by name, and suspends them for two weeks."""
    office = browser.new_context(viewport={"width": 900, "height": 900})
    desk = office.new_page()
    desk.goto(f"{base}/console/sign-in")
    desk.get_by_label("API key").fill(office_key)
    submit(desk.get_by_role("button", name="Sign in"))
    submit(desk.get_by_role("link", name="Sanctions"))
    desk.get_by_label("Player's name").fill(name)
    submit(desk.get_by_role("button", name="Find the player"))
    submit(desk.get_by_role("link", name=f"{name} ({name} Console)"))
    desk.get_by_label("Kind").select_option("suspension")
    desk.get_by_label("Category").select_option("berating")
    desk.get_by_label("First day").fill(iso(days_ago(0)))
    desk.get_by_label("Last day").fill(iso(days_ago(-13)))  # two weeks, both days counted (R15)
    desk.get_by_label("Reason").fill("Abuse of staff.")
    submit(desk.get_by_role("button", name="Issue the sanction"))
    assert "Issued: sanction" in desk.locator("main").inner_text()
    desk.screenshot(path=str(tmp_path / "console-sanction.png"), full_page=True)
    office.close()
