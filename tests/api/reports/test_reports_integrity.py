"""One report per venue, date and session; Idempotency-Key retries; corrections and voids (R17);
playoff and championship seasons (R2); the audit log of every report change (R18)."""

from __future__ import annotations

import json as jsonlib
from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
import time_machine

from tests.builders import (
    TOURNAMENTS,
    MakeScene,
    Scene,
    ago,
    by_place,
    days_ago,
    iso,
    points_by_place,
    unique_email,
    unique_name,
)
from tests.support.league import League, assert_problem


def noon_utc(day: Any) -> datetime:
    return datetime.combine(day, time(12), tzinfo=UTC)


# One report per venue, date and session ---------------------------------------------------


def test_second_report_for_the_same_slot_is_409(scene: Scene) -> None:
    ids = scene.add_players(3)
    first = scene.posted(scene.body(ids))
    before = scene.counts()
    body = scene.body(list(reversed(ids)))
    body["results"].append({"place": 4, "new_player": {"full_name": unique_name(), "email": unique_email()}})
    problem = assert_problem(scene.post(body, scene.office), 409, "session")
    assert str(first["id"]) in problem["detail"]
    assert scene.counts() == before
    # Another session on the same date is another tournament (R2, double sessions).
    second = scene.posted({**scene.body(ids), "session": 2})
    assert second["session"] == 2
    assert scene.listed_reports() == 2


def test_same_date_at_another_venue_is_fine(scene: Scene) -> None:
    ids = scene.add_players(2)
    scene.posted(scene.body(ids))
    other = scene.league.venue(scene.venue["region_id"])
    assert scene.post({**scene.body(ids), "venue_id": other["id"]}, scene.office).status_code == 201


# Idempotency-Key --------------------------------------------------------------------------


def test_retry_with_the_same_key_and_body_returns_the_first_answer(scene: Scene) -> None:
    """A retry stores nothing again: not the report, not its new player."""
    ids = scene.add_players(2)
    body = scene.body(ids)
    body["results"].append({"place": 3, "new_player": {"full_name": unique_name(), "email": unique_email()}})
    headers = {"Idempotency-Key": "crown-2026-03-04"}
    before = scene.counts()
    first = scene.post(body, headers=headers)
    assert first.status_code == 201
    assert scene.counts() == (before[0] + 1, before[1] + 1)
    retry = scene.post(body, headers=headers)
    assert retry.status_code == 201
    assert retry.headers.get("Idempotent-Replayed") == "true"
    assert retry.get_json() == first.get_json()
    assert scene.counts() == (before[0] + 1, before[1] + 1)


def test_same_key_with_another_body_is_409(scene: Scene) -> None:
    ids = scene.add_players(3)
    headers = {"Idempotency-Key": "k-1"}
    assert scene.post(scene.body(ids), headers=headers).status_code == 201
    before = scene.counts()
    other = scene.body(ids, session=2)
    assert_problem(scene.post(other, headers=headers), 409, "Idempotency-Key")
    assert scene.counts() == before
    # The same body as CSV is another request too.
    response = scene.host.post(
        f"{TOURNAMENTS}?venue_id={scene.venue_id}&date={iso(days_ago(2))}&session=3",
        data=f"place,player_id\n1,{ids[0]}\n",
        content_type="text/csv",
        headers=headers,
    )
    assert_problem(response, 409, "Idempotency-Key")
    assert scene.counts() == before


def test_keys_are_scoped_to_the_caller(scene: Scene) -> None:
    """Another API key using the same Idempotency-Key value is independent."""
    ids = scene.add_players(3)
    headers = {"Idempotency-Key": "shared-value"}
    mine = scene.post(scene.body(ids), headers=headers)
    other_host = scene.host_for(scene.venue_id, name="Host: Relief")
    theirs = scene.post(scene.body(ids, session=2), other_host, headers=headers)
    assert theirs.status_code == 201
    assert "Idempotent-Replayed" not in theirs.headers
    assert theirs.get_json()["id"] != mine.get_json()["id"]
    # And a retry of the same body under the other key is a real (conflicting) new report.
    assert_problem(scene.post(scene.body(ids), scene.office, headers=headers), 409, "session")
    assert scene.listed_reports() == 2


def test_a_refused_request_does_not_use_up_the_key(scene: Scene) -> None:
    ids = scene.add_players(3)
    headers = {"Idempotency-Key": "fix-and-retry"}
    bad = scene.body(ids)
    bad["results"][0]["place"] = 3
    assert_problem(scene.post(bad, headers=headers), 422, rule="R4")
    good = scene.post(scene.body(ids), headers=headers)
    assert good.status_code == 201
    assert scene.listed_reports() == 1


def test_idempotency_key_of_bad_length(scene: Scene) -> None:
    ids = scene.add_players(1)
    for key in ("", "   ", "k" * 256):
        response = scene.post(scene.body(ids), headers={"Idempotency-Key": key})
        assert_problem(response, 422, "Idempotency-Key")
    assert scene.stored_reports() == 0


# Corrections (R17) ------------------------------------------------------------------------


def test_office_correction_recomputes_points_r17(scene: Scene) -> None:
    """R17: a correction replaces the report whole; 10 -> 7 entrants rescores (k=2: 20, 10)."""
    ids = scene.add_players(10)
    report = scene.posted(scene.body(ids))
    assert points_by_place(report)[:3] == [(1, 30, 0, 30), (2, 20, 0, 20), (3, 10, 0, 10)]
    new_order = list(reversed(ids[:7]))
    body = {**scene.body(new_order, session=2), "reason": "Entered the wrong sheet"}
    response = scene.office.put(f"{TOURNAMENTS}/{report['id']}", json=body)
    assert response.status_code == 200, response.get_json()
    corrected = response.get_json()
    assert corrected["id"] == report["id"]
    assert corrected["version"] == 2
    assert (corrected["entrants"], corrected["session"]) == (7, 2)
    assert [r["player"]["id"] for r in corrected["results"]] == new_order
    assert [r["placement_points"] for r in corrected["results"]] == [20, 10, 0, 0, 0, 0, 0]
    stored = scene.public.get(f"{TOURNAMENTS}/{report['id']}").get_json()
    assert points_by_place(stored) == points_by_place(corrected)
    assert scene.listed_reports() == 1


def test_correction_needs_a_reason_r17(scene: Scene) -> None:
    ids = scene.add_players(3)
    report = scene.posted(scene.body(ids))
    for reason in (None, "", "   "):
        body = scene.body(list(reversed(ids)))
        if reason is not None:
            body["reason"] = reason
        assert_problem(scene.office.put(f"{TOURNAMENTS}/{report['id']}", json=body), 422, "reason")
    stored = scene.public.get(f"{TOURNAMENTS}/{report['id']}").get_json()
    assert [r["player"]["id"] for r in stored["results"]] == ids
    assert stored["version"] == 1


def test_refused_correction_changes_nothing_r4_r17(scene: Scene) -> None:
    ids = scene.add_players(3)
    report = scene.posted(scene.body(ids))
    body = {**scene.body(ids), "reason": "typo"}
    body["results"][2]["place"] = 1
    body["results"].append({"place": 4, "new_player": {"full_name": unique_name(), "email": unique_email()}})
    before = scene.counts()
    assert_problem(
        scene.office.put(f"{TOURNAMENTS}/{report['id']}", json=body), 422, "results.2.place", rule="R4"
    )
    assert scene.counts() == before
    stored = scene.public.get(f"{TOURNAMENTS}/{report['id']}").get_json()
    assert points_by_place(stored) == points_by_place(report)
    assert stored["version"] == 1


def test_correction_into_a_taken_slot_is_409(scene: Scene) -> None:
    ids = scene.add_players(2)
    scene.posted(scene.body(ids))
    second = scene.posted(scene.body(ids, session=2))
    body = {**scene.body(ids, session=1), "reason": "moved"}
    assert_problem(scene.office.put(f"{TOURNAMENTS}/{second['id']}", json=body), 409, "session")
    # Keeping its own slot is fine.
    body = {**scene.body(list(reversed(ids)), session=2), "reason": "order"}
    assert scene.office.put(f"{TOURNAMENTS}/{second['id']}", json=body).status_code == 200


def test_correction_by_csv_r17(scene: Scene) -> None:
    ids = scene.add_players(3)
    report = scene.posted(scene.body(ids))
    response = scene.host.put(
        f"{TOURNAMENTS}/{report['id']}?venue_id={scene.venue_id}&date={iso(days_ago(2))}"
        "&reason=Swapped+first+and+second",
        data=f"place,player_id\n1,{ids[1]}\n2,{ids[0]}\n3,{ids[2]}\n",
        content_type="text/csv",
    )
    assert response.status_code == 200, response.get_json()
    assert [r["player"]["id"] for r in response.get_json()["results"]] == [ids[1], ids[0], ids[2]]


def test_host_corrects_within_correction_days_but_not_after_r17(scene: Scene) -> None:
    """R17: correction_days (default 7) after the tournament date a host may still correct;
    a day later only the office may."""
    ids = scene.add_players(3)
    day = days_ago(2)
    report = scene.posted(scene.body(ids, day))
    url = f"{TOURNAMENTS}/{report['id']}"
    with time_machine.travel(noon_utc(day + timedelta(days=7)), tick=False):
        body = {**scene.body(list(reversed(ids)), day), "reason": "last day of the window"}
        response = scene.host.put(url, json=body)
        assert response.status_code == 200, response.get_json()
    with time_machine.travel(noon_utc(day + timedelta(days=8)), tick=False):
        body = {**scene.body(ids, day), "reason": "too late"}
        problem = assert_problem(scene.host.put(url, json=body), 403)
        assert "R17" in problem["detail"]
        assert_problem(scene.host.post(f"{url}/void", json={"reason": "too late"}), 403)
        # The office any time.
        assert scene.office.put(url, json={**body, "reason": "office fix"}).status_code == 200
    stored = scene.public.get(url).get_json()
    assert stored["version"] == 3
    assert [r["player"]["id"] for r in stored["results"]] == ids


def test_host_window_follows_the_season_setting_r17(make_scene: MakeScene) -> None:
    """R17: correction_days is a season setting: 30 lets a host report and fix a 20-day-old
    night; 0 only on the day itself (yesterday's night is then the office's to report)."""
    scene = make_scene(correction_days=30)
    ids = scene.add_players(2)
    old = scene.posted(scene.body(ids, days_ago(20)))
    body = {**scene.body(list(reversed(ids)), days_ago(20)), "reason": "late fix"}
    assert scene.host.put(f"{TOURNAMENTS}/{old['id']}", json=body).status_code == 200
    assert scene.host.post(f"{TOURNAMENTS}/{old['id']}/void", json={"reason": "x"}).status_code == 200

    strict = make_scene(correction_days=0)
    ids = strict.add_players(2)
    today = strict.posted(strict.body(ids, days_ago(0)))
    assert_problem(strict.post(strict.body(ids, days_ago(1))), 403, rule="R17")
    yesterday = strict.report(ids, days_ago(1))
    body = {**strict.body(ids, days_ago(0)), "reason": "same day"}
    assert strict.host.put(f"{TOURNAMENTS}/{today['id']}", json=body).status_code == 200
    body = {**strict.body(ids, days_ago(1)), "reason": "next day"}
    assert_problem(strict.host.put(f"{TOURNAMENTS}/{yesterday['id']}", json=body), 403, rule="R17")


def test_host_of_another_venue_may_not_correct_or_void_r17(scene: Scene) -> None:
    ids = scene.add_players(2)
    report = scene.posted(scene.body(ids))
    stranger = scene.host_for(scene.league.venue(scene.venue["region_id"])["id"])
    body = {**scene.body(ids), "reason": "mine now"}
    assert_problem(stranger.put(f"{TOURNAMENTS}/{report['id']}", json=body), 403)
    assert_problem(stranger.post(f"{TOURNAMENTS}/{report['id']}/void", json={"reason": "x"}), 403)
    assert_problem(scene.public.post(f"{TOURNAMENTS}/{report['id']}/void", json={"reason": "x"}), 401)
    assert scene.public.get(f"{TOURNAMENTS}/{report['id']}").get_json()["voided"] is False


def test_host_may_not_move_a_report_to_another_venue(scene: Scene) -> None:
    ids = scene.add_players(2)
    report = scene.posted(scene.body(ids))
    other = scene.league.venue(scene.venue["region_id"])
    body = {**scene.body(ids), "venue_id": other["id"], "reason": "wrong pub"}
    assert_problem(scene.host.put(f"{TOURNAMENTS}/{report['id']}", json=body), 403)
    assert scene.public.get(f"{TOURNAMENTS}/{report['id']}").get_json()["venue_id"] == scene.venue_id


def test_correcting_an_unknown_report_is_404(scene: Scene) -> None:
    ids = scene.add_players(1)
    body = {**scene.body(ids), "reason": "x"}
    assert_problem(scene.office.put(f"{TOURNAMENTS}/999999", json=body), 404)
    assert_problem(scene.office.post(f"{TOURNAMENTS}/999999/void", json={"reason": "x"}), 404)


# Voids (R17) ------------------------------------------------------------------------------


def test_void_counts_nowhere_and_frees_the_slot_r17(scene: Scene) -> None:
    """R17: a voided report is not listed, is 404 for the public, stays readable by the office,
    and the same venue, date and session can be reported again."""
    ids = scene.add_players(3)
    report = scene.posted(scene.body(ids))
    url = f"{TOURNAMENTS}/{report['id']}"
    response = scene.host.post(f"{url}/void", json={"reason": "Played under the wrong rules"})
    assert response.status_code == 200, response.get_json()
    voided = response.get_json()
    assert voided["voided"] is True
    assert voided["void_reason"] == "Played under the wrong rules"
    assert voided["voided_at"].endswith("Z")
    assert scene.listed_reports() == 0
    assert scene.public.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}").get_json()["items"] == []
    assert scene.office.get(TOURNAMENTS).get_json()["total"] == 0
    assert scene.public.get(f"{TOURNAMENTS}?include_voided=true").get_json()["total"] == 0
    assert scene.host.get(f"{TOURNAMENTS}?include_voided=true").get_json()["total"] == 0
    assert_problem(scene.public.get(url), 404)
    seen = scene.office.get(url)
    assert seen.status_code == 200 and seen.get_json()["voided"] is True
    assert points_by_place(seen.get_json()) == points_by_place(report)
    assert scene.stored_reports() == 1
    # The slot is free again.
    again = scene.posted(scene.body(list(reversed(ids))))
    assert again["id"] != report["id"]
    assert scene.listed_reports() == 1
    assert scene.stored_reports() == 2


def test_void_needs_a_reason_r17(scene: Scene) -> None:
    ids = scene.add_players(2)
    report = scene.posted(scene.body(ids))
    url = f"{TOURNAMENTS}/{report['id']}/void"
    for body in ({}, {"reason": ""}, {"reason": "  "}, {"reason": "bad\x00byte"}, {"reason": 5}):
        assert_problem(scene.host.post(url, json=body), 422, "reason")
    assert scene.listed_reports() == 1


def test_a_voided_report_cannot_be_voided_or_corrected_again(scene: Scene) -> None:
    ids = scene.add_players(2)
    report = scene.posted(scene.body(ids))
    url = f"{TOURNAMENTS}/{report['id']}"
    assert scene.office.post(f"{url}/void", json={"reason": "dup"}).status_code == 200
    assert_problem(scene.office.post(f"{url}/void", json={"reason": "again"}), 409)
    assert_problem(scene.office.put(url, json={**scene.body(ids), "reason": "revive"}), 409)


def test_office_voids_any_time_r17(scene: Scene) -> None:
    ids = scene.add_players(2)
    report = scene.report(ids, days_ago(40))  # the office's: a host's window is long past (R17)
    url = f"{TOURNAMENTS}/{report['id']}/void"
    assert_problem(scene.host.post(url, json={"reason": "late"}), 403, rule="R17")
    assert scene.office.post(url, json={"reason": "late"}).status_code == 200


# Playoffs and championships (R2) ----------------------------------------------------------


@pytest.fixture()
def ended_scene(make_scene: MakeScene) -> Scene:
    """A scene whose season ran from 80 to 10 days ago, where everyone who played qualifies
    (cut_fraction 1: the quota is the whole average field, R12)."""
    return make_scene(starts_on=ago(80), ends_on=ago(10), cut_fraction=1)


def qualifiers(scene: Scene, n: int) -> list[int]:
    """n players who played the season's one regular tournament, so all qualify (R3)."""
    ids = scene.add_players(n)
    scene.report(ids, day=days_ago(40))
    return ids


def test_playoff_names_its_season_and_follows_its_last_day_r2(ended_scene: Scene) -> None:
    """R2: a playoff names its season and is held after the season's last day."""
    scene = ended_scene
    ids = qualifiers(scene, 4)
    season_id = scene.season["id"]
    report = scene.posted(scene.body(ids, days_ago(3), kind="playoff", season_id=season_id))
    assert (report["kind"], report["season_id"]) == ("playoff", season_id)
    # The day after the last day, 9 days ago: past a host's 7 days, so the office's (R17).
    champs = scene.report(ids, days_ago(9), kind="championship", season_id=season_id)
    assert champs["kind"] == "championship"
    assert scene.public.get(f"{TOURNAMENTS}?kind=playoff").get_json()["total"] == 1


def test_playoff_on_or_before_the_last_day_is_refused_r2(ended_scene: Scene) -> None:
    scene = ended_scene
    ids = scene.add_players(2)
    for day in (days_ago(10), days_ago(30)):
        body = scene.body(ids, day, kind="playoff", season_id=scene.season["id"])
        assert_problem(scene.post(body), 422, "date", rule="R2")
    assert scene.stored_reports() == 0


def test_playoff_without_a_season_is_refused_r2(ended_scene: Scene) -> None:
    scene = ended_scene
    ids = scene.add_players(2)
    assert_problem(scene.post(scene.body(ids, days_ago(3), kind="championship")), 422, "season_id", rule="R2")
    assert_problem(
        scene.post(scene.body(ids, days_ago(3), kind="playoff", season_id=999_999)), 422, "season_id"
    )
    assert scene.stored_reports() == 0


def test_playoff_at_a_venue_outside_the_seasons_regions_is_refused_r2_r3(
    ended_scene: Scene, league: League
) -> None:
    """R3: a playoff takes venues of the season's regions; a championship is not so limited."""
    scene = ended_scene
    elsewhere = league.venue(league.region()["id"])
    ids = qualifiers(scene, 2)
    body = {
        **scene.body(ids, days_ago(3), kind="playoff", season_id=scene.season["id"]),
        "venue_id": elsewhere["id"],
    }
    stored = scene.stored_reports()
    assert_problem(scene.post(body, scene.office), 422, "venue_id", rule="R3")
    assert scene.stored_reports() == stored
    body["kind"] = "championship"
    assert scene.post(body, scene.office).status_code == 201


def test_playoff_in_the_future_is_refused_r2(ended_scene: Scene) -> None:
    scene = ended_scene
    ids = scene.add_players(2)
    body = scene.body(ids, days_ago(-3), kind="playoff", season_id=scene.season["id"])
    assert_problem(scene.post(body), 422, "date", rule="R2")


# The audit log (R18) ----------------------------------------------------------------------


def test_create_correct_and_void_are_audited_r18(scene: Scene) -> None:
    """R18: each create, correction and void is logged with the actor's key name and role,
    the request id, and the state before and after; entity=tournament filters."""
    ids = scene.add_players(3)
    created = scene.post(scene.body(ids), headers={"X-Request-ID": "req-create-1"})
    assert created.status_code == 201
    report_id = created.get_json()["id"]
    url = f"{TOURNAMENTS}/{report_id}"
    body = {**scene.body(list(reversed(ids))), "reason": "Reversed by mistake"}
    assert scene.host.put(url, json=body, headers={"X-Request-ID": "req-fix-2"}).status_code == 200
    voided = scene.office.post(
        f"{url}/void", json={"reason": "Not a league night"}, headers={"X-Request-ID": "req-void-3"}
    )
    assert voided.status_code == 200

    log = scene.office.get("/api/v1/audit-log?entity=tournament")
    assert log.status_code == 200
    entries = log.get_json()["items"]
    assert log.get_json()["total"] == 3
    assert {e["entity"] for e in entries} == {"tournament"}
    by_action = {e["action"]: e for e in entries}
    assert [e["action"] for e in entries] == ["tournament.void", "tournament.correct", "tournament.create"]

    create = by_action["tournament.create"]
    assert (create["actor"], create["actor_role"]) == ("Host: Crown", "host")
    assert create["request_id"] == "req-create-1"
    assert create["entity_id"] == report_id
    assert create["before"] is None
    assert [r["player_id"] for r in create["after"]["results"]] == ids
    assert [r["points"] for r in create["after"]["results"]] == [10, 0, 0]

    correct = by_action["tournament.correct"]
    assert (correct["actor"], correct["actor_role"], correct["request_id"]) == (
        "Host: Crown",
        "host",
        "req-fix-2",
    )
    assert correct["reason"] == "Reversed by mistake"
    assert [r["player_id"] for r in correct["before"]["results"]] == ids
    assert [r["player_id"] for r in correct["after"]["results"]] == list(reversed(ids))
    assert (correct["before"]["version"], correct["after"]["version"]) == (1, 2)

    void = by_action["tournament.void"]
    assert (void["actor"], void["actor_role"], void["request_id"]) == ("Office: Test", "office", "req-void-3")
    assert void["reason"] == "Not a league night"
    assert (void["before"]["voided"], void["after"]["voided"]) == (False, True)

    only = scene.office.get(
        f"/api/v1/audit-log?entity=tournament&entity_id={report_id}&action=tournament.void"
    ).get_json()
    assert [e["request_id"] for e in only["items"]] == ["req-void-3"]
    assert scene.office.get("/api/v1/audit-log?entity=tournament&actor=Host: Crown").get_json()["total"] == 2


def test_refused_and_replayed_reports_are_not_audited_r18(scene: Scene) -> None:
    ids = scene.add_players(2)
    bad = scene.body(ids)
    bad["results"][1]["place"] = 1
    assert scene.post(bad).status_code == 422
    headers = {"Idempotency-Key": "once"}
    assert scene.post(scene.body(ids), headers=headers).status_code == 201
    assert scene.post(scene.body(ids), headers=headers).status_code == 201
    log = scene.office.get("/api/v1/audit-log?entity=tournament").get_json()
    assert [e["action"] for e in log["items"]] == ["tournament.create"]


def test_new_player_of_a_report_is_audited_r18(scene: Scene) -> None:
    body = {
        "venue_id": scene.venue_id,
        "date": iso(days_ago(1)),
        "results": [
            {"place": 1, "new_player": {"full_name": "Audit Me", "email": unique_email()}},
            {"place": 2, "player_id": scene.add_players(1)[0]},
        ],
    }
    report = scene.posted(body)
    player_id = by_place(report)[1]["player"]["id"]
    log = scene.office.get(f"/api/v1/audit-log?entity=player&entity_id={player_id}").get_json()
    assert [(e["action"], e["actor"]) for e in log["items"]] == [("player.create", "Host: Crown")]


def test_hosts_and_public_cannot_read_the_audit_log_r18(scene: Scene) -> None:
    assert_problem(scene.host.get("/api/v1/audit-log?entity=tournament"), 403)
    assert_problem(scene.public.get("/api/v1/audit-log?entity=tournament"), 401)


def test_public_get_sends_an_etag_that_changes_with_a_correction(scene: Scene) -> None:
    ids = scene.add_players(3)
    report = scene.posted(scene.body(ids))
    url = f"{TOURNAMENTS}/{report['id']}"
    first = scene.public.get(url)
    etag = first.headers["ETag"]
    assert scene.public.get(url, headers={"If-None-Match": etag}).status_code == 304
    body = {**scene.body(list(reversed(ids))), "reason": "order"}
    assert scene.office.put(url, json=body).status_code == 200
    changed = scene.public.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag


def test_idempotent_retry_recognised_when_the_json_is_reformatted(scene: Scene) -> None:
    """The same report re-serialised (other spacing, other key order) under the same
    Idempotency-Key is the same request: the first answer comes back, nothing is stored twice."""
    players = scene.add_players(3)
    body = scene.body(players)
    first = scene.host.post(TOURNAMENTS, json=body, headers={"Idempotency-Key": "k-1"})
    assert first.status_code == 201
    again = scene.host.post(
        TOURNAMENTS,
        data=jsonlib.dumps(dict(reversed(list(body.items()))), indent=2),
        content_type="application/json",
        headers={"Idempotency-Key": "k-1"},
    )
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert scene.office.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}").get_json()["total"] == 1


def test_answer_lists_results_by_place_like_the_stored_report(scene: Scene) -> None:
    """The 201 answer is the stored report: results in place order, whatever order was sent."""
    players = scene.add_players(3)
    body = scene.body(players)
    body["results"] = [body["results"][2], body["results"][0], body["results"][1]]
    created = scene.posted(body)
    assert [r["place"] for r in created["results"]] == [1, 2, 3]
    stored = scene.public.get(f"{TOURNAMENTS}/{created['id']}").get_json()
    assert created["results"] == stored["results"]


def test_correction_without_session_keeps_the_reports_session_r17(scene: Scene) -> None:
    """R17: a correction that leaves out session (and kind) keeps the stored report's."""
    players = scene.add_players(4)
    created = scene.posted(scene.body(players[:3], session=2))
    body = scene.body(players, reason="a fourth player was missed")
    fixed = scene.host.put(f"{TOURNAMENTS}/{created['id']}", json=body)
    assert fixed.status_code == 200, fixed.get_json()
    assert fixed.get_json()["session"] == 2 and fixed.get_json()["entrants"] == 4
