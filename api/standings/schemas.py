"""Schemas of standings: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.csv_export import format_field
from api.fields import Day, ExactNumber
from api.pagination import PageArgs
from api.schemas import Answer, PlayerRef
from models.rules.standings import STEPS


class StandingsCsvQuery(Schema):
    as_of = Day(
        metadata={
            "description": "Standings as they stood after this day (default: today on the "
            "venue's wall clock, R2a)."
        }
    )


class StandingsQuery(PageArgs):
    """`page` and `per_page` page the JSON's rows; the CSV holds every row whatever they say."""

    as_of = Day(
        metadata={
            "description": "Standings as they stood after this day (default: today on the "
            "venue's wall clock, R2a)."
        }
    )
    format = format_field()


class RowOut(Answer):
    rank = fields.Integer()
    tied = fields.Boolean(metadata={"description": "Shares the rank with another player (T2)."})
    player = fields.Nested(PlayerRef)
    points = fields.Integer()
    placement_points = fields.Integer()
    participation_points = fields.Integer()
    knockout_points = fields.Integer(metadata={"description": "R8a: points for knockouts and bounties."})
    knockouts = fields.Integer(metadata={"description": "R8a: players knocked out."})
    bonus_points = fields.Integer()
    played = fields.Integer()
    wins = fields.Integer()
    points_finishes = fields.Integer()
    best_finish = fields.Integer()
    average_finish = ExactNumber()
    best_single = fields.Integer(metadata={"description": "Best single-tournament total (R11 step 4)."})
    decided_by = fields.String(
        allow_none=True,
        validate=validate.OneOf(STEPS),
        metadata={
            "description": "The R11 step that put this row below the one above it in the whole table "
            "(on the page before, for a page's first row; null: the table's first row)."
        },
    )
    decided_at_place = fields.Integer(
        allow_none=True, metadata={"description": "For countback: the place whose count decided."}
    )


class StandingsOut(Answer):
    season_id = fields.Integer()
    venue_id = fields.Integer()
    as_of = Day()
    tournaments = fields.Integer()
    entrants = fields.Integer()
    average_attendance = ExactNumber()
    total = fields.Integer(metadata={"description": "Rows in the whole table, on every page."})
    page = fields.Integer()
    per_page = fields.Integer()
    pages = fields.Integer()
    standings = fields.List(
        fields.Nested(RowOut),
        metadata={
            "description": "This page's rows, with their ranks in the whole table (R11), and their "
            "players' labels as the whole table tells them apart (R19: the player number where "
            "two rows of the table, on any page, share a display name)."
        },
    )


CSV_COLUMNS = (
    "season",
    "venue",
    "rank",
    "tied",
    "player_id",
    "display_name",
    "points",
    "placement_points",
    "participation_points",
    "knockout_points",
    "knockouts",
    "bonus_points",
    "played",
    "wins",
    "points_finishes",
    "best_finish",
    "average_finish",
    "best_single",
    "decided_by",
    "decided_at_place",
)


STANDINGS_EXAMPLE = {
    "season_id": 1,
    "venue_id": 3,
    "as_of": "2026-03-04",
    "tournaments": 8,
    "entrants": 96,
    "average_attendance": 12,
    "total": 2,
    "page": 1,
    "per_page": 50,
    "pages": 1,
    "standings": [
        {
            "rank": 1,
            "tied": False,
            "player": {"id": 17, "display_name": "Ann L.", "label": "Ann L."},
            "points": 215,
            "placement_points": 170,
            "participation_points": 35,
            "knockout_points": 0,
            "knockouts": 0,
            "bonus_points": 10,
            "played": 7,
            "wins": 2,
            "points_finishes": 5,
            "best_finish": 1,
            "average_finish": 3.14,
            "best_single": 55,
            "decided_by": None,
            "decided_at_place": None,
        },
        {
            "rank": 2,
            "tied": False,
            "player": {"id": 4, "display_name": "Sam O.", "label": "Sam O."},
            "points": 180,
            "placement_points": 140,
            "participation_points": 30,
            "knockout_points": 0,
            "knockouts": 0,
            "bonus_points": 10,
            "played": 6,
            "wins": 1,
            "points_finishes": 4,
            "best_finish": 1,
            "average_finish": 4.5,
            "best_single": 45,
            "decided_by": "points",
            "decided_at_place": None,
        },
    ],
}


class RaceQuery(Schema):
    players = fields.Integer(
        load_default=5,
        validate=validate.Range(min=1, max=20),
        metadata={"description": "How many of the table's top players the race follows (default 5)."},
    )
    as_of = Day(
        metadata={"description": "The race to this day (default: today on the venue's wall clock, R2a)."}
    )


class RacerOut(Answer):
    player = fields.Nested(PlayerRef, required=True)
    rank = fields.Integer(required=True)
    tied = fields.Boolean(required=True)
    points = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Standings points after each of `dates`: the last is the table's."},
    )


class RaceOut(Answer):
    season_id = fields.Integer(required=True)
    venue_id = fields.Integer(required=True)
    as_of = fields.Date(required=True)
    dates = fields.List(
        fields.Date(), required=True, metadata={"description": "Each tournament day, in order."}
    )
    players = fields.List(fields.Nested(RacerOut), required=True)
