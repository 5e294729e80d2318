"""Standings of a venue's season (R1, R9-R11): JSON for the website, CSV for the office."""

from __future__ import annotations

from typing import Any

from flask import Response, after_this_request
from flask.views import MethodView
from flask_smorest import Blueprint

from api import db
from api.csv_export import csv_response, varies_by_accept, wants_csv
from api.standings.schemas import CSV_COLUMNS, StandingsOut, StandingsQuery
from models.services.standings import VenueStandings, standings_of

blp = Blueprint("standings", __name__, url_prefix="/api/v1/seasons", description="Standings (R1, R9-R11).")


def _body(table: VenueStandings) -> dict[str, Any]:
    return {
        "season_id": table.season.id,
        "venue_id": table.venue.id,
        "as_of": table.as_of,
        "tournaments": table.tournaments,
        "entrants": table.entrants,
        "average_attendance": table.average_attendance_shown,
        "total": len(table.rows),
        "standings": [
            {**vars(row), "player": {"id": row.player_id, "display_name": row.display_name}}
            for row in table.rows
        ],
    }


def _csv(table: VenueStandings) -> Response:
    rows = (
        [
            row.rank,
            "T" if row.tied else "",
            row.player_id,
            row.display_name,
            row.points,
            row.placement_points,
            row.participation_points,
            row.bonus_points,
            row.played,
            row.wins,
            row.points_finishes,
            row.best_finish,
            row.average_finish,
        ]
        for row in table.rows
    )
    name = f"standings-season{table.season.id}-venue{table.venue.id}-{table.as_of.isoformat()}.csv"
    return csv_response(CSV_COLUMNS, rows, name)


@blp.route("/<id:season_id>/venues/<id:venue_id>/standings")
class StandingsViews(MethodView):
    @blp.arguments(StandingsQuery, location="query")
    @blp.response(200, StandingsOut)
    @blp.doc(responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}})
    def get(self, args: dict[str, Any], season_id: int, venue_id: int) -> Any:
        """A venue's standings for a season (R11); `Accept: text/csv` or `?format=csv` for CSV"""
        table = standings_of(db.session(), season_id, venue_id, args.get("as_of"))
        after_this_request(varies_by_accept)
        if args.get("format") == "csv" or (args.get("format") is None and wants_csv()):
            return _csv(table)
        return _body(table)
