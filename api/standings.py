"""Standings of a venue's season (R1, R9-R11): JSON for the website, CSV for the office."""

from __future__ import annotations

from typing import Any

from flask import Response, after_this_request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from api import db
from api.csv_export import csv_response, wants_csv
from api.fields import ExactNumber
from api.schemas import PlayerRef
from models import Season, Venue
from models.errors import NotFound
from models.services.league import get_or_404
from models.services.standings import VenueStandings, venue_standings

blp = Blueprint("standings", __name__, url_prefix="/api/v1/seasons", description="Standings (R1, R9-R11).")


class StandingsQuery(Schema):
    as_of = fields.Date(metadata={"description": "Standings as they stood after this day."})
    format = fields.String(validate=validate.OneOf(["json", "csv"]))


class RowOut(Schema):
    rank = fields.Integer()
    tied = fields.Boolean(metadata={"description": "Shares the rank with another player (T2)."})
    player = fields.Nested(PlayerRef)
    points = fields.Integer()
    placement_points = fields.Integer()
    participation_points = fields.Integer()
    bonus_points = fields.Integer()
    played = fields.Integer()
    wins = fields.Integer()
    points_finishes = fields.Integer()
    best_finish = fields.Integer()
    average_finish = ExactNumber()
    best_single = fields.Integer(metadata={"description": "Best single-tournament total (R11 step 4)."})


class StandingsOut(Schema):
    season_id = fields.Integer()
    venue_id = fields.Integer()
    as_of = fields.Date()
    tournaments = fields.Integer()
    entrants = fields.Integer()
    average_attendance = ExactNumber()
    total = fields.Integer()
    standings = fields.List(fields.Nested(RowOut))


CSV_COLUMNS = (
    "rank",
    "tied",
    "player_id",
    "display_name",
    "points",
    "placement_points",
    "participation_points",
    "bonus_points",
    "played",
    "wins",
    "points_finishes",
    "best_finish",
    "average_finish",
)


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


def _varies_by_accept(response: Response) -> Response:
    """JSON and CSV share the URL: caches must key on Accept as well (ETag, 304)."""
    response.vary.add("Accept")
    return response


@blp.route("/<id:season_id>/venues/<id:venue_id>/standings")
class StandingsViews(MethodView):
    @blp.arguments(StandingsQuery, location="query")
    @blp.response(200, StandingsOut)
    @blp.doc(responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}})
    def get(self, args: dict[str, Any], season_id: int, venue_id: int) -> Any:
        """A venue's standings for a season (R11); `Accept: text/csv` or `?format=csv` for CSV"""
        session = db.session()
        season = get_or_404(session, Season, season_id, "season")
        venue = get_or_404(session, Venue, venue_id, "venue")
        if not season.covers_region(venue.region_id):
            raise NotFound(f"Season {season.id} does not cover venue {venue.id}.")
        table = venue_standings(session, season, venue, args.get("as_of"))
        after_this_request(_varies_by_accept)
        if args.get("format") == "csv" or (args.get("format") is None and wants_csv()):
            return _csv(table)
        return _body(table)
