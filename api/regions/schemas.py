"""Schemas of regions: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import Schema, fields

from api.fields import Name, UtcDateTime
from api.schemas import Answer


class RegionIn(Schema):
    name = Name(max_length=120, required=True)


class RegionOut(Answer):
    id = fields.Integer()
    name = fields.String()
    demo = fields.Boolean(
        metadata={"description": "The demo league's region: its players never show at other regions' venues."}
    )
    created_at = UtcDateTime()
