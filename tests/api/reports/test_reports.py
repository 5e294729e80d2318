"""POST /api/v1/tournaments as JSON: who may report, what the stored report says, the points of
each result (R6-R8), how players are named and created (R5)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import g

from api.reports.schemas import ReportOut, ReportWritten
from models.actor import Actor
from models.entities import Report
from models.rules.notices import Notice
from tests.builders import (
    TOURNAMENTS,
    MakeScene,
    Scene,
    by_place,
    days_ago,
    iso,
    points_by_place,
    unique_email,
    unique_name,
)
from tests.support.league import League, assert_problem

# Who may report ---------------------------------------------------------------------------


def test_host_reports_own_venue_and_gets_the_stored_report_r7(scene: Scene) -> None:
    """R7 default chart (top 30%, step 10): 10 entrants score 30, 20, 10, then 0."""
    ids = scene.add_players(10)
    day = days_ago(3)
    response = scene.post(scene.body(ids, day))
    assert response.status_code == 201, response.get_json()
    report = response.get_json()
    assert report["venue_id"] == scene.venue_id
    assert report["season_id"] == scene.season["id"]
    assert report["date"] == iso(day)
    assert report["session"] == 1
    assert report["kind"] == "regular"
    assert report["entrants"] == 10
    assert report["warnings"] == []
    assert isinstance(report["id"], int)
    assert [r["player"]["id"] for r in report["results"]] == ids
    names = {p["id"]: p["display_name"] for p in scene.roster}
    assert all(r["player"]["display_name"] == names[r["player"]["id"]] for r in report["results"])
    assert set(report["results"][0]["player"]) == {"id", "display_name", "label"}
    assert all(r["player"]["label"] == r["player"]["display_name"] for r in report["results"])
    assert all(r["status"] == "played" for r in report["results"])
    assert points_by_place(report) == [
        (1, 30, 0, 30),
        (2, 20, 0, 20),
        (3, 10, 0, 10),
        *[(p, 0, 0, 0) for p in range(4, 11)],
    ]
    # The public reads the same report back, and sees it listed.
    again = scene.public.get(f"{TOURNAMENTS}/{report['id']}")
    assert again.status_code == 200
    assert points_by_place(again.get_json()) == points_by_place(report)
    assert again.get_json()["entrants"] == 10
    listed = scene.public.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}").get_json()
    assert listed["total"] == 1 and listed["items"][0]["id"] == report["id"]


def test_host_may_not_report_for_another_venue(scene: Scene) -> None:
    ids = scene.add_players(3)
    other_venue = scene.league.venue(scene.venue["region_id"])
    response = scene.post({**scene.body(ids), "venue_id": other_venue["id"]})
    assert_problem(response, 403)
    assert scene.stored_reports() == 0


def test_host_of_several_venues_reports_for_each(scene: Scene) -> None:
    ids = scene.add_players(3)
    other_venue = scene.league.venue(scene.venue["region_id"])
    host = scene.host_for(scene.venue_id, other_venue["id"])
    assert scene.post(scene.body(ids), host).status_code == 201
    assert scene.post({**scene.body(ids), "venue_id": other_venue["id"]}, host).status_code == 201
    assert scene.listed_reports() == 2


def test_office_reports_for_any_venue(scene: Scene) -> None:
    ids = scene.add_players(3)
    response = scene.post(scene.body(ids), scene.office)
    assert response.status_code == 201
    assert response.get_json()["entrants"] == 3


def test_public_may_not_report(scene: Scene) -> None:
    ids = scene.add_players(3)
    assert_problem(scene.post(scene.body(ids), scene.public), 401)
    assert_problem(scene.post(scene.body(ids), scene.public, headers={"Authorization": "Bearer nope"}), 401)
    assert scene.stored_reports() == 0


def test_list_filters_by_venue_date_and_kind(scene: Scene) -> None:
    ids = scene.add_players(3)
    first = scene.report(ids, days_ago(10))  # the office's: past the host's 7 days (R17)
    second = scene.posted(scene.body(ids, days_ago(3)))
    listed = scene.public.get(TOURNAMENTS).get_json()
    assert [item["id"] for item in listed["items"]] == [second["id"], first["id"]]  # newest first
    since = scene.public.get(f"{TOURNAMENTS}?from={iso(days_ago(5))}").get_json()
    assert [item["id"] for item in since["items"]] == [second["id"]]
    until = scene.public.get(f"{TOURNAMENTS}?to={iso(days_ago(5))}").get_json()
    assert [item["id"] for item in until["items"]] == [first["id"]]
    assert scene.public.get(f"{TOURNAMENTS}?kind=playoff").get_json()["total"] == 0
    assert scene.public.get(f"{TOURNAMENTS}?season_id={scene.season['id']}").get_json()["total"] == 2


# Points (R6, R7, R8) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entrants", "expected"),
    [
        (2, [10]),  # k = max(1, round_half_up(0.6)) = 1
        (5, [20, 10]),  # 1.5 rounds half up to 2
        (15, [50, 40, 30, 20, 10]),
        (24, [70, 60, 50, 40, 30, 20, 10]),
    ],
)
def test_default_chart_points_r7(scene: Scene, entrants: int, expected: list[int]) -> None:
    """R7: k = max(1, round_half_up(0.30 x n)) places score step x (k - p + 1)."""
    rows = [
        {"place": p, "new_player": {"full_name": unique_name(), "email": unique_email()}}
        for p in range(1, entrants + 1)
    ]
    report = scene.posted({"venue_id": scene.venue_id, "date": iso(days_ago(2)), "results": rows})
    placement = [r["placement_points"] for r in sorted(report["results"], key=lambda r: r["place"])]
    assert placement == expected + [0] * (entrants - len(expected))
    assert report["entrants"] == entrants


def test_participation_points_and_statuses_r6_r8(make_scene: MakeScene) -> None:
    """R8: participation points for played, declared_withdrawal and absent, never no_show.
    R6: absent earns no placement points (season default); a declared withdrawal at place 2
    keeps place 2's points; a no_show at place 1 earns nothing at all."""
    scene = make_scene(participation_points=5)
    ids = scene.add_players(10)
    body = scene.body(ids)
    statuses = {1: "no_show", 2: "declared_withdrawal", 3: "absent", 4: "played"}
    for row in body["results"]:
        if row["place"] in statuses:
            row["status"] = statuses[row["place"]]
    report = scene.posted(body)
    rows = by_place(report)
    assert [rows[p]["status"] for p in (1, 2, 3, 4, 5)] == [
        "no_show",
        "declared_withdrawal",
        "absent",
        "played",
        "played",
    ]
    assert points_by_place(report)[:5] == [
        (1, 0, 0, 0),  # no_show: nothing, although 1st place is worth 30
        (2, 20, 5, 25),  # declared_withdrawal keeps place 2's points
        (3, 0, 5, 5),  # absent: participation only
        (4, 0, 5, 5),
        (5, 0, 5, 5),
    ]
    # The unclaimed points are not passed on (R6): nobody has 30.
    assert max(r["placement_points"] for r in report["results"]) == 20


def test_absent_keeps_place_points_when_the_season_says_so_r6(make_scene: MakeScene) -> None:
    """R6: with absent_keeps_place_points on, an absent player at place 3 of 10 keeps 10."""
    scene = make_scene(absent_keeps_place_points=True, participation_points=2)
    ids = scene.add_players(10)
    body = scene.body(ids)
    body["results"][2]["status"] = "absent"
    body["results"][0]["status"] = "no_show"
    report = scene.posted(body)
    assert points_by_place(report)[:4] == [(1, 0, 0, 0), (2, 20, 2, 22), (3, 10, 2, 12), (4, 0, 2, 2)]


def test_unknown_status_is_refused_r6(scene: Scene) -> None:
    ids = scene.add_players(3)
    body = scene.body(ids)
    body["results"][1]["status"] = "busted"
    assert_problem(scene.post(body), 422, "results.1.status")
    assert scene.stored_reports() == 0


@pytest.fixture()
def bands_scene(league: League, make_scene: MakeScene) -> Scene:
    """A scene whose season scores with bands: n=4-8 -> 50, 30, 10; n=9-12 -> 60, 40, 20, 10."""
    chart = league.chart(
        kind="bands",
        bands=[
            {"min_entrants": 4, "max_entrants": 8, "points": [50, 30, 10]},
            {"min_entrants": 9, "max_entrants": 12, "points": [60, 40, 20, 10]},
        ],
    )
    return make_scene(points_chart_id=chart["id"])


def test_bands_chart_scores_from_the_band_of_n_r7(bands_scene: Scene) -> None:
    """R7 bands: 5 entrants use the 4-8 band (50, 30, 10); places past the list earn 0."""
    scene = bands_scene
    ids = scene.add_players(9)
    report = scene.posted(scene.body(ids[:5]))
    assert [r["placement_points"] for r in report["results"]] == [50, 30, 10, 0, 0]
    nine = scene.posted(scene.body(ids, session=2))
    assert [r["placement_points"] for r in nine["results"]] == [60, 40, 20, 10, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("entrants", [3, 13])
def test_bands_chart_refuses_n_outside_every_band_r7(bands_scene: Scene, entrants: int) -> None:
    """R7: an n outside every band is refused when the report comes in; nothing is stored,
    not even the new player the report would have registered."""
    scene = bands_scene
    ids = scene.add_players(entrants - 1)
    body = scene.body(ids)
    body["results"].append(
        {"place": entrants, "new_player": {"full_name": unique_name(), "email": unique_email()}}
    )
    before = scene.counts()
    problem = assert_problem(scene.post(body), 422, "results", rule="R7")
    assert problem["detail"].startswith("R7")
    assert any(f"{entrants} entrants" in m for m in problem["errors"]["results"])
    assert scene.counts() == before


# Naming players (R5) ----------------------------------------------------------------------


def test_players_named_by_id_membership_number_and_email_r5(scene: Scene) -> None:
    """R5: a result names its player by id, membership number or email (any case)."""
    by_id = scene.league.player(unique_name())
    by_number = scene.league.player(unique_name(), membership_number="198507211234")
    by_email = scene.league.player(unique_name(), email="sam.hill@example.org")
    body = {
        "venue_id": scene.venue_id,
        "date": iso(days_ago(1)),
        "results": [
            {"place": 1, "player_id": by_id["id"]},
            {"place": 2, "membership_number": "198507211234"},
            {"place": 3, "email": "Sam.Hill@Example.ORG", "status": "declared_withdrawal"},
        ],
    }
    before = scene.player_count()
    report = scene.posted(body)
    assert [r["player"]["id"] for r in report["results"]] == [by_id["id"], by_number["id"], by_email["id"]]
    assert report["results"][2]["status"] == "declared_withdrawal"
    assert scene.player_count() == before


def test_new_player_is_created_r5(scene: Scene) -> None:
    """R5: new_player registers the player with the report; the office then sees them."""
    ids = scene.add_players(2)
    before = scene.player_count()
    body = scene.body(ids)
    body["results"].append({"place": 3, "new_player": {"full_name": "Ann Lee", "email": "Ann@Example.org"}})
    report = scene.posted(body)
    assert scene.player_count() == before + 1
    new = by_place(report)[3]["player"]
    assert new["id"] not in ids
    assert new["display_name"] == "Ann L."
    profile = scene.office.get(f"/api/v1/players/{new['id']}").get_json()
    assert profile["full_name"] == "Ann Lee"
    assert profile["email"] == "ann@example.org"
    assert report["warnings"] == []


def test_email_with_full_name_registers_a_new_player_r5(scene: Scene) -> None:
    ids = scene.add_players(1)
    before = scene.player_count()
    body = scene.body(ids)
    body["results"].append({"place": 2, "email": "kim@example.org", "full_name": "Kim Park"})
    report = scene.posted(body)
    assert scene.player_count() == before + 1
    assert by_place(report)[2]["player"]["display_name"] == "Kim P."


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Ann Lee", "ann  LÉE"),  # the same normalised name
        ("Jonathan Smith", "Jonathon Smith"),  # one letter off
        ("Ann Lee", "Lee Ann"),  # the same words reordered
    ],
)
def test_close_name_is_created_and_reported_as_possible_duplicate_r5(
    scene: Scene, existing: str, new: str
) -> None:
    """R5: a new player whose name closely matches an existing one is still created, and the
    answer's warnings list the candidates' ids."""
    match = scene.league.player(existing)
    scene.league.player(unique_name())  # not similar: not listed
    body = {
        "venue_id": scene.venue_id,
        "date": iso(days_ago(2)),
        "results": [
            {"place": 1, "new_player": {"full_name": new, "email": unique_email()}},
            {"place": 2, "player_id": scene.player()},
        ],
    }
    before = scene.player_count()
    report = scene.posted(body)
    assert scene.player_count() == before + 1
    created = report["results"][0]["player"]["id"]
    assert created != match["id"]
    duplicates = [w for w in report["warnings"] if w["code"] == "possible_duplicate"]
    assert len(duplicates) == 1
    assert duplicates[0]["player_ids"] == [match["id"]]
    assert f"(#{created})" in duplicates[0]["message"]
    assert (
        duplicates[0]["message"].startswith("place 1: ") and f"(#{match['id']})" in duplicates[0]["message"]
    )


def test_new_players_alike_within_one_report_are_listed_closest_first_at_most_ten_r5(scene: Scene) -> None:
    """R5: each new player is compared with the players registered before it, those registered
    earlier in the same report included. A name matched by many lists its 10 closest (the same
    name before a one-letter typo, then by id) and says how many match in all."""
    typo = scene.league.player("Ann Ashbey")
    same = scene.league.player("Ann Ashby")
    rows = [
        {"place": place, "new_player": {"full_name": "Ann Ashby", "email": unique_email()}}
        for place in range(1, 14)
    ]
    rows.append({"place": 14, "new_player": {"full_name": "Zed Quill", "email": unique_email()}})
    report = scene.posted({"venue_id": scene.venue_id, "date": iso(days_ago(1)), "results": rows})
    created = [row["player"]["id"] for row in report["results"]]
    notices = {w["message"].split(":")[0]: w for w in report["warnings"] if w["code"] == "possible_duplicate"}
    assert set(notices) == {f"place {place}" for place in range(1, 14)}  # not the Zed Quill row
    assert notices["place 1"]["player_ids"] == [same["id"], typo["id"]]
    assert notices["place 1"]["rule"] == "R5"
    assert notices["place 3"]["player_ids"] == [same["id"], *created[:2], typo["id"]]
    last = notices["place 13"]
    assert last["player_ids"] == [same["id"], *created[:9]]
    assert "(the 10 closest of 14)" in last["message"] and f"(#{created[12]})" in last["message"]


def test_look_alikes_are_found_alike_for_one_new_player_and_for_many_r5(scene: Scene) -> None:
    """R5: a few new names are looked up in the database, many are compared in memory; both ways
    find the same look-alikes: the same name, its words reordered, a typo, a typo in the first
    letter of a name sharing a word; not a different name."""
    alike = [
        scene.league.player(name)["id"] for name in ("Ann Leeson", "Leeson Ann", "Xnn Leeson", "Ann Leesom")
    ]
    scene.league.player("Bob Smith")
    rows = [{"place": 1, "new_player": {"full_name": "Ann Leeson", "email": unique_email()}}]
    rows += [
        {"place": place, "new_player": {"full_name": f"Player {place} Other", "email": unique_email()}}
        for place in range(2, 12)
    ]
    report = scene.posted({"venue_id": scene.venue_id, "date": iso(days_ago(1)), "results": rows})
    in_report = next(w for w in report["warnings"] if w["message"].startswith("place 1:"))
    assert sorted(in_report["player_ids"]) == sorted(alike)
    lone = scene.office.post("/api/v1/players", json={"full_name": "Ann Leeson", "email": unique_email()})
    assert lone.status_code == 201
    (warning,) = lone.get_json()["warnings"]
    assert sorted(warning["player_ids"]) == sorted([*alike, report["results"][0]["player"]["id"]])


# The report's shape -----------------------------------------------------------------------


def test_session_and_kind_default_and_session_is_kept(scene: Scene) -> None:
    ids = scene.add_players(2)
    report = scene.posted(scene.body(ids, session=3))
    assert (report["session"], report["kind"]) == (3, "regular")


def test_a_date_of_today_is_accepted_r2(scene: Scene) -> None:
    """R2: only dates after today are in the future."""
    ids = scene.add_players(2)
    assert scene.post(scene.body(ids, days_ago(0))).status_code == 201


def test_unknown_report_is_404(scene: Scene) -> None:
    assert_problem(scene.public.get(f"{TOURNAMENTS}/999999"), 404)
    assert_problem(scene.public.get(f"{TOURNAMENTS}/99999999999999"), 404)


def test_new_player_with_a_known_email_r5(scene: Scene) -> None:
    """R5: a new_player whose email is already registered to the same person (a close name) is
    that player, with an existing_player warning; to a clearly different name it is refused,
    so no points land on the wrong player."""
    known = scene.league.player("Ann Keane", email="ann.k@example.org")
    others = scene.add_players(1)
    same = scene.body(others)
    same["results"].append(
        {"place": 2, "new_player": {"full_name": "Ann Keene", "email": "ANN.K@example.org"}}
    )
    created = scene.posted(same)
    assert created["results"][1]["player"]["id"] == known["id"]
    assert [w["code"] for w in created["warnings"]] == ["existing_player"]
    other = scene.body(others, day=days_ago(3))
    other["results"].append(
        {"place": 2, "new_player": {"full_name": "Bob Smith", "email": "ann.k@example.org"}}
    )
    response = scene.host.post(TOURNAMENTS, json=other)
    assert_problem(response, 422, "results.1.new_player.email", rule="R5")


@pytest.mark.parametrize("dry_run", [False, True])
def test_report_answers_written_directly_are_the_schemas_dump_r5_r7(
    scene: Scene, app: Any, dry_run: bool
) -> None:
    """R5, R7: a report's answer (201, a dry run's 200, a correction's and a void's) is written
    without the schema's per-field dump (for speed); it must be exactly what ReportWritten dumps
    of the same report: rows with points and players, a new player's possible-duplicate
    warning (R5, with its rule), timestamps and the void."""
    match = scene.league.player("Jonathan Whitfield")
    players = scene.players("Ann", "Bob", "Cy")
    body = scene.body(players, days_ago(1))
    body["results"].append(
        {"place": 4, "new_player": {"full_name": "Jonathon Whitfield", "email": unique_email()}}
    )
    query = "?dry_run=1" if dry_run else ""
    answer = scene.office.post(f"{TOURNAMENTS}{query}", json=body)
    assert answer.status_code == (200 if dry_run else 201), answer.get_data(as_text=True)
    written = answer.get_json()
    assert written.pop("dry_run", False) is dry_run
    assert [w["player_ids"] for w in written["warnings"] if w["code"] == "possible_duplicate"] == [
        [match["id"]]
    ]
    if dry_run:
        return
    assert written == schema_dump(app, written["id"], written["warnings"])
    corrected = scene.office.put(
        f"{TOURNAMENTS}/{written['id']}", json={"results": body["results"][:3], "reason": "Typo."}
    )
    assert corrected.status_code == 200
    assert corrected.get_json() == schema_dump(app, written["id"], corrected.get_json()["warnings"])
    voided = scene.office.post(f"{TOURNAMENTS}/{written['id']}/void", json={"reason": "Twice."})
    assert voided.status_code == 200
    assert voided.get_json()["voided_at"].endswith("Z")


def schema_dump(app: Any, report_id: int, warnings: list[dict[str, Any]]) -> dict[str, Any]:
    """ReportWritten's dump of the stored report, with these warnings, as the office sees it."""
    with app.test_request_context():
        g.actor = Actor(role="office", name="Office: the test")  # as the office, who wrote them
        session = app.extensions["league_db"].read_sessionmaker()
        report = session.get(Report, report_id)
        notices = [Notice(w["code"], w["message"], tuple(w["player_ids"]), w["rule"]) for w in warnings]
        values = {name: getattr(report, name) for name in ReportOut().fields}
        dumped: dict[str, Any] = json.loads(json.dumps(ReportWritten().dump({**values, "warnings": notices})))
        session.close()
    return dumped


def test_who_reported_is_a_role_for_all_but_the_office_and_the_venues_hosts_r19(
    scene: Scene, host_for: Any
) -> None:
    """R19: a key's name may be a person's ("Host: Dana at the Crown"). The office and the
    venue's hosts see it; the public and other venues' hosts see the role only, in the list and
    by id. Everyone sees reported_by_role."""
    other_host = host_for(scene.league.venue(scene.region["id"])["id"], name="Host: Elsewhere")
    posted = scene.posted(scene.body(scene.players("Ann", "Bob"), days_ago(2)), scene.host)
    name = posted["reported_by"]
    assert name != "host" and posted["reported_by_role"] == "host"
    by_office = scene.posted(scene.body(scene.players("Cy", "Di"), days_ago(3)), scene.office)
    assert by_office["reported_by_role"] == "office"
    for caller, sees_names in (
        (scene.office, True),
        (scene.host, True),
        (other_host, False),
        (scene.public, False),
    ):
        one = caller.get(f"{TOURNAMENTS}/{posted['id']}").get_json()
        listed = {
            r["id"]: r for r in caller.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}").get_json()["items"]
        }
        for answer in (one, listed[posted["id"]]):
            assert answer["reported_by"] == (name if sees_names else "host")
            assert answer["reported_by_role"] == "host"
        assert listed[by_office["id"]]["reported_by"] == (
            by_office["reported_by"] if sees_names else "office"
        )
