"""Schemas of a player's email consent (R23)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import UtcDateTime
from api.schemas import Answer
from models.rules.emails import CONSENT_SOURCES


class EmailConsentIn(Schema):
    source = fields.String(
        validate=validate.OneOf(CONSENT_SOURCES),
        metadata={
            "description": "Where the player asked: door (to a host at the venue), office, online or "
            "other. Left out: door when a host records it, office when the office does."
        },
    )


class EmailConsentOut(Answer):
    player_id = fields.Integer()
    consent = fields.Boolean(metadata={"description": "Whether the player gets the weekly email."})
    source = fields.String(
        allow_none=True, metadata={"description": "Where they asked (door, office, online, other)."}
    )
    given_at = UtcDateTime(allow_none=True, metadata={"description": "When it was recorded."})
    given_by = fields.String(
        allow_none=True, metadata={"description": "The name of the key that recorded it."}
    )
