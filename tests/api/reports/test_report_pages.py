"""Pages of reports (GET /api/v1/tournaments) are written from each report's answer as the process
keeps it (api/reports/pages.py): they must be exactly what the schema dumps of
`list_reports`, for every caller and filter, labelled over the whole page (R19); and after a
report, a page reads and dumps only the report it had not kept. Each page's freshness after every
kind of write is test_cache_freshness.py's."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask

from api import db
from api.pagination import page_schema
from api.reports import pages
from api.reports.schemas import ReportOut
from models.actor import PUBLIC, Actor
from models.services.paging import PageRequest
from models.services.reports.queries import ReportFilters, list_reports
from tests.builders import TOURNAMENTS, Scene, days_ago

OFFICE = Actor(role="office", name="Office: test")


def expected_page(app: Flask, actor: Actor, filters: ReportFilters, page: int, per_page: int) -> Any:
    """The schema's dump of the page, as it was before pages were written from kept answers."""
    with app.test_request_context():
        found = list_reports(db.session(), actor, filters, PageRequest(page, per_page))
        return json.loads(json.dumps(page_schema(ReportOut, "ReportPage", players=True)().dump(found)))


def test_pages_of_reports_are_the_schemas_dump_r19(app: Flask, scene: Scene) -> None:
    """R19: for the public, the office (voided reports too) and the venue's host, filtered by
    venue, season, kind and dates, on every page, each page equals the schema's dump of the same
    reports; two players who share a display name show their numbers; a voided report shows
    only to the office."""
    twins = scene.players("Sam T.", "Sam T.")
    reports = [scene.report([*twins, *scene.fillers(4)]) for _ in range(3)]
    reports.append(scene.report([twins[0], *scene.fillers(3)]))
    voided = scene.office.post(f"{TOURNAMENTS}/{reports[1]['id']}/void", json={"reason": "Posted twice."})
    assert voided.status_code == 200, voided.get_data(as_text=True)
    host = Actor(role="host", name="Host: Crown", venue_ids=frozenset({scene.venue_id}))
    callers = ((scene.public, PUBLIC), (scene.office, OFFICE), (scene.host, host))
    queries: list[tuple[str, dict[str, Any]]] = [
        ("", {}),
        (f"venue_id={scene.venue_id}", {"venue_id": scene.venue_id}),
        (f"season_id={scene.season_id}&kind=regular", {"season_id": scene.season_id, "kind": "regular"}),
        (f"from={days_ago(49).isoformat()}", {"from_": days_ago(49)}),
    ]
    seen_numbers = False
    for caller, actor in callers:
        for query, filters in queries:
            for voided_too in (False, True):
                for page in (1, 2):
                    url = f"{TOURNAMENTS}?{query}&per_page=2&page={page}" + (
                        "&include_voided=true" if voided_too else ""
                    )
                    answer = caller.get(url)
                    assert answer.status_code == 200, (url, answer.get_data(as_text=True))
                    wanted = ReportFilters(**filters, include_voided=voided_too)
                    assert answer.get_json() == expected_page(app, actor, wanted, page, 2), url
                    labels = {
                        r["player"]["label"] for item in answer.get_json()["items"] for r in item["results"]
                    }
                    seen_numbers |= f"Sam T. #{twins[0]}" in labels
    assert seen_numbers
    office_ids = [
        item["id"] for item in scene.office.get(f"{TOURNAMENTS}?include_voided=true").get_json()["items"]
    ]
    public_ids = [
        item["id"] for item in scene.public.get(f"{TOURNAMENTS}?include_voided=true").get_json()["items"]
    ]
    assert reports[1]["id"] in office_ids and reports[1]["id"] not in public_ids


def test_after_a_report_a_page_reads_only_the_new_one(
    app: Flask, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages of the season's reports and of this venue's read, then a new report here: read again,
    the pages dump that report alone, once (the others are kept by their own versions, even those
    of the same venue and season), and show it first."""
    other = int(scene.league.venue(scene.region["id"])["id"])
    for _ in range(4):
        scene.report(scene.fillers(5), venue_id=other)
    for week in range(3):
        scene.report(scene.fillers(5), days_ago(3 + 7 * week))
    url = f"{TOURNAMENTS}?season_id={scene.season_id}&per_page=3"
    venue_url = f"{TOURNAMENTS}?venue_id={scene.venue_id}&per_page=3"
    assert scene.public.get(url).status_code == 200
    assert scene.public.get(venue_url).status_code == 200
    read: list[list[int]] = []
    reports_seen_by = pages.reports_seen_by

    def spy(session: Any, actor: Actor, report_ids: Any) -> Any:
        read.append(sorted(report_ids))
        return reports_seen_by(session, actor, report_ids)

    monkeypatch.setattr(pages, "reports_seen_by", spy)
    new = scene.report(scene.fillers(6), days_ago(1))
    answer = scene.public.get(url).get_json()
    assert read == [[new["id"]]]
    assert answer["items"][0]["id"] == new["id"] and answer["total"] == 8
    assert answer == expected_page(app, PUBLIC, ReportFilters(season_id=scene.season_id), 1, 3)
    answer = scene.public.get(venue_url).get_json()
    assert read == [[new["id"]]]  # kept from the season's page: the same report, the same caller
    assert answer["items"][0]["id"] == new["id"] and answer["total"] == 4
    assert answer == expected_page(app, PUBLIC, ReportFilters(venue_id=scene.venue_id), 1, 3)
