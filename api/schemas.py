"""Output schemas shared by several resources, and `Answer`, the base of every answer's schema."""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import Schema, fields, validate
from marshmallow.schema import SchemaMeta

from models.rules.notices import NOTICE_CODES


class AnswerMeta(SchemaMeta):
    """Marks every declared field of an answer required (always present) in the spec, unless the
    schema names it in OPTIONAL: generated clients then get plain attributes, not `Unset`."""

    def __new__(mcs, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> AnswerMeta:
        klass = super().__new__(mcs, name, bases, attrs)
        optional = getattr(klass, "OPTIONAL", ())
        for field_name, field in klass._declared_fields.items():
            field.required = field_name not in optional
        return klass  # type: ignore[return-value]


class Answer(Schema, metaclass=AnswerMeta):
    """The schema of an answer (output only). Fields that may be absent go in OPTIONAL; fields
    that may be null say allow_none."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ()


class PlayerRef(Answer):
    """How the public sees a player anywhere in a response (R19)."""

    id = fields.Integer()
    display_name = fields.String()


class WarningOut(Answer):
    """Something accepted but worth a look, e.g. a possible duplicate player (R5)."""

    code = fields.String(validate=validate.OneOf(NOTICE_CODES))
    message = fields.String()
    player_ids = fields.List(fields.Integer())
    rule = fields.String(allow_none=True, metadata={"description": "The league rule behind it, e.g. R5."})


def patch_of(schema: type[Schema]) -> Schema:
    """A PATCH's schema: any top-level field may be left out, but what is sent is whole (a season's
    bonus tier still needs its events and points). marshmallow's `partial=True` would reach into
    nested schemas too."""
    return schema(partial=tuple(schema._declared_fields))
