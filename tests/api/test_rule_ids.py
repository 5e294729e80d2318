"""Every refusal that comes from a league rule says which, as data: `rule`, the
`urn:pokerleague:problem:Rn` type and a detail led by the rule ids, all from the one value the
check built (never from message text)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy.exc import IntegrityError, InternalError, OperationalError

from api.errors import database_problem
from tests.builders import TOURNAMENTS, Scene, by_place, days_ago, unique_email
from tests.support.league import assert_problem


def test_r17_window_refusal_names_r17(make_scene: Any) -> None:
    """R17: a host past correction_days gets a 403 that names R17, not a bare 403."""
    scene: Scene = make_scene(correction_days=0)
    ids = scene.add_players(2)
    report = scene.report(ids, day=days_ago(3))
    url = f"{TOURNAMENTS}/{report['id']}"
    for response in (
        scene.host.put(url, json={**scene.body(ids, days_ago(3)), "reason": "typo"}),
        scene.host.post(f"{url}/void", json={"reason": "typo"}),
    ):
        body = assert_problem(response, 403, rule="R17")
        assert body["title"] == "Forbidden"


def test_r17_another_venues_host_is_refused_naming_r17(scene: Scene) -> None:
    """R17: a host corrects or voids only their own venue's reports."""
    ids = scene.add_players(2)
    report = scene.posted(scene.body(ids))
    stranger = scene.host_for(scene.league.venue()["id"], name="Host: Elsewhere")
    assert_problem(stranger.post(f"{TOURNAMENTS}/{report['id']}/void", json={"reason": "x"}), 403, rule="R17")


def test_rule_is_matched_exactly_not_as_a_prefix_r7(scene: Scene) -> None:
    """R7 (a chart with no band for 2 entrants) is not R1 or R17: `rule` is the id itself."""
    chart = scene.league.chart(kind="bands", bands=[{"min_entrants": 3, "max_entrants": 9, "points": [3]}])
    assert scene.patch(points_chart_id=chart["id"]).status_code == 200
    body = assert_problem(scene.post(scene.body(scene.add_players(2))), 422, "results", rule="R7")
    assert body["rule"] != "R1" and body["detail"].startswith("R7:")


def test_several_rules_lowest_first_r2_r4_r5(scene: Scene) -> None:
    """R2, R4 and R5 broken at once: `rule` is the lowest-numbered, the detail lists them all."""
    ids = scene.add_players(3)
    body = scene.body(ids, day=days_ago(-7))
    body["results"][1]["place"] = 1
    body["results"][2] = {"place": 3, "email": "nobody-here@example.org"}
    problem = assert_problem(scene.post(body), 422, "date", "results.1.place", "results.2.email", rule="R2")
    assert problem["detail"].startswith("R2, R4, R5: ")


def test_plain_bad_input_names_no_rule(scene: Scene) -> None:
    """A malformed field breaks no league rule: no `rule`, type about:blank."""
    body = scene.body(scene.add_players(2))
    body["session"] = 0
    problem = assert_problem(scene.post(body), 422, "session")
    assert "rule" not in problem and problem["type"] == "about:blank"


def test_warnings_name_their_rule_r5(scene: Scene) -> None:
    """R5: a possible duplicate is accepted with a warning that carries R5 as data."""
    existing = scene.league.player("Marguerite Okonkwo-Smith")
    body = {
        "venue_id": scene.venue_id,
        "date": days_ago(1).isoformat(),
        "results": [
            {"place": 1, "player_id": existing["id"]},
            {"place": 2, "new_player": {"full_name": "Marguerite Okonkwo Smyth", "email": unique_email()}},
        ],
    }
    posted = scene.posted(body)
    (warning,) = posted["warnings"]
    assert warning["code"] == "possible_duplicate"
    assert warning["rule"] == "R5"
    assert warning["player_ids"] == [existing["id"]]
    new_id = by_place(posted)[2]["player"]["id"]
    assert warning["message"] == (
        f"place 2: the new player Marguerite S. (#{new_id}) closely matches Marguerite O. "
        f"(#{existing['id']}); the office can merge them (R5)."
    )


def test_a_database_guard_names_its_rule_r2(app: Flask) -> None:
    """R2: when a database trigger refuses (a race past the service's check), the answer names
    the rule the trigger guards, from the trigger's own "R2: …" message."""

    class TriggerError(Exception):
        def __str__(self) -> str:
            return "R2: seasons that cover a common venue may not overlap\nCONTEXT: PL/pgSQL function"

    with app.test_request_context():
        response = database_problem(IntegrityError("INSERT …", {}, TriggerError()))
    body = response.get_json()
    assert response.status_code == 422
    assert body["rule"] == "R2"
    assert body["type"] == "urn:pokerleague:problem:R2"
    assert body["detail"] == "R2: seasons that cover a common venue may not overlap"


def test_a_merge_guard_is_a_409_naming_r17(app: Flask) -> None:
    """R17: the merge guards of migration 0014 refuse what changed meanwhile (a record merged
    away): a 409 naming R17, from the trigger's "R17: …" message or the live-merge index."""

    class Raised(Exception):
        def __init__(self, text: str) -> None:
            super().__init__(text)

    with app.test_request_context():
        guard = database_problem(
            InternalError("UPDATE …", {}, Raised("R17: player 5 was merged away: it cannot be a survivor"))
        )
        index = database_problem(
            IntegrityError("INSERT …", {}, Raised("UNIQUE constraint failed: player_merges.duplicate_id"))
        )
    for response in (guard, index):
        body = response.get_json()
        assert (response.status_code, body["rule"], body["detail"][:5]) == (409, "R17", "R17: ")


def test_a_deadlock_or_a_serialization_failure_is_a_409_never_a_500_r17a(app: Flask) -> None:
    """R17a: should two writers ever meet crosswise (the lock order is there so that they do
    not), the loser is told to send the request again: a 409, not a 500."""

    class Deadlock(Exception):
        sqlstate = "40P01"

    class Serialization(Exception):
        sqlstate = "40001"

    with app.test_request_context():
        answers = [
            database_problem(OperationalError("UPDATE …", {}, error())) for error in (Deadlock, Serialization)
        ]
    assert [a.status_code for a in answers] == [409, 409]
    assert all("send it again" in a.get_json()["detail"] for a in answers)
