"""Schemas of league settings: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import StrictInt, UtcDateTime
from api.schemas import Answer


class LeagueSettingsPatch(Schema):
    min_suspension_days = StrictInt(
        validate=validate.Range(min=0, max=3650),
        metadata={"description": "R15: a suspension's last day is at least this many days after its first."},
    )
    min_outside_alcohol_months = StrictInt(
        validate=validate.Range(min=0, max=120),
        metadata={"description": "R15: the same minimum, in months, for an outside_alcohol suspension."},
    )


class LeagueSettingsOut(Answer):
    min_suspension_days = fields.Integer()
    min_outside_alcohol_months = fields.Integer()
    updated_at = UtcDateTime()
