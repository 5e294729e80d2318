"""Schemas of health: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import Schema, fields


class HealthOut(Schema):
    status = fields.String()
    database = fields.String()
