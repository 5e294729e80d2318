"""Schemas of points charts: the shape of what comes in and goes out."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.fields import ExactNumber, Name, QueryInt, StrictInt, Text, UtcDateTime
from api.schemas import Answer
from models.entities import CHART_KINDS
from models.rules.charts import PRESET_NAMES, ChartKind
from models.rules.formulas import MAX_LENGTH

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


FORMULA_DESCRIPTION = (
    "formula (R7): the points of place p among n entrants, from n, p, k (the scoring places, from "
    "the fraction), numbers, sqrt ln log10 min max floor ceil round abs, if(condition, a, b), "
    "+ - * / ^, comparisons, and or not, parentheses; at most 500 characters. Stored as written."
)
PRESET_DESCRIPTION = (
    "formula (R7): a preset instead of a formula: linear (n - p + 1, fraction 1), square_root "
    "(sqrt(n) / sqrt(p) * 100, fraction 0.3) or logarithmic ((ln(n + 1) - ln(p)) * 100, fraction 0.3)."
)


def formula_field(**kwargs: Any) -> fields.String:
    return fields.String(
        validate=validate.Length(min=1, max=MAX_LENGTH),
        metadata={"description": FORMULA_DESCRIPTION},
        **kwargs,
    )


def preset_field(**kwargs: Any) -> fields.String:
    return fields.String(
        validate=validate.OneOf(PRESET_NAMES), metadata={"description": PRESET_DESCRIPTION}, **kwargs
    )


class ChartFormula(Schema):
    """R7: a formula chart as it is created: its own formula (with a fraction, 0.3 if left out)
    or a preset. The fields of kind `formula` in PointsChartIn and PointsChart."""

    name = Name(max_length=120, required=True)
    kind = fields.String(required=True, validate=validate.OneOf([ChartKind.FORMULA.value]))
    formula = formula_field()
    preset = preset_field()
    fraction = ExactNumber(
        validate=validate.Range(min=0, max=1, min_inclusive=False),
        metadata={"description": "formula: the share of the field that scores, which gives k (default 0.3)."},
    )


CHART_FORMULA_EXAMPLE = {
    "name": "Square root",
    "kind": "formula",
    "formula": "sqrt(n) / sqrt(p) * 100",
    "fraction": 0.3,
}


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
    formula = formula_field()
    preset = preset_field()

    @validates_schema
    def _fields_of_kind(self, data: dict[str, Any], **_kwargs: Any) -> None:
        kind = data.get("kind")
        if kind != ChartKind.FORMULA:
            foreign = {
                name: ["Only a formula chart has this."] for name in ("formula", "preset") if name in data
            }
            if foreign:
                raise ValidationError(foreign)
        if kind == ChartKind.FORMULA:
            wrong: dict[str, list[str]] = {
                name: ["A formula chart has no such field."] for name in ("step", "bands") if name in data
            }
            if "formula" in data and "preset" in data:
                wrong["formula"] = ["Give a formula or a preset, not both."]
            elif "formula" not in data and "preset" not in data:
                wrong["formula"] = ["A formula chart needs its formula (or a preset)."]
            if wrong:
                raise ValidationError(wrong)
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
    formula = formula_field()
    preset = preset_field()
    reason = Text(max_length=2000, required=True)

    @validates_schema
    def _formula_or_preset(self, data: dict[str, Any], **_kwargs: Any) -> None:
        if "formula" in data and "preset" in data:
            raise ValidationError("Give a formula or a preset, not both.", "formula")


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
    formula = fields.String(allow_none=True, metadata={"description": "formula: the text as written (R7)."})
    preset = fields.String(
        allow_none=True,
        metadata={
            "description": "formula: the preset it came from (ChartPreset); null for the league's own."
        },
    )
    created_at = UtcDateTime()


class PreviewArgs(Schema):
    entrants = QueryInt(required=True, validate=validate.Range(min=1, max=MAX_ENTRANTS))


class PreviewOut(Answer):
    entrants = fields.Integer()
    scoring_places = fields.Integer()
    points = fields.List(fields.Integer())


class ChartChanged(ChartOut):
    rescored_results = fields.Integer(metadata={"description": "Stored results the change rescored (R7)."})
