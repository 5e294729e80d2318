"""What a host who probes may send, and what the service answers: never a 500, always a problem
that names the field or header, and nothing changed. Each case was a 500 (or an answer that two
requests shared) before: a lone surrogate in JSON, an empty If-Match, days past the calendar, a
PATCH's half-sent bonus tier, a query parameter given twice, If-None-Match `*` before the caller
and the record were checked, made-up Authorization headers under /embed/, and a chart's PATCH
name that its POST would refuse."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.builders import SANCTIONS, SEASONS, TOURNAMENTS, Scene, ago, audit_entries
from tests.support.league import Caller, League, assert_problem


def test_a_lone_surrogate_in_any_json_string_is_a_400_naming_it(scene: Scene, office: Caller) -> None:
    regions = office.get("/api/v1/regions").get_json()["total"]
    refused = office.post(
        "/api/v1/regions", data='{"name": "North \\ud800"}', headers={"Content-Type": "application/json"}
    )
    assert "surrogate" in assert_problem(refused, 400, "name")["detail"]
    assert office.get("/api/v1/regions").get_json()["total"] == regions
    body = scene.body([scene.player()])
    body["results"].append({"place": 2, "full_name": "Zed \udfff", "email": "zed@example.org"})
    before = scene.counts()
    text = json.dumps(body)  # the escape \udfff, as a client's JSON would hold it
    refused = scene.host.post(TOURNAMENTS, data=text, headers={"Content-Type": "application/json"})
    assert_problem(refused, 400, "results.1.full_name")
    assert scene.counts() == before


@pytest.mark.parametrize("tag", ['""', 'W/""'])
def test_an_if_match_that_names_no_entity_tag_is_refused_naming_the_header_r17(
    scene: Scene, tag: str
) -> None:
    """R17: a void or a correction sent with If-Match `""` or `W/""` names no version to
    compare: a 422 naming If-Match, and the report is as it was."""
    report = scene.report([scene.player(), scene.player()])
    path = f"{TOURNAMENTS}/{report['id']}"
    voided = scene.office.post(f"{path}/void", json={"reason": "Test."}, headers={"If-Match": tag})
    assert_problem(voided, 422, "If-Match")
    correction = {"results": [{"place": 1, "player_id": report["results"][1]["player"]["id"]}], "reason": "x"}
    assert_problem(scene.office.put(path, json=correction, headers={"If-Match": tag}), 422, "If-Match")
    after = scene.office.get(path).get_json()
    assert (after["voided"], after["version"], len(after["results"])) == (False, 1, 2)


def test_days_past_the_calendar_are_refused_naming_the_field(scene: Scene, office: Caller) -> None:
    """Dates from 1900 to 2999 only: a week or a suspension whose end would leave Python's calendar
    is a 422 naming it, not a 500."""
    missing = office.get(f"{SEASONS}/{scene.season_id}/missing-reports?week=9999-W52")
    assert_problem(missing, 422, "week")
    player = scene.player()
    sanction = {"player_id": player, "kind": "suspension", "category": "fighting", "reason": "Test."}
    refused = office.post(SANCTIONS, json={**sanction, "first_day": "9999-12-30"})
    assert_problem(refused, 422, "first_day")
    assert_problem(
        office.post(SANCTIONS, json={**sanction, "first_day": ago(0), "last_day": "9999-12-31"}), 422
    )
    assert office.get(f"{SANCTIONS}?player_id={player}").get_json()["total"] == 0
    assert_problem(scene.public.get(f"{scene.path()}?as_of=9999-12-31"), 422, "as_of")


def test_a_patch_may_leave_fields_out_but_sends_each_nested_value_whole(scene: Scene) -> None:
    """A season PATCH whose attendance bonus tier lacks `events` is a 422 naming it (marshmallow's
    partial PATCH had dropped the tier's own required fields: a 500); the season is unchanged."""
    before = scene.office.get(f"{SEASONS}/{scene.season_id}").get_json()
    refused = scene.patch(attendance_bonus=[{"points": 5}], reason="Test.")
    assert_problem(refused, 422, "attendance_bonus.0.events")
    assert scene.office.get(f"{SEASONS}/{scene.season_id}").get_json() == before
    assert scene.patch(attendance_bonus=[{"events": 3, "points": 5}], reason="Test.").status_code == 200


def test_a_query_parameter_given_twice_is_a_400_naming_it(scene: Scene) -> None:
    """One request, one cache key: `?as_of=A&as_of=B` and `?as_of=B&as_of=A` were filed under one
    key (the view read the first), so one caller got the other's answer."""
    scene.report([scene.player(), scene.player()])
    first, second = ago(30), ago(1)
    for query in (f"as_of={first}&as_of={second}", f"as_of={second}&as_of={first}", "format=json&format=csv"):
        assert_problem(scene.public.get(f"{scene.path()}?{query}"), 400, query.split("=")[0])
    page = f"/embed/seasons/{scene.season_id}/venues/{scene.venue_id}/standings?rows=5&rows=6"
    assert scene.public.get(page).status_code == 400
    assert_problem(scene.office.get("/api/v1/players/1?x=1&x=2"), 400, "x")
    assert scene.public.get(f"{scene.path()}?as_of={second}").status_code == 200


def test_if_none_match_star_is_looked_at_after_the_caller_and_the_record(
    scene: Scene, public: Caller, office: Caller
) -> None:
    star = {"If-None-Match": "*"}
    assert_problem(public.get("/api/v1/api-keys", headers=star), 401)
    assert_problem(scene.host.get("/api/v1/api-keys", headers=star), 403)
    assert_problem(public.get("/api/v1/players/987654321", headers=star), 404)
    assert public.get(f"/api/v1/players/{scene.player()}", headers=star).status_code == 304
    assert office.get("/api/v1/api-keys", headers=star).status_code == 304


def test_embed_pages_count_requests_per_address_whatever_authorization_says(
    make_app: Any, scene: Scene
) -> None:
    """Under /embed/ no key is read, so a made-up Authorization header per request is no one's key:
    the default limit counts the address."""
    limited = make_app(RATELIMIT_ENABLED=True, RATELIMIT_DEFAULT="3 per minute")
    client = limited.test_client()
    page = f"/embed/seasons/{scene.season_id}/venues/{scene.venue_id}/standings"
    statuses = [
        client.get(page, headers={"Authorization": f"Bearer made-up-{n}"}).status_code for n in range(5)
    ]
    assert statuses == [200, 200, 200, 429, 429]


def test_a_chart_patch_name_is_checked_as_its_post_is(league: League, office: Caller) -> None:
    chart = league.chart(name="Clean name")
    for name in ("Zero\u200bwidth", "Bidi \u202eeman"):
        refused = office.patch(f"/api/v1/points-charts/{chart['id']}", json={"name": name, "reason": "Test."})
        assert_problem(refused, 422, "name")
        assert_problem(
            office.post("/api/v1/points-charts", json={"name": name, "kind": "top_fraction"}), 422, "name"
        )
    assert office.get(f"/api/v1/points-charts/{chart['id']}").get_json()["name"] == "Clean name"
    assert (
        audit_entries(office, f"entity=points_chart&entity_id={chart['id']}&action=points_chart.update") == []
    )
