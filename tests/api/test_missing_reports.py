"""The office's week: which venues of a season have no report for an ISO week."""

from __future__ import annotations

from datetime import timedelta

from tests.builders import Scene, days_ago, utc_today
from tests.support.league import League, assert_problem


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
    assert_problem(scene.office.get(path), 422, "week")
