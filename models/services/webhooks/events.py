"""R23: an event written in the transaction of the change it tells of, with a delivery for each
subscription that wants it. Nothing is sent here: the worker sends after the commit, so a slow
receiver never slows the request, and a rolled-back change takes its event and deliveries with
it. Each event carries the ids and versions it is about and the league's data version, so what a
receiver reads through the API afterwards is at least that fresh."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models.entities import DataVersion, OutboxEvent, Venue, Webhook, WebhookDelivery
from models.infra.clock import utcnow
from models.rules.webhooks import STAFF_KINDS, Target, Told, wants


def target_of(webhook: Webhook) -> Target:
    return Target(
        frozenset(webhook.events), webhook.venue_id, webhook.region_id, webhook.staff, webhook.format
    )


def told_of(event: OutboxEvent) -> Told:
    return Told(event.kind, event.venue_id, event.region_id, event.staff_only)


def emit(
    session: Session,
    kind: str,
    data: dict[str, Any],
    venue_id: int | None = None,
    region_id: int | None = None,
    once_key: str | None = None,
    only: int | None = None,
    beside: OutboxEvent | None = None,
) -> OutboxEvent | None:
    """The event, and its deliveries, in the session's transaction; None when `once_key` was told
    already (another worker told it first). `only`: for that subscription alone (a ping). `beside`: the
    event of the same change that a chat channel hearing both is told instead (a report's,
    beside the standings it moved: one message)."""
    if venue_id is not None and region_id is None:
        venue = session.get(Venue, venue_id)  # the change's own copy when it loaded it
        region_id = venue.region_id if venue is not None else None
    version = session.scalar(select(DataVersion.version).where(DataVersion.id == 1))
    event = OutboxEvent(
        event_id=f"msg_{uuid.uuid4().hex}",
        kind=kind,
        venue_id=venue_id,
        region_id=region_id,
        staff_only=kind in STAFF_KINDS,
        data={**data, "data_version": version},
        once_key=once_key,
        created_at=utcnow(),
    )
    if once_key is None:
        session.add(event)
        session.flush()
    else:
        try:
            with session.begin_nested():
                session.add(event)
                session.flush()
        except IntegrityError:
            return None  # told already, by another worker
    subscriptions = session.scalars(select(Webhook).order_by(Webhook.id))
    wanted = [
        w.id
        for w in subscriptions
        if (
            w.id == only
            if only is not None
            else wants(
                target_of(w),
                kind,
                venue_id,
                region_id,
                event.staff_only,
                told_of(beside) if beside is not None else None,
            )
        )
    ]
    if wanted:
        session.execute(
            insert(WebhookDelivery),
            [
                {
                    "webhook_id": w,
                    "event_id": event.id,
                    "state": "pending",
                    "next_attempt_at": event.created_at,
                }
                for w in wanted
            ],
        )
    return event


def envelope(event: OutboxEvent) -> dict[str, Any]:
    """The event as a subscription in the json format receives it."""
    return {
        "id": event.event_id,
        "type": event.kind,
        "timestamp": event.created_at.isoformat(timespec="seconds") + "Z",
        "data": event.data,
    }
