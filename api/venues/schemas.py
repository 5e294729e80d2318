"""Schemas of venues: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import Schema, fields

from api.fields import Id, Name, QueryId, StrictBool, Text, UtcDateTime, ZoneName
from api.pagination import PageArgs
from api.schemas import Answer


class VenueIn(Schema):
    name = Name(max_length=120, required=True)
    region_id = Id(required=True)
    city = Text(max_length=120, allow_none=True)
    active = StrictBool(load_default=True)
    timezone = ZoneName(
        allow_none=True,
        metadata={
            "description": "R2a: the IANA zone of the venue's wall clock, when it differs from the "
            "league's (a national league spans zones); null: the league's. Its dates (a report's, "
            "today, the door list's night) are read on it. Changing it changes no stored date."
        },
    )


class VenuePatch(VenueIn):
    """A PATCH names only the fields it changes."""


class VenueOut(Answer):
    id = fields.Integer()
    name = fields.String()
    region_id = fields.Integer()
    city = fields.String(allow_none=True)
    active = StrictBool()
    timezone = fields.String(allow_none=True, metadata={"description": "Null: the league's zone (R2a)."})
    created_at = UtcDateTime()
    updated_at = UtcDateTime()


class VenueQuery(PageArgs):
    region_id = QueryId()
    active = fields.Boolean()
    q = fields.String(metadata={"description": "Part of the venue's name or city."})
