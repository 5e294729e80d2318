"""Sign-ins to the web console: an API key, presented once at sign-in, becomes a random
token for the browser's cookie; the token stands for the key until it expires, the user signs out,
or the key is revoked. Only the token's hash is kept."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.api_keys import ConsoleSignIn
from models.infra.clock import utcnow
from models.services.api_keys.writes import actor_of_key, authenticate


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def sign_in(session: Session, presented: str, hours: int, request_id: str | None) -> tuple[str, Actor] | None:
    """A new sign-in for a valid, unrevoked key: (the cookie's token, who it stands for); None
    for any other key. Sign-ins that expired are removed on the way."""
    actor = authenticate(session, presented, request_id)
    if actor is None or actor.key_id is None:
        return None
    now = utcnow()
    session.execute(delete(ConsoleSignIn).where(ConsoleSignIn.expires_at < now))
    token = secrets.token_urlsafe(32)
    session.add(
        ConsoleSignIn(
            token_hash=_hash(token),
            api_key_id=actor.key_id,
            created_at=now,
            expires_at=now + timedelta(hours=hours),
        )
    )
    session.flush()
    return token, actor


def signed_in(session: Session, token: str, request_id: str | None) -> Actor | None:
    """Who a cookie's token stands for, if its session is open and its key not revoked."""
    if not token or len(token) > 100:
        return None
    found = session.scalar(
        select(ConsoleSignIn).where(
            ConsoleSignIn.token_hash == _hash(token), ConsoleSignIn.expires_at > utcnow()
        )
    )
    if found is None:
        return None
    return actor_of_key(session, found.api_key_id, request_id)


def sign_out(session: Session, token: str) -> None:
    session.execute(delete(ConsoleSignIn).where(ConsoleSignIn.token_hash == _hash(token)))
