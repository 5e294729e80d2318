"""Schemas of health: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import fields

from api.schemas import Answer


class HealthOut(Answer):
    status = fields.String()
    database = fields.String()
