"""R21 for email (R23): what a player's erasure removes (their consent, every message not sent, the
text of those sent: only their subject and when they went stay, which name no one; their
confirmation links, and any request to subscribe one of their addresses not yet taken) and what
their data export shows (the consent as recorded, and each message's subject, state and when it
was sent; not its text). With the players, whose erasure and export call it: the emails' services
read the players, so the players never import them."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from models.entities import EmailConfirmation, EmailConsent, EmailMessage, EmailSubscriptionRequest
from models.rules.players import normalise_email
from models.services.audit_log.writes import plain


def forget_emails(session: Session, player_ids: Collection[int], addresses: Collection[str] = ()) -> None:
    """R21: the consent, the confirmation links and the messages not sent of these players
    deleted, the sent ones' text emptied, and the requests to subscribe any of their addresses
    (held until the delivery worker's next pass) deleted."""
    ids = list(player_ids)
    session.execute(delete(EmailConsent).where(EmailConsent.player_id.in_(ids)))
    session.execute(delete(EmailConfirmation).where(EmailConfirmation.player_id.in_(ids)))
    held = sorted({normalise_email(address) for address in addresses})
    if held:
        session.execute(delete(EmailSubscriptionRequest).where(EmailSubscriptionRequest.address.in_(held)))
    session.execute(delete(EmailMessage).where(EmailMessage.player_id.in_(ids), EmailMessage.state != "sent"))
    session.execute(update(EmailMessage).where(EmailMessage.player_id.in_(ids)).values(body=""))


def emails_held(session: Session, player_ids: Collection[int]) -> dict[int, dict[str, Any]]:
    """R21: for each of these players, their email consent (null when none) and their messages,
    oldest first, as the data export shows them."""
    ids = list(player_ids)
    held: dict[int, dict[str, Any]] = {pid: {"email_consent": None, "emails": []} for pid in ids}
    for consent in session.scalars(select(EmailConsent).where(EmailConsent.player_id.in_(ids))):
        held[consent.player_id]["email_consent"] = {
            "source": consent.source,
            "given_at": plain(consent.given_at),
            "given_by": consent.given_by,
        }
    messages = session.scalars(
        select(EmailMessage).where(EmailMessage.player_id.in_(ids)).order_by(EmailMessage.id)
    )
    for message in messages:
        held[message.player_id]["emails"].append(
            {
                "kind": message.kind,
                "period": message.period,
                "subject": message.subject,
                "state": message.state,
                "created_at": plain(message.created_at),
                "sent_at": plain(message.sent_at),
            }
        )
    return held
