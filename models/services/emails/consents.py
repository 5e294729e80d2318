"""R23: a player's consent to the weekly email, recorded with who recorded it and when (the office,
or a host of a venue where the player plays), withdrawn by the same, or by the player in one
click (the signed link of every message). Every change is audited (R18) without the address:
the entries say that consent was given or withdrawn, where and by whom, never to what address.
Withdrawing deletes the messages not yet sent: nothing more goes out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models.actor import Actor, Role
from models.entities import EmailConsent, EmailMessage, Player
from models.errors import RuleViolation
from models.infra.clock import utcnow
from models.rules.emails import ConsentSource, LinkToken, sent_under
from models.services.access import may_keep_email_consent
from models.services.audit_log.writes import plain, record
from models.services.locks import take_players
from models.services.lookup import get_or_raise
from models.services.players.queries import personal_visible

GIVEN = "player.email_consent"
WITHDRAWN = "player.email_consent_withdrawn"
# Who withdraws through the link of a message: the player, holding no key.
BY_THE_LINK = "the player, by the link"


@dataclass(frozen=True)
class ConsentState:
    """What the API answers: whether the player gets the weekly email, since when, recorded by whom."""

    player_id: int
    consent: bool
    source: str | None = None
    given_at: datetime | None = None
    given_by: str | None = None


def state_of(player_id: int, consent: EmailConsent | None) -> ConsentState:
    if consent is None:
        return ConsentState(player_id, False)
    return ConsentState(player_id, True, consent.source, consent.given_at, consent.given_by)


def _audited(consent: EmailConsent) -> dict[str, Any]:
    """What the audit log keeps of a consent: where, when and by whom; never the address."""
    return {
        "consent": True,
        "source": consent.source,
        "given_at": plain(consent.given_at),
        "given_by": consent.given_by,
    }


def _kept_by(session: Session, actor: Actor, player_id: int) -> Player:
    """The player, if the caller keeps their consent: the office, or a host of one of their
    venues (their home, or a venue where they have a live result: R19's "a player of the venue")."""
    player = get_or_raise(session, Player, player_id, "player")
    may_keep_email_consent(actor, player.id in personal_visible(session, actor, [player.id]))
    return player


def consent_of(session: Session, actor: Actor, player_id: int) -> ConsentState:
    """R23: whether the player gets the weekly email (the office, or a host of their venues)."""
    _kept_by(session, actor, player_id)
    return state_of(player_id, session.get(EmailConsent, player_id))


def default_source(actor: Actor) -> str:
    """Where consent was given when the caller does not say: a host hears it at the door."""
    return ConsentSource.DOOR if actor.role == Role.HOST else ConsentSource.OFFICE


def give_consent(session: Session, actor: Actor, player_id: int, source: str | None = None) -> ConsentState:
    """R23: record that the player asked for the weekly email (audited, `player.email_consent`).
    A player with no email cannot consent (422 naming `email`); consent given already stands as it
    was recorded. The player's row is locked first, so an erasure meanwhile is seen (R21)."""
    _kept_by(session, actor, player_id)
    player = take_players(session, [player_id]).get(player_id)
    if player is None or not player.email:
        raise RuleViolation.at(
            "email",
            f"Player {player_id} has no email address: the office records one first, then their consent.",
            rule="R23",
        )
    if player.merged_into_id is not None:
        raise RuleViolation.at(
            "player_id",
            f"Player {player_id} was merged into player {player.merged_into_id}: record it there.",
            rule="R23",
        )
    return record_consent(session, actor, player_id, source or default_source(actor))[0]


def record_consent(session: Session, actor: Actor, player_id: int, source: str) -> tuple[ConsentState, bool]:
    """The consent recorded (audited, `player.email_consent`) for a player the caller checked and
    locked, and whether it is new: consent given already stands as it was recorded."""
    existing = session.get(EmailConsent, player_id)
    if existing is not None:
        return state_of(player_id, existing), False
    consent = EmailConsent(
        player_id=player_id,
        source=source,
        given_at=utcnow(),
        given_by=actor.name,
        given_by_key_id=actor.key_id,
    )
    try:
        with session.begin_nested():
            session.add(consent)
            session.flush()
    except IntegrityError:  # recorded meanwhile by another request: it stands
        return state_of(player_id, session.get(EmailConsent, player_id)), False
    record(session, actor, GIVEN, "player", player_id, after=_audited(consent))
    return state_of(player_id, consent), True


def withdraw_consent(session: Session, actor: Actor, player_id: int) -> ConsentState:
    """R23: the player no longer wants the weekly email (the office, or a host of their venues)."""
    _kept_by(session, actor, player_id)
    return withdraw(session, actor, player_id)


def withdraw(
    session: Session, actor: Actor, player_id: int, given_at: datetime | None = None
) -> ConsentState:
    """Withdraw the consent, if any (with `given_at`: only the consent given then), and delete
    the player's messages not yet sent (audited, `player.email_consent_withdrawn`); withdrawn
    already, nothing happens. One conditional DELETE: of two withdrawals at once, one deletes
    and audits."""
    _withdrawn(session, actor, player_id, given_at)
    return ConsentState(player_id, False)


def _withdrawn(session: Session, actor: Actor, player_id: int, given_at: datetime | None) -> bool:
    """`withdraw`'s work; whether it withdrew a consent."""
    which = delete(EmailConsent).where(EmailConsent.player_id == player_id)
    if given_at is not None:
        which = which.where(EmailConsent.given_at == given_at)
    gone = session.execute(
        which.returning(EmailConsent.source, EmailConsent.given_at, EmailConsent.given_by)
    ).first()
    if gone is None:
        return False
    session.execute(
        delete(EmailMessage).where(EmailMessage.player_id == player_id, EmailMessage.state == "pending")
    )
    source, given_at, given_by = gone
    before = {"consent": True, "source": source, "given_at": plain(given_at), "given_by": given_by}
    after = {"consent": False, "withdrawn_by": actor.name}
    record(session, actor, WITHDRAWN, "player", player_id, before=before, after=after)
    return True


class ByLink(StrEnum):
    """What a one-click unsubscribe did."""

    WITHDRAWN = "withdrawn"  # the consent the link was sent under, withdrawn now
    NOTHING = "nothing"  # no consent to withdraw (clicked twice, or withdrawn otherwise)
    EARLIER = "earlier"  # the link was sent under an earlier consent: the player's new one stands


def withdraw_by_link(session: Session, link: LinkToken, request_id: str | None) -> ByLink:
    """R23: the one-click unsubscribe (RFC 8058): the signed link names the player and the consent
    it was sent under, and withdraws that consent only (a consent given again since is left
    alone); no key."""
    actor = Actor(role=Role.PUBLIC, name=BY_THE_LINK, request_id=request_id)
    player_id = link.player_id
    consent = session.get(EmailConsent, player_id) if session.get(Player, player_id) else None
    if consent is None:
        return ByLink.NOTHING
    if not sent_under(link, consent.given_at):
        return ByLink.EARLIER
    # Only the consent read: one given again meanwhile (after a withdrawal) is left alone.
    return ByLink.WITHDRAWN if _withdrawn(session, actor, player_id, consent.given_at) else ByLink.NOTHING
