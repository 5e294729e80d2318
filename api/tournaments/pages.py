"""A page of reports (GET /api/v1/tournaments), written from each report's answer as this process
keeps it: after a report, a page of the season's reports holds one new report and forty-nine
that nothing changed, and only the new one is read and dumped.

A report's answer is kept by what it reads: its id, the version of its venue's scope in its
season (`venue:S:V`: every change to its results, a correction, a void, a merge, moves it), the
`league` scope's (a rename, a new chart), the epoch, and whether the caller acts for its venue
(R19: who reported it). The page is labelled over all its players, as the schema labels it."""

from __future__ import annotations

import threading
from typing import Any

from cachetools import LRUCache
from flask import Flask, Response, current_app

from api.schemas import with_labels
from api.tournaments.schemas import ReportOut
from models.actor import Actor
from models.services.paging import PageRequest
from models.services.tournament_queries import ReportFilters, report_places, reports_seen_by
from models.services.versioning import data_version, scope_versions

Key = tuple[str, int, int, int, bool]


class ReportAnswers:
    """This app's reports' answers, a few national pages' worth (a report's is about thirty
    objects), least recently used dropped first. Per app, as its cache is (api/cache.py): an
    answer is filed under its database's epoch and versions, which another database (a copy of
    the same backup) may repeat."""

    def __init__(self, size: int = 4096) -> None:
        self._answers: LRUCache[Key, dict[str, Any]] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def get(self, keys: dict[int, Key]) -> dict[int, dict[str, Any] | None]:
        with self._lock:
            return {report_id: self._answers.get(key) for report_id, key in keys.items()}

    def put(self, answers: dict[Key, dict[str, Any]]) -> None:
        with self._lock:
            for key, answer in answers.items():
                self._answers[key] = answer

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()


def init_app(app: Flask) -> None:
    app.extensions["league_report_answers"] = ReportAnswers()


def page_body(session: Any, actor: Actor, filters: ReportFilters, request: PageRequest) -> Response:
    """The page as JSON: the reports' places, their scopes' versions, then only the reports not
    kept under those versions read and dumped."""
    epoch, _version = data_version(session)
    page = report_places(session, actor, filters, request)
    scopes = ["league", *sorted({f"venue:{p.season_id}:{p.venue_id}" for p in page.items})]
    versions = dict(zip(scopes, scope_versions(session, scopes), strict=True))
    keys = {
        place.id: (
            epoch,
            place.id,
            versions["league"],
            versions[f"venue:{place.season_id}:{place.venue_id}"],
            actor.acts_for(place.venue_id),
        )
        for place in page.items
    }
    kept: ReportAnswers = current_app.extensions["league_report_answers"]
    answers = kept.get(keys)
    missing = [report_id for report_id, answer in answers.items() if answer is None]
    if missing:
        schema = ReportOut()
        made = {seen.id: schema.dump(seen) for seen in reports_seen_by(session, actor, missing)}
        kept.put({keys[report_id]: answer for report_id, answer in made.items()})
        answers.update(made)
    body = {
        "items": [answers[place.id] for place in page.items],
        "total": page.total,
        "page": page.page,
        "per_page": page.per_page,
        "pages": page.pages,
    }
    return Response(current_app.json.dumps(with_labels(body)), mimetype="application/json")
