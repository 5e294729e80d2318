"""Schemas of player merges: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import Schema, fields

from api.fields import Id, QueryId, Text, UtcDateTime
from api.pagination import PageArgs
from api.schemas import Answer


class MergeIn(Schema):
    duplicate_id = Id(required=True, metadata={"description": "The record merged away into this player."})
    reason = Text(max_length=2000, required=True)


class UndoIn(Schema):
    reason = Text(max_length=2000, required=True)


class MovedOut(Answer):
    results = fields.List(fields.Integer())
    sanctions = fields.List(fields.Integer())
    disqualifications = fields.List(fields.Integer())
    taken = fields.Dict(
        data_key="fields",
        attribute="fields",
        keys=fields.String(),
        values=fields.Raw(),  # a str (email, date_of_birth, membership_number) or int (home_venue_id)
        metadata={"description": "Fields the survivor took from the duplicate."},
    )


class MergeOut(Answer):
    id = fields.Integer()
    survivor_id = fields.Integer()
    duplicate_id = fields.Integer()
    reason = fields.String()
    merged_at = UtcDateTime()
    merged_by = fields.String()
    moved = fields.Nested(MovedOut)
    undone = fields.Boolean()
    undone_at = UtcDateTime(allow_none=True)
    undone_by = fields.String(allow_none=True)
    undo_reason = fields.String(allow_none=True)


class MergeQuery(PageArgs):
    player_id = QueryId(metadata={"description": "Merges of this player, on either side."})
