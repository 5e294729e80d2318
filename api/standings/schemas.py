"""Schemas of standings: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import ExactNumber
from api.schemas import PlayerRef


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
