"""A venue's schedule through HTTP (R2, R2a, R18): its regular nights, set by the office (in the
venue's PATCH) or a host of the venue (PUT …/schedule), and the nights cancelled, moved or added;
bad input named by field with nothing changed; every change audited."""

from __future__ import annotations

from typing import Any

import time_machine
from sqlalchemy import Connection

from tests.builders import audit_entries
from tests.support.league import League, assert_problem
from tests.support.local_dates import CHICAGO, HostFor, LocalLeague, ok, utc
from tests.support.statements import statements

TUESDAY = {"weekday": 2, "starts_at": "19:00", "sessions": 1}
FRIDAY = {"weekday": 5, "starts_at": "20:30", "sessions": 2}
WEDNESDAY_NOON = utc("2026-12-02T18:00")  # Wednesday 2 December, 12:00 in Chicago


def local(league: League, host_for: HostFor) -> LocalLeague:
    return LocalLeague(league, host_for, CHICAGO, "2026-11-02", "2027-01-31")


def schedule(caller: Any, venue_id: int) -> list[dict[str, Any]]:
    return list(ok(caller.get(f"/api/v1/venues/{venue_id}"))["schedule"])


def test_r18_the_office_sets_a_schedule_in_the_venues_patch_and_it_is_audited(
    league: League, host_for: HostFor
) -> None:
    here = local(league, host_for)
    venue = here.venue()
    answer = ok(here.office.patch(f"/api/v1/venues/{venue}", json={"schedule": [FRIDAY, TUESDAY]}))
    assert answer["schedule"] == [TUESDAY, FRIDAY]
    assert schedule(league.office, venue) == [TUESDAY, FRIDAY]
    entry = audit_entries(here.office, f"action=venue.update&entity_id={venue}")[0]
    assert entry["before"]["schedule"] == [] and entry["after"]["schedule"] == [TUESDAY, FRIDAY]


def test_r18_a_host_sets_their_own_venues_schedule_only(league: League, host_for: HostFor) -> None:
    here = local(league, host_for)
    venue, other = here.venue(), here.venue()
    host = here.host(venue)
    answer = ok(
        host.put(
            f"/api/v1/venues/{venue}/schedule", json={"schedule": [{"weekday": 2, "starts_at": "19:00"}]}
        )
    )
    assert answer["schedule"] == [TUESDAY]
    assert_problem(host.put(f"/api/v1/venues/{other}/schedule", json={"schedule": [TUESDAY]}), 403)
    assert_problem(host.patch(f"/api/v1/venues/{venue}", json={"schedule": [FRIDAY]}), 403)
    assert_problem(league.office.client.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": []}), 401)
    assert audit_entries(here.office, f"action=venue.schedule&entity_id={venue}")[0]["after"] == {
        "schedule": [TUESDAY]
    }
    assert schedule(league.office, other) == []


def test_r2a_bad_nights_are_refused_by_field_and_nothing_changes(league: League, host_for: HostFor) -> None:
    here = local(league, host_for)
    venue = here.venue()
    ok(here.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [TUESDAY]}))
    bad = [
        ([TUESDAY, {"weekday": 8, "starts_at": "19:00"}], "schedule.1.weekday"),
        ([{"weekday": 0, "starts_at": "19:00"}], "schedule.0.weekday"),
        ([{"weekday": 3, "starts_at": "24:00"}], "schedule.0.starts_at"),
        ([{"weekday": 3, "starts_at": "7pm"}], "schedule.0.starts_at"),
        ([{"weekday": 3, "starts_at": "19:00", "sessions": 21}], "schedule.0.sessions"),
        ([{"weekday": 3, "starts_at": "19:00", "sessions": 0}], "schedule.0.sessions"),
        ([FRIDAY, FRIDAY], "schedule.1.weekday"),
    ]
    for nights, field in bad:
        assert_problem(
            here.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": nights}), 422, field
        )
        assert_problem(here.office.patch(f"/api/v1/venues/{venue}", json={"schedule": nights}), 422, field)
    assert schedule(here.office, venue) == [TUESDAY]


@time_machine.travel(WEDNESDAY_NOON, tick=False)
def test_r2_r18_exceptions_cancel_move_and_add_nights_inside_a_season(
    league: League, host_for: HostFor
) -> None:
    here = local(league, host_for)
    venue = here.venue()
    host = here.host(venue)
    path = f"/api/v1/venues/{venue}/schedule-exceptions"
    ok(host.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [TUESDAY, FRIDAY]}))
    cancelled = ok(host.post(path, json={"kind": "cancelled", "date": "2026-12-08", "note": "Closed"}), 201)
    assert (cancelled["kind"], cancelled["date"], cancelled["note"]) == ("cancelled", "2026-12-08", "Closed")
    moved = {"kind": "moved", "date": "2026-12-11", "to": "2026-12-12", "starts_at": "18:00", "note": "Darts"}
    assert ok(host.post(path, json=moved), 201)["to"] == "2026-12-12"
    added = {"kind": "added", "date": "2026-12-13", "starts_at": "15:00", "sessions": 1, "note": "Make-up"}
    made = ok(host.post(path, json=added), 201)
    assert [e["kind"] for e in ok(host.get(path))["items"]] == ["cancelled", "moved", "added"]
    # The same exception twice; outside every season (R2); bad times and counts: each named.
    assert_problem(host.post(path, json={"kind": "cancelled", "date": "2026-12-08"}), 422, "date")
    assert_problem(host.post(path, json={"kind": "cancelled", "date": "2027-03-02"}), 422, "date", rule="R2")
    assert_problem(
        host.post(path, json={**moved, "date": "2026-12-18", "to": "2027-02-02"}), 422, "to", rule="R2"
    )
    assert_problem(
        host.post(path, json={**added, "date": "2026-12-20", "starts_at": "25:00"}), 422, "starts_at"
    )
    assert_problem(host.post(path, json={**added, "date": "2026-12-20", "sessions": 21}), 422, "sessions")
    assert_problem(host.post(path, json={"kind": "postponed", "date": "2026-12-20"}), 422, "kind")
    assert len(ok(host.get(path))["items"]) == 3
    entries = audit_entries(here.office, "action=schedule_exception.create")
    assert {e["entity_id"] for e in entries} >= {cancelled["id"], made["id"]}
    assert host.delete(f"{path}/{made['id']}").status_code == 204
    assert_problem(host.delete(f"{path}/{made['id']}"), 404)
    assert audit_entries(here.office, "action=schedule_exception.delete")[0]["entity_id"] == made["id"]
    other = here.venue()
    assert_problem(host.post(f"/api/v1/venues/{other}/schedule-exceptions", json=added), 403)
    assert_problem(here.office.client.get(path), 401)


@time_machine.travel(WEDNESDAY_NOON, tick=False)
def test_r2_a_report_on_an_unscheduled_date_is_still_accepted(league: League, host_for: HostFor) -> None:
    here = local(league, host_for)
    venue = here.venue()
    ok(here.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [FRIDAY]}))
    ok(here.report(venue, "2026-12-01", here.players(3)), 201)


def test_r2_only_a_regular_night_is_cancelled_or_moved(league: League, host_for: HostFor) -> None:
    """R2: a venue that plays Tuesdays cannot cancel or move a Wednesday: that night is not
    scheduled (a make-up night is added, and deleted when it is off); nothing is stored."""
    here = local(league, host_for)
    venue = here.venue()
    host = here.host(venue)
    path = f"/api/v1/venues/{venue}/schedule-exceptions"
    ok(host.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [TUESDAY]}))
    for body in (
        {"kind": "cancelled", "date": "2026-12-09"},
        {"kind": "moved", "date": "2026-12-09", "to": "2026-12-10"},
    ):
        problem = assert_problem(host.post(path, json=body), 422, "date")
        assert (
            "Wednesday 9 December 2026 is not one of the venue's regular nights"
            in problem["errors"]["date"][0]
        )
    assert ok(host.get(path))["items"] == []
    assert ok(host.post(path, json={"kind": "cancelled", "date": "2026-12-08"}), 201)["date"] == "2026-12-08"


def test_r2_a_page_of_venues_loads_their_nights_in_one_query(
    league: League, host_for: HostFor, connection: Connection
) -> None:
    """R2: the venue list gives every venue's regular nights, read for the whole page at once."""
    here = local(league, host_for)
    venues = [here.venue() for _ in range(4)]
    for venue in venues:
        ok(here.office.patch(f"/api/v1/venues/{venue}", json={"schedule": [TUESDAY, FRIDAY]}))
    with statements(connection) as seen:
        items = ok(here.office.get("/api/v1/venues?per_page=50"))["items"]
    assert {item["id"] for item in items} >= set(venues)
    assert all(item["schedule"] == [TUESDAY, FRIDAY] for item in items if item["id"] in venues)
    on_nights = [s for s in seen if "FROM venue_nights" in s]
    assert len(on_nights) == 1, on_nights


def test_r2_a_fourth_night_on_one_weekday_is_refused_and_a_normal_league_is_not(
    league: League, host_for: HostFor
) -> None:
    """R2: at most 3 nights on one weekday, through the host's PUT and the office's PATCH: a
    fourth is refused (422, R2, naming its start) and nothing changes; every minute of a weekday
    (the probe's 1,440 nights) likewise. Two sessions on three nights, or three nights on every
    weekday, are accepted."""
    here = local(league, host_for)
    venue = here.venue()
    host = here.host(venue)
    normal = [{"weekday": day, "starts_at": "19:30", "sessions": 2} for day in (2, 4, 5)]
    ok(host.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": normal}))
    tuesdays = [{"weekday": 2, "starts_at": start, "sessions": 2} for start in ("15:00", "19:00", "21:30")]
    fourth = {"weekday": 2, "starts_at": "23:00", "sessions": 1}
    every_minute = [{"weekday": 2, "starts_at": f"{m // 60:02d}:{m % 60:02d}"} for m in range(24 * 60)]
    for nights, field in (
        (tuesdays + [fourth], "schedule.3.starts_at"),
        (every_minute, "schedule.3.starts_at"),
    ):
        problem = assert_problem(
            host.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": nights}), 422, field, rule="R2"
        )
        assert "at most 3 nights on one weekday" in problem["errors"][field][0]
        assert_problem(
            here.office.patch(f"/api/v1/venues/{venue}", json={"schedule": nights}), 422, field, rule="R2"
        )
    assert schedule(here.office, venue) == normal
    full = [
        {"weekday": day, "starts_at": start, "sessions": 1}
        for day in range(1, 8)
        for start in ("15:00", "19:00", "21:30")
    ]
    assert len(ok(host.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": full}))["schedule"]) == 21


@time_machine.travel(WEDNESDAY_NOON, tick=False)
def test_r2_a_date_holds_at_most_three_nights_once_changed(league: League, host_for: HostFor) -> None:
    """R2: nights moved onto one date, or a make-up there, fill it up to 3 nights (a cancelled
    night does not count): a fourth is refused (422, R2, naming `to` or `date`), nothing stored."""
    here = local(league, host_for)
    venue = here.venue()
    host = here.host(venue)
    path = f"/api/v1/venues/{venue}/schedule-exceptions"
    ok(host.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [TUESDAY]}))
    for day in ("2026-12-01", "2026-12-08", "2026-12-15"):
        ok(host.post(path, json={"kind": "moved", "date": day, "to": "2026-12-09"}), 201)
    problem = assert_problem(
        host.post(path, json={"kind": "moved", "date": "2026-12-22", "to": "2026-12-09"}),
        422,
        "to",
        rule="R2",
    )
    assert "at most 3 nights" in problem["errors"]["to"][0]
    added = {"kind": "added", "date": "2026-12-09", "starts_at": "15:00"}
    assert_problem(host.post(path, json=added), 422, "date", rule="R2")
    assert len(ok(host.get(path))["items"]) == 3
    # A venue of three Tuesday nights: a make-up on a Tuesday fits once one of them is cancelled.
    ok(
        host.put(
            f"/api/v1/venues/{venue}/schedule",
            json={"schedule": [{"weekday": 2, "starts_at": start} for start in ("15:00", "19:00", "21:30")]},
        )
    )
    make_up = {"kind": "added", "date": "2027-01-05", "starts_at": "17:00"}
    assert_problem(host.post(path, json=make_up), 422, "date", rule="R2")
    ok(host.post(path, json={"kind": "cancelled", "date": "2027-01-05"}), 201)
    ok(host.post(path, json=make_up), 201)
