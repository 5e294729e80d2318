"""The console's door list in a real browser (headless Chromium through Playwright), against
gunicorn on each database (R16, R19): on a 390-pixel phone nothing is wider than the screen, the
three groups are headed, each barred player is named in full with their display name and
number; and a night's list of 40 players prints on one A4 sheet. Screenshots and the PDF go to
the test's temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.builders import ago, days_ago, iso
from tests.support.browser import players_named, submit
from tests.support.databases import ScratchDatabases
from tests.support.servers import Server, gunicorn

BARRED = 40


@pytest.fixture()
def door(backend: str, scratch: ScratchDatabases, tmp_path: Path) -> Iterator[tuple[Server, str, list[int]]]:
    """gunicorn on a new database: (the server, a host key of its venue, the barred players): 40
    suspended with longish names, the first two of whom played at the venue."""
    url = scratch.migrated(backend)
    with gunicorn(url, 1, tmp_path, "--worker-class", "gthread", "--threads", "4") as (server, _process):
        status, _headers, key = server.request(
            "POST",
            "/api/v1/api-keys",
            {"name": "Host: Door", "role": "host", "venue_ids": [server.venue_id]},
            Authorization=f"Bearer {server.office}",
        )
        assert status == 201, key
        names = tuple(f"Alexandra{i:02d}" for i in range(BARRED - 2))
        players = players_named(server, names, "Montgomery-Smith")
        server.write(
            "POST",
            "/api/v1/tournaments",
            {
                "venue_id": server.venue_id,
                "date": iso(days_ago(3)),
                "results": [{"place": 1, "player_id": players[0]}, {"place": 2, "player_id": players[1]}],
            },
        )
        for player in players:
            server.write(
                "POST",
                "/api/v1/sanctions",
                {
                    "player_id": player,
                    "kind": "suspension",
                    "category": "outside_alcohol",
                    "first_day": ago(1),
                    "reason": "Brought a bottle.",
                },
            )
        yield server, key["key"], players
    scratch.discard(url)


def test_the_door_list_fits_a_phone_and_prints_on_one_sheet_r16_r19(
    browser: Browser, door: tuple[Server, str, list[int]], tmp_path: Path
) -> None:
    server, host_key, players = door
    base = f"http://127.0.0.1:{server.port}"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{base}/console/sign-in")
    page.get_by_label("API key").fill(host_key)
    submit(page.get_by_role("button", name="Sign in"))
    page.goto(f"{base}/console/venues/{server.venue_id}/door-list")
    assert page.get_by_role("heading", name="Played here (2)").is_visible()
    assert page.get_by_role("heading", name="The rest of the league (38)").is_visible()
    assert page.locator("main ul.door li").count() == BARRED
    first = " ".join(page.locator("main ul.door li").first.inner_text().split())
    assert first.startswith("Ann Gunicorn · Ann #") and "permanent" in first
    assert page.get_by_text(f"Alexandra05 Montgomery-Smith · Alexandra05 #{players[7]}").is_visible()
    widest = page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    assert widest <= 390, widest
    page.screenshot(path=str(tmp_path / "door-list-390.png"), full_page=True)
    pdf = page.pdf(path=str(tmp_path / "door-list.pdf"), format="A4", print_background=False)
    sheets = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
    assert sheets == 1, sheets
    context.close()
