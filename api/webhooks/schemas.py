"""Schemas of webhook subscriptions and their deliveries (R23)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import Id, StrictBool, Text, UtcDateTime
from api.schemas import Answer
from models.entities import WEBHOOK_FORMATS
from models.rules.webhooks import CHAT_EVENTS, EVENT_KINDS, JSON_EVENTS

EVENTS_SAID = ", ".join(EVENT_KINDS)
DEFAULT_SAID = (
    f"Left out: what the format wants. A chat (discord, slack) hears {', '.join(CHAT_EVENTS)}: one "
    "message a report, saying what changed, never a second one for the standings it moved; json "
    f"hears {', '.join(JSON_EVENTS)}."
)


class WebhookIn(Schema):
    url = fields.String(
        required=True,
        validate=validate.Length(min=8, max=2000),
        metadata={
            "description": "http(s), a host name or IP address (no IPv6 zone), a port from 1 to 65535. "
            "Refused on a private, loopback or link-local address, or an IPv6 one carrying such an "
            "IPv4 address (6to4, Teredo, NAT64, IPv4-mapped or -compatible) (R23)."
        },
    )
    events = fields.List(
        fields.String(validate=validate.Length(max=40)),
        validate=validate.Length(min=1, max=len(EVENT_KINDS) + 1),
        metadata={"description": f"Any of: {EVENTS_SAID}; or * for all (R23). {DEFAULT_SAID}"},
    )
    venue_id = Id(allow_none=True, metadata={"description": "Only events about this venue."})
    region_id = Id(allow_none=True, metadata={"description": "Only events about this region's venues."})
    format = fields.String(
        load_default="json",
        validate=validate.OneOf(WEBHOOK_FORMATS),
        metadata={"description": "json (the event), discord or slack (a chat message)."},
    )
    staff = StrictBool(
        load_default=False,
        metadata={"description": "Staff receive sanction events; others never get a personal field."},
    )
    description = Text(max_length=200, load_default="")


class WebhookPatch(WebhookIn):
    """A PATCH names only the fields it changes; `paused` pauses or resumes."""

    paused = StrictBool()


class WebhookOut(Answer):
    id = fields.Integer()
    url = fields.String()
    events = fields.List(fields.String())
    venue_id = fields.Integer(allow_none=True)
    region_id = fields.Integer(allow_none=True)
    format = fields.String()
    staff = fields.Boolean()
    description = fields.String()
    paused = fields.Boolean()
    paused_reason = fields.String(allow_none=True)
    failures_in_a_row = fields.Integer()
    created_by = fields.String()
    created_at = UtcDateTime()
    updated_at = UtcDateTime()


class WebhookMade(WebhookOut):
    secret = fields.String(
        metadata={"description": "Shown once: verify each delivery's webhook-signature with it."}
    )


class WebhookList(Answer):
    items = fields.List(fields.Nested(WebhookOut))


class DeliveryOut(Answer):
    id = fields.Integer()
    event_id = fields.String(metadata={"description": "The webhook-id the receiver saw."})
    event_type = fields.String()
    state = fields.String(metadata={"description": "pending, delivered or gave_up."})
    attempts = fields.Integer()
    last_status = fields.Integer(allow_none=True)
    last_error = fields.String(allow_none=True)
    next_attempt_at = UtcDateTime(allow_none=True)
    delivered_at = UtcDateTime(allow_none=True)
    created_at = UtcDateTime()
