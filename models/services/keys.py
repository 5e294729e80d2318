"""API keys: create (the secret is shown once), authenticate, revoke."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from models.actor import Actor
from models.entities.access import ROLES, ApiKey, ApiKeyVenue
from models.entities.league import Venue
from models.errors import Problem, refuse
from models.infra.clock import utcnow
from models.services.audit import record, snapshot
from models.services.paging import Page, PageRequest, paginate

KEY_PREFIX = "plk_"


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_snapshot(key: ApiKey) -> dict[str, object]:
    data = snapshot(key, venue_ids=key.venue_ids)
    data.pop("key_hash", None)
    return data


def create_key(
    session: Session, actor: Actor, name: str, role: str, venue_ids: Sequence[int]
) -> tuple[ApiKey, str]:
    """Returns the stored key and its secret, which is never stored or shown again."""
    problems: list[Problem] = []
    if role not in ROLES:
        problems.append(Problem("role", f"Must be one of: {', '.join(ROLES)}."))
    if role == "host" and not venue_ids:
        problems.append(Problem("venue_ids", "A host key is bound to at least one venue."))
    if role == "office" and venue_ids:
        problems.append(Problem("venue_ids", "An office key is not bound to venues."))
    # Indexes name the caller's list as sent (venue_ids.0 is the first venue given).
    for index, venue_id in enumerate(venue_ids):
        if session.get(Venue, venue_id) is None:
            problems.append(Problem(f"venue_ids.{index}", f"There is no venue with id {venue_id}."))
    venue_ids = sorted(set(venue_ids))
    refuse("The key cannot be created as asked", problems)
    secret = KEY_PREFIX + secrets.token_urlsafe(32)
    key = ApiKey(
        name=name,
        role=role,
        key_hash=hash_key(secret),
        key_prefix=secret[: len(KEY_PREFIX) + 6],
        venue_links=[ApiKeyVenue(venue_id=venue_id) for venue_id in venue_ids],
    )
    session.add(key)
    session.flush()
    record(session, actor, "api_key.create", "api_key", key.id, after=key_snapshot(key))
    return key, secret


def list_keys(session: Session, page: PageRequest) -> Page[ApiKey]:
    """Every key, revoked ones too, oldest first (secrets are never stored)."""
    return paginate(session, select(ApiKey).order_by(ApiKey.id), page)


def authenticate(session: Session, presented: str, request_id: str | None = None) -> Actor | None:
    """The caller a key stands for, or None for an unknown, revoked or malformed key."""
    digest = hash_key(presented)
    # The key and its venues in one statement (every request with a key runs this one).
    key = (
        session.execute(
            select(ApiKey).where(ApiKey.key_hash == digest).options(joinedload(ApiKey.venue_links))
        )
        .unique()
        .scalar_one_or_none()
    )
    if key is None or key.revoked_at is not None or not hmac.compare_digest(key.key_hash, digest):
        return None
    return Actor(
        role=key.role,
        name=key.name,
        key_id=key.id,
        venue_ids=frozenset(key.venue_ids),
        request_id=request_id,
    )


def revoke_key(session: Session, actor: Actor, key: ApiKey) -> ApiKey:
    if key.revoked_at is None:
        before = key_snapshot(key)
        key.revoked_at = utcnow()
        session.flush()
        record(
            session,
            actor,
            "api_key.revoke",
            "api_key",
            key.id,
            before=before,
            after=key_snapshot(key),
        )
    return key
