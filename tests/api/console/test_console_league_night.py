"""A host's league night in the console, on the pages a phone shows (what is not visual; the
layout at 390 px is tests/browser/test_console_on_a_phone.py): typed rows that grow without losing
what was typed, a correction in the same rows (prefilled from the stored report, the changed rows
marked), Correct and Void offered only inside the correction window with its last day (R17),
refusals whose lead names the actual problem (a night already reported offers session 2; one
message for a future date, R2; who can still change a report, R17), and dates with their
weekdays. The clock is frozen at 6 pm on Tuesday 1 December 2026 (the league on UTC)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import time_machine
from flask import Flask
from flask.testing import FlaskClient

from tests.builders import Scene, iso
from tests.support.console import (
    csrf,
    hidden_fields,
    reasons_by_place,
    sheet,
    signed_in,
    text_of,
    typed_values,
    upload,
)

TUESDAY = date(2026, 12, 1)


@pytest.fixture(autouse=True)
def tuesday_evening() -> Iterator[time_machine.Coordinates]:
    with time_machine.travel(datetime(2026, 12, 1, 18, 0, tzinfo=UTC), tick=False) as clock:
        yield clock


@pytest.fixture()
def night(make_scene: Any) -> Scene:
    """A venue whose season (made on the frozen Tuesday) runs from 60 days before to 30 after."""
    scene: Scene = make_scene()
    return scene


def rows_page(host: FlaskClient, scene: Scene) -> Any:
    page = host.get(f"/console/venues/{scene.venue_id}/rows")
    assert page.status_code == 200
    return page


def offered(page: Any) -> dict[int, str]:
    """The players the typed rows offer (R19: the venue's), by id: "Ann — Ann Lee (#12)"."""
    values = [html.unescape(v) for v in re.findall(r'<option value="([^"]+\(#\d+\))">', page.get_data(True))]
    return {int(value.rsplit("#", 1)[1].rstrip(")")): value for value in values}


def test_more_rows_is_a_submit_that_keeps_what_was_typed_and_stores_nothing_r5(
    app: Flask, night: Scene
) -> None:
    """R5: "More rows" is a button of the same form (no script): the page comes back with every
    row as typed (a picked player, a new one's name and email, a status), the date and session as
    given, and 12 more empty rows; nothing is stored, no player registered."""
    ann, bob = night.players("Ann", "Bob")
    night.report([ann, bob], TUESDAY - timedelta(days=5))
    host = signed_in(app, night.host.key)
    page = rows_page(host, night)
    form = page.get_data(as_text=True)
    assert form.count('name="player_') == 12 and "<script" not in form
    assert '<button type="submit" name="more"' in form  # a submit of the same form, no script
    picked = offered(page)
    typed = {
        "csrf_token": csrf(page),
        "date": iso(TUESDAY - timedelta(days=1)),
        "session": "2",
        "kind": "regular",
        "rows": "12",
        "player_1": picked[bob],
        "player_2": "Newcomer Nell",
        "email_2": "nell.new@example.org",
        "status_2": "declared_withdrawal",
        "player_12": picked[ann],
        "more": "1",
    }
    before, players = night.stored_reports(), night.player_count()
    grown = host.post(f"/console/venues/{night.venue_id}/rows", data=typed)
    assert grown.status_code == 200
    values = typed_values(grown)
    assert len([name for name in values if name.startswith("player_")]) == 24
    assert values["player_1"] == picked[bob] and values["player_12"] == picked[ann]
    assert values["player_2"] == "Newcomer Nell" and values["email_2"] == "nell.new@example.org"
    assert values["status_2"] == "declared_withdrawal" and values["status_1"] == "played"
    assert values["player_13"] == "" and values["player_24"] == ""
    page = grown.get_data(as_text=True)
    assert re.search(r'<input[^>]*name="date"[^>]*value="2026-11-30"', page), "the date keeps its value"
    assert re.search(r'<input[^>]*name="session"[^>]*value="2"', page)
    assert "Nothing is stored yet" not in text_of(grown)
    assert (night.stored_reports(), night.player_count()) == (before, players)
    again = host.post(f"/console/venues/{night.venue_id}/rows", data={**typed, "rows": "24"})
    assert len([n for n in typed_values(again) if n.startswith("player_")]) == 36
    gap = host.post(
        f"/console/venues/{night.venue_id}/rows", data={k: v for k, v in typed.items() if k != "more"}
    )
    assert (
        gap.status_code == 422
        and "Places 3, 4, 5, 6, 7, 8, 9, 10, 11 are empty: type who finished there" in text_of(gap)
    )
    assert (night.stored_reports(), night.player_count()) == (before, players)
    closed = {k: v for k, v in typed.items() if k not in ("more", "player_12")}
    preview = host.post(f"/console/venues/{night.venue_id}/rows", data={**closed, "player_3": picked[ann]})
    assert preview.status_code == 200 and "Nothing is stored yet" in text_of(preview)
    assert re.search(r"1 Bob played \d+ 2 Newcomer N\. new player withdrew \d+ 3 Ann", text_of(preview))


def test_typed_rows_refused_come_back_as_typed_each_reason_under_its_row_r5(app: Flask, night: Scene) -> None:
    """R5: a typed row naming no one refuses the rows whole; the form comes back with every row as
    it was typed, the reason under that row (tied to its field), the others unmarked."""
    (ann,) = night.players("Ann")
    night.report([ann, night.player()], TUESDAY - timedelta(days=5))
    host = signed_in(app, night.host.key)
    page = rows_page(host, night)
    data = {
        "csrf_token": csrf(page),
        "date": iso(TUESDAY),
        "session": "1",
        "kind": "regular",
        "player_1": offered(page)[ann],
        "player_2": "Nobody Known",
    }
    refused = host.post(f"/console/venues/{night.venue_id}/rows", data=data)
    assert refused.status_code == 422
    words = text_of(refused)
    assert words.startswith("Not stored") and "Change the rows marked below, then preview again." in words
    values = typed_values(refused)
    assert values["player_1"] == data["player_1"] and values["player_2"] == "Nobody Known"
    reasons = re.findall(
        r'<td colspan="4" class="problem" id="reason_(\d+)">(.*?)</td>', refused.get_data(True)
    )
    assert [number for number, _ in reasons] == ["2"]
    reason = text_of_html(reasons[0][1])
    assert "Nobody Known" in reason and not reason.startswith("Row ") and "results." not in reason
    assert re.search(
        r'id="player_2"[^>]*aria-invalid="true" aria-describedby="reason_2"', refused.get_data(True)
    )


def test_a_blank_row_between_typed_ones_is_a_gap_refused_never_renumbered_r4(
    app: Flask, night: Scene
) -> None:
    """R4: places 1, 2, 4 and 5 typed with row 3 left blank are refused ("place 3 is empty"), the
    reason under row 3, the rows as typed; nothing is stored (before, 4 and 5 became 3 and 4).
    Blank rows after the last typed one are only unused rows."""
    players = night.players("Ann", "Bob", "Cy", "Di")
    night.report(players[:2], TUESDAY - timedelta(days=5))
    night.report(players[2:], TUESDAY - timedelta(days=6))
    host = signed_in(app, night.host.key)
    page = rows_page(host, night)
    picked = offered(page)
    data = {"csrf_token": csrf(page), "date": iso(TUESDAY), "session": "1", "kind": "regular"}
    for number, player in zip((1, 2, 4, 5), players, strict=True):
        data[f"player_{number}"] = picked[player]
    before = night.stored_reports()
    refused = host.post(f"/console/venues/{night.venue_id}/rows", data=data)
    assert refused.status_code == 422
    assert "Place 3 is empty: type who finished there" in text_of(refused)
    assert 'href="/console/rules#R4"' in refused.get_data(True)  # R4, linked: "why?"
    reasons = re.findall(r'id="reason_(\d+)">(.*?)</td>', refused.get_data(True))
    assert [number for number, _ in reasons] == ["3"] and "Place 3 is empty" in reasons[0][1]
    assert typed_values(refused)["player_4"] == picked[players[2]]
    assert night.stored_reports() == before
    filled = {**data, "player_3": data["player_5"]}
    del filled["player_5"]
    preview = host.post(f"/console/venues/{night.venue_id}/rows", data=filled)
    assert preview.status_code == 200 and "Nothing is stored yet" in text_of(preview)


def text_of_html(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def test_a_correction_uses_the_typed_rows_prefilled_and_marks_the_rows_that_changed_r17(
    app: Flask, night: Scene
) -> None:
    """R17: a correction starts from the stored report's rows (each place's player picked by
    name, its status), not a CSV of ids; its preview marks the rows that differ from the stored
    report ("changed") and names the players it leaves out; "More rows" keeps the rows typed."""
    ann, bob, cy, dee = night.players("Ann", "Bob", "Cy", "Dee")
    report = night.report([ann, (bob, "declared_withdrawal"), cy, dee], TUESDAY - timedelta(days=2))
    host = signed_in(app, night.host.key)
    form = host.get(f"/console/reports/{report['id']}/correct")
    assert (
        form.status_code == 200
        and "player_id" not in text_of(form)
        and "<textarea" not in form.get_data(True)
    )
    values = typed_values(form)
    assert [values[f"player_{n}"].rsplit("#", 1)[1] for n in (1, 2, 3, 4)] == [
        f"{p})" for p in (ann, bob, cy, dee)
    ]
    assert values["player_1"].startswith("Ann — ")
    assert [values[f"status_{n}"] for n in (1, 2, 3, 4)] == [
        "played",
        "declared_withdrawal",
        "played",
        "played",
    ]
    rows = {
        "csrf_token": csrf(form),
        "version": str(report["version"]),
        "rows": "4",
        "player_1": values["player_1"],
        "player_2": values["player_3"],  # Cy up to second
        "player_3": values["player_2"],
        "status_3": "declared_withdrawal",
        "reason": "Cy came second.",
    }
    grown = host.post(f"/console/reports/{report['id']}/correct", data={**rows, "reason": "", "more": "1"})
    assert grown.status_code == 200 and "Give the reason" not in text_of(grown)
    assert typed_values(grown)["player_2"] == values["player_3"] and "player_16" in typed_values(grown)
    preview = host.post(f"/console/reports/{report['id']}/correct", data=rows)
    assert preview.status_code == 200, text_of(preview)
    page = preview.get_data(as_text=True)
    changed = re.findall(r'<tr class="changed"><td>(\d+)</td><th scope="row">([^<]+)', page)
    assert [(place, name.strip()) for place, name in changed] == [("2", "Cy"), ("3", "Bob")]
    assert re.search(r"1 Ann played \d+ 2 Cy changed played \d+ 3 Bob changed withdrew", text_of(preview))
    assert "No longer in the report: Dee (place 4 before)." in text_of(preview)
    assert night.public.get(f"/api/v1/tournaments/{report['id']}").get_json()["entrants"] == 4  # not yet
    done = host.post(f"/console/venues/{night.venue_id}/report/confirm", data=hidden_fields(preview))
    assert done.status_code == 302
    stored = night.public.get(f"/api/v1/tournaments/{report['id']}").get_json()
    assert [r["player"]["id"] for r in stored["results"]] == [ann, cy, bob]


def test_correct_and_void_are_offered_only_inside_the_window_with_its_last_day_r17(
    app: Flask, night: Scene
) -> None:
    """R17: a host sees Correct and Void on a report of their venue until the season's
    correction_days (7) after its night, with the last day ("Correct or void until Tue 8 Dec 2026");
    past it, neither, and the page says only the league office can change it now, as the
    correction page (a 403) and the void do. The office sees both on every report."""
    ann, bob = night.players("Ann", "Bob")
    recent = night.report([ann, bob], TUESDAY)
    old = night.report([bob, ann], TUESDAY - timedelta(days=10))
    host = signed_in(app, night.host.key)
    listed = host.get(f"/console/venues/{night.venue_id}/reports")
    words, page = text_of(listed), listed.get_data(as_text=True)
    assert "Tue 1 Dec · session 1 · 2 entrants · won by Ann" in words
    assert "Correct or void until Tue 8 Dec 2026." in words
    assert "Only the league office can correct or void it now: a host could until Sat 28 Nov 2026." in words
    assert (
        f"/console/reports/{recent['id']}/correct" in page and f"/console/reports/{recent['id']}/void" in page
    )
    assert (
        f"/console/reports/{old['id']}/correct" not in page
        and f"/console/reports/{old['id']}/void" not in page
    )
    closed = host.get(f"/console/reports/{old['id']}/correct")
    assert closed.status_code == 403
    assert "Only the league office can correct or void it now." in text_of(closed)
    assert "for this one, Sat 21 Nov 2026, the last day was Sat 28 Nov 2026" in text_of(closed)
    late = host.post(
        f"/console/reports/{old['id']}/void",
        data={"csrf_token": csrf(listed), "version": str(old["version"]), "reason": "Wrong night."},
    )
    told = text_of(host.get(late.headers["Location"]))
    assert (
        f"Report {old['id']} was not voided: A host may change a report" in told
        and "R17:" not in told
        and "only the league office can change it now" in told
    )
    office = text_of(signed_in(app, night.office.key).get(f"/console/venues/{night.venue_id}/reports"))
    assert (
        office.count("The office may correct or void it at any time.") == 2
        and "Only the league" not in office
    )
    with time_machine.travel(datetime(2026, 12, 8, 23, 59, tzinfo=UTC), tick=False):
        last = signed_in(app, night.host.key).get(f"/console/venues/{night.venue_id}/reports")
        assert "Correct or void until Tue 8 Dec 2026." in text_of(last)
    with time_machine.travel(datetime(2026, 12, 9, 0, 1, tzinfo=UTC), tick=False):
        later = text_of(signed_in(app, night.host.key).get(f"/console/venues/{night.venue_id}/reports"))
        assert "Correct or void until" not in later and "a host could until Tue 8 Dec 2026." in later


def test_a_correction_refused_by_the_window_says_the_office_can_still_change_it_r17(
    app: Flask, night: Scene, tuesday_evening: time_machine.Coordinates
) -> None:
    """R17: previewed on its window's last day and confirmed after midnight, a correction is
    refused; the page's lead says so and who can still change it (the office), in the league's
    dates, and asks to change no rows."""
    ann, bob = night.players("Ann", "Bob")
    report = night.report([ann, bob], TUESDAY - timedelta(days=7))
    tuesday_evening.move_to(datetime(2026, 12, 1, 23, 45, tzinfo=UTC))  # the window's last evening
    host = signed_in(app, night.host.key)
    form = host.get(f"/console/reports/{report['id']}/correct")
    values = typed_values(form)
    preview = host.post(
        f"/console/reports/{report['id']}/correct",
        data={
            "csrf_token": csrf(form),
            "version": str(report["version"]),
            "rows": "2",
            "player_1": values["player_2"],
            "player_2": values["player_1"],
            "reason": "Bob won.",
        },
    )
    assert preview.status_code == 200, text_of(preview)
    tuesday_evening.move_to(datetime(2026, 12, 2, 0, 1, tzinfo=UTC))
    refused = host.post(f"/console/venues/{night.venue_id}/report/confirm", data=hidden_fields(preview))
    assert refused.status_code == 403
    words = text_of(refused)
    assert (
        "Nothing was stored. A host may change a report within 7 days of the tournament "
        "(until Tue 1 Dec 2026); only the league office can change it now." in words
    )
    assert "Change the rows marked below" not in words and "reason" not in reasons_by_place(refused)


def test_a_night_already_reported_offers_session_2_r2(app: Flask, night: Scene) -> None:
    """A sheet for a venue, night and session already reported (a 409): the lead says so, not
    "change the rows"; a button posts the same sheet again as session 2 (previewed, nothing
    stored); typed rows come back with session 2 filled in and the rows kept."""
    ann, bob = night.players("Ann", "Bob")
    stored = night.report([ann, bob], TUESDAY - timedelta(days=1))
    host = signed_in(app, night.host.key)
    rows = sheet([(1, bob), (2, ann)])
    taken = upload(host, night.venue_id, rows, iso(TUESDAY - timedelta(days=1)))
    assert taken.status_code == 409
    words = text_of(taken)
    assert "Nothing was stored. Mon 30 Nov 2026 already has a report for session 1 here." in words
    assert f"Already reported as report {stored['id']}." in words and "Change the rows marked" not in words
    assert "(PUT)" not in words and reasons_by_place(taken) == {"1": "", "2": ""}
    again = re.search(
        r'<form method="post" action="([^"]+)" enctype="multipart/form-data">(.*?)</form>',
        taken.get_data(True),
        re.S,
    )
    assert again is not None and again.group(1) == f"/console/venues/{night.venue_id}/report"
    fields = {
        name: html.unescape(v)
        for name, v in re.findall(r'name="(\w+)" type="hidden" value="([^"]*)"', again.group(2))
    }
    assert fields["session"] == "2" and fields["date"] == "2026-11-30" and fields["pasted"] == rows
    assert "Post it as session 2" in again.group(2)
    before = night.stored_reports()
    preview = host.post(f"/console/venues/{night.venue_id}/report", data=fields)
    assert preview.status_code == 200 and "entrants, session 2" in text_of(preview)
    assert night.stored_reports() == before
    page = rows_page(host, night)
    typed = {
        "csrf_token": csrf(page),
        "date": "2026-11-30",
        "session": "1",
        "kind": "regular",
        "player_1": offered(page)[bob],
        "player_2": offered(page)[ann],
    }
    back = host.post(f"/console/venues/{night.venue_id}/rows", data=typed)
    assert back.status_code == 409 and "it is now set as session 2 below" in text_of(back)
    assert re.search(r'<input[^>]*name="session"[^>]*value="2"', back.get_data(True))
    assert typed_values(back)["player_1"] == typed["player_1"]
    assert (
        host.post(f"/console/venues/{night.venue_id}/rows", data={**typed, "session": "2"}).status_code == 200
    )


def test_a_future_date_is_one_message_not_one_per_row_r2(app: Flask, night: Scene) -> None:
    """R2: a sheet dated tomorrow (the venue's) whose rows name players by name alone is refused
    with one message, the page's lead, in the league's dates; no row is marked (its names cannot be
    looked up without the night's season, and that is not the rows' fault). The API says it once
    too."""
    ann, bob = night.players("Ann", "Bob")
    night.report([ann, bob], TUESDAY - timedelta(days=3))
    host = signed_in(app, night.host.key)
    names = "place,full_name\n" + "".join(
        f"{place},{p['full_name']}\n" for place, p in enumerate(night.roster[:2], 1)
    )
    future = upload(host, night.venue_id, names, iso(TUESDAY + timedelta(days=1)))
    assert future.status_code == 422
    words = text_of(future)
    lead = "Nothing was stored. Wed 2 Dec 2026 is in the future; report a tournament once it is played."
    assert lead in words and words.count("in the future") == 1
    assert "Change the rows marked below" not in words and set(reasons_by_place(future).values()) == {""}
    answer = night.host.post(
        f"/api/v1/tournaments?venue_id={night.venue_id}&date=2026-12-02",
        data=names,
        content_type="text/csv",
    )
    assert answer.status_code == 422 and list(answer.get_json()["errors"]) == ["date"]


def test_console_dates_show_their_weekday_and_times_the_leagues_zone(app: Flask, night: Scene) -> None:
    """R24: every console date in the league's format (by default "Tue 1 Dec 2026"): a preview,
    the flash once stored, the recent reports, the standings, sanctions, the season at a glance;
    the audit log's times on the league's clock (R2a), with the weekday and the zone."""
    ann, bob = night.players("Ann", "Bob")
    host = signed_in(app, night.host.key)
    preview = upload(host, night.venue_id, sheet([(1, ann), (2, bob)]), iso(TUESDAY))
    assert "Preview: " in text_of(preview) and ", Tue 1 Dec 2026 Nothing is stored yet" in text_of(preview)
    stored = host.post(f"/console/venues/{night.venue_id}/report/confirm", data=hidden_fields(preview))
    standings = text_of(host.get(stored.headers["Location"]))
    assert "entrants on Tue 1 Dec 2026." in standings and "as of Tue 1 Dec 2026" in standings
    assert "Tue 1 Dec 2026, session 1" in text_of(host.get(f"/console/venues/{night.venue_id}/reports"))
    night.office.post(
        "/api/v1/sanctions",
        json={
            "player_id": bob,
            "kind": "warning",
            "category": "berating",
            "reason": "Loud.",
            "first_day": "2026-12-01",
        },
    )
    office = signed_in(app, night.office.key)
    assert "warning (berating) Tue 1 Dec 2026 to" in text_of(office.get("/console/sanctions"))
    glance = text_of(office.get("/console/seasons"))
    assert "(Fri 2 Oct 2026 to Thu 31 Dec 2026)" in glance and "in the week from Mon 30 Nov 2026" in glance
    assert "Tue 1 Dec 2026, 18:00 UTC" in text_of(office.get("/console/audit"))


def test_a_correction_that_lost_to_another_says_so_in_its_lead_r17a(app: Flask, night: Scene) -> None:
    """R17a: a correction previewed, then made stale by another correction stored meanwhile, is
    refused on confirm; the lead says what happened (the version moved on), marking no row."""
    ann, bob = night.players("Ann", "Bob")
    day = TUESDAY - timedelta(days=1)
    report = night.report([ann, bob], day)
    host = signed_in(app, night.host.key)
    form = host.get(f"/console/reports/{report['id']}/correct")
    values = typed_values(form)
    swapped = {"player_1": values["player_2"], "player_2": values["player_1"], "rows": "2"}
    data = {"csrf_token": csrf(form), "version": str(report["version"]), "reason": "Bob won.", **swapped}
    preview = host.post(f"/console/reports/{report['id']}/correct", data=data)
    assert preview.status_code == 200, text_of(preview)
    meanwhile = night.office.put(
        f"/api/v1/tournaments/{report['id']}", json={**night.body([bob, ann], day), "reason": "Office fix."}
    )
    assert meanwhile.status_code == 200, meanwhile.get_json()
    refused = host.post(f"/console/venues/{night.venue_id}/report/confirm", data=hidden_fields(preview))
    assert refused.status_code == 412
    words = text_of(refused)
    assert (
        f"Nothing was stored. Report {report['id']} is at version 2 since you read version 1: "
        "read it again and redo your change" in words
    )
    assert ".;" not in words  # the detail's parts joined once
    assert "Change the rows marked below" not in words and set(reasons_by_place(refused).values()) == {""}


def test_a_late_night_is_the_offices_in_the_console_with_a_reason_r17(app: Flask, night: Scene) -> None:
    """R17: a night 10 days ago typed by the venue's host is refused (only the office reports it
    now); the office's form has a reason field, and without a reason is refused naming it; with
    one, the preview warns it is late and confirming stores it, the reason audited."""
    ann, bob = night.players("Ann", "Bob")
    night.report([ann, bob], TUESDAY - timedelta(days=20))
    old = iso(TUESDAY - timedelta(days=10))
    host = signed_in(app, night.host.key)
    page = rows_page(host, night)
    picked = offered(page)
    rows = {"session": "1", "kind": "regular", "date": old, "player_1": picked[bob], "player_2": picked[ann]}
    refused = host.post(f"/console/venues/{night.venue_id}/rows", data={"csrf_token": csrf(page), **rows})
    assert refused.status_code == 403 and "Only the league office can report this night now" in text_of(
        refused
    )
    assert "late_reason" not in page.get_data(True)
    office = signed_in(app, night.office.key)
    page = rows_page(office, night)
    assert 'name="late_reason"' in page.get_data(True)
    bare = office.post(f"/console/venues/{night.venue_id}/rows", data={"csrf_token": csrf(page), **rows})
    assert bare.status_code == 422 and "Give the reason this night is reported now" in text_of(bare)
    reason = "Sheet found behind the bar"
    data = {"csrf_token": csrf(page), **rows, "late_reason": reason}
    preview = office.post(f"/console/venues/{night.venue_id}/rows", data=data)
    assert preview.status_code == 200 and "Reported by the office after the hosts' limit" in text_of(preview)
    confirm = hidden_fields(preview)
    assert confirm["reason"] == reason
    before = night.stored_reports()
    stored = office.post(f"/console/venues/{night.venue_id}/report/confirm", data=confirm)
    assert stored.status_code == 302 and night.stored_reports() == before + 1
    entries = night.office.get("/api/v1/audit-log?action=tournament.create&per_page=100").get_json()["items"]
    assert entries[0]["reason"] == reason
