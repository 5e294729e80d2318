"""Schemas of api keys: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import Id, Name, UtcDateTime
from api.schemas import Answer
from models.entities import ROLES


class KeyIn(Schema):
    name = Name(max_length=120, required=True)
    role = fields.String(required=True, validate=validate.OneOf(ROLES))
    venue_ids = fields.List(Id(), load_default=list, validate=validate.Length(max=1000))


class KeyOut(Answer):
    id = fields.Integer()
    name = fields.String()
    role = fields.String(validate=validate.OneOf(ROLES))
    venue_ids = fields.List(fields.Integer())
    key_prefix = fields.String(metadata={"description": "The key's first characters."})
    created_at = UtcDateTime()
    revoked_at = UtcDateTime(allow_none=True)


class KeyCreated(KeyOut):
    key = fields.String(metadata={"description": "The secret: shown this once, never again."})
