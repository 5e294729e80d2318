"""Schemas of blind structures (R22)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import Name, StrictInt, Text, UtcDateTime
from api.schemas import Answer
from models.rules.structures import MOST_LEVELS


class LevelIn(Schema):
    small_blind = StrictInt(required=True)
    big_blind = StrictInt(required=True)
    minutes = StrictInt(required=True, metadata={"description": "1 to 120."})


class BreakIn(Schema):
    after_level = StrictInt(required=True, metadata={"description": "The level it follows (1-based)."})
    minutes = StrictInt(required=True, metadata={"description": "1 to 120."})
    note = Text(
        max_length=120, load_default="", metadata={"description": "What happens at it, e.g. a chip-up."}
    )


class StructureIn(Schema):
    name = Name(max_length=120, required=True)
    starting_chips = StrictInt(required=True)
    levels = fields.List(
        fields.Nested(LevelIn),
        required=True,
        validate=validate.Length(max=MOST_LEVELS),
        metadata={"description": "In order; blinds never fall (R22).", "maxItems": MOST_LEVELS},
    )
    breaks = fields.List(
        fields.Nested(BreakIn), validate=validate.Length(max=MOST_LEVELS), metadata={"maxItems": MOST_LEVELS}
    )


class StructurePatch(StructureIn):
    """A PATCH names only the fields it changes."""


class LevelOut(Answer):
    small_blind = fields.Integer()
    big_blind = fields.Integer()
    minutes = fields.Integer()


class BreakOut(Answer):
    after_level = fields.Integer()
    minutes = fields.Integer()
    note = fields.String()


class StructureBodyOut(Answer):
    """A structure's levels and breaks (the built-in one's; a night's, as it keeps it)."""

    id = fields.Integer(allow_none=True, metadata={"description": "Null: the built-in (001's)."})
    name = fields.String()
    starting_chips = fields.Integer()
    levels = fields.List(fields.Nested(LevelOut))
    breaks = fields.List(fields.Nested(BreakOut))


class StructureOut(Answer):
    id = fields.Integer()
    name = fields.String()
    starting_chips = fields.Integer()
    levels = fields.List(fields.Nested(LevelOut))
    breaks = fields.List(fields.Nested(BreakOut))
    created_at = UtcDateTime()
    updated_at = UtcDateTime()


class StructureList(Answer):
    items = fields.List(fields.Nested(StructureOut))
    built_in = fields.Nested(
        StructureBodyOut, metadata={"description": "001's: what a night plays where no structure is chosen."}
    )
