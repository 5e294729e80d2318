"""Seasons ("promotions", R2) and their settings, with the rulebook defaults."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate
from sqlalchemy import select

from api import db
from api.auth import current_actor, office_only
from api.fields import ExactNumber, Id, QueryId, StrictInt, Text, UtcDateTime
from api.pagination import PageArgs, page_schema, paginate
from api.points_charts import ChartOut
from models import DOUBLE_QUALIFIER_POLICIES, Season, SeasonRegion
from models.services.league import chart_rule, get_or_404
from models.services.seasons import create_season, update_season

blp = Blueprint("seasons", __name__, url_prefix="/api/v1/seasons", description="Seasons (R2).")


class TierSchema(Schema):
    events = StrictInt(required=True, validate=validate.Range(min=1, max=1000))
    points = StrictInt(required=True, validate=validate.Range(min=0, max=1_000_000))


class SeasonIn(Schema):
    name = Text(max_length=120, required=True)
    starts_on = fields.Date(required=True)
    ends_on = fields.Date(required=True)
    region_ids = fields.List(
        Id(),
        validate=validate.Length(max=1000),
        metadata={"description": "Regions covered; absent or empty: all regions."},
    )
    championship_date = fields.Date(allow_none=True)
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
    absent_keeps_place_points = fields.Boolean()
    cut_fraction = ExactNumber(validate=validate.Range(min=0, max=1, min_inclusive=False))
    min_events_to_qualify = StrictInt(validate=validate.Range(min=1, max=1000))
    min_age = StrictInt(validate=validate.Range(min=0, max=120))
    double_qualifier_policy = fields.String(validate=validate.OneOf(DOUBLE_QUALIFIER_POLICIES))
    correction_days = StrictInt(validate=validate.Range(min=0, max=3650))


class SeasonPatch(SeasonIn):
    """A PATCH names only the fields it changes."""


class EffectiveChart(ChartOut):
    class Meta:
        exclude = ("created_at",)


class SeasonOut(Schema):
    id = fields.Integer()
    name = fields.String()
    starts_on = fields.Date()
    ends_on = fields.Date()
    region_ids = fields.List(fields.Integer())
    championship_date = fields.Date(allow_none=True)
    points_chart_id = fields.Integer(allow_none=True)
    points_chart = fields.Method(
        "_chart",
        metadata={"description": "The chart in force (the default one when none is named)."},
    )
    participation_points = fields.Integer()
    attendance_bonus = fields.List(fields.Nested(TierSchema))
    count_best = fields.Integer(allow_none=True)
    absent_keeps_place_points = fields.Boolean()
    cut_fraction = ExactNumber()
    min_events_to_qualify = fields.Integer()
    min_age = fields.Integer()
    double_qualifier_policy = fields.String()
    correction_days = fields.Integer()
    created_at = UtcDateTime()
    updated_at = UtcDateTime()

    def _chart(self, season: Season) -> dict[str, Any]:
        if season.points_chart is not None:
            return dict(EffectiveChart().dump(season.points_chart))
        rule = chart_rule(None)
        return {
            "id": None,
            "name": "default",
            "kind": rule.kind,
            "fraction": float(rule.fraction),
            "step": rule.step,
            "bands": [],
        }


class SeasonQuery(PageArgs):
    region_id = QueryId(metadata={"description": "Seasons that cover this region."})
    active_on = fields.Date(metadata={"description": "Seasons whose dates contain this day."})


@blp.route("")
class SeasonsViews(MethodView):
    @blp.arguments(SeasonQuery, location="query")
    @blp.response(200, page_schema(SeasonOut, "SeasonPage"))
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """List seasons, newest first"""
        query = select(Season).order_by(Season.starts_on.desc(), Season.id.desc())
        if "region_id" in args:
            covering = select(SeasonRegion.season_id).where(SeasonRegion.region_id == args["region_id"])
            query = query.where(Season.all_regions.is_(True) | Season.id.in_(covering))
        if "active_on" in args:
            day = args["active_on"]
            query = query.where(Season.starts_on <= day, Season.ends_on >= day)
        return paginate(db.session(), query, args)

    @office_only
    @blp.arguments(SeasonIn)
    @blp.response(201, SeasonOut)
    def post(self, data: dict[str, Any]) -> Season:
        """Create a season (office); unset settings take the rulebook defaults"""
        return create_season(db.session(), current_actor(), data)


@blp.route("/<id:season_id>")
class SeasonByIdViews(MethodView):
    @blp.response(200, SeasonOut)
    def get(self, season_id: int) -> Season:
        """One season with its settings"""
        return get_or_404(db.session(), Season, season_id, "season")

    @office_only
    @blp.arguments(SeasonPatch(partial=True))
    @blp.response(200, SeasonOut)
    def patch(self, changes: dict[str, Any], season_id: int) -> Season:
        """Change a season's dates, regions or settings (office; audited)"""
        session = db.session()
        season = get_or_404(session, Season, season_id, "season")
        return update_season(session, current_actor(), season, changes)
