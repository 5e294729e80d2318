"""R23: the delivery worker's work. Each pass claims the deliveries that are due (a lease, in its
own short transaction: PostgreSQL's SKIP LOCKED lets several workers share the work), sends each
outside any transaction, signed as Standard Webhooks says, and records what happened: delivered;
or failed, to be tried again with exponential backoff until a day has passed; a subscription
that fails too many times in a row is paused, and its log says so. A worker killed mid-send
leaves its lease to lapse: the delivery is sent again (at least once; the receiver tells a retry
by its `webhook-id`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from models.entities import OutboxEvent, Webhook, WebhookDelivery
from models.infra.clock import utcnow
from models.infra.http_guard import Refused, guarded_client, post_json, signed_headers
from models.rules.webhooks import formatted, next_try
from models.services import wall_clock
from models.services.webhooks.events import envelope

LEASE = timedelta(minutes=2)
BATCH = 20
# A subscription failing this many deliveries in a row is paused (the office resumes it).
PAUSE_AFTER = 15
USER_AGENT = "pokerleague-webhooks/1"


@dataclass(frozen=True)
class Claimed:
    delivery_id: int
    url: str
    secret: str
    format: str
    event_id: str
    kind: str
    body: dict[str, object]
    created: datetime
    attempts: int


@dataclass(frozen=True)
class Settings:
    """The worker's settings (app config): private targets allowed (tests, private installs),
    how long a claim holds, and after how many failures in a row a subscription pauses."""

    allow_private: bool = False
    lease: timedelta = LEASE
    pause_after: int = PAUSE_AFTER


def claim(session: Session, now: datetime, batch: int = BATCH, lease: timedelta = LEASE) -> list[Claimed]:
    """Due deliveries of subscriptions not paused, leased to this worker; committed by the caller."""
    due = (
        select(WebhookDelivery.id)
        .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
        .where(
            WebhookDelivery.state == "pending",
            WebhookDelivery.next_attempt_at <= now,
            or_(WebhookDelivery.leased_until.is_(None), WebhookDelivery.leased_until < now),
            Webhook.paused.is_(False),
        )
        .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id)
        .limit(batch)
    )
    if session.get_bind().dialect.name == "postgresql":
        due = due.with_for_update(of=WebhookDelivery, skip_locked=True)
    ids = list(session.scalars(due))
    if not ids:
        return []
    session.execute(
        update(WebhookDelivery).where(WebhookDelivery.id.in_(ids)).values(leased_until=now + lease)
    )
    words = wall_clock.people_dates(session)  # R24: a chat message's dates, as the league says them
    rows = session.execute(
        select(WebhookDelivery, Webhook, OutboxEvent)
        .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
        .join(OutboxEvent, OutboxEvent.id == WebhookDelivery.event_id)
        .where(WebhookDelivery.id.in_(ids))
        .order_by(WebhookDelivery.id)
    )
    return [
        Claimed(
            d.id,
            w.url,
            w.secret,
            w.format,
            e.event_id,
            e.kind,
            formatted(w.format, e.kind, envelope(e), words),
            e.created_at,
            d.attempts,
        )
        for d, w, e in rows
    ]


@dataclass(frozen=True)
class Outcome:
    delivered: bool
    status: int | None
    error: str | None


def send(claimed: Claimed, allow_private: bool, now: datetime) -> Outcome:
    """One delivery, signed (webhook-id, webhook-timestamp, webhook-signature): a 2xx is
    delivered; anything else, or no answer, is a failure."""
    body = json.dumps(claimed.body, separators=(",", ":"), default=str).encode()
    headers = {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        **signed_headers(claimed.secret, claimed.event_id, now, body),
    }
    try:
        with guarded_client(allow_private) as client:
            answer = post_json(client, claimed.url, body, headers)
    except Refused as exc:
        return Outcome(False, None, f"Refused: {exc}")
    except Exception as exc:  # noqa: BLE001 - any network failure is the receiver's, to retry
        return Outcome(False, None, f"{type(exc).__name__}: {exc}"[:500])
    if 200 <= answer.status_code < 300:
        return Outcome(True, answer.status_code, None)
    return Outcome(False, answer.status_code, f"HTTP {answer.status_code}: {answer.text[:200]}")


def record_outcome(
    session: Session, claimed: Claimed, outcome: Outcome, now: datetime, pause_after: int = PAUSE_AFTER
) -> None:
    """What a try did, to its delivery and its subscription (paused after PAUSE_AFTER failures
    in a row)."""
    delivery = session.get(WebhookDelivery, claimed.delivery_id)
    if delivery is None or delivery.state != "pending":
        return
    webhook = session.get(Webhook, delivery.webhook_id)
    delivery.attempts += 1
    delivery.last_status, delivery.last_error, delivery.leased_until = outcome.status, outcome.error, None
    if outcome.delivered:
        delivery.state, delivery.delivered_at = "delivered", now
        if webhook is not None:
            webhook.failures_in_a_row = 0
        return
    retry = next_try(claimed.created, delivery.attempts, now)
    if retry is None:
        delivery.state = "gave_up"
        delivery.last_error = f"{outcome.error} (given up: tried for a day)"
    else:
        delivery.next_attempt_at = retry
    if webhook is not None:
        webhook.failures_in_a_row += 1
        if webhook.failures_in_a_row >= pause_after and not webhook.paused:
            webhook.paused = True
            webhook.paused_reason = (
                f"Paused by the league after {webhook.failures_in_a_row} failed deliveries in a row "
                f"(the last: {outcome.error}). Resume it once the receiver is fixed."
            )


def deliver_due(
    sessions: Callable[[], AbstractContextManager[Session]],
    settings: Settings,
    now: Callable[[], datetime] = utcnow,
) -> int:
    """One pass: claim, send, record; how many deliveries were tried."""
    with sessions() as session, session.begin():
        claimed = claim(session, now(), lease=settings.lease)
    for item in claimed:
        outcome = send(item, settings.allow_private, now())
        with sessions() as session, session.begin():
            record_outcome(session, item, outcome, now(), settings.pause_after)
    return len(claimed)
