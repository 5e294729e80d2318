"""The office sets venues up in the console, through the API's own schemas and services
(api/console/api_forms.py): a venue made (in a zone of its own, R2a), its details changed, its
regular nights set and single nights cancelled, moved or added (R2), and a change taken back once
the page has named it. What the API refuses the page refuses, beside the field and in the API's
words, storing nothing; a venue's hosts set its nights but not its details, at their own venues."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.builders import Scene, utc_today
from tests.builders import said as said_by_default
from tests.support.console import csrf, signed_in, text_of

VENUES = "/console/venues"
TUESDAY, THURSDAY, SATURDAY = 2, 4, 6


def settings(venue_id: int) -> str:
    return f"/console/venues/{venue_id}/settings"


def venue_path(venue_id: int) -> str:
    return f"/api/v1/venues/{venue_id}"


def coming(weekday: int, after: int = 2) -> date:
    """The first date with this ISO weekday at least `after` days from today: inside the scene's
    season (it runs 30 days ahead), and a day ahead of today on any clock."""
    first = utc_today() + timedelta(days=after)
    return first + timedelta(days=(weekday - first.isoweekday()) % 7)


def shown(day: date) -> str:
    """A date as the console shows it (R24: the league's format, by default): "Tue 8 Dec 2026"."""
    return said_by_default(day)


def nights_posted(token: str, *nights: tuple[Any, str, str]) -> dict[str, str]:
    """The regular nights' form as a browser posts it: each row's weekday, start and sessions."""
    data = {"csrf_token": token, "action": "nights"}
    for n, (weekday, starts_at, sessions) in enumerate(nights):
        data |= {
            f"schedule.{n}.weekday": str(weekday),
            f"schedule.{n}.starts_at": starts_at,
            f"schedule.{n}.sessions": sessions,
        }
    return data


def change_posted(token: str, **fields: str) -> dict[str, str]:
    return {"csrf_token": token, "action": "change", **fields}


def exceptions(scene: Scene, venue_id: int) -> list[dict[str, Any]]:
    answer = scene.office.get(f"{venue_path(venue_id)}/schedule-exceptions")
    assert answer.status_code == 200
    items: list[dict[str, Any]] = answer.get_json()["items"]
    return items


def refused_beside(answer: Any, field: str, said: str) -> None:
    """A 422 naming the field's problem under it, the field marked."""
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422, text_of(answer)
    assert said in text_of(answer), text_of(answer)
    assert f'<p class="error" id="{field}-problem">' in page and 'aria-invalid="true"' in page


def test_r2_r2a_the_office_makes_a_venue_in_another_zone_and_sets_its_nights(
    app: Flask, scene: Scene
) -> None:
    """R2a: a venue on Denver's clock in a Chicago league; R2: its two regular nights, a night
    cancelled and a make-up night, one taken back after the page names it."""
    assert (
        scene.office.patch("/api/v1/league-settings", json={"timezone": "America/Chicago"}).status_code == 200
    )
    office = signed_in(app, scene.office.key)
    region_id = scene.region["id"]
    page = office.get(f"{VENUES}?region_id={region_id}")
    assert page.status_code == 200 and scene.venue["name"] in text_of(page)
    assert f'<option value="{region_id}" selected>' in page.get_data(as_text=True)  # "add one" chose it
    token = csrf(page)
    made = office.post(
        VENUES,
        data={
            "csrf_token": token,
            "name": " Mile High ",
            "region_id": str(region_id),
            "city": "Denver",
            "timezone": "America/Denver",
            "active": "on",
        },
    )
    assert made.status_code == 302, text_of(made)
    (venue,) = scene.office.get("/api/v1/venues?q=Mile High").get_json()["items"]
    assert made.headers["Location"] == settings(venue["id"])
    assert (venue["name"], venue["region_id"], venue["timezone"], venue["active"]) == (
        "Mile High",
        region_id,
        "America/Denver",
        True,
    )
    page = office.get(settings(venue["id"]))
    assert page.status_code == 200 and "Next: its regular nights" in text_of(page)
    assert "on the clock of America/Denver" in text_of(page)
    assert '<option value="2">Tuesday</option>' in page.get_data(as_text=True)

    saved = office.post(
        settings(venue["id"]), data=nights_posted(token, (TUESDAY, "19:30", "2"), (THURSDAY, "20:00", ""))
    )
    assert saved.status_code == 302, text_of(saved)
    assert scene.office.get(venue_path(venue["id"])).get_json()["schedule"] == [
        {"weekday": 2, "starts_at": "19:30", "sessions": 2},
        {"weekday": 4, "starts_at": "20:00", "sessions": 1},
    ]
    listed = text_of(office.get(VENUES))
    assert "Mile High" in listed and "Tue 19:30 (2 sessions), Thu 20:00" in listed
    assert "America/Denver" in listed and "America/Chicago (the league's)" in listed

    edited = office.post(
        settings(venue["id"]),
        data={
            "csrf_token": token,
            "action": "details",
            "name": "Mile High Club",
            "region_id": str(region_id),
            "city": "",
            "timezone": "America/Denver",
            "active": "on",
        },
    )
    assert edited.status_code == 302, text_of(edited)
    answer = scene.office.get(venue_path(venue["id"])).get_json()
    assert (answer["name"], answer["city"], answer["timezone"]) == ("Mile High Club", None, "America/Denver")
    assert len(answer["schedule"]) == 2  # the details' form leaves the nights alone

    tuesday, saturday = coming(TUESDAY), coming(SATURDAY)
    for fields in (
        {"kind": "cancelled", "date": tuesday.isoformat(), "note": "Closed for the holiday"},
        {"kind": "added", "date": saturday.isoformat(), "starts_at": "19:00", "sessions": "2"},
    ):
        added = office.post(settings(venue["id"]), data=change_posted(token, **fields))
        assert added.status_code == 302, text_of(added)
    page = office.get(settings(venue["id"]))
    said = text_of(page)
    assert f"Added: the make-up night of {shown(saturday)} at 19:00." in said
    assert f"{shown(tuesday)} Cancelled Closed for the holiday" in said
    cancelled, make_up = sorted(exceptions(scene, venue["id"]), key=lambda row: row["kind"] != "cancelled")
    assert (cancelled["kind"], make_up["kind"], make_up["sessions"]) == ("cancelled", "added", 2)

    asked = office.get(f"{settings(venue['id'])}?take_back={cancelled['id']}")
    assert f"Take back: the cancellation of {shown(tuesday)}?" in text_of(asked)
    assert len(exceptions(scene, venue["id"])) == 2  # asking takes nothing back
    taken = office.post(
        settings(venue["id"]),
        data={"csrf_token": csrf(asked), "action": "take_back", "exception_id": str(cancelled["id"])},
    )
    assert taken.status_code == 302
    assert f"Taken back: the cancellation of {shown(tuesday)}." in text_of(office.get(settings(venue["id"])))
    assert [row["id"] for row in exceptions(scene, venue["id"])] == [make_up["id"]]
    again = office.post(
        settings(venue["id"]),
        data={"csrf_token": token, "action": "take_back", "exception_id": str(cancelled["id"])},
    )
    assert "Nothing taken back" in text_of(office.get(settings(venue["id"]))) and again.status_code == 302


def test_r2_r2a_refused_venues_and_nights_are_told_beside_their_fields_and_store_nothing(
    app: Flask, scene: Scene
) -> None:
    """The API's refusals, on the console's forms: a name the region has, a zone the IANA database
    lacks (R2a), a weekday or start time out of range, a fourth night on a weekday (R2), a moved
    night without its new date and a night outside every season (R2). Nothing is stored."""
    office = signed_in(app, scene.office.key)
    token = csrf(office.get(VENUES))
    region_id = str(scene.region["id"])
    venues_before = scene.office.get("/api/v1/venues").get_json()
    for field, value, said in (
        ("name", scene.venue["name"], "Already used by another venue of the region."),
        ("timezone", "Mars/Olympus", "is not a time zone of the IANA database"),
        ("timezone", "-07:00", "is an offset from UTC, not a time zone"),
    ):
        data = {"csrf_token": token, "name": "Mile High", "region_id": region_id, field: value}
        refused_beside(office.post(VENUES, data=data), field, said)
    assert scene.office.get("/api/v1/venues").get_json() == venues_before

    venue_id = scene.venue_id
    other = scene.league.venue(scene.region["id"])
    path = settings(venue_id)
    renamed = {"csrf_token": token, "action": "details", "name": other["name"], "region_id": region_id}
    refused_beside(office.post(path, data=renamed), "name", "Already used by another venue of the region.")
    zoned = {"csrf_token": token, "action": "details", "region_id": region_id, "timezone": "Denver"}
    refused_beside(office.post(path, data=zoned), "timezone", "is not a time zone of the IANA database")
    emptied = {"csrf_token": token, "action": "details", "name": "", "region_id": region_id}
    refused_beside(office.post(path, data=emptied), "name", "Fill this in.")
    assert scene.office.patch(venue_path(venue_id), json={"name": None}).status_code == 422

    set_nights = scene.office.put(
        f"{venue_path(venue_id)}/schedule", json={"schedule": [{"weekday": 2, "starts_at": "19:00"}]}
    )
    assert set_nights.status_code == 200
    venue_before = scene.office.get(venue_path(venue_id)).get_json()
    for nights, said in (
        ([("8", "19:00", "")], "Row 1, Weekday: A weekday is 1 (Monday) to 7 (Sunday)."),
        ([(TUESDAY, "25:00", "")], "Row 1, Starts at: A start time is HH:MM, 00:00 to 23:59."),
        ([(TUESDAY, "7pm", "")], "Row 1, Starts at: A start time is HH:MM, 00:00 to 23:59."),
        ([("", "19:00", "2")], "Row 1, Weekday: Fill this in."),
        ([(THURSDAY, "19:00", "21")], "Row 1, Sessions: Sessions are 1 to 20."),
        (
            [(TUESDAY, f"{hour}:00", "") for hour in (17, 18, 19, 20)],
            "Row 4, Starts at: Tuesdays have 4 nights here: a venue plays at most 3 nights on one weekday.",
        ),
    ):
        refused = office.post(path, data=nights_posted(token, *nights))
        refused_beside(refused, "schedule", said)
        assert 'aria-invalid="true" aria-describedby="schedule-problem"' in refused.get_data(as_text=True)
    assert scene.office.get(venue_path(venue_id)).get_json() == venue_before

    tuesday = coming(TUESDAY).isoformat()
    for fields, field, said in (
        ({"kind": "moved", "date": tuesday}, "to", "A moved night says its new date."),
        ({"kind": "added", "date": tuesday}, "starts_at", "A make-up night says when it starts."),
        ({"kind": "cancelled", "date": coming(THURSDAY).isoformat()}, "date", "is not one of the venue's"),
        (
            {"kind": "added", "date": coming(SATURDAY, 40).isoformat(), "starts_at": "19:00"},
            "date",
            "in no season",
        ),
        ({"kind": "cancelled", "date": "someday"}, "date", "Write a date, or pick it from the calendar."),
    ):
        refused_beside(office.post(path, data=change_posted(token, **fields)), field, said)
    assert exceptions(scene, venue_id) == []
    assert office.post(path, data={"action": "nights", "schedule.0.weekday": "3"}).status_code == 400
    assert office.post(VENUES, data={"name": "No token", "region_id": region_id}).status_code == 400
    assert scene.office.get(venue_path(venue_id)).get_json() == venue_before


def test_r2_a_host_sets_their_venues_nights_but_not_its_details(app: Flask, scene: Scene) -> None:
    """R2: a venue's hosts set its regular nights and change single nights, as the API lets them;
    making and changing venues is the office's (403), and another venue's nights are refused."""
    host = signed_in(app, scene.host.key)
    path = settings(scene.venue_id)
    assert f'href="{path}"' in host.get("/console/").get_data(as_text=True)  # from the host's home
    page = host.get(path)
    assert page.status_code == 200 and "Save the regular nights" in text_of(page)
    assert "Save the details" not in text_of(page) and 'name="name"' not in page.get_data(as_text=True)
    token = csrf(page)
    saved = host.post(path, data=nights_posted(token, (TUESDAY, "19:00", ""), (SATURDAY, "14:00", "3")))
    assert saved.status_code == 302, text_of(saved)
    assert scene.public.get(venue_path(scene.venue_id)).get_json()["schedule"][1] == {
        "weekday": 6,
        "starts_at": "14:00",
        "sessions": 3,
    }
    tuesday = coming(TUESDAY)
    added = host.post(
        path,
        data=change_posted(token, kind="moved", date=tuesday.isoformat(), to=coming(THURSDAY).isoformat()),
    )
    assert added.status_code == 302, text_of(added)
    (moved,) = exceptions(scene, scene.venue_id)
    assert f"Take back: the move of {shown(tuesday)} to" in text_of(
        host.get(f"{path}?take_back={moved['id']}")
    )
    taken = host.post(
        path, data={"csrf_token": token, "action": "take_back", "exception_id": str(moved["id"])}
    )
    assert taken.status_code == 302 and exceptions(scene, scene.venue_id) == []

    venue_before = scene.office.get(venue_path(scene.venue_id)).get_json()
    details = {"csrf_token": token, "action": "details", "name": "The Host's Own"}
    assert host.post(path, data=details).status_code == 403
    assert host.get(VENUES).status_code == 403
    made = {"csrf_token": token, "name": "Rogue", "region_id": str(scene.region["id"])}
    assert host.post(VENUES, data=made).status_code == 403
    assert scene.office.get(venue_path(scene.venue_id)).get_json() == venue_before
    assert scene.office.get("/api/v1/venues?q=Rogue").get_json()["total"] == 0

    other = scene.league.venue(scene.region["id"])
    elsewhere = settings(other["id"])
    assert host.get(elsewhere).status_code == 403
    assert host.post(elsewhere, data=nights_posted(token, (TUESDAY, "19:00", ""))).status_code == 403
    cancel = change_posted(token, kind="cancelled", date=tuesday.isoformat())
    assert host.post(elsewhere, data=cancel).status_code == 403
    assert scene.office.get(venue_path(other["id"])).get_json()["schedule"] == []
    assert exceptions(scene, other["id"]) == []


def test_r3_regions_link_their_venues_and_offer_a_new_one(app: Flask, scene: Scene) -> None:
    """R3: each region's venues open their settings; a region with none offers "add one", which
    opens the new venue's form with that region chosen."""
    empty = scene.league.region()
    office: FlaskClient = signed_in(app, scene.office.key)
    page = office.get("/console/regions").get_data(as_text=True)
    assert f'href="{settings(scene.venue_id)}"' in page
    add_one = f'href="{VENUES}?region_id={empty["id"]}">add one</a>'
    assert add_one in page
    form = office.get(f"{VENUES}?region_id={empty['id']}").get_data(as_text=True)
    assert f'<option value="{empty["id"]}" selected>' in form


def test_r22_the_office_sets_a_venues_tables_structure_and_late_registration(
    app: Flask, scene: Scene
) -> None:
    """R22: a venue's table size, blind structure (chosen by name) and late registration, set on
    its settings page as the API's PATCH sets them; both ways of closing late registration at
    once is refused beside the field, storing nothing."""
    levels = [{"small_blind": 50, "big_blind": 100, "minutes": 30}]
    made = scene.office.post(
        "/api/v1/structures", json={"name": "Finals", "starting_chips": 10000, "levels": levels}
    )
    structure = made.get_json()["id"]
    office = signed_in(app, scene.office.key)
    path = settings(scene.venue_id)
    page = office.get(path)
    assert f'<option value="{structure}">Finals</option>' in page.get_data(as_text=True)
    token = csrf(page)
    chosen = {"csrf_token": token, "action": "details", "table_size": "8", "structure_id": str(structure)}
    saved = office.post(path, data={**chosen, "late_minutes": "30"})
    assert saved.status_code == 302, text_of(saved)
    venue = scene.office.get(venue_path(scene.venue_id)).get_json()
    assert (venue["table_size"], venue["structure_id"], venue["late_minutes"]) == (8, structure, 30)
    both = {"csrf_token": token, "action": "details", "late_after_level": "4"}
    refused_beside(office.post(path, data=both), "late_after_level", "not both")
    assert scene.office.get(venue_path(scene.venue_id)).get_json() == venue


def test_r22_the_office_sets_a_venues_re_entry_on_its_settings_page(app: Flask, scene: Scene) -> None:
    """R22 (002): re-entry is the venue's setting (allowed or not, until which break), set on its
    settings page through the API's own PATCH (audited); a refused break number is told beside
    its field, storing nothing. A host sees the page without it."""
    office = signed_in(app, scene.office.key)
    path = settings(scene.venue_id)
    page = office.get(path)
    assert "Re-entry: allowed once, at any break." in text_of(page)
    token = csrf(page)
    wrong = office.post(
        path, data={"csrf_token": token, "action": "re_entry", "allowed": "on", "until_break": "0"}
    )
    assert wrong.status_code == 422 and "A break's number is 1 (the first) to 60." in text_of(wrong)
    assert scene.public.get(venue_path(scene.venue_id)).get_json()["re_entry"]["until_break"] is None
    saved = office.post(
        path, data={"csrf_token": token, "action": "re_entry", "allowed": "on", "until_break": "1"}
    )
    assert saved.status_code == 302, text_of(saved)
    assert "Re-entry: allowed once, until the first break." in text_of(office.get(path))
    assert scene.public.get(venue_path(scene.venue_id)).get_json()["re_entry"] == {
        "allowed": True,
        "until_break": 1,
    }
    off = office.post(path, data={"csrf_token": token, "action": "re_entry", "until_break": "1"})
    assert off.status_code == 302 and "Re-entry: not tonight" in text_of(office.get(path))
    assert scene.public.get(venue_path(scene.venue_id)).get_json()["re_entry"] == {
        "allowed": False,
        "until_break": None,
    }
    log = scene.office.get(f"/api/v1/audit-log?entity=venue&entity_id={scene.venue_id}").get_json()["items"]
    assert (log[0]["before"]["re_entry_allowed"], log[0]["after"]["re_entry_allowed"]) == (True, False)
    host = signed_in(app, scene.host.key)
    hosts_page = host.get(path)
    assert "Save re-entry" not in text_of(hosts_page)
    refused = host.post(path, data={"csrf_token": csrf(hosts_page), "action": "re_entry", "allowed": "on"})
    assert refused.status_code == 403
