"""Schemas of points charts: the shape of what comes in and goes out."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.fields import ExactNumber, Name, QueryInt, StrictInt, Text, UtcDateTime
from api.schemas import Answer
from models.entities import CHART_KINDS
from models.rules.charts import ChartKind

MAX_ENTRANTS = 10_000


MAX_POINTS = 1_000_000


class BandIn(Schema):
    min_entrants = StrictInt(required=True, validate=validate.Range(min=1, max=MAX_ENTRANTS))
    max_entrants = StrictInt(
        required=True,
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_ENTRANTS),
        metadata={"description": "null: the top band, open to any larger field."},
    )
    points = fields.List(
        StrictInt(validate=validate.Range(min=0, max=MAX_POINTS)),
        required=True,
        validate=validate.Length(min=1, max=MAX_ENTRANTS),
        metadata={"description": "Points of places 1, 2, 3, ...; places past the list earn 0."},
    )


class ChartIn(Schema):
    name = Name(max_length=120, required=True)
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
        if kind == ChartKind.TOP_FRACTION and "bands" in data:
            raise ValidationError("Only a bands chart has bands.", "bands")
        if kind == ChartKind.BANDS:
            problems: dict[str, list[str]] = {
                name: ["Only a top_fraction chart has this."] for name in ("fraction", "step") if name in data
            }
            if "bands" not in data:
                problems["bands"] = ["A bands chart needs its bands."]
            if problems:
                raise ValidationError(problems)


class ChartPatch(Schema):
    """What a chart's PATCH may change, with the reason (a change rescores every season using it)."""

    name = Name(max_length=120)
    fraction = ExactNumber(validate=validate.Range(min=0, max=1, min_inclusive=False))
    step = StrictInt(validate=validate.Range(min=1, max=MAX_POINTS))
    bands = fields.List(fields.Nested(BandIn), validate=validate.Length(min=1, max=1000))
    reason = Text(max_length=2000, required=True)


class BandOut(Answer):
    min_entrants = fields.Integer()
    max_entrants = fields.Integer(allow_none=True)
    points = fields.List(fields.Integer())


class ChartOut(Answer):
    id = fields.Integer(allow_none=True)
    name = fields.String()
    kind = fields.String(validate=validate.OneOf(CHART_KINDS))
    fraction = ExactNumber(allow_none=True)
    step = fields.Integer(allow_none=True)
    bands = fields.List(fields.Nested(BandOut))
    created_at = UtcDateTime()


class PreviewArgs(Schema):
    entrants = QueryInt(required=True, validate=validate.Range(min=1, max=MAX_ENTRANTS))


class PreviewOut(Answer):
    entrants = fields.Integer()
    scoring_places = fields.Integer()
    points = fields.List(fields.Integer())


class ChartChanged(ChartOut):
    rescored_results = fields.Integer(metadata={"description": "Stored results the change rescored (R7)."})
