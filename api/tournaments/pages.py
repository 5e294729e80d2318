"""A page of reports (GET /api/v1/tournaments), written from each report's answer as this process
caches it: after a report, a page of the season's reports holds one new report and forty-nine
that nothing changed, and only the new one is read, dumped and written as JSON.

A report's answer is cached (api/cache/fragments.py) by what it reads: its id, the version of
its own scope (`Scope.report`: every change to it or its results, a correction, a void, a merge,
a rescore, bumps it), the `league` scope's (a rename, a new chart), the epoch, and whether the
caller acts for its venue (R19: who reported it). The page is labelled over all its players, as
the schema labels it."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from flask import Response, current_app

from api.cache.fragments import LabelledJson, fragments
from api.tournaments.answers import report_answer
from models.actor import Actor
from models.rules.players import numbered_players
from models.services.access import acts_for
from models.services.freshness import Scope, data_version, scope_versions
from models.services.paging import PageRequest
from models.services.tournaments.queries import ReportFilters, report_places, reports_seen_by


def page_body(session: Any, actor: Actor, filters: ReportFilters, request: PageRequest) -> Response:
    """The page as JSON: the reports' places, their scopes' versions, then only the reports not
    cached under those versions read and dumped; the page written from the reports' JSON."""
    epoch, _version = data_version(session)
    page = report_places(session, actor, filters, request)
    scopes = [Scope.LEAGUE, *(Scope.report(place.id) for place in page.items)]
    versions = dict(zip(scopes, scope_versions(session, scopes), strict=True))
    keys = {
        place.id: (
            (epoch, place.id, acts_for(actor, place.venue_id)),
            (versions[Scope.LEAGUE], versions[Scope.report(place.id)]),
        )
        for place in page.items
    }
    cached: dict[int, LabelledJson | None] = {
        report_id: fragments().get(*key) for report_id, key in keys.items()
    }
    missing = [report_id for report_id, found in cached.items() if found is None]
    for seen in reports_seen_by(session, actor, missing) if missing else []:
        cached[seen.id] = fragments().put(*keys[seen.id], LabelledJson(partial(report_answer, seen)))
    items = [cast(LabelledJson, cached[place.id]) for place in page.items]
    numbered = numbered_players(player for item in items for player in item.players)
    written = [item.written(numbered) for item in items]
    rest = {"total": page.total, "page": page.page, "per_page": page.per_page, "pages": page.pages}
    body = '{"items": [' + ", ".join(written) + "], " + current_app.json.dumps(rest)[1:]
    return Response(body, mimetype="application/json")
