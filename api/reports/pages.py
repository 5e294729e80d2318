"""A page of reports (GET /api/v1/tournaments), written from each report's answer as this process
caches it: after a report, a page of the season's reports holds one new report and forty-nine
that nothing changed, and only the new one is read, dumped and written as JSON.

A report's answer is cached (api/cache/fragments.py, through `many_by_scopes`) by its id and
whether the caller acts for its venue (R19: who reported it), under the versions of the scopes it
reads: its own (`Scope.report`: every change to it or its results, a correction, a void, a
merge, a rescore, bumps it) and the `league` scope (a rename, a new chart). The page is labelled
over all its players, as the schema labels it."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from flask import Response, current_app

from api.cache.fragments import LabelledJson
from api.reports.answers import report_answer
from models.actor import Actor
from models.freshness.memos import FRAGMENTS, many_by_scopes
from models.freshness.scopes import Scope
from models.rules.players import numbered_players
from models.services.access import acts_for
from models.services.paging import PageRequest
from models.services.reports.queries import ReportFilters, report_places, reports_seen_by


def page_body(session: Any, actor: Actor, filters: ReportFilters, request: PageRequest) -> Response:
    """The page as JSON: the reports' places, their scopes' versions, then only the reports not
    cached under those versions read and dumped; the page written from the reports' JSON."""
    page = report_places(session, actor, filters, request)
    wanted = {
        place.id: (
            ("report", place.id, acts_for(actor, place.venue_id)),
            (Scope.LEAGUE, Scope.report(place.id)),
        )
        for place in page.items
    }

    def dumped(missing: list[int]) -> dict[int, LabelledJson]:
        return {
            seen.id: LabelledJson(partial(report_answer, seen))
            for seen in reports_seen_by(session, actor, missing)
        }

    cached = many_by_scopes(session, wanted, dumped, memo=FRAGMENTS)
    items = [cast(LabelledJson, cached[place.id]) for place in page.items]
    numbered = numbered_players(player for item in items for player in item.players)
    written = [item.written(numbered) for item in items]
    rest = {"total": page.total, "page": page.page, "per_page": page.per_page, "pages": page.pages}
    body = '{"items": [' + ", ".join(written) + "], " + current_app.json.dumps(rest)[1:]
    return Response(body, mimetype="application/json")
