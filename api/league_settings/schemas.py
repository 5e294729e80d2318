"""Schemas of league settings: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import StrictInt, UtcDateTime
from api.schemas import Answer
from models.entities.discipline import LEAST_MAX_ENTRANTS, MOST_MAX_ENTRANTS


class LeagueSettingsPatch(Schema):
    min_suspension_days = StrictInt(
        validate=validate.Range(min=0, max=3650),
        metadata={"description": "R15: a suspension's last day is at least this many days after its first."},
    )
    min_outside_alcohol_months = StrictInt(
        validate=validate.Range(min=0, max=120),
        metadata={"description": "R15: the same minimum, in months, for an outside_alcohol suspension."},
    )
    max_entrants = StrictInt(
        validate=validate.Range(min=LEAST_MAX_ENTRANTS, max=MOST_MAX_ENTRANTS),
        metadata={"description": "The most entrants a report may have (default 500)."},
    )


class LeagueSettingsOut(Answer):
    min_suspension_days = fields.Integer()
    min_outside_alcohol_months = fields.Integer()
    max_entrants = fields.Integer()
    updated_at = UtcDateTime()
