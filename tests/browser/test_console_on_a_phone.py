"""A host's league night on a phone, and the office's pages on one: every console page in headless
Chromium at 390 × 844 (a phone held upright), against gunicorn on each database. On every page
nothing needed is off-screen: no field, label or button of a form, no refusal reason and no
table's key column (`th[scope=row]`) reaches past the viewport's right edge, and the page never
scrolls sideways. A screenshot of each page goes to the test's temporary folder
(`phone-<page>.png`).

The host: signs in, uploads a sheet that is refused (a suspended player, R16; a place given
twice, R4; a player named by a long email no one has, R5), each reason in full under its row;
uploads tonight's sheet, previews it and stores it; types rows, grows the form with "More rows"
without losing them, and is told a night already reported offers session 2; corrects a report
(its rows prefilled, the changed ones marked) and voids another, where the window allows (R17).
The office: sanctions (list, a refused and an issued one, the player's history), the season at a
glance, every season, a new season, a season's page, settings and the preview of a change that
rescores it, its missing reports, its disqualifications, a venue's standings in a chosen season,
qualifiers, keys, the audit log, duplicates, regions, venues and a venue's settings (its regular
nights refused, then saved, R2)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.builders import days_ago, iso, said
from tests.support.browser import DESK, PATIENCE_MS, PHONE, field, fits, players_named, sign_in, submit
from tests.support.databases import ScratchDatabases
from tests.support.servers import Server, gunicorn

LONG_NAME = "Bartholomew Featherstonehaugh-Wolfeschlegelsteinhausen"
LONG_EMAIL = "margaret.fitzgerald-okonkwo.the.third@a-very-long-pub-quiz-domain.example.org"


@pytest.fixture()
def night(backend: str, scratch: ScratchDatabases, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """gunicorn on a new database with a league night's makings: a host key of its venue, players
    (one with a long name, one suspended, one who looks like another), and reports stored 2, 3 and
    12 days ago (the last outside a host's 7-day correction window, R17)."""
    url = scratch.migrated(backend)
    with gunicorn(url, 1, tmp_path, "--worker-class", "gthread", "--threads", "4") as (server, _process):
        office = f"Bearer {server.office}"
        status, _headers, key = server.request(
            "POST",
            "/api/v1/api-keys",
            {"name": "Host: Phone Bar", "role": "host", "venue_ids": [server.venue_id]},
            Authorization=office,
        )
        assert status == 201, key
        ann, bob, cara, dev, eli = players_named(server, ("Cara", "Dev", "Eli"), "Phone")
        long = server.write(
            "POST",
            "/api/v1/players",
            {"full_name": LONG_NAME, "display_name": LONG_NAME, "email": "bart@example.org"},
        )["id"]
        server.write("POST", "/api/v1/players", {"full_name": "Anne Gunicorn", "email": "anne@example.org"})
        players = [ann, bob, cara, dev, long]
        reports = {
            ago: server.write(
                "POST",
                "/api/v1/tournaments",
                {
                    "venue_id": server.venue_id,
                    "date": iso(days_ago(ago)),
                    "results": [{"place": p, "player_id": pid} for p, pid in enumerate(players, 1)],
                    # R17: a night past the hosts' 7 days is the office's to report, with a reason.
                    **({"reason": "Reported late by the office."} if ago > 7 else {}),
                },
            )["id"]
            for ago in (12, 3, 2)
        }
        server.write(
            "POST",
            "/api/v1/sanctions",
            {
                "player_id": eli,
                "kind": "suspension",
                "category": "berating",
                "first_day": iso(days_ago(1)),
                "last_day": iso(days_ago(-13)),
                "reason": "Abuse of staff.",
            },
        )
        yield {"server": server, "host_key": key["key"], "players": players, "eli": eli, "reports": reports}
    scratch.discard(url)


def test_a_hosts_league_night_fits_a_phone_r4_r5_r16_r17(
    browser: Browser, night: dict[str, Any], tmp_path: Path
) -> None:
    server: Server = night["server"]
    base = f"http://127.0.0.1:{server.port}"
    page = sign_in(browser, base, night["host_key"], tmp_path)
    fits(page, "home", tmp_path)
    submit(page.get_by_role("link", name="Post results").first)
    page.wait_for_url(f"{base}/console/venues/{server.venue_id}/report")  # the new page, not home
    fits(page, "report", tmp_path)
    a_sheet_refused(page, night, tmp_path)
    tonights_sheet_stored(page, night, tmp_path)
    page.goto(f"{base}/console/venues/{server.venue_id}/rows")
    rows_typed(page, night, tmp_path)
    page.goto(f"{base}/console/venues/{server.venue_id}/reports")
    corrected_and_voided(page, night, tmp_path)
    page.goto(f"{base}/console/venues/{server.venue_id}/door-list")
    fits(page, "door-list", tmp_path)
    page.context.close()


def a_sheet_refused(page: Page, night: dict[str, Any], shots: Path) -> None:
    """R4, R5, R16: a sheet refused; each reason in full under its row, in the sheet's words."""
    ann, bob, _cara, _dev, long = night["players"]
    refused = shots / "refused.csv"
    refused.write_text(
        f"place,player_id,email\n1,{ann},\n2,{night['eli']},\n2,{bob},\n4,,{LONG_EMAIL}\n5,{long},\n"
    )
    field(page, "Spreadsheet (CSV, .xlsx or .ods)").set_input_files(str(refused))
    submit(page.get_by_role("button", name="Preview"))
    assert "Not stored" in page.locator("h1").inner_text()
    reasons = page.locator("tr.reason td.problem").all_inner_texts()
    assert any(r.startswith("Row 3 (place 2), column player_id: ") and "suspended" in r for r in reasons)
    assert any(r.startswith("Row 4 (place 2), column place: Place 2 is also given") for r in reasons)
    email = f"Row 5 (place 4), column email: No player has the email {LONG_EMAIL}"
    assert any(r.startswith(email) for r in reasons), reasons
    assert "results." not in page.locator("main").inner_text()
    fits(page, "refused", shots)


def tonights_sheet_stored(page: Page, night: dict[str, Any], shots: Path) -> None:
    """Tonight's sheet previewed, then stored: the standings follow."""
    ann, _bob, cara, dev, _long = night["players"]
    submit(page.get_by_role("link", name="Correct the spreadsheet and upload it again"))
    tonight = shots / "tonight.csv"
    tonight.write_text(
        "place,player_id\n" + "".join(f"{p},{pid}\n" for p, pid in enumerate([cara, dev, ann], 1))
    )
    field(page, "Date").fill(iso(days_ago(1)))
    field(page, "Spreadsheet (CSV, .xlsx or .ods)").set_input_files(str(tonight))
    submit(page.get_by_role("button", name="Preview"))
    assert "Nothing is stored yet" in page.locator("main").inner_text()
    fits(page, "preview", shots)
    submit(page.get_by_role("button", name="Store the report"))
    assert "Stored: report" in page.locator("main").inner_text()
    fits(page, "standings", shots)


def rows_typed(page: Page, night: dict[str, Any], shots: Path) -> None:
    """R5: typed rows, each stacked on the phone; "More rows" keeps what was typed; a night already
    reported (its session 1 taken) comes back with session 2 filled in, the rows kept."""
    ann, bob, _cara, _dev, long = night["players"]
    fits(page, "rows", shots)
    offered = page.locator("#players option").evaluate_all("options => options.map(o => o.value)")
    picked = {int(value.rsplit("#", 1)[1].rstrip(")")): value for value in offered}
    typed = {
        "Player in place 1": picked[long],
        "Player in place 2": "Newcomer Nell",
        "Email in place 2": "nell.new@example.org",
        "Player in place 3": picked[ann],
        "Player in place 4": picked[bob],
    }
    field(page, "Date").fill(iso(days_ago(2)))
    for label, value in typed.items():
        field(page, label).fill(value)
    field(page, "Status in place 2").select_option("declared_withdrawal")
    field(page, "Player in place 12").focus()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scroll
    submit(page.get_by_role("button", name="More rows"))
    assert field(page, "Player in place 24").count() == 1 and field(page, "Player in place 25").count() == 0
    assert {label: field(page, label).input_value() for label in typed} == typed
    assert field(page, "Status in place 2").input_value() == "declared_withdrawal"
    assert field(page, "Date").input_value() == iso(days_ago(2))
    fits(page, "rows-more", shots)
    submit(page.get_by_role("button", name="Preview", exact=True))
    taken = f"{said(days_ago(2))} already has a report for session 1 here"
    assert taken in page.locator(".refused").inner_text()
    assert field(page, "Session").input_value() == "2"
    assert {label: field(page, label).input_value() for label in typed} == typed
    fits(page, "rows-session-taken", shots)
    submit(page.get_by_role("button", name="Preview", exact=True))
    assert "Nothing is stored yet" in page.locator("main").inner_text()
    fits(page, "rows-preview", shots)
    # R5: a typed row naming no one comes back as typed, its reason under it.
    page.goto(page.url)  # the rows page again, empty
    field(page, "Email in place 1").fill(LONG_EMAIL)
    submit(page.get_by_role("button", name="Preview", exact=True))
    assert f"No player has the email {LONG_EMAIL}" in page.locator("#reason_1").inner_text()
    assert field(page, "Email in place 1").input_value() == LONG_EMAIL
    fits(page, "rows-refused", shots)


def corrected_and_voided(page: Page, night: dict[str, Any], shots: Path) -> None:
    """R17: Correct and Void offered until the window's last day, not after; a correction's rows
    prefilled by name, the changed ones marked on its preview; a void with its reason."""
    reports, long = night["reports"], night["players"][4]
    for report in reports.values():
        opened(page, report)
    words = page.locator("main").inner_text()
    assert "Correct or void until" in words and "Only the league office can correct or void it now" in words
    assert page.get_by_role("link", name=f"Correct report {reports[12]}").count() == 0
    fits(page, "reports", shots)
    page.goto(
        page.url.replace(f"/venues/{night['server'].venue_id}/reports", f"/reports/{reports[12]}/correct")
    )
    assert "Only the league office can correct or void it now." in page.locator(".refused").inner_text()
    fits(page, "correct-closed", shots)
    page.go_back()
    opened(page, reports[2])
    submit(page.get_by_role("link", name=f"Correct report {reports[2]}"))
    assert field(page, "Player in place 5").input_value().endswith(f"(#{long})")
    fits(page, "correct", shots)
    first, second = (field(page, f"Player in place {n}").input_value() for n in (1, 2))
    field(page, "Player in place 1").fill(second)
    field(page, "Player in place 2").fill(first)
    field(page, "Why it is corrected").fill("Bob won, not Ann.")
    submit(page.get_by_role("button", name="Preview the correction"))
    assert page.locator("tr.changed").count() == 2
    fits(page, "correct-preview", shots)
    submit(page.get_by_role("button", name="Store the correction"))
    assert "Corrected: report" in page.locator("main").inner_text()
    submit(page.get_by_role("link", name="Home"))
    submit(page.get_by_role("link", name="Recent reports").first)
    opened(page, reports[3])
    field(page, f"Why report {reports[3]} should be voided").fill("Wrong night.")
    submit(page.get_by_role("button", name=f"Void report {reports[3]}"))
    assert "Voided: report" in page.locator("main").inner_text()
    fits(page, "void", shots)


def opened(page: Page, report_id: int) -> Locator:
    """A report of the recent reports, opened (its summary tapped) unless it is already."""
    report = page.locator(f"#report-{report_id}")
    expect(report).to_have_count(1, timeout=PATIENCE_MS)  # the page has loaded
    if report.get_attribute("open") is None:
        report.locator("summary").click()
    expect(report).to_have_attribute("open", "", timeout=PATIENCE_MS)
    return report


# The recent reports' list, each report's height, and how many lines each closed one's summary takes.
MEASURED = """() => {
  const list = document.querySelector('main div.reports');
  const reports = [...list.querySelectorAll('details.report')].map(report => {
    const summary = report.querySelector('summary');
    const style = getComputedStyle(summary);
    const text = summary.getBoundingClientRect().height - parseFloat(style.paddingTop)
      - parseFloat(style.paddingBottom);
    return {id: report.id, open: report.open, height: report.getBoundingClientRect().height,
            lines: text / parseFloat(style.lineHeight)};
  });
  return {height: list.getBoundingClientRect().height, reports};
}"""


def test_the_recent_reports_are_a_line_each_on_a_phone_until_one_is_opened_r6_r17(
    browser: Browser, night: dict[str, Any], tmp_path: Path
) -> None:
    """R6, R17: at 390 px the recent reports (four, of five entrants and more) are one line each
    (the night, session, entrants and winner) and the list is short; a report tapped open shows its
    rows with their statuses (W/D, absent, no-show; played unmarked) and the list grows by them;
    closed again, the list is as short as before. Each step waits for what it measures."""
    server: Server = night["server"]
    base = f"http://127.0.0.1:{server.port}"
    ann, bob, cara, dev, _long = night["players"]
    order = [(ann, None), (bob, "declared_withdrawal"), (cara, "absent"), (dev, "no_show")]
    rows = [
        {"place": p, "player_id": pid, **({"status": s} if s else {})} for p, (pid, s) in enumerate(order, 1)
    ]
    marked = server.write(
        "POST",
        "/api/v1/tournaments",
        {"venue_id": server.venue_id, "date": iso(days_ago(4)), "results": rows},
    )["id"]
    page = sign_in(browser, base, night["host_key"])
    page.goto(f"{base}/console/venues/{server.venue_id}/reports")
    reports = page.locator("main details.report")
    expect(reports).to_have_count(4, timeout=PATIENCE_MS)
    expect(page.locator(f"#report-{marked} > summary")).to_have_text(
        f"{said(days_ago(4), year=False)} · session 1 · 4 entrants · won by Ann", timeout=PATIENCE_MS
    )
    closed = page.evaluate(MEASURED)
    fits(page, "reports-closed", tmp_path)
    assert all(not r["open"] and r["lines"] < 1.5 for r in closed["reports"]), closed
    assert closed["height"] < 4 * 60, closed  # four lines, not four tables (7,148 px before)
    report = opened(page, marked)
    marks = report.locator("tbody td.mark")
    expect(marks).to_have_text(["", "W/D", "absent", "no-show"], timeout=PATIENCE_MS)
    expect(marks.last).to_be_visible(timeout=PATIENCE_MS)
    table = report.locator("table")
    expect(table).to_be_visible(timeout=PATIENCE_MS)
    # Waits until the list has grown by at least the opened report's table.
    page.wait_for_function(
        """([before, id]) => {
          const list = document.querySelector('main div.reports').getBoundingClientRect().height;
          const table = document.querySelector('#' + id + ' table').getBoundingClientRect().height;
          return table > 0 && list >= before + table;
        }""",
        arg=[closed["height"], f"report-{marked}"],
        timeout=PATIENCE_MS,
    )
    grown = page.evaluate(MEASURED)
    fits(page, "reports-opened", tmp_path)
    assert [r["id"] for r in grown["reports"] if r["open"]] == [f"report-{marked}"], grown
    assert grown["height"] > closed["height"] + 4 * 20, (closed, grown)
    report.locator("summary").click()
    expect(report).not_to_have_attribute("open", "", timeout=PATIENCE_MS)
    expect(marks.first).to_be_hidden(timeout=PATIENCE_MS)
    page.wait_for_function(
        "before => document.querySelector('main div.reports').getBoundingClientRect().height <= before + 0.5",
        arg=closed["height"],
        timeout=PATIENCE_MS,
    )
    page.context.close()


def venue_pages(page: Page, base: str, venue_id: int, shots: Path) -> None:
    """R2: a venue's regular nights set on the phone, a start time refused beside the list, then
    saved."""
    page.goto(f"{base}/console/venues/{venue_id}/settings")
    nights = page.locator("#nights ~ form")
    nights.locator("select[name='schedule.0.weekday']").select_option("Tuesday")
    nights.locator("input[name='schedule.0.starts_at']").fill("7.30pm")
    submit(nights.get_by_role("button", name="Save the regular nights"))
    assert "Row 1, Starts at: A start time is HH:MM" in page.locator("main").inner_text()
    fits(page, "venue-nights-refused", shots)
    page.locator("input[name='schedule.0.starts_at']").fill("19:30")
    submit(page.get_by_role("button", name="Save the regular nights"))
    assert "regular nights saved (Tue 19:30)" in page.locator("main").inner_text()


# The office's pages, each opened on a phone and at a desk.
OFFICE_PAGES = (
    ("seasons", "/console/seasons"),
    ("seasons-all", "/console/seasons/all"),
    ("season-new", "/console/seasons/new"),
    ("season", "/console/seasons/{season}"),
    ("season-settings", "/console/seasons/{season}/settings"),
    ("season-missing", "/console/seasons/{season}/missing-reports"),
    ("disqualifications", "/console/seasons/{season}/disqualifications"),
    ("season-standings", "/console/venues/{venue}/standings?season_id={season}"),
    ("qualifiers", "/console/seasons/{season}/qualifiers"),
    ("keys", "/console/keys"),
    ("charts", "/console/charts?entrants=24"),
    ("structures", "/console/structures"),
    ("webhooks", "/console/webhooks"),
    ("weekly-email", "/console/weekly-email"),
    ("audit", "/console/audit"),
    ("duplicates", "/console/duplicates"),
    ("league-settings", "/console/league-settings"),
    ("regions", "/console/regions"),
    ("venues", "/console/venues"),
    ("venue-settings", "/console/venues/{venue}/settings"),
    ("reports", "/console/venues/{venue}/reports"),
    ("report", "/console/venues/{venue}/report"),
    ("door-list", "/console/venues/{venue}/door-list"),
    ("demo", "/console/demo"),
    ("players", "/console/players?q=Ann"),
    ("player", "/console/players/{player}"),
    ("erase", "/console/players/{player}/erase"),
)


HEADER_HEIGHTS = """() => [...document.querySelectorAll('table.stack > thead')]
  .map(header => header.getBoundingClientRect().height)"""


def test_the_offices_pages_at_a_desk_use_its_width(
    browser: Browser, night: dict[str, Any], tmp_path: Path
) -> None:
    """Every office page at 1280 px: nothing needed off-screen, no sideways scroll, and the lists
    that stack on a phone are tables again, their header row shown."""
    server: Server = night["server"]
    base = f"http://127.0.0.1:{server.port}"
    page = sign_in(browser, base, server.office, screen=DESK)
    fits(page, "office-home", tmp_path, DESK)
    for name, path in (("home", "/console/"), *OFFICE_PAGES):
        answer = page.goto(
            base + path.format(season=server.season_id, venue=server.venue_id, player=night["players"][4])
        )
        assert answer is not None and answer.status == 200, (name, answer)
        fits(page, name, tmp_path, DESK)
        headers = page.evaluate(HEADER_HEIGHTS)
        assert all(height > 10 for height in headers), (name, headers)
    page.context.close()


def chart_and_structure_made(page: Page, base: str, shots: Path) -> None:
    """R7: a formula chart made on the phone, and its points for 24 entrants listed; R22: a blind
    structure made from the built-in one, its first level longer."""
    page.goto(f"{base}/console/charts?entrants=24")
    field(page, "Name").fill("Square root on a phone")
    field(page, "Kind").select_option("formula")
    field(page, "Or a preset").select_option("square_root")
    submit(page.get_by_role("button", name="Make the chart"))
    assert "490, 346, 283, 245, 219, 200, 185" in page.locator("main").inner_text()
    fits(page, "chart-made", shots)
    page.goto(f"{base}/console/structures")
    field(page, "Name").fill("Longer first level")
    page.get_by_label("Minutes, row 1", exact=True).fill("30")
    submit(page.get_by_role("button", name="Make the structure"))
    assert "(Longer first level) made" in page.locator("main").inner_text()
    assert "25/25 (30), 25/50 (20)" in page.locator("main").inner_text()
    fits(page, "structure-made", shots)


def test_the_offices_pages_fit_a_phone_r5_r15_r16_r17(
    browser: Browser, night: dict[str, Any], tmp_path: Path
) -> None:
    server: Server = night["server"]
    base = f"http://127.0.0.1:{server.port}"
    page = sign_in(browser, base, server.office)
    fits(page, "office-home", tmp_path)
    submit(page.get_by_role("link", name="Sanctions"))
    field(page, "Player's name").fill("Bartholomew")
    submit(page.get_by_role("button", name="Find the player"))
    fits(page, "sanctions", tmp_path)
    submit(page.get_by_role("link", name=LONG_NAME).first)
    fits(page, "sanction-issue", tmp_path)
    # R15: a suspension shorter than the league's minimum is refused beside its last day.
    field(page, "Kind").select_option("suspension")
    field(page, "Category").select_option("fighting")
    field(page, "First day").fill(iso(days_ago(0)))
    field(page, "Last day (both days count; empty: permanent)").fill(iso(days_ago(-2)))
    field(page, "Reason").fill("Fight at the bar.")
    submit(page.get_by_role("button", name="Issue the sanction"))
    assert "at least 14 days" in page.locator("main").inner_text()
    fits(page, "sanction-refused", tmp_path)
    # R16: issued after the fact, it names the stored results inside it, which stand.
    field(page, "First day").fill(iso(days_ago(20)))
    field(page, "Last day (both days count; empty: permanent)").fill(iso(days_ago(-5)))
    submit(page.get_by_role("button", name="Issue the sanction"))
    assert "Issued: sanction" in page.locator("main").inner_text()
    fits(page, "sanction-history", tmp_path)
    for name, path in OFFICE_PAGES:
        page.goto(
            base + path.format(season=server.season_id, venue=server.venue_id, player=night["players"][4])
        )
        fits(page, name, tmp_path)
    # R8, R11: points for taking part set on the season's stored nights: who moves, before saving.
    page.goto(f"{base}/console/seasons/{server.season_id}/settings")
    fits(page, "season-settings", tmp_path)
    field(page, "Points for taking part (optional)").fill("10")
    submit(page.get_by_role("button", name="Save the settings"))
    assert "Not saved yet" in page.locator("main").inner_text()
    fits(page, "season-preview", tmp_path)
    venue_pages(page, base, server.venue_id, tmp_path)
    # R5, R17: a look-alike merged into the player they are; the merge listed, to undo.
    page.goto(f"{base}/console/duplicates")
    page.locator("main form input[name=reason]").first.fill("The same Ann, a typo.")
    submit(page.locator("main form button").first)
    assert "Merged: player" in page.locator("main").inner_text()
    fits(page, "duplicates-merged", tmp_path)
    chart_and_structure_made(page, base, tmp_path)
    page.goto(f"{base}/console/keys")
    field(page, "Who holds it (e.g. Host: Crown, Sam)").fill("Host: Phone Bar, Sam")
    submit(page.get_by_role("button", name="Make the key"))
    assert "Give this to its holder now" in page.locator("main").inner_text()
    fits(page, "key-made", tmp_path)
    page.context.close()
