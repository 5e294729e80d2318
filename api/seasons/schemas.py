"""Schemas of seasons: the shape of what comes in and goes out."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from api.fields import (
    EARLIEST_DAY,
    LATEST_DAY,
    Day,
    ExactNumber,
    Id,
    Name,
    QueryId,
    StrictBool,
    StrictInt,
    Text,
    UtcDateTime,
)
from api.pagination import PageArgs
from api.points_charts.schemas import ChartOut
from api.schemas import Answer
from models.entities import DOUBLE_QUALIFIER_POLICIES
from models.rules.knockouts import BOUNTIES
from models.services.points_charts.queries import chart_in_force


class TierSchema(Answer):
    events = StrictInt(required=True, validate=validate.Range(min=1, max=1000))
    points = StrictInt(required=True, validate=validate.Range(min=0, max=1_000_000))


class SeasonIn(Schema):
    name = Name(max_length=120, required=True)
    starts_on = Day(required=True)
    ends_on = Day(required=True)
    region_ids = fields.List(
        Id(),
        validate=validate.Length(max=1000),
        metadata={"description": "Regions covered; absent or empty: all regions."},
    )
    championship_date = Day(allow_none=True)
    points_chart_id = Id(
        allow_none=True,
        metadata={"description": "Absent or null: the default top_fraction chart (30%, step 10)."},
    )
    participation_points = StrictInt(validate=validate.Range(min=0, max=1_000_000))
    attendance_bonus = fields.List(fields.Nested(TierSchema), validate=validate.Length(max=100))
    count_best = StrictInt(
        allow_none=True,
        validate=validate.Range(min=1, max=1000),
        metadata={"description": "Only a player's N best tournament totals count; null: all."},
    )
    absent_keeps_place_points = StrictBool()
    cut_fraction = ExactNumber(validate=validate.Range(min=0, max=1, min_inclusive=False))
    min_events_to_qualify = StrictInt(validate=validate.Range(min=1, max=1000))
    min_age = StrictInt(validate=validate.Range(min=0, max=120))
    double_qualifier_policy = fields.String(validate=validate.OneOf(DOUBLE_QUALIFIER_POLICIES))
    correction_days = StrictInt(validate=validate.Range(min=0, max=3650))
    knockout_points = StrictInt(
        validate=validate.Range(min=0, max=100_000),
        metadata={"description": "R8a: points for each player a player knocks out; 0 (default): none."},
    )
    bounty = fields.String(
        validate=validate.OneOf(BOUNTIES),
        metadata={
            "description": "R8a: none (default); venue_leader: on the venue's standings leader before "
            "the night (all tied at the top); last_winner: on the winner of the venue's previous "
            "regular report in the season. Not carried over when that player is not in the report."
        },
    )
    bounty_points = StrictInt(
        validate=validate.Range(min=0, max=100_000),
        metadata={"description": "R8a: what knocking out a bounty's player earns."},
    )


class SeasonPatch(SeasonIn):
    """A PATCH names only the fields it changes."""

    reason = Text(
        max_length=2000,
        metadata={"description": "Why: needed when the change rescores stored results (R18)."},
    )


class EffectiveChart(ChartOut):
    class Meta:
        exclude = ("created_at",)


class ChartInForce(fields.Nested):
    """A season's chart in force (R7): its own, or the default top_fraction chart."""

    def get_value(self, obj: Any, attr: str, accessor: Any = None, default: Any = None) -> Any:
        return chart_in_force(obj)


class SeasonOut(Answer):
    id = fields.Integer()
    name = fields.String()
    starts_on = Day()
    ends_on = Day()
    region_ids = fields.List(fields.Integer())
    championship_date = Day(allow_none=True)
    points_chart_id = fields.Integer(allow_none=True)
    points_chart = ChartInForce(
        EffectiveChart,
        metadata={"description": "The chart in force (the default one when none is named)."},
    )
    participation_points = fields.Integer()
    attendance_bonus = fields.List(fields.Nested(TierSchema))
    count_best = fields.Integer(allow_none=True)
    absent_keeps_place_points = StrictBool()
    cut_fraction = ExactNumber()
    min_events_to_qualify = fields.Integer()
    min_age = fields.Integer()
    double_qualifier_policy = fields.String()
    correction_days = fields.Integer()
    knockout_points = fields.Integer()
    bounty = fields.String()
    bounty_points = fields.Integer()
    created_at = UtcDateTime()
    updated_at = UtcDateTime()


class SeasonQuery(PageArgs):
    region_id = QueryId(metadata={"description": "Seasons that cover this region."})
    active_on = Day(metadata={"description": "Seasons whose dates contain this day."})


class IsoWeek(fields.String):
    """An ISO week, YYYY-Www (2026-W09), read as its Monday."""

    def _deserialize(  # type: ignore[override]
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> date:
        text = str(value).strip().upper()
        match = re.fullmatch(r"(\d{4})-W(\d{2})", text)
        try:
            if match is None:
                raise ValueError
            monday = date.fromisocalendar(int(match.group(1)), int(match.group(2)), 1)
        except ValueError:
            raise ValidationError("An ISO week, YYYY-Www (e.g. 2026-W09).") from None
        if not EARLIEST_DAY <= monday <= LATEST_DAY:
            raise ValidationError(f"Must be a week from {EARLIEST_DAY:%Y} to {LATEST_DAY:%Y}.")
        return monday


class MissingQuery(Schema):
    week = IsoWeek(
        metadata={
            "description": "YYYY-Www, e.g. 2026-W09. Not given: this week, the ISO week of today on the "
            "league's wall clock (its zone, R2a); the answer's `week` says which."
        }
    )


class MissingVenueOut(Answer):
    id = fields.Integer()
    name = fields.String()
    region_id = fields.Integer()
    city = fields.String(allow_none=True)
    scheduled = fields.Boolean(
        metadata={
            "description": "The venue has regular nights; false: the weekly rule (no report that week)."
        }
    )
    nights = fields.List(
        Day(), metadata={"description": "Its scheduled nights that passed without a report."}
    )


class MissingReportsOut(Answer):
    season_id = fields.Integer()
    week = fields.String(
        metadata={"description": "The week listed (YYYY-Www): the one asked for, else this week (R2a)."}
    )
    starts_on = Day(metadata={"description": "The week's Monday."})
    ends_on = Day(metadata={"description": "The week's Sunday."})
    total = fields.Integer()
    venues = fields.List(fields.Nested(MissingVenueOut))


class SeasonChanged(SeasonOut):
    rescored_results = fields.Integer(
        metadata={"description": "Stored results the change rescored (R7, R8)."}
    )
