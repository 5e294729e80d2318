"""API keys: create (the secret is shown once), authenticate, revoke."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, bindparam, select, update
from sqlalchemy.orm import Session

from models.actor import Actor, Role
from models.entities.api_keys import ROLES, ApiKey, ApiKeyVenue
from models.entities.base import table_of
from models.entities.league import Venue
from models.errors import Conflict, Problem, refuse
from models.infra.clock import utcnow
from models.services.access import may_create_keys, may_read_keys, may_revoke_key
from models.services.audit_log.writes import record, snapshot
from models.services.lookup import get_or_raise
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
    """Returns the stored key and its secret, which is never stored or shown again (the office)."""
    may_create_keys(actor)
    problems: list[Problem] = []
    if role not in ROLES:
        problems.append(Problem("role", f"Must be one of: {', '.join(ROLES)}."))
    if role == Role.HOST and not venue_ids:
        problems.append(Problem("venue_ids", "A host key is bound to at least one venue."))
    if role == Role.OFFICE and venue_ids:
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


def list_keys(session: Session, actor: Actor, page: PageRequest) -> Page[ApiKey]:
    """Every key, revoked ones too, oldest first (secrets are never stored): for the office."""
    may_read_keys(actor)
    return paginate(session, select(ApiKey).order_by(ApiKey.id), page)


def get_key(session: Session, actor: Actor, key_id: int) -> ApiKey:
    """One key (never its secret): for the office."""
    may_read_keys(actor)
    return get_or_raise(session, ApiKey, key_id, "API key")


def _key_query() -> Select[Any]:
    """A key (by its hash) and each venue it hosts, a row per venue: on the tables, built once
    (every request with a key runs it; through the ORM it cost more than the database took)."""
    keys, links = table_of(ApiKey), table_of(ApiKeyVenue)
    return select(
        keys.c.id, keys.c.name, keys.c.role, keys.c.key_hash, keys.c.revoked_at, links.c.venue_id
    ).outerjoin(links, links.c.api_key_id == keys.c.id)


KEY_QUERY = _key_query().where(table_of(ApiKey).c.key_hash == bindparam("digest"))
KEY_BY_ID = _key_query().where(table_of(ApiKey).c.id == bindparam("key_id"))


def authenticate(session: Session, presented: str, request_id: str | None = None) -> Actor | None:
    """The caller a key stands for, or None for an unknown, revoked or malformed key."""
    digest = hash_key(presented)
    rows = session.connection().execute(KEY_QUERY, {"digest": digest}).all()
    if not rows or not hmac.compare_digest(rows[0].key_hash, digest):
        return None
    return _actor(rows, request_id)


def actor_of_key(session: Session, key_id: int, request_id: str | None = None) -> Actor | None:
    """The caller a key (by its id) stands for, or None when it is unknown or revoked."""
    rows = session.connection().execute(KEY_BY_ID, {"key_id": key_id}).all()
    return _actor(rows, request_id) if rows else None


def _actor(rows: Sequence[Any], request_id: str | None) -> Actor | None:
    key_id, name, role, _key_hash, revoked_at, _venue = rows[0]
    if revoked_at is not None:
        return None
    return Actor(
        role=role,
        name=name,
        key_id=key_id,
        venue_ids=frozenset(row.venue_id for row in rows if row.venue_id is not None),
        request_id=request_id,
    )


def revoke_key(session: Session, actor: Actor, key: ApiKey) -> ApiKey:
    """Revoke a key (the office). R17a: once, however many revocations race: one conditional
    write, and the others, finding it revoked, are refused (409) saying when. Never the key the
    caller is using (403): the office would shut itself out."""
    may_revoke_key(actor, key.id)
    won = session.execute(
        update(ApiKey)
        .where(ApiKey.id == key.id, ApiKey.revoked_at.is_(None))
        .values(revoked_at=utcnow())
        .returning(ApiKey.id)
        .execution_options(synchronize_session=False)
    ).first()
    session.refresh(key)
    if won is None:
        assert key.revoked_at is not None
        raise Conflict(
            f"API key {key.id} was already revoked at {key.revoked_at:%Y-%m-%d %H:%M:%S} UTC.",
            rule="R17a",
            problems=[Problem("", f"API key {key.id} is revoked already.", "R17a")],
        )
    record(
        session,
        actor,
        "api_key.revoke",
        "api_key",
        key.id,
        before={**key_snapshot(key), "revoked_at": None},
        after=key_snapshot(key),
    )
    return key
