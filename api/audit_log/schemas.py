"""Schemas of audit log: the shape of what comes in and goes out."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from api import db
from api.csv_export import format_field
from api.fields import QueryId, QueryText, UtcDateTime
from api.pagination import PageArgs
from api.schemas import Answer
from models.actor import ACTOR_ROLES
from models.infra import clock
from models.services import wall_clock


class DateOrDateTime(fields.String):
    """`2026-03-04` (midnight on the league's wall clock, R2a, or the next midnight with
    end_of_day) or an ISO 8601 timestamp (UTC when it gives no offset)."""

    def __init__(self, end_of_day: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.end_of_day = end_of_day

    # A string in the spec and on the wire, a datetime once read: the override is deliberate.
    def _deserialize(  # type: ignore[override]
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> datetime:
        text = str(value).strip()
        try:
            if len(text) == 10:
                day = datetime.fromisoformat(text).date() + timedelta(days=int(self.end_of_day))
                zone = clock.zone_info(wall_clock.league_zone(db.session()))
                return datetime.combine(day, time(), tzinfo=zone).astimezone(UTC).replace(tzinfo=None)
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise ValidationError("Not a valid date or ISO 8601 timestamp.") from None
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone(UTC).replace(tzinfo=None)
        return parsed


class AuditCsvQuery(Schema):
    """The log's filters: what changed, who changed it, what was done, and when."""

    entity = QueryText(metadata={"description": "e.g. season, player, api_key"})
    entity_id = QueryId()
    action = QueryText(metadata={"description": "e.g. season.update"})
    actor = QueryText(metadata={"description": "The key name that acted."})
    since = DateOrDateTime(
        metadata={
            "description": "From this date (its midnight in the league's zone, R2a) or timestamp "
            "(UTC unless it gives an offset)."
        }
    )
    until = DateOrDateTime(
        end_of_day=True,
        metadata={
            "description": "Up to and including this date (in the league's zone), or before this "
            "timestamp (UTC unless it gives an offset)."
        },
    )


class AuditQuery(AuditCsvQuery, PageArgs):
    """`page` and `per_page` page the JSON's entries; the CSV holds every entry the filters keep."""

    format = format_field()


class AuditOut(Answer):
    id = fields.Integer()
    at = UtcDateTime()
    actor = fields.String()
    actor_role = fields.String(validate=validate.OneOf(ACTOR_ROLES))
    actor_key_id = fields.Integer(allow_none=True)
    request_id = fields.String(allow_none=True)
    action = fields.String()
    entity = fields.String()
    entity_id = fields.Integer(allow_none=True)
    before = fields.Dict(allow_none=True, metadata={"description": "The record before (null on a create)."})
    after = fields.Dict(allow_none=True, metadata={"description": "The record after the change."})
    reason = fields.String(allow_none=True)
