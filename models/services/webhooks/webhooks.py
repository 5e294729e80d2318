"""R23: the office's webhook subscriptions: made (its secret shown once), changed, paused and
resumed, deleted, pinged, and their delivery log. A URL whose host is on a private, loopback or
link-local address (or an IPv6 one carrying such an address), or that is not well-formed (an IPv6
zone, port 0, a space in its host), is refused when saved, naming `url` (and its addresses again
at each delivery, models/infra/http_guard)."""

from __future__ import annotations

import base64
import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities import OutboxEvent, Region, Venue, Webhook, WebhookDelivery
from models.errors import InvalidInput
from models.infra.http_guard import Malformed, Refused, check_url
from models.rules.webhooks import default_events, unknown_kinds
from models.services.access import may_manage_webhooks
from models.services.audit_log.writes import record, snapshot
from models.services.lookup import get_or_raise, require_exists
from models.services.paging import Page, PageRequest, paginate
from models.services.webhooks.events import emit

# What the audit log keeps of a subscription: never its secret.
HIDDEN = ("secret",)


def new_secret() -> str:
    """A Standard Webhooks secret: whsec_ and 24 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def _audited(webhook: Webhook) -> dict[str, Any]:
    return {k: v for k, v in snapshot(webhook).items() if k not in HIDDEN}


def _checked(session: Session, data: dict[str, Any], allow_private: bool) -> None:
    if "url" in data:
        try:
            check_url(data["url"], allow_private)
        except Malformed as exc:
            raise InvalidInput.at("url", str(exc), rule="R23") from None
        except Refused as exc:
            raise InvalidInput.at(
                "url", f"{exc}. A webhook may not reach a private address.", rule="R23"
            ) from None
    unknown = unknown_kinds(data.get("events") or [])
    if unknown:
        raise InvalidInput.at("events", f"Unknown events: {', '.join(unknown)}.", rule="R23")
    require_exists(session, Venue, data.get("venue_id"), "venue_id", "venue")
    require_exists(session, Region, data.get("region_id"), "region_id", "region")
    if data.get("venue_id") is not None and data.get("region_id") is not None:
        raise InvalidInput.at("region_id", "Name a venue or a region, not both.", rule="R23")


def create_webhook(session: Session, actor: Actor, data: dict[str, Any], allow_private: bool) -> Webhook:
    """A new subscription; one that names no events hears its format's default (R23)."""
    may_manage_webhooks(actor)
    _checked(session, data, allow_private)
    # R23: without a list, what its format wants (a chat: each report once, no standings besides).
    data = {**data, "events": data.get("events") or default_events(data.get("format", "json"))}
    webhook = Webhook(**data, secret=new_secret(), created_by=actor.name)
    session.add(webhook)
    session.flush()
    record(session, actor, "webhook.create", "webhook", webhook.id, after=_audited(webhook))
    return webhook


def update_webhook(
    session: Session, actor: Actor, webhook_id: int, changes: dict[str, Any], allow_private: bool
) -> Webhook:
    """A change; `paused: false` resumes a paused subscription (its failures forgotten)."""
    may_manage_webhooks(actor)
    webhook = get_or_raise(session, Webhook, webhook_id, "webhook")
    merged = {"venue_id": webhook.venue_id, "region_id": webhook.region_id, **changes}
    _checked(
        session, {**changes, "venue_id": merged["venue_id"], "region_id": merged["region_id"]}, allow_private
    )
    before = _audited(webhook)
    for name, value in changes.items():
        setattr(webhook, name, value)
    if changes.get("paused") is False:
        webhook.failures_in_a_row, webhook.paused_reason = 0, None
    elif changes.get("paused") is True and not webhook.paused_reason:
        webhook.paused_reason = f"Paused by {actor.name}."
    session.flush()
    record(session, actor, "webhook.update", "webhook", webhook.id, before=before, after=_audited(webhook))
    return webhook


def delete_webhook(session: Session, actor: Actor, webhook_id: int) -> None:
    may_manage_webhooks(actor)
    webhook = get_or_raise(session, Webhook, webhook_id, "webhook")
    before = _audited(webhook)
    session.delete(webhook)
    session.flush()
    record(session, actor, "webhook.delete", "webhook", webhook_id, before=before)


def list_webhooks(session: Session, actor: Actor) -> list[Webhook]:
    may_manage_webhooks(actor)
    return list(session.scalars(select(Webhook).order_by(Webhook.id)))


def get_webhook(session: Session, actor: Actor, webhook_id: int) -> Webhook:
    may_manage_webhooks(actor)
    return get_or_raise(session, Webhook, webhook_id, "webhook")


def delivery_row(delivery: WebhookDelivery, event: OutboxEvent) -> dict[str, Any]:
    """A delivery as its log shows it."""
    return {
        "id": delivery.id,
        "event_id": event.event_id,
        "event_type": event.kind,
        "state": delivery.state,
        "attempts": delivery.attempts,
        "last_status": delivery.last_status,
        "last_error": delivery.last_error,
        "next_attempt_at": delivery.next_attempt_at if delivery.state == "pending" else None,
        "delivered_at": delivery.delivered_at,
        "created_at": delivery.created_at,
    }


def ping(session: Session, actor: Actor, webhook_id: int) -> dict[str, Any]:
    """A test event for this subscription alone, sent by the worker like any other."""
    webhook = get_webhook(session, actor, webhook_id)
    event = emit(session, "webhook.ping", {"webhook_id": webhook.id}, only=webhook.id)
    assert event is not None
    delivery = session.scalar(
        select(WebhookDelivery).where(
            WebhookDelivery.event_id == event.id, WebhookDelivery.webhook_id == webhook.id
        )
    )
    assert delivery is not None
    return delivery_row(delivery, event)


def deliveries_page(
    session: Session, actor: Actor, webhook_id: int, page: PageRequest
) -> Page[dict[str, Any]]:
    """The subscription's delivery log, the latest first."""
    get_webhook(session, actor, webhook_id)
    query: Any = (
        select(WebhookDelivery, OutboxEvent)
        .join(OutboxEvent, OutboxEvent.id == WebhookDelivery.event_id)
        .where(WebhookDelivery.webhook_id == webhook_id)
        .order_by(WebhookDelivery.id.desc())
    )
    found = paginate(session, query, page, rows=True)
    return Page([delivery_row(d, e) for d, e in found.items], found.total, found.page, found.per_page)
