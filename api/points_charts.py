"""Points charts (R7): which places score and how much, and a preview for any field size."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate, validates_schema
from sqlalchemy import select

from api import db
from api.auth import current_actor, office_only
from api.fields import ExactNumber, QueryInt, StrictInt, Text, UtcDateTime
from api.pagination import PageArgs, page_schema, paginate
from models import CHART_KINDS, PointsChart
from models.rules.charts import DEFAULT_FRACTION, DEFAULT_STEP
from models.services.league import create_chart, get_or_404, preview_chart

blp = Blueprint(
    "points_charts", __name__, url_prefix="/api/v1/points-charts", description="Points charts (R7)."
)

MAX_ENTRANTS = 10_000
MAX_POINTS = 1_000_000


class BandIn(Schema):
    min_entrants = StrictInt(required=True, validate=validate.Range(min=1, max=MAX_ENTRANTS))
    max_entrants = StrictInt(required=True, validate=validate.Range(min=1, max=MAX_ENTRANTS))
    points = fields.List(
        StrictInt(validate=validate.Range(min=0, max=MAX_POINTS)),
        required=True,
        validate=validate.Length(min=1, max=MAX_ENTRANTS),
        metadata={"description": "Points of places 1, 2, 3, ...; places past the list earn 0."},
    )


class ChartIn(Schema):
    name = Text(max_length=120, required=True)
    kind = fields.String(required=True, validate=validate.OneOf(CHART_KINDS))
    fraction = ExactNumber(
        validate=validate.Range(min=0, max=1, min_inclusive=False),
        metadata={"description": "top_fraction: the share of the field that scores (default 0.3)."},
    )
    step = StrictInt(
        validate=validate.Range(min=1, max=MAX_POINTS),
        metadata={"description": "top_fraction: points between places (default 10)."},
    )
    bands = fields.List(
        fields.Nested(BandIn),
        validate=validate.Length(max=1000),
        metadata={"description": "bands: consecutive entrant ranges, no gaps or overlaps."},
    )

    @validates_schema
    def _fields_of_kind(self, data: dict[str, Any], **_kwargs: Any) -> None:
        kind = data.get("kind")
        if kind == "top_fraction" and "bands" in data:
            raise ValidationError("Only a bands chart has bands.", "bands")
        if kind == "bands":
            problems = {
                name: ["Only a top_fraction chart has this."] for name in ("fraction", "step") if name in data
            }
            if "bands" not in data:
                problems["bands"] = ["A bands chart needs its bands."]
            if problems:
                raise ValidationError(problems)


class BandOut(Schema):
    min_entrants = fields.Integer()
    max_entrants = fields.Integer()
    points = fields.List(fields.Integer())


class ChartOut(Schema):
    id = fields.Integer()
    name = fields.String()
    kind = fields.String()
    fraction = ExactNumber(allow_none=True)
    step = fields.Integer(allow_none=True)
    bands = fields.List(fields.Nested(BandOut))
    created_at = UtcDateTime()


class PreviewArgs(Schema):
    entrants = QueryInt(required=True, validate=validate.Range(min=1, max=MAX_ENTRANTS))


class PreviewOut(Schema):
    entrants = fields.Integer()
    scoring_places = fields.Integer()
    points = fields.List(fields.Integer())


@blp.route("")
class ChartsViews(MethodView):
    @blp.arguments(PageArgs, location="query")
    @blp.response(200, page_schema(ChartOut, "PointsChartPage"))
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """List points charts"""
        return paginate(db.session(), select(PointsChart).order_by(PointsChart.id), args)

    @office_only
    @blp.arguments(ChartIn)
    @blp.response(201, ChartOut)
    def post(self, data: dict[str, Any]) -> PointsChart:
        """Create a points chart (office)

        `{"kind": "top_fraction", "fraction": 0.3, "step": 10}` or
        `{"kind": "bands", "bands": [{"min_entrants", "max_entrants", "points": [...]}]}`.
        """
        if data["kind"] == "top_fraction":
            data.setdefault("fraction", DEFAULT_FRACTION)
            data.setdefault("step", DEFAULT_STEP)
        return create_chart(db.session(), current_actor(), data)


@blp.route("/<id:chart_id>")
class ChartByIdViews(MethodView):
    @blp.response(200, ChartOut)
    def get(self, chart_id: int) -> PointsChart:
        """One points chart"""
        return get_or_404(db.session(), PointsChart, chart_id, "points chart")


@blp.route("/<id:chart_id>/preview")
class ChartPreviewViews(MethodView):
    @blp.arguments(PreviewArgs, location="query")
    @blp.response(200, PreviewOut)
    def get(self, args: dict[str, Any], chart_id: int) -> dict[str, Any]:
        """Points of places 1..k for a field of N entrants (R7)"""
        chart = get_or_404(db.session(), PointsChart, chart_id, "points chart")
        return preview_chart(chart, args["entrants"])


@blp.route("/default/preview")
class DefaultChartPreviewViews(MethodView):
    @blp.arguments(PreviewArgs, location="query")
    @blp.response(200, PreviewOut)
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """Preview the default chart (top 30%, step 10) that a season without a chart uses"""
        return preview_chart(None, args["entrants"])
