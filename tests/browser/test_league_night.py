"""R22 in Chromium at 390 px, against gunicorn on each database: a host plays a whole 10-player
night from the console. Sign-ins (a suspended player refused beside the form), the seat draw,
the clock, two players out on one hand (more chips finishing higher), an undo, a declared
withdrawal, a re-entry at the first break, a late sign-in refused after it, and bust-outs to the
last player left. The report is then stored and the venue's standings have moved; the live page
is drawn on a TV (1920 × 1080) and a phone. Every page fits the phone (`fits`).

Time on the server is the night's own: the test moves the night's clock start back (as if the
minutes had passed) rather than waiting for them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import create_engine, select, update
from sqlalchemy.engine import make_url

from models.entities import Night
from tests.builders import iso, utc_today
from tests.support.browser import PATIENCE_MS, PHONE, field, fits, sign_in
from tests.support.databases import ScratchDatabases
from tests.support.servers import Server, gunicorn, post_a_report

NAMES = ("Ada", "Ben", "Cal", "Dot", "Eve", "Fin", "Gus", "Hal")
TV = {"width": 1920, "height": 1080}


@pytest.fixture()
def venue_night(backend: str, scratch: ScratchDatabases, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """gunicorn on a new database: a host key of the venue, ten players (Ann and Bob, eight more),
    one more suspended, one who comes late."""
    url = scratch.migrated(backend)
    with gunicorn(url, 1, tmp_path, "--worker-class", "gthread", "--threads", "4") as (server, _process):
        key = server.write(
            "POST",
            "/api/v1/api-keys",
            {"name": "Host: Night", "role": "host", "venue_ids": [server.venue_id]},
        )["key"]
        emails = {}
        for name in (*NAMES, "Sid", "Lou"):
            made = server.write(
                "POST",
                "/api/v1/players",
                {
                    "full_name": f"{name} Nightly",
                    "display_name": name,
                    "email": f"{name.lower()}@night.example.org",
                },
            )
            emails[name] = (made["id"], f"{name.lower()}@night.example.org")
        server.write(
            "POST",
            "/api/v1/sanctions",
            {
                "player_id": emails["Sid"][0],
                "kind": "suspension",
                "category": "berating",
                "first_day": iso(utc_today()),
                "reason": "Abuse of staff.",
            },
        )
        yield {"server": server, "url": url, "key": key, "players": emails}
    scratch.discard(url)


def played(url: str, minutes: int) -> None:
    """As if `minutes` more of play had passed: the night's clock start moved back."""
    engine = create_engine(make_url(url))
    try:
        with engine.begin() as conn:
            started = conn.execute(select(Night.id, Night.clock_started_at)).one()
            moved = started.clock_started_at - timedelta(minutes=minutes)
            conn.execute(update(Night).where(Night.id == started.id).values(clock_started_at=moved))
    finally:
        engine.dispose()


def shown(page: Page, words: str) -> None:
    expect(page.locator("main")).to_contain_text(words, timeout=PATIENCE_MS)


def sign_in_player(page: Page, email: str) -> None:
    field(
        page, "Player: a name from the list, a membership number or an email; or a new player's full name"
    ).fill(email)
    page.get_by_role("button", name="Sign in", exact=True).click()


def out(page: Page, name: str) -> None:
    page.get_by_role("button", name=f"Out {name}", exact=True).click()


def undo(page: Page, asked: str, button: str) -> None:
    """The undo asks first, naming who comes back; then the host chooses."""
    page.get_by_text("Undo…", exact=True).click()
    shown(page, asked)
    page.get_by_role("button", name=button, exact=True).click()


def the_door(page: Page, players: dict[str, tuple[int, str]], server: Server, shots: Path) -> None:
    """Ten signed in (by email, and Ann and Bob from the list); the suspended player refused."""
    for count, name in enumerate(NAMES, 1):
        sign_in_player(page, players[name][1])
        shown(page, f"Players {count} of {count}")
    for count, who in enumerate((server.ann, server.bob), len(NAMES) + 1):
        sign_in_player(page, f"x (#{who})")
        shown(page, f"Players {count} of {count}")
    # R16: the suspended player is refused at the door, beside the form; nothing is taken.
    sign_in_player(page, players["Sid"][1])
    shown(page, "suspended")
    shown(page, "Players 10 of 10")
    # Refused is answered: nothing is left shown as waiting to be sent.
    expect(page.locator("#offline")).to_be_hidden(timeout=PATIENCE_MS)
    fits(page, "night-refused", shots)
    page.get_by_role("button", name="Draw the seats").click()
    shown(page, "Seats drawn.")
    shown(page, "table 1, seat")
    fits(page, "night-seated", shots)


def the_first_hands(page: Page, shots: Path) -> None:
    """Two out on one hand (Ada had fewer chips: she finishes lower, R4); two out by mistake
    while the phone is offline, sent when it is back, and undone; a declared withdrawal (R6), at
    the place they left."""
    page.get_by_text("Two or more out on one hand").click()
    for name, chips in (("Ada", "300"), ("Ben", "900")):
        page.get_by_label(name, exact=True).check()
        field(page, f"Chips of {name}").fill(chips)
    page.get_by_role("button", name="Out on one hand").click()
    shown(page, "Players 8 of 10")
    out_rows = page.locator("section[aria-labelledby=out-h] tbody tr")
    expect(out_rows.nth(0)).to_contain_text("Ben", timeout=PATIENCE_MS)
    expect(out_rows.nth(1)).to_contain_text("Ada", timeout=PATIENCE_MS)
    fits(page, "night-one-hand", shots)
    # Pub Wi-Fi drops: two bust-outs wait on the phone, shown as waiting, and are sent in order
    # once it is back, each once. Both were mistakes: undone, the last first.
    page.context.set_offline(True)
    out(page, "Cal")
    out(page, "Eve")
    shown(page, "Offline: 2 waiting to be sent (Out Cal, Out Eve)")
    fits(page, "night-offline", shots)
    # The banner stays on screen at the foot of a long page (sticky at the top).
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    banner = page.locator("#offline").bounding_box()
    assert banner is not None and 0 <= banner["y"] < PHONE["height"] - banner["height"], banner
    # What the host types meanwhile survives the page redrawn from the answers.
    page.locator("#email").fill("half-typed@exam")
    page.context.set_offline(False)
    shown(page, "Players 6 of 10")
    expect(page.locator("#offline")).to_be_hidden(timeout=PATIENCE_MS)
    expect(page.locator("#email")).to_have_value("half-typed@exam")
    page.locator("#email").fill("")
    for left, name in ((7, "Eve"), (8, "Cal")):
        undo(page, f"Take back: {name} out? {name} comes back in.", "Yes, take it back")
        shown(page, f"Undone: {name} comes back in.")
        shown(page, f"Players {left} of 10")
    page.locator("tr", has=page.get_by_role("rowheader", name="Dot", exact=True)).get_by_text("More").click()
    page.get_by_role("button", name="Withdrew Dot").click()
    shown(page, "Players 7 of 10")


def the_break(page: Page, url: str, players: dict[str, tuple[int, str]], shots: Path) -> None:
    """At the first break Ada re-enters (002), still one entrant; past it, late registration is
    closed: a late player is refused unless the host lets them in."""
    played(url, 85)
    page.reload()
    shown(page, "Break")
    page.get_by_role("button", name="Re-enter Ada").click()
    shown(page, "Re-entered.")
    shown(page, "Players 8 of 10")
    fits(page, "night-break", shots)
    played(url, 10)
    page.reload()
    shown(page, "Level 5")
    sign_in_player(page, players["Lou"][1])
    shown(page, "Late registration closed")
    shown(page, "Players 8 of 10")


def the_report(server: Server) -> None:
    """Stored once, in the night's order; the venue's standings moved."""
    reports = server.write("GET", f"/api/v1/tournaments?venue_id={server.venue_id}", {})["items"]
    assert len(reports) == 1
    report = server.write("GET", f"/api/v1/tournaments/{reports[0]['id']}", {})
    by_place = {r["place"]: r for r in report["results"]}
    # Ben went out first (with Ada, who re-entered), Dot withdrew next: then the rest, Bob last.
    order = [
        (place, by_place[place]["player"]["display_name"], by_place[place]["status"])
        for place in sorted(by_place)
    ]
    assert order == [
        (1, "Bob", "played"),
        (2, "Ann", "played"),
        (3, "Ada", "played"),
        (4, "Hal", "played"),
        (5, "Gus", "played"),
        (6, "Fin", "played"),
        (7, "Eve", "played"),
        (8, "Cal", "played"),
        (9, "Dot", "declared_withdrawal"),
        (10, "Ben", "played"),
    ], order
    standings = server.write("GET", server.standings, {})
    assert standings["standings"][0]["player"]["id"] == server.bob and standings["standings"][0]["points"] > 0


def test_r22_a_host_plays_a_whole_night_on_a_phone_and_it_becomes_the_report(
    browser: Browser, venue_night: dict[str, Any], tmp_path: Path
) -> None:
    server: Server = venue_night["server"]
    base = f"http://127.0.0.1:{server.port}"
    page = sign_in(browser, base, venue_night["key"])
    page.get_by_role("link", name="Run the night").first.click()
    shown(page, "Open tonight's game")
    fits(page, "night-open", tmp_path)
    page.get_by_role("button", name="Open tonight's game").click()
    shown(page, "Not started")
    the_door(page, venue_night["players"], server, tmp_path)
    page.get_by_role("button", name="Start the clock").click()
    shown(page, "left · ends at")
    the_first_hands(page, tmp_path)
    the_break(page, venue_night["url"], venue_night["players"], tmp_path)
    for left, name in enumerate(("Cal", "Eve", "Fin", "Gus", "Hal", "Ada"), 1):
        out(page, name)
        shown(page, f"Players {8 - left} of 10")
    out(page, "Ann")
    shown(page, "The night is over")
    shown(page, "Posted as report")
    fits(page, "night-over", tmp_path)
    page.context.close()
    the_report(server)
    # The live page, on a TV and on a phone.
    for name, screen in (("tv", {"width": 1920, "height": 1080}), ("phone", {"width": 390, "height": 844})):
        live = browser.new_context(viewport=screen).new_page()
        live.goto(f"{base}/embed/venues/{server.venue_id}/night")
        expect(live.locator("main")).to_contain_text("The game is over", timeout=PATIENCE_MS)
        expect(live.locator("main")).to_contain_text("Standings after tonight", timeout=PATIENCE_MS)
        fits(live, f"live-{name}", tmp_path, screen)  # the standings table too, at 390 px
        live.context.close()


def act_by_api(server: Server, key: str, night_id: int, kind: str, **fields: Any) -> dict[str, Any]:
    """One action sent by another phone (the host's key through the API), on the night as it stands."""
    status, _headers, night = server.request("GET", f"/api/v1/nights/{night_id}")
    assert status == 200, night
    body = {
        "action_id": f"api-{kind}-{night['sequence']}",
        "sequence": night["sequence"],
        "type": kind,
        **fields,
    }
    status, _headers, answer = server.request(
        "POST", f"/api/v1/nights/{night_id}/actions", body, Authorization=f"Bearer {key}"
    )
    assert status == 200, answer
    return dict(answer["night"])


def knocked_out(page: Page, name: str, by: str) -> None:
    """One player out on a hand of their own, knocked out by a player still in (R8a)."""
    field(page, f"Who knocked out {name}").select_option(label=by)
    out(page, name)


def knockout_night(
    server: Server, key: str, players: dict[str, tuple[int, str]], page: Page, tv: Page, shots: Path
) -> int:
    """Ten players signed in and seated by another phone (the API); the night's id. The TV shows
    the seat draw until the clock starts (players look for their seat there)."""
    page.get_by_role("link", name="Run the night").first.click()
    page.get_by_role("button", name="Open tonight's game").click()
    shown(page, "Not started")
    night_id = int(page.url.rsplit("/", 1)[1])
    for who in (*NAMES, "Ann", "Bob"):
        pid = {"Ann": server.ann, "Bob": server.bob}.get(who) or players[who][0]
        act_by_api(server, key, night_id, "sign_in", player={"player_id": pid})
    seats = act_by_api(server, key, night_id, "seat")["players"]
    tv.goto(f"http://127.0.0.1:{server.port}/embed/venues/{server.venue_id}/night")
    seat_rows = tv.locator("table.seats tbody tr")
    expect(seat_rows).to_have_count(10, timeout=PATIENCE_MS)
    ann = next(p for p in seats if p["player_id"] == server.ann)
    expect(
        tv.locator("table.seats tr", has=tv.get_by_role("rowheader", name="Ann", exact=True))
    ).to_have_text(f"Ann{ann['table']}{ann['seat']}", timeout=PATIENCE_MS)
    fits(tv, "tv-seats", shots, TV)
    page.reload()
    shown(page, "Players 10 of 10")
    shown(page, "Re-entry: allowed once, until the first break.")
    page.get_by_role("button", name="Start the clock").click()
    shown(page, "left · ends at")
    expect(tv.locator("main")).not_to_contain_text("Find your seat", timeout=PATIENCE_MS)  # its next poll
    return night_id


def knockouts_and_one_brought_back(page: Page, shots: Path) -> None:
    """Cal out, knocked out by Ann; then Ada, Ben and Dot on one hand, each with a knocker. Dot
    was not out after all: the undo asks first, naming the hand, and only Dot comes back; Ben
    and Ada stay out, placed again (R4)."""
    knocked_out(page, "Cal", "Ann")
    shown(page, "Players 9 of 10")
    page.get_by_text("Two or more out on one hand").click()
    for name, chips, by in (("Ada", "300", "Bob"), ("Ben", "900", "Ann"), ("Dot", "600", "Bob")):
        page.get_by_label(name, exact=True).check()
        field(page, f"Chips of {name}").fill(chips)
        field(page, f"{name} knocked out by").select_option(label=by)
    fits(page, "knockouts-hand", shots)
    page.get_by_role("button", name="Out on one hand").click()
    shown(page, "Players 6 of 10")
    shown(page, "out, knocked out by Bob")
    page.get_by_text("Undo…", exact=True).click()
    shown(page, "Take back the last hand: Ben, Dot and Ada out on one hand?")
    fits(page, "knockouts-undo", shots)
    page.get_by_role("button", name="Only Dot comes back", exact=True).click()
    shown(page, "Undone: Dot comes back in; Ben and Ada stay out.")
    shown(page, "Players 7 of 10")
    rows = page.locator("section[aria-labelledby=out-h] tbody tr")
    expect(rows).to_have_count(3, timeout=PATIENCE_MS)
    for n, (place, name) in enumerate(((8, "Ben"), (9, "Ada"), (10, "Cal"))):
        expect(rows.nth(n).locator("td").first).to_have_text(str(place), timeout=PATIENCE_MS)
        expect(rows.nth(n).locator("th")).to_have_text(name, timeout=PATIENCE_MS)


def the_clock_moved_and_a_re_entry(server: Server, page: Page, tv: Page, shots: Path) -> None:
    """The clock moved on a level (each move audited, R18), then on to the first break, where
    Ada re-enters: the page says re-entry is open now."""
    page.get_by_role("button", name="Skip to level 2 (25/50)").click()
    shown(page, "Clock moved on to level 2 (25/50), 20:00 left.")
    shown(page, "Level 2: 25/50")
    expect(tv.locator("main")).to_contain_text("Level 2", timeout=PATIENCE_MS)  # the TV follows
    expect(tv.locator("#left")).to_have_text(re.compile(r"^(20:00|19:[0-5]\d)$"), timeout=PATIENCE_MS)
    for target in ("level 3 (50/100)", "level 4 (75/150)", "the break after level 4"):
        page.get_by_role("button", name=f"Skip to {target}").click()
        shown(page, f"Clock moved on to {target}")
    shown(page, "Re-entry: allowed once, until the first break: open now.")
    fits(page, "knockouts-break", shots)
    page.get_by_role("button", name="Re-enter Ada").click()
    shown(page, "Re-entered.")
    shown(page, "Players 8 of 10")
    moves = server.write("GET", "/api/v1/audit-log?action=night.clock_skip", {})["items"]
    assert len(moves) == 4 and moves[-1]["after"]["level"] == 2, moves


def to_the_last_player(page: Page, shots: Path) -> None:
    """Bob knocks out Ann, the leader, and takes the bounty; Bob is the last left."""
    busts = (("Eve", "Bob"), ("Fin", ""), ("Gus", ""), ("Hal", ""), ("Ada", "Dot"), ("Ann", "Bob"))
    for left, (name, by) in enumerate(busts, 1):
        if by:
            knocked_out(page, name, by)
        else:
            out(page, name)
        shown(page, f"Players {8 - left} of 10")
    knocked_out(page, "Dot", "Bob")
    shown(page, "The night is over")
    shown(page, "Won by Bob")
    fits(page, "knockouts-over", shots)


def the_knockouts_in_the_standings(server: Server, players: dict[str, tuple[int, str]]) -> None:
    reports = server.write("GET", f"/api/v1/tournaments?venue_id={server.venue_id}", {})["items"]
    tonight = server.write("GET", f"/api/v1/tournaments/{reports[0]['id']}", {})
    got = {r["player"]["display_name"]: (r["place"], r["knocked_out_by"]) for r in tonight["results"]}
    ids = {"Ann": server.ann, "Bob": server.bob, **{n: players[n][0] for n in NAMES}}
    assert got == {
        "Bob": (1, None),
        "Dot": (2, ids["Bob"]),
        "Ann": (3, ids["Bob"]),
        "Ada": (4, ids["Dot"]),
        "Hal": (5, None),
        "Gus": (6, None),
        "Fin": (7, None),
        "Eve": (8, ids["Bob"]),
        "Ben": (9, ids["Ann"]),
        "Cal": (10, ids["Ann"]),
    }, got
    standings = server.write("GET", server.standings, {})["standings"]
    knockouts = {
        row["player"]["display_name"]: (row["knockouts"], row["knockout_points"]) for row in standings
    }
    assert knockouts["Bob"] == (3, 3 * 10 + 25), knockouts  # Eve, Ann (the bounty) and Dot
    assert knockouts["Ann"] == (2, 20) and knockouts["Dot"] == (1, 10), knockouts
    assert standings[0]["player"]["display_name"] == "Bob", standings[0]


def test_r22_r8a_r4_r18_a_night_with_knockouts_an_undo_of_one_player_a_re_entry_and_the_clock_moved(
    browser: Browser, venue_night: dict[str, Any], tmp_path: Path
) -> None:
    """A season paying 10 points a knockout and a 25-point bounty on the venue's leader (Ann, who
    won the last night): the host records knockouts at single and shared bust-outs on a phone,
    brings back one player of a shared hand (the page names who comes back first), moves the
    clock on a level and then to the first break, where a player re-enters (the venue allows it
    until the first break, and the page says so). The night ends: the venue's standings carry
    the knockouts and the bounty (R8a: the points come from the night)."""
    server: Server = venue_night["server"]
    key, players = venue_night["key"], venue_night["players"]
    settings = {"knockout_points": 10, "bounty": "venue_leader", "bounty_points": 25, "reason": "Knockouts."}
    server.write("PATCH", f"/api/v1/seasons/{server.season_id}", settings)
    server.write(
        "PATCH", f"/api/v1/venues/{server.venue_id}", {"re_entry": {"allowed": True, "until_break": 1}}
    )
    post_a_report(server, 7)  # Ann 1st, Bob 2nd: Ann leads, and carries the bounty tonight
    page = sign_in(browser, f"http://127.0.0.1:{server.port}", key)
    tv = browser.new_context(viewport=TV).new_page()
    knockout_night(server, key, players, page, tv, tmp_path)
    knockouts_and_one_brought_back(page, tmp_path)
    the_clock_moved_and_a_re_entry(server, page, tv, tmp_path)
    tv.context.close()
    to_the_last_player(page, tmp_path)
    page.context.close()
    the_knockouts_in_the_standings(server, players)
