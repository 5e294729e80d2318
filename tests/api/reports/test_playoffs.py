"""Playoffs and the championship through the HTTP API (R3, with R12-R14 deciding who qualified):
a regional playoff takes only qualifiers of its region's venues and does not count in the
standings; once the office published the lists, the published ones decide; the championship
takes any region's qualifiers who are old enough on its date. And the office's disqualifications
(R13, R18)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tests.builders import (
    OFFICE_LATE,
    SEASONS,
    TOURNAMENTS,
    MakeScene,
    Scene,
    ago,
    audit_entries,
    born,
    day_after,
    days_ago,
    ended_season,
    ids_of,
    person,
    read_qualifiers,
)
from tests.support.league import League, assert_problem


def adult(scene: Scene, name: str) -> int:
    return person(scene, name, date_of_birth="1990-01-01")


class World:
    """An ended season covering two regions: Home (the scene's venue and Near) and Far (one
    venue). One 10-entrant tournament at each venue: quota 2 everywhere."""

    def __init__(self, scene: Scene, league: League) -> None:
        self.scene = scene
        self.near = int(league.venue(scene.region["id"])["id"])
        self.far_region = int(league.region()["id"])
        self.far = int(league.venue(self.far_region)["id"])
        assert scene.patch(region_ids=[scene.region["id"], self.far_region]).status_code == 200
        self.a1, self.a2, self.a3, self.a4 = (adult(scene, n) for n in ("A1", "A2", "A3", "A4"))
        self.b1, self.b2 = adult(scene, "B1"), adult(scene, "B2")
        self.c1, self.c2 = adult(scene, "C1"), adult(scene, "C2")
        self.home_report = scene.report([self.a1, self.a2, self.a3, self.a4, *self.others(6)])
        scene.report([self.b1, self.b2, *self.others(8)], venue_id=self.near)
        scene.report([self.c1, self.c2, *self.others(8)], venue_id=self.far)

    def others(self, n: int) -> list[int]:
        return [adult(self.scene, f"~x{i}") for i in range(n)]

    def body(
        self, order: list[int], days: int, kind: str = "playoff", venue_id: int | None = None
    ) -> dict[str, Any]:
        return self.scene.body(
            order, days_ago(days), kind=kind, season_id=self.scene.season_id, venue_id=venue_id
        )


@pytest.fixture()
def world(make_scene: MakeScene, league: League) -> World:
    return World(make_scene(**ended_season(championship=None)), league)


def venue_qualifiers(scene: Scene, venue_id: int | None = None, query: str = "") -> list[int]:
    return ids_of(
        read_qualifiers(scene.public, scene.season_id, venue_id or scene.venue_id, query)["qualifiers"]
    )


# R3: playoffs ------------------------------------------------------------------------------


def test_a_playoff_of_the_regions_qualifiers_is_accepted_and_counts_for_no_standings_r3(world: World) -> None:
    """R3: the home region's four qualifiers (two venues) play a playoff at either of its venues;
    neither the standings nor the qualifier lists (quota, tournaments) change."""
    scene = world.scene
    assert venue_qualifiers(scene) == [world.a1, world.a2]
    assert venue_qualifiers(scene, world.near) == [world.b1, world.b2]
    standings = {v: scene.standings(venue_id=v) for v in (scene.venue_id, world.near)}
    lists = read_qualifiers(scene.public, scene.season_id)
    order = [world.b2, world.a2, world.b1, world.a1]
    report = scene.posted(world.body(order, 5))  # the host of the scene's venue
    assert (report["kind"], report["season_id"]) == ("playoff", scene.season_id)
    other = scene.posted(world.body(list(reversed(order)), 4, venue_id=world.near), scene.office)
    assert other["kind"] == "playoff"
    for venue_id, before in standings.items():
        assert scene.standings(venue_id=venue_id) == before
    after = read_qualifiers(scene.public, scene.season_id)
    assert after["venues"] == lists["venues"]
    assert all(v["tournaments"] == 1 for v in after["venues"])


def test_a_playoff_with_a_non_qualifier_is_refused_naming_the_row_r3(world: World) -> None:
    """R3: A3 (third at the home venue, quota 2) and a brand-new player did not qualify: each row
    is named; the report is refused whole."""
    scene = world.scene
    stored = scene.stored_reports()
    body = world.body([world.a1, world.a3, world.b1], 5)
    body["results"].append(
        {"place": 4, "new_player": {"full_name": "Newt Comer", "email": "newt@example.org"}}
    )
    problem = assert_problem(scene.post(body), 422, "results.1.player_id", "results.3.player_id", rule="R3")
    assert "results.0.player_id" not in problem["errors"]
    assert "results.2.player_id" not in problem["errors"]
    assert scene.stored_reports() == stored


def test_a_playoff_refuses_a_qualifier_of_another_regions_venue_r3(world: World) -> None:
    """R3: C1 qualified at the Far region's venue: not for the home region's playoff, but for
    the Far region's."""
    scene = world.scene
    stored = scene.stored_reports()
    problem = assert_problem(
        scene.post(world.body([world.a1, world.c1, world.a2], 5)), 422, "results.1.player_id", rule="R3"
    )
    assert set(problem["errors"]) == {"results.1.player_id"}
    assert scene.stored_reports() == stored
    far = world.body([world.c2, world.c1], 5, venue_id=world.far)
    assert scene.post(far, scene.office).status_code == 201
    assert_problem(
        scene.post(world.body([world.c1, world.a1], 4, venue_id=world.far), scene.office),
        422,
        "results.1.player_id",
        rule="R3",
    )


def test_a_skipped_player_is_no_qualifier_for_a_playoff_r3_r13(world: World) -> None:
    """R3/R13: once disqualified, A1 is no qualifier; A3 moved up and may play."""
    scene = world.scene
    response = scene.office.post(
        f"{SEASONS}/{scene.season_id}/disqualifications", json={"player_id": world.a1, "reason": "Collusion."}
    )
    assert response.status_code == 201
    assert_problem(scene.post(world.body([world.a2, world.a1], 5)), 422, "results.1.player_id", rule="R3")
    assert scene.post(world.body([world.a2, world.a3], 5)).status_code == 201


def test_once_published_the_published_lists_decide_r3_r12(world: World) -> None:
    """R3/R12: after publishing, a correction puts A3 and A4 on top: A1 (who would drop out) may
    still play, A3 (who would come in) may not, until the office publishes again. With the lists
    published a host reports no night of the season (R17): the playoffs are the office's, with a
    reason."""
    scene = world.scene
    assert scene.office.post(f"{SEASONS}/{scene.season_id}/qualifiers/publish", json={}).status_code == 201
    report = world.home_report
    order = [world.a3, world.a4, world.a1, world.a2, *[r["player"]["id"] for r in report["results"][4:]]]
    correction = {**scene.body(order, date.fromisoformat(report["date"])), "reason": "Sheet misread."}
    assert scene.office.put(f"{TOURNAMENTS}/{report['id']}", json=correction).status_code == 200
    assert venue_qualifiers(scene) == [world.a1, world.a2]
    assert venue_qualifiers(scene, query="?view=current") == [world.a3, world.a4]
    assert_problem(scene.post(world.body([world.a1, world.a2, world.b1], 6)), 403, rule="R17")

    def office_post(order: list[int], days: int) -> Any:
        return scene.post({**world.body(order, days), "reason": OFFICE_LATE}, scene.office)

    assert_problem(office_post([world.a1, world.a3], 6), 422, "results.1.player_id", rule="R3")
    assert office_post([world.a1, world.a2, world.b1], 6).status_code == 201
    # Published again: now A3 plays and A1 does not.
    assert scene.office.post(f"{SEASONS}/{scene.season_id}/qualifiers/publish", json={}).status_code == 201
    assert office_post([world.a3, world.a4, world.b2], 5).status_code == 201
    assert_problem(office_post([world.a3, world.a1], 4), 422, "results.1.player_id", rule="R3")


# R3: the championship ------------------------------------------------------------------------


def test_the_championship_takes_any_regions_qualifiers_r3(world: World) -> None:
    """R3: the championship is not regional: qualifiers of both regions play, at any venue; it
    counts for no standings."""
    scene = world.scene
    before = scene.standings()
    order = [world.c1, world.a1, world.b1, world.c2, world.a2, world.b2]
    report = scene.posted(world.body(order, 3, kind="championship"), scene.office)
    assert report["kind"] == "championship"
    assert not [w for w in report.get("warnings", []) if w["code"] == "age_unverified"]
    assert scene.standings() == before
    assert_problem(
        scene.post(world.body([world.c1, world.a3], 2, kind="championship"), scene.office),
        422,
        "results.1.player_id",
        rule="R3",
    )


@pytest.fixture()
def ages(make_scene: MakeScene) -> tuple[Scene, dict[str, int]]:
    """An ended season whose championship_date is 2 days ago; everyone of its one tournament
    qualifies (cut_fraction 1). Young turns 21 three days ago; Unknown has no date of birth."""
    scene = make_scene(**ended_season(championship=None), championship_date=ago(2), cut_fraction=1)
    players = {
        "young": person(scene, "Young", date_of_birth=born(21, days_ago(3))),
        "adult": adult(scene, "Adult"),
        "unknown": scene.player("Unknown"),
    }
    scene.report(list(players.values()))
    return scene, players


def test_the_championship_refuses_who_is_under_min_age_on_its_date_r3(ages: Any) -> None:
    """R3: min_age is reckoned on the championship's date (the report's): Young, 21 since three
    days ago, is refused at a championship four days ago and accepted at one three days ago."""
    scene, p = ages
    assert set(venue_qualifiers(scene)) == set(p.values())
    stored = scene.stored_reports()
    body = scene.body([p["adult"], p["young"]], days_ago(4), kind="championship", season_id=scene.season_id)
    problem = assert_problem(scene.post(body, scene.office), 422, "results.1.player_id", rule="R3")
    assert "results.0.player_id" not in problem["errors"]
    assert scene.stored_reports() == stored
    body = scene.body([p["adult"], p["young"]], days_ago(3), kind="championship", season_id=scene.season_id)
    assert scene.post(body, scene.office).status_code == 201


def test_the_championship_accepts_an_unknown_age_with_a_warning_r3(ages: Any) -> None:
    """R3: a championship entrant without a date of birth is accepted, warned age_unverified."""
    scene, p = ages
    body = scene.body([p["adult"], p["unknown"]], days_ago(3), kind="championship", season_id=scene.season_id)
    report = scene.posted(body, scene.office)
    warnings = [w for w in report["warnings"] if w["code"] == "age_unverified"]
    assert len(warnings) == 1
    assert warnings[0]["player_ids"] == [p["unknown"]]
    assert warnings[0]["rule"] == "R3"
    assert warnings[0]["message"].startswith("place 2: ")  # the row, by its place


def test_min_age_is_the_seasons_setting_r3(make_scene: MakeScene) -> None:
    """R3: with min_age 18, an 18-year-old qualifier plays the championship."""
    scene = make_scene(
        **ended_season(championship=None), championship_date=ago(2), cut_fraction=1, min_age=18
    )
    teen = person(
        scene, "Teen", date_of_birth=day_after(born(19, days_ago(3)))
    )  # 18 on the day, 19 from the next
    other = adult(scene, "Adult")
    scene.report([teen, other])
    assert set(venue_qualifiers(scene)) == {teen, other}
    body = scene.body([teen, other], days_ago(3), kind="championship", season_id=scene.season_id)
    assert scene.post(body, scene.office).status_code == 201


# R13: disqualifications (the office's) -------------------------------------------------------


def dq_path(scene: Scene) -> str:
    return f"{SEASONS}/{scene.season_id}/disqualifications"


@pytest.fixture()
def three(make_scene: MakeScene) -> tuple[Scene, list[int]]:
    scene = make_scene(**ended_season(championship=None))
    ids = [adult(scene, n) for n in ("Ace", "Bee", "Cat")]
    scene.report([*ids, *[adult(scene, f"~f{i}") for i in range(7)]])
    return scene, ids


def test_the_office_disqualifies_and_lists_disqualifications_r13(three: Any) -> None:
    scene, (ace, bee, cat) = three
    response = scene.office.post(dq_path(scene), json={"player_id": ace, "reason": "Collusion."})
    assert response.status_code == 201, response.get_data(as_text=True)
    item = response.get_json()
    assert (item["season_id"], item["player_id"], item["reason"]) == (scene.season_id, ace, "Collusion.")
    assert item["player"] == {"id": ace, "display_name": "Ace", "label": "Ace"}
    assert item["withdrawn"] is False
    listed = scene.office.get(dq_path(scene))
    assert listed.status_code == 200
    assert [(d["id"], d["player_id"], d["withdrawn"]) for d in listed.get_json()["items"]] == [
        (item["id"], ace, False)
    ]
    assert venue_qualifiers(scene) == [bee, cat]


def test_a_disqualification_is_for_its_season_only_r13(three: Any, league: League) -> None:
    """R13: a disqualification in another season of the venue skips no one in this one."""
    scene, (ace, bee, _cat) = three
    earlier = league.season(region_ids=[scene.region["id"]], starts_on=ago(300), ends_on=ago(200))
    url = f"{SEASONS}/{earlier['id']}/disqualifications"
    assert scene.office.post(url, json={"player_id": ace, "reason": "Collusion."}).status_code == 201
    assert venue_qualifiers(scene) == [ace, bee]
    assert scene.office.get(dq_path(scene)).get_json()["items"] == []


def test_disqualifications_are_the_offices_r13(three: Any) -> None:
    scene, (ace, *_rest) = three
    body = {"player_id": ace, "reason": "Collusion."}
    assert_problem(scene.public.post(dq_path(scene), json=body), 401)
    assert_problem(scene.host.post(dq_path(scene), json=body), 403)
    assert_problem(scene.public.get(dq_path(scene)), 401)
    assert_problem(scene.host.get(dq_path(scene)), 403)
    assert scene.office.get(dq_path(scene)).get_json()["items"] == []
    assert venue_qualifiers(scene)[0] == ace


def test_disqualifying_an_unknown_player_is_422_and_twice_is_409_r13(three: Any) -> None:
    scene, (ace, *_rest) = three
    assert_problem(
        scene.office.post(dq_path(scene), json={"player_id": 999_999, "reason": "x"}), 422, "player_id"
    )
    assert_problem(scene.office.post(dq_path(scene), json={"player_id": ace}), 422, "reason")
    assert scene.office.get(dq_path(scene)).get_json()["items"] == []
    assert (
        scene.office.post(dq_path(scene), json={"player_id": ace, "reason": "Collusion."}).status_code == 201
    )
    assert_problem(scene.office.post(dq_path(scene), json={"player_id": ace, "reason": "Again."}), 409)
    assert len(scene.office.get(dq_path(scene)).get_json()["items"]) == 1
    assert_problem(
        scene.office.post(f"{SEASONS}/999999/disqualifications", json={"player_id": ace, "reason": "x"}), 404
    )


def test_withdrawing_keeps_the_record_and_the_player_qualifies_again_r13(three: Any) -> None:
    scene, (ace, bee, cat) = three
    item = scene.office.post(dq_path(scene), json={"player_id": ace, "reason": "Collusion."}).get_json()
    assert venue_qualifiers(scene) == [bee, cat]
    url = f"{dq_path(scene)}/{item['id']}/withdraw"
    assert_problem(scene.host.post(url, json={"reason": "Cleared."}), 403)
    assert_problem(scene.office.post(url, json={}), 422, "reason")
    response = scene.office.post(url, json={"reason": "Cleared on appeal."})
    assert response.status_code in (200, 201), response.get_data(as_text=True)
    withdrawn = response.get_json()
    assert withdrawn["id"] == item["id"]
    assert withdrawn["withdrawn"] is True
    assert withdrawn["withdraw_reason"] == "Cleared on appeal."
    assert withdrawn["withdrawn_at"]
    (listed,) = scene.office.get(dq_path(scene)).get_json()["items"]
    assert (listed["id"], listed["withdrawn"], listed["reason"]) == (item["id"], True, "Collusion.")
    assert venue_qualifiers(scene) == [ace, bee]
    # A withdrawn disqualification leaves room for a new one.
    assert (
        scene.office.post(dq_path(scene), json={"player_id": ace, "reason": "New evidence."}).status_code
        == 201
    )
    assert venue_qualifiers(scene) == [bee, cat]
    assert len(scene.office.get(dq_path(scene)).get_json()["items"]) == 2


def test_disqualifications_are_audited_r13_r18(three: Any) -> None:
    scene, (ace, *_rest) = three
    item = scene.office.post(dq_path(scene), json={"player_id": ace, "reason": "Collusion."}).get_json()
    scene.office.post(f"{dq_path(scene)}/{item['id']}/withdraw", json={"reason": "Cleared."})
    created = audit_entries(scene.office, "action=disqualification.create")
    withdrawn = audit_entries(scene.office, "action=disqualification.withdraw")
    assert [e["entity_id"] for e in created] == [item["id"]]
    assert [e["entity_id"] for e in withdrawn] == [item["id"]]
    assert created[0]["actor"] == "Office: Test"
    assert withdrawn[0]["reason"] == "Cleared."
