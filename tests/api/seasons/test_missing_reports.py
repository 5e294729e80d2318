"""The office's week: which venues of a season have no report for an ISO week."""

from __future__ import annotations

from datetime import timedelta

import time_machine

from tests.builders import Scene, days_ago, utc_today
from tests.support.league import League, assert_problem
from tests.support.local_dates import CHICAGO, HostFor, LocalLeague, ok, utc


def iso_week(day: object) -> str:
    year, week, _ = day.isocalendar()  # type: ignore[attr-defined]
    return f"{year}-W{week:02d}"


def test_venues_without_a_report_that_week(scene: Scene, league: League) -> None:
    quiet = league.venue(scene.region["id"], name="The Quiet Man")
    closed = league.venue(scene.region["id"], name="Closed Down", active=False)
    elsewhere = league.venue()  # another region: not this season's
    monday = utc_today() - timedelta(days=utc_today().weekday() + 14)
    scene.report(scene.add_players(3), day=monday + timedelta(days=2))
    path = f"/api/v1/seasons/{scene.season_id}/missing-reports?week={iso_week(monday)}"
    answer = scene.office.get(path).get_json()
    assert [v["id"] for v in answer["venues"]] == [quiet["id"]]
    assert (answer["starts_on"], answer["ends_on"]) == (
        monday.isoformat(),
        (monday + timedelta(days=6)).isoformat(),
    )
    assert answer["week"] == iso_week(monday) and answer["total"] == 1
    ids = {closed["id"], elsewhere["id"]}
    other_week = iso_week(days_ago(40))
    listed = scene.office.get(
        f"/api/v1/seasons/{scene.season_id}/missing-reports?week={other_week}"
    ).get_json()
    assert {v["id"] for v in listed["venues"]} == {scene.venue_id, quiet["id"]} and not ids & {
        v["id"] for v in listed["venues"]
    }


def test_missing_reports_is_for_the_office_and_reads_a_week(scene: Scene) -> None:
    path = f"/api/v1/seasons/{scene.season_id}/missing-reports"
    assert_problem(scene.host.get(f"{path}?week=2026-W09"), 403)
    assert_problem(scene.public.get(f"{path}?week=2026-W09"), 401)
    for bad in ("2026-09", "2026-W60", "last week"):
        body = assert_problem(scene.office.get(f"{path}?week={bad}"), 422, "week")
        assert "YYYY-Www" in body["errors"]["week"][0]


# Sunday 6 December 2026, 21:00 in Chicago: already Monday 7 December (2026-W50) in UTC.
SUNDAY_EVENING_IN_CHICAGO = utc("2026-12-07T03:00")


@time_machine.travel(SUNDAY_EVENING_IN_CHICAGO, tick=False)
def test_r2a_without_a_week_it_is_this_week_on_the_leagues_clock(league: League, host_for: HostFor) -> None:
    """No `week`: the league's week now (ISO week, the league's zone), said in the answer (`week`,
    `starts_on`, `ends_on`), the same answer as that week asked for by name."""
    here = LocalLeague(league, host_for, CHICAGO, "2026-11-02", "2027-01-31")
    quiet = here.venue()
    path = f"/api/v1/seasons/{here.season_id}/missing-reports"
    answer = ok(here.office.get(path))
    said = (answer["week"], answer["starts_on"], answer["ends_on"])
    assert said == ("2026-W49", "2026-11-30", "2026-12-06")
    assert [venue["id"] for venue in answer["venues"]] == [quiet]
    assert ok(here.office.get(f"{path}?week=2026-W49")) == answer
    assert ok(here.office.get(f"{path}?week=2026-W50"))["week"] == "2026-W50"
    assert_problem(here.host(quiet).get(path), 403)


@time_machine.travel(utc("2026-12-02T18:00"), tick=False)  # Wednesday 2 December, noon in Chicago
def test_r2_r17_a_venue_is_not_chased_for_a_night_before_it_existed(
    league: League, host_for: HostFor
) -> None:
    """R2, R17, R2a: the week of a venue added on Wednesday, playing Tuesdays: its Tuesday came
    before it existed, so the office is not sent after that report; a venue of the same schedule
    added a week earlier is chased for it."""
    here = LocalLeague(league, host_for, CHICAGO, "2026-11-02", "2027-01-31")
    tuesdays = {"schedule": [{"weekday": 2, "starts_at": "19:00"}]}
    with time_machine.travel(utc("2026-11-25T18:00"), tick=False):
        older = here.venue()
        ok(here.office.put(f"/api/v1/venues/{older}/schedule", json=tuesdays))
    newer = here.venue()
    ok(here.office.put(f"/api/v1/venues/{newer}/schedule", json=tuesdays))
    answer = ok(here.office.get(f"/api/v1/seasons/{here.season_id}/missing-reports?week=2026-W49"))
    assert [(v["id"], v["nights"]) for v in answer["venues"]] == [(older, ["2026-12-01"])], answer
