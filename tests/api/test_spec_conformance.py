"""The spec tells the truth: every GET of the spec, called on the demo league as the office, a
host and the public, answers a documented status, content type and body (required fields
present, nullable ones declared, enums respected), checked by schemathesis against openapi.json."""

from __future__ import annotations

from itertools import product
from typing import Any

import schemathesis
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.support.league import Caller, new_key

CHECKS = [response_schema_conformance, status_code_conformance, content_type_conformance]
UNKNOWN = 999_999  # an id nothing has: the 404s must be as documented too


def ids(office: Caller, path: str) -> list[int]:
    items = office.get(f"/api/v1/{path}?per_page=3").get_json()["items"]
    return [int(item["id"]) for item in items]


def test_every_get_answers_as_documented(app: Any, office: Caller, runner: Any) -> None:
    assert runner.invoke(args=["demo", "load"]).exit_code == 0
    venue, season = ids(office, "venues")[0], ids(office, "seasons")[0]
    players = ids(office, "players")
    # Some records the demo lacks: a lifted sanction, a disqualification, a voided report.
    ban = {
        "player_id": players[1],
        "kind": "venue_ban",
        "category": "other",
        "venue_id": venue,
        "reason": "t",
    }
    sanction = office.post("/api/v1/sanctions", json=ban).get_json()
    assert office.post(f"/api/v1/sanctions/{sanction['id']}/lift", json={"reason": "t"}).status_code == 200
    disqualify = {"player_id": players[2], "reason": "t"}
    assert office.post(f"/api/v1/seasons/{season}/disqualifications", json=disqualify).status_code == 201
    voided = ids(office, "tournaments")[0]
    assert office.post(f"/api/v1/tournaments/{voided}/void", json={"reason": "t"}).status_code == 200
    venues = [v["id"] for v in office.get("/api/v1/venues?per_page=50").get_json()["items"]]
    nights = [n["id"] for v in venues for n in office.get(f"/api/v1/venues/{v}/nights").get_json()["items"]]
    assert nights  # the demo's night in progress (R22)
    hook = office.post("/api/v1/webhooks", json={"url": "https://hooks.example.org/league", "events": ["*"]})
    assert (
        hook.status_code == 201
        and office.post(f"/api/v1/webhooks/{hook.get_json()['id']}/ping").status_code == 202
    )
    known = {
        "season_id": [season],
        "venue_id": ids(office, "venues")[:2],
        "player_id": players[:2],
        "tournament_id": [voided, *ids(office, "tournaments")[:1]],
        "sanction_id": ids(office, "sanctions")[:2],
        "chart_id": ids(office, "points-charts")[:1],
        "region_id": ids(office, "regions")[:1],
        "key_id": ids(office, "api-keys")[:1],
        "merge_id": [],
        "structure_id": [],
        "night_id": nights[:1],
        "webhook_id": [hook.get_json()["id"]],
        "report_id": [voided, *ids(office, "tournaments")[:1]],  # the site's page of a night's result
        "part": [1],  # the site's sitemap part
    }
    keys = {"office": office.key, "host": new_key(app, "host", [venue]), "public": None}
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    checked, problems = 0, []
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() != "GET":
            continue
        names = [p.name for p in operation.path_parameters]
        choices = [[*known[name], UNKNOWN] for name in names]
        for values, (who, key) in product(product(*choices), keys.items()):
            case = operation.Case(path_parameters=dict(zip(names, values, strict=True)))
            response = case.call(headers={"Authorization": f"Bearer {key}"} if key else {})
            checked += 1
            try:
                case.validate_response(response, checks=CHECKS)
            except BaseException as exc:  # noqa: BLE001 - schemathesis raises a group of failures
                problems.append(
                    f"{who} GET {operation.path} {values} -> {response.status_code}: {str(exc)[:400]}"
                )
    assert not problems, "\n".join(problems[:10])
    assert checked >= 100
