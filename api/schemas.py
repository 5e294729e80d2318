"""Output schemas shared by several resources."""

from __future__ import annotations

from marshmallow import Schema, fields


class PlayerRef(Schema):
    """How the public sees a player anywhere in a response (R19)."""

    id = fields.Integer()
    display_name = fields.String()


class WarningOut(Schema):
    """Something accepted but worth a look, e.g. a possible duplicate player (R5)."""

    code = fields.String()
    message = fields.String()
    player_ids = fields.List(fields.Integer())
    rule = fields.String(allow_none=True, metadata={"description": "The league rule behind it, e.g. R5."})
