"""R23: what the delivery worker notices rather than a request: a sanction whose last day has
passed (on the league's clock, R2a) has ended, told once (the event's `once_key`) whichever
worker sees it first, for the sanctions that ended in the last month."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from models.entities import OutboxEvent, Player, Sanction, WebhookDelivery
from models.infra.clock import utcnow
from models.services import wall_clock
from models.services.webhooks.events import emit

LOOK_BACK = timedelta(days=30)
# Events (and their delivery log) are kept this long, then forgotten: every delivery is done by
# then (tries stop after a day).
KEEP_EVENTS = timedelta(days=30)


def sanction_data(sanction: Sanction, display_name: str) -> dict[str, object]:
    """What a staff subscription hears of a sanction (never its free-text reason)."""
    return {
        "sanction_id": sanction.id,
        "player": {"id": sanction.player_id, "display_name": display_name},
        "kind": sanction.kind,
        "category": sanction.category,
        "venue_id": sanction.venue_id,
        "first_day": sanction.first_day.isoformat(),
        "last_day": sanction.last_day.isoformat() if sanction.last_day else None,
    }


def tell_ended_sanctions(session: Session) -> int:
    """Sanctions whose last day has passed on their own clock (a venue ban's venue, R2a), told
    once each."""
    soonest = wall_clock.in_league(session) + timedelta(days=2)  # no zone is two days ahead of it
    ended = [
        (sanction, name)
        for sanction, name in session.execute(
            select(Sanction, Player.display_name)
            .join(Player, Player.id == Sanction.player_id)
            .where(
                Sanction.last_day.is_not(None),
                Sanction.last_day < soonest,
                Sanction.last_day >= soonest - LOOK_BACK,
                Sanction.lifted_at.is_(None),
            )
            .order_by(Sanction.id)
        )
        if sanction.last_day is not None and sanction.last_day < wall_clock.for_sanction(session, sanction)
    ]
    if not ended:
        return 0
    keys = {f"sanction.ended:{sanction.id}" for sanction, _name in ended}
    told = set(session.scalars(select(OutboxEvent.once_key).where(OutboxEvent.once_key.in_(keys))))
    count = 0
    for sanction, name in ended:
        key = f"sanction.ended:{sanction.id}"
        if key not in told and emit(
            session, "sanction.ended", sanction_data(sanction, name), sanction.venue_id, once_key=key
        ):
            count += 1
    return count


def forget_old_events(session: Session) -> int:
    """Events older than KEEP_EVENTS, with their deliveries (the log keeps a month)."""
    cutoff = utcnow() - KEEP_EVENTS
    old = list(session.scalars(select(OutboxEvent.id).where(OutboxEvent.created_at < cutoff).limit(500)))
    if old:
        session.execute(delete(WebhookDelivery).where(WebhookDelivery.event_id.in_(old)))
        session.execute(delete(OutboxEvent).where(OutboxEvent.id.in_(old)))
    return len(old)
