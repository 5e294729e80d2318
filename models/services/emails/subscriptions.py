"""R19, R23: a player asks for the weekly email themself, and confirms it by a one-time link.

Anyone may ask for an address (`ask_for_weekly_email`), with no key. Whether the address is a
player's must not show, in the answer or in the time it takes: the request does the same work
whoever the address names, one INSERT of the address, and looks nothing up. The known/unknown
decision is the delivery worker's, on its next pass: it takes the requests away
(`take_requests`, one short transaction: an address that names no one is kept no longer), then
(`queue_confirmations`) queues, for each address that is a player's who does not consent yet, a
message with a one-time link (at most one a day per player, however many ask). Only the owner of
the address sees whether anything came.

The link (`confirm_by_link`) records the consent as the player's own (source `self`, given by
"the player, by email link"; audited, R18) and is spent: a second use, a link older than seven
days, or one of a player erased (R21) or merged away meanwhile changes nothing."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime
from enum import StrEnum

from sqlalchemy import delete, exists, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models.actor import Actor, Role
from models.entities import EmailConfirmation, EmailConsent, EmailMessage, EmailSubscriptionRequest, Player
from models.infra import clock
from models.rules.emails import CONFIRM, CONFIRM_LIFETIME, ConsentSource, compose_confirmation
from models.rules.players import normalise_email
from models.services import wall_clock
from models.services.emails.consents import record_consent
from models.services.emails.digests import naive_utc
from models.services.locks import take_players
from models.services.lookup import league_settings

# Who gives consent through a confirmation link: the player, holding no key.
BY_EMAIL_LINK = "the player, by email link"
# Requests taken (and confirmations queued) in one pass; the next pass takes the rest.
BATCH = 100


class Confirmed(StrEnum):
    """What a confirmation link did."""

    CONFIRMED = "confirmed"  # consent recorded now
    ALREADY = "already"  # the player consents already: nothing changed
    GONE = "gone"  # used already, or of a player erased or merged away: nothing changed


def ask_for_weekly_email(session: Session, address: str, now: datetime) -> None:
    """R19, R23: someone asked for the weekly email for this address. One INSERT, the same
    whoever the address names (a player's, no one's): nothing is read, so neither the answer nor
    its time says whether the league knows the address. The delivery worker decides."""
    session.execute(
        insert(EmailSubscriptionRequest).values(address=normalise_email(address), created_at=naive_utc(now))
    )


def take_requests(session: Session, most: int = BATCH) -> list[str]:
    """The oldest requests' addresses, deleted (the delivery worker's first step, in a
    transaction of its own: no address is kept past this pass). Workers on PostgreSQL take
    different requests (SKIP LOCKED)."""
    oldest = select(EmailSubscriptionRequest.id).order_by(EmailSubscriptionRequest.id).limit(most)
    if session.get_bind().dialect.name == "postgresql":
        oldest = oldest.with_for_update(skip_locked=True)
    ids = list(session.scalars(oldest))
    if not ids:
        return []
    taken = session.execute(
        delete(EmailSubscriptionRequest)
        .where(EmailSubscriptionRequest.id.in_(ids))
        .returning(EmailSubscriptionRequest.address)
    )
    return [address for (address,) in taken]


def queue_confirmations(session: Session, addresses: Iterable[str], now: datetime) -> int:
    """R23: for each address that is a player's (not merged away) who does not consent yet, a
    message with a one-time link, queued for the sender; how many. The players are locked (the
    lower id first) and read again, so an erasure or a change of address meanwhile is seen (R21).
    A player already sent one this day (the league's) gets no other: the first link still works."""
    wanted = sorted({normalise_email(address) for address in addresses})
    if not wanted:
        return 0
    ids = list(
        session.scalars(select(Player.id).where(Player.email.in_(wanted), Player.merged_into_id.is_(None)))
    )
    if not ids:
        return 0
    players = take_players(session, ids)
    consenting = set(session.scalars(select(EmailConsent.player_id).where(EmailConsent.player_id.in_(ids))))
    settings = league_settings(session)
    zone = wall_clock.league_zone(session)
    stamp = naive_utc(now)
    day = clock.local_time(now, zone).date().isoformat()
    until = settings.dates.instant(stamp + CONFIRM_LIFETIME, zone)  # R24: the league's dates
    queued = 0
    for player in sorted(players.values(), key=lambda p: p.id):
        if player.email not in wanted or player.merged_into_id is not None or player.id in consenting:
            continue
        subject, body = compose_confirmation(player.display_name, until)
        message = EmailMessage(
            player_id=player.id,
            kind=CONFIRM,
            period=day,
            subject=subject,
            body=body,
            state="pending",
            next_attempt_at=stamp,
            created_at=stamp,
        )
        try:
            with session.begin_nested():
                session.add(message)
                session.flush()
                session.add(
                    EmailConfirmation(
                        player_id=player.id,
                        message_id=message.id,
                        code=secrets.token_hex(16),
                        created_at=stamp,
                    )
                )
                session.flush()
        except IntegrityError:
            continue  # one was queued this day already
        queued += 1
    return queued


def forget_old_confirmations(session: Session, now: datetime) -> None:
    """Links past their seven days deleted, and the confirmations no link remains for that were
    never sent (nothing to confirm with them any more)."""
    session.execute(
        delete(EmailConfirmation).where(EmailConfirmation.created_at < naive_utc(now) - CONFIRM_LIFETIME)
    )
    _forget_unsent_confirmations(session)


def _forget_unsent_confirmations(session: Session, player_id: int | None = None) -> None:
    linked = exists().where(EmailConfirmation.message_id == EmailMessage.id)
    unsent = delete(EmailMessage).where(
        EmailMessage.kind == CONFIRM, EmailMessage.state == "pending", ~linked
    )
    if player_id is not None:
        unsent = unsent.where(EmailMessage.player_id == player_id)
    session.execute(unsent)


def confirmation_open(session: Session, code: str) -> bool:
    """Whether a confirmation link can still be used (the page shows its button)."""
    return session.scalar(select(EmailConfirmation.id).where(EmailConfirmation.code == code)) is not None


def confirm_by_link(session: Session, code: str, request_id: str | None) -> Confirmed:
    """R23: the player opened their one-time link and pressed the button: consent recorded as
    theirs (source `self`, given by "the player, by email link"; audited, R18). The player's row
    is locked first (as an erasure locks it), then the link is spent by one conditional DELETE:
    of two uses at once, one records. Every other link of theirs is spent with it."""
    player_id = session.scalar(select(EmailConfirmation.player_id).where(EmailConfirmation.code == code))
    if player_id is None:
        return Confirmed.GONE
    player = take_players(session, [player_id]).get(player_id)
    spent = session.execute(
        delete(EmailConfirmation)
        .where(EmailConfirmation.code == code, EmailConfirmation.player_id == player_id)
        .returning(EmailConfirmation.id)
    ).first()
    if spent is None or player is None or not player.email or player.merged_into_id is not None:
        return Confirmed.GONE
    session.execute(delete(EmailConfirmation).where(EmailConfirmation.player_id == player_id))
    _forget_unsent_confirmations(session, player_id)
    actor = Actor(role=Role.PUBLIC, name=BY_EMAIL_LINK, request_id=request_id)
    _state, new = record_consent(session, actor, player_id, ConsentSource.SELF)
    return Confirmed.CONFIRMED if new else Confirmed.ALREADY
