"""Refusals and warnings in a host's words: a refusal names the sheet's own column ("column
Email", not "column player_id") and the player by display name and number ("Pete M. (#45) is
banned…", R16); a warning names the place, not a JSON path ("place 7: the new player Quin H. …
closely matches Quinn H. (#71)", R5). A report dated on a night the schedule cancelled, or on a
day with no night and no make-up, is stored with a warning naming the schedule (R2)."""

from __future__ import annotations

from datetime import timedelta

from tests.builders import (
    TOURNAMENTS,
    Scene,
    days_ago,
    iso,
    sanctioned,
    unique_email,
)
from tests.support.league import assert_problem


def test_r16_a_sheets_refusal_names_its_email_column_and_the_players_display_name(scene: Scene) -> None:
    """R16, R19: a banned player named by email in a CSV: the refusal is at the sheet's row and
        its Email column as headed ("E-mail"), naming "Pete M. (#N)", never "player_id" (the JSON
    path stays `results.1.player_id`: the rule is about the row's player, however it was named)."""
    pete = scene.league.player("Pete Murphy", display_name="Pete M.")
    other = scene.league.player("Ann Other")
    sanctioned(scene.host, pete["id"], "venue_ban", venue_id=scene.venue_id)
    sheet = f"Pos,E-mail\n1,{other['email']}\n2,{pete['email']}\n"
    response = scene.host.post(
        f"{TOURNAMENTS}?venue_id={scene.venue_id}&date={iso(days_ago(0))}",
        data=sheet,
        content_type="text/csv",
    )
    problem = assert_problem(response, 422, "results.1.player_id", rule="R16")
    (message,) = problem["errors"]["results.1.player_id"]
    assert message.startswith("Row 3 (place 2), column E-mail: Pete M. (#") and "is banned" in message
    assert "player_id" not in problem["detail"] and "Player " not in message
    body = scene.body([other["id"], pete["id"]], days_ago(0))
    body["results"][1] = {"place": 2, "email": pete["email"]}
    json_problem = assert_problem(scene.post(body), 422, "results.1.player_id", rule="R16")
    assert json_problem["errors"]["results.1.player_id"][0].startswith(f"Pete M. (#{pete['id']}) is banned")


def test_r5_a_duplicate_warning_names_the_place_and_the_look_alike_by_name_and_number(scene: Scene) -> None:
    """R5: "place 3: the new player Quin H. (#N) closely matches Quinn H. (#M)", no JSON path."""
    quinn = scene.league.player("Quinn Hale", display_name="Quinn H.")
    ids = scene.add_players(2)
    body = scene.body(ids, days_ago(1))
    body["results"].append({"place": 3, "new_player": {"full_name": "Quin Hale", "email": unique_email()}})
    for path in (f"{TOURNAMENTS}?dry_run=1", TOURNAMENTS):
        answer = scene.host.post(path, json=body).get_json()
        assert "warnings" in answer, answer
        (warning,) = [w for w in answer["warnings"] if w["code"] == "possible_duplicate"]
        assert warning["message"].startswith("place 3: the new player Quin H.")
        assert f"Quinn H. (#{quinn['id']})" in warning["message"] and "results." not in warning["message"]


def test_r2_a_report_on_a_cancelled_night_or_a_day_off_the_schedule_is_stored_with_a_warning(
    scene: Scene,
) -> None:
    """R2: the venue plays on the weekday of three days ago. A report of that night: no warning.
    The night cancelled by the schedule, then reported: stored, warned, naming the cancellation.
    A day with no night and no make-up: stored, warned, naming the schedule; recorded as a
    make-up night, no warning."""
    night = days_ago(3)
    venue = f"/api/v1/venues/{scene.venue_id}"
    schedule = {"schedule": [{"weekday": night.isoweekday(), "starts_at": "19:00", "sessions": 1}]}
    assert scene.office.put(f"{venue}/schedule", json=schedule).status_code == 200

    def warnings(day_ago: int) -> list[str]:
        late = {"reason": "Sheet posted late"}
        stored = scene.posted(scene.body(scene.add_players(2), days_ago(day_ago), **late), scene.office)
        return [w["message"] for w in stored["warnings"] if w["code"] == "off_schedule"]

    assert warnings(3) == []
    cancelled = night - timedelta(days=7)
    exceptions = f"{venue}/schedule-exceptions"
    answer = scene.office.post(
        exceptions, json={"kind": "cancelled", "date": iso(cancelled), "note": "Burst pipe"}
    )
    assert answer.status_code == 201, answer.get_json()
    (said,) = warnings(10)
    assert "cancelled" in said and "Burst pipe" in said
    off_day = night - timedelta(days=1)
    (said,) = warnings(4)
    assert f"{off_day:%a} {off_day.day} {off_day:%b}" in said and "19:00" in said and "make-up" in said
    make_up = night - timedelta(days=2)
    added = {"kind": "added", "date": iso(make_up), "starts_at": "18:00", "sessions": 1, "note": "Make-up"}
    assert scene.office.post(exceptions, json=added).status_code == 201
    assert warnings(5) == []
