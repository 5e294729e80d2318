"""Schemas of skill ratings (R20): the table's filters in; the table, a rating and its history out."""

from __future__ import annotations

from marshmallow import fields, validate

from api.fields import Day, ExactNumber, QueryId, QueryInt
from api.pagination import PageArgs
from api.schemas import Answer, PlayerRef, TellsPlayersApart
from models.rules.ratings import MAX_MIN_TOURNAMENTS, PROVISIONAL_BELOW

RATING_WORDS = "The ordinal shown (R20): mu - 3 sigma, rounded to two decimals (a half up)."
PROVISIONAL_WORDS = f"Fewer than {PROVISIONAL_BELOW} rated tournaments (R20)."


class RatingsQuery(PageArgs):
    region_id = QueryId(
        metadata={
            "description": "Only players with a rated result at a venue of this region "
            "(an unknown region: 422)."
        }
    )
    min_tournaments = QueryInt(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_MIN_TOURNAMENTS),
        metadata={
            "description": "Only players with at least this many rated tournaments (0-1000; default 0)."
        },
    )


class RatingOut(Answer):
    """A player's skill rating (R20)."""

    rating = ExactNumber(metadata={"description": RATING_WORDS})
    mu = fields.Float(metadata={"description": "The model's mean of the player's skill."})
    sigma = fields.Float(metadata={"description": "The model's uncertainty about it."})
    tournaments = fields.Integer(metadata={"description": "Rated tournaments (no-shows are not rated)."})
    provisional = fields.Boolean(metadata={"description": PROVISIONAL_WORDS})
    last_played = Day(metadata={"description": "The date of the last rated tournament."})


class RatingRowOut(RatingOut):
    rank = fields.Integer(
        metadata={
            "description": "Equal ratings share a rank (1, 2, 2, 4); provisional players rank on after the "
            "established ones."
        }
    )
    tied = fields.Boolean(metadata={"description": "Another row shares this rank."})
    player = fields.Nested(PlayerRef)


class RatingTableOut(TellsPlayersApart):
    """The league's rating table (R20), best first: established players, then provisional ones."""

    items = fields.List(fields.Nested(RatingRowOut))
    total = fields.Integer()
    page = fields.Integer()
    per_page = fields.Integer()
    pages = fields.Integer()
    established = fields.Integer(
        metadata={"description": "Rows of established players (the first ones); the rest are provisional."}
    )
    provisional = fields.Integer(
        metadata={"description": "Rows of provisional players (after the established)."}
    )


class RatingPointOut(Answer):
    tournament_id = fields.Integer(metadata={"description": "The report rated."})
    date = Day()
    session = fields.Integer()
    venue_id = fields.Integer()
    venue_name = fields.String()
    place = fields.Integer()
    entrants = fields.Integer(metadata={"description": "The report's rated entrants (no-shows left out)."})
    rating = ExactNumber(metadata={"description": "The rating after this tournament. " + RATING_WORDS})
    mu = fields.Float()
    sigma = fields.Float()
    tournaments = fields.Integer(metadata={"description": "Rated tournaments so far, this one included."})


class RatingHistoryOut(Answer):
    """A player's rating after each rated tournament, in the rating order (date, session, report)."""

    player = fields.Nested(PlayerRef, metadata={"description": "The player (a merged-away id's survivor)."})
    rating = fields.Nested(RatingOut, allow_none=True, metadata={"description": "Now; null if never rated."})
    points = fields.List(fields.Nested(RatingPointOut))
