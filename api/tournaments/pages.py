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
from api.fields import utc_timestamp
from api.schemas import Label
from models.actor import Actor
from models.rules.players import numbered_players
from models.services.access import acts_for
from models.services.freshness import Scope, data_version, scope_versions
from models.services.paging import PageRequest
from models.services.tournaments.queries import ReportFilters, SeenWithRows, report_places, reports_seen_by


def page_answer(seen: SeenWithRows, label: Label) -> dict[str, Any]:
    """A report's answer as `ReportOut` dumps it (tests/api/test_report_pages.py holds them
    equal, field for field), its players labelled by `label`: written directly, as a page of
    fifty reports holds a thousand results, and the schema's dump of them was most of the cost of
    a page read afresh."""
    return {
        "id": seen.id,
        "venue_id": seen.venue_id,
        "season_id": seen.season_id,
        "date": seen.date.isoformat(),
        "session": seen.session,
        "kind": seen.kind,
        "entrants": seen.entrants,
        "version": seen.version,
        "voided": seen.voided,
        "voided_at": utc_timestamp(seen.voided_at),
        "void_reason": seen.void_reason,
        "reported_by": seen.reported_by,
        "reported_by_role": seen.reported_by_role,
        "created_at": utc_timestamp(seen.created_at),
        "updated_at": utc_timestamp(seen.updated_at),
        "results": [
            {
                "place": row.place,
                "player": {
                    "id": row.player.id,
                    "display_name": row.player.display_name,
                    "label": label(row.player.id, row.player.display_name),
                },
                "status": row.status,
                "placement_points": row.placement_points,
                "participation_points": row.participation_points,
                "points": row.points,
            }
            for row in seen.rows
        ],
    }


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
        cached[seen.id] = fragments().put(*keys[seen.id], LabelledJson(partial(page_answer, seen)))
    items = [cast(LabelledJson, cached[place.id]) for place in page.items]
    numbered = numbered_players(player for item in items for player in item.players)
    written = [item.written(numbered) for item in items]
    rest = {"total": page.total, "page": page.page, "per_page": page.per_page, "pages": page.pages}
    body = '{"items": [' + ", ".join(written) + "], " + current_app.json.dumps(rest)[1:]
    return Response(body, mimetype="application/json")
