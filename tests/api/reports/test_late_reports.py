"""R17: late reports have limits. A host posts a report for a night at most the season's
correction_days after it (on the venue's wall clock, R2a), and never into a season whose qualifier
lists are published (R12); after that only the office may, with a reason (audited), and the
published lists show the difference until the office publishes again. R17a: a host voiding a
report twice gets the office's 409, not a 404."""

from __future__ import annotations

from typing import Any

from tests.builders import (
    TOURNAMENTS,
    MakeScene,
    Scene,
    audit_entries,
    days_ago,
    ended_season,
    ids_of,
    iso,
    person,
    qualifiers_path,
    read_qualifiers,
)
from tests.support.league import assert_problem


def body(scene: Scene, players: list[int], day_ago: int, **extra: Any) -> dict[str, Any]:
    return {**scene.body(players, days_ago(day_ago)), **extra}


def test_r17_a_host_reports_a_night_within_correction_days_and_no_later(scene: Scene) -> None:
    """R17: 7 days (the default) after the night a host still reports it; 8 days after, the report
    and its dry run are a 403 naming R17 and the last day, nothing stored, no row looked up."""
    ids = scene.add_players(3)
    assert scene.post(body(scene, ids, 7)).status_code == 201
    before = scene.counts()
    for path in (TOURNAMENTS, f"{TOURNAMENTS}?dry_run=1"):
        late = scene.host.post(path, json=body(scene, ids, 8))
        problem = assert_problem(late, 403, rule="R17")
        assert iso(days_ago(1)) in problem["detail"] and "office" in problem["detail"]
    assert scene.counts() == before


def test_r17_the_office_reports_a_late_night_only_with_a_reason_which_is_audited(scene: Scene) -> None:
    """R17, R18: the office's late report without a reason is a 422 naming `reason`; with one it
    is stored, warned of, and the reason is in the audit entry of its creation."""
    ids = scene.add_players(3)
    before = scene.counts()
    refused = scene.office.post(TOURNAMENTS, json=body(scene, ids, 20))
    assert_problem(refused, 422, "reason", rule="R17")
    assert scene.counts() == before
    stored = scene.posted(body(scene, ids, 20, reason="Paper sheet found behind the bar"), scene.office)
    assert [w["code"] for w in stored["warnings"]] == ["late_report"]
    (entry,) = audit_entries(scene.office, f"action=tournament.create&entity_id={stored['id']}")
    assert entry["reason"] == "Paper sheet found behind the bar"


def test_r17_a_correction_days_setting_of_zero_leaves_hosts_the_night_itself(make_scene: MakeScene) -> None:
    """R17, R2a: correction_days 0: yesterday's night is the office's already."""
    scene = make_scene(correction_days=0)
    ids = scene.add_players(2)
    assert_problem(scene.post(body(scene, ids, 1)), 403, rule="R17")
    assert scene.post(body(scene, ids, 0)).status_code == 201


def test_r17_no_host_report_into_a_published_season_and_the_office_shows_the_difference_r12(
    make_scene: MakeScene,
) -> None:
    """R17, R12: the season ended 3 days ago and its lists are published. A host's report of its
    last night (inside the 7 days) is refused, the official lists unmoved. The office's, with a
    reason, is stored with a warning; the official list stays as published and `changes` shows
    who would come in, until the office publishes again."""
    scene = make_scene(**ended_season(ends=3, championship=1))
    ace, bee, cat, dan = (person(scene, n, date_of_birth="1990-01-01") for n in ("Ace", "Bee", "Cat", "Dan"))
    fillers = [person(scene, f"~f{i}", date_of_birth="1990-01-01") for i in range(6)]
    scene.report([ace, bee, *fillers, cat, dan], days_ago(10))
    publish = f"{qualifiers_path(scene.season_id)}/publish"
    assert scene.office.post(publish, json={"settlements": []}).status_code == 201
    official = read_qualifiers(scene.public, scene.season_id, scene.venue_id)
    assert ids_of(official["qualifiers"]) == [ace, bee]
    night = body(scene, [cat, dan, *fillers, ace, bee], 4)
    before = scene.counts()
    refused = assert_problem(scene.post(night), 403, rule="R17")
    assert "published" in refused["detail"]
    assert scene.counts() == before
    assert read_qualifiers(scene.public, scene.season_id, scene.venue_id) == official
    assert_problem(scene.office.post(TOURNAMENTS, json=night), 422, "reason", rule="R17")
    stored = scene.posted({**night, "reason": "Host's phone died; sheet sent by post"}, scene.office)
    (warning,) = stored["warnings"]
    assert warning["code"] == "late_report" and "publishes again" in warning["message"]
    after = read_qualifiers(scene.public, scene.season_id, scene.venue_id)
    assert ids_of(after["qualifiers"]) == [ace, bee]
    assert after["changes"]["changed"] is True
    assert scene.office.post(publish, json={"settlements": []}).status_code == 201
    again = read_qualifiers(scene.public, scene.season_id, scene.venue_id)
    assert after["changes"]["changed"] is True and again["changes"]["changed"] is False


def test_r17a_a_host_voiding_a_report_twice_gets_the_offices_409(scene: Scene) -> None:
    """R17a: the second void by the venue's host is a 409 saying it was voided (as the office's
    is), not a 404; a correction of it too. Another venue's host still finds no such report."""
    stored = scene.posted(scene.body(scene.add_players(2)))
    void = f"{TOURNAMENTS}/{stored['id']}/void"
    assert scene.host.post(void, json={"reason": "Posted twice"}).status_code == 200
    for caller in (scene.host, scene.office):
        problem = assert_problem(caller.post(void, json={"reason": "Again"}), 409, rule="R17a")
        assert "already voided" in problem["detail"]
    correction = {
        "reason": "Fix",
        "results": [{"place": 1, "player_id": stored["results"][1]["player"]["id"]}],
    }
    assert_problem(scene.host.put(f"{TOURNAMENTS}/{stored['id']}", json=correction), 409, rule="R17a")
    stranger = scene.host_for(scene.league.venue(scene.region["id"])["id"], name="Host: elsewhere")
    assert_problem(stranger.post(void, json={"reason": "Again"}), 404)
