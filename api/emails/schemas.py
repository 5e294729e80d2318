"""Schemas of a player's email consent (R23), and of a request for the weekly email (R19, R23)."""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from api.fields import UtcDateTime
from api.schemas import Answer
from models.rules.emails import RECORDED_SOURCES


class EmailConsentIn(Schema):
    source = fields.String(
        validate=validate.OneOf(RECORDED_SOURCES),
        metadata={
            "description": "Where the player asked: door (to a host at the venue), office, online or "
            "other. Left out: door when a host records it, office when the office does."
        },
    )


class EmailConsentOut(Answer):
    player_id = fields.Integer()
    consent = fields.Boolean(metadata={"description": "Whether the player gets the weekly email."})
    source = fields.String(
        allow_none=True,
        metadata={
            "description": "Where they asked (door, office, online, other; self: the player, by "
            "the link of a confirmation email)."
        },
    )
    given_at = UtcDateTime(allow_none=True, metadata={"description": "When it was recorded."})
    given_by = fields.String(
        allow_none=True,
        metadata={
            "description": "The name of the key that recorded it (the player, by email link: their own)."
        },
    )


class AskedAddress(fields.Email):
    """An email address as someone types it into a form: refused (naming `email`) when it holds a
    control or invisible character (a line break too), or is not an address; else trimmed of
    spaces."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if isinstance(value, str):
            if any(unicodedata.category(char) in ("Cc", "Cf") for char in value):
                raise ValidationError("May not contain control or invisible characters.")
            value = value.strip()
        text: str = super()._deserialize(value, attr, data, **kwargs)
        return text


class EmailSubscriptionIn(Schema):
    email = AskedAddress(
        required=True,
        validate=validate.Length(min=3, max=254),
        metadata={
            "description": "The address to send the weekly email to, if it is a league player's.",
            "example": "ann@example.org",
        },
    )


class EmailSubscriptionOut(Answer):
    message = fields.String(
        metadata={
            "description": "The same whether or not the address is a league player's (R19): a link "
            "to confirm goes to it if it is."
        }
    )
