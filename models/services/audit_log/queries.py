"""Reading the audit log (R18): the office filters it by what, who and when; its personal values
are read with their players' keys, "[erased]" once a player was erased (R21)."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.audit import AuditEntry
from models.services.access import may_read_audit_log
from models.services.audit_log.player_keys import opener
from models.services.paging import Page, PageRequest, paginate


@dataclass(frozen=True)
class AuditFilters:
    entity: str | None = None
    entity_id: int | None = None
    action: str | None = None
    actor: str | None = None
    since: datetime | None = None  # at or after
    until: datetime | None = None  # before


@dataclass(frozen=True)
class ReadEntry:
    """An audit entry as the office reads it: its personal values opened (never the stored row,
    which no one may change, R18)."""

    id: int
    at: datetime
    actor_key_id: int | None
    actor: str
    actor_role: str
    request_id: str | None
    action: str
    entity: str
    entity_id: int | None
    before: Any
    after: Any
    reason: str | None


def read_entries(
    session: Session, entries: Sequence[AuditEntry], only: Collection[int] | None = None
) -> list[ReadEntry]:
    """The entries with every sealed value opened while its players' keys exist (R21); with
    `only`, the values about other players withheld (a player's data export)."""
    open_part = opener(session, [part for e in entries for part in (e.before, e.after, e.reason)], only)
    return [
        ReadEntry(
            id=e.id,
            at=e.at,
            actor_key_id=e.actor_key_id,
            actor=e.actor,
            actor_role=e.actor_role,
            request_id=e.request_id,
            action=e.action,
            entity=e.entity,
            entity_id=e.entity_id,
            before=open_part(e.before),
            after=open_part(e.after),
            reason=open_part(e.reason),
        )
        for e in entries
    ]


def _filtered(filters: AuditFilters) -> Select[Any]:
    """The entries the filters keep, newest first."""
    query = select(AuditEntry).order_by(AuditEntry.id.desc())
    for name in ("entity", "entity_id", "action", "actor"):
        value = getattr(filters, name)
        if value is not None:
            query = query.where(getattr(AuditEntry, name) == value)
    if filters.since is not None:
        query = query.where(AuditEntry.at >= filters.since)
    if filters.until is not None:
        query = query.where(AuditEntry.at < filters.until)
    return query


def list_audit_entries(
    session: Session, actor: Actor, filters: AuditFilters, page: PageRequest
) -> Page[ReadEntry]:
    """Entries, newest first, their personal values readable while kept: for the office."""
    may_read_audit_log(actor)
    found = paginate(session, _filtered(filters), page)
    return Page(read_entries(session, found.items), found.total, found.page, found.per_page)


def every_audit_entry(
    session: Session, actor: Actor, filters: AuditFilters, batch: int = 500
) -> Iterator[ReadEntry]:
    """Every entry the filters keep, newest first (a CSV of them): for the office. Read a batch at
    a time, each after the last one's id, so an entry written meanwhile neither shifts nor repeats
    any."""
    may_read_audit_log(actor)
    query = _filtered(filters).limit(batch)
    first = session.scalar(select(func.max(AuditEntry.id)))

    def entries() -> Iterator[ReadEntry]:
        below = None if first is None else first + 1
        while below is not None:
            found = list(session.scalars(query.where(AuditEntry.id < below)))
            yield from read_entries(session, found)
            below = found[-1].id if len(found) == batch else None

    return entries()


@dataclass(frozen=True)
class AuditChoices:
    """What the log holds, for filters offered as lists: the kinds of records, who acted, and the
    actions, each sorted."""

    entities: list[str]
    actors: list[str]
    actions: list[str]


def audit_choices(session: Session, actor: Actor) -> AuditChoices:
    """The kinds of records, the key names that acted and the actions the log holds: for the office."""
    may_read_audit_log(actor)

    def distinct(column: Any) -> list[str]:
        return sorted(session.scalars(select(column).distinct()))

    return AuditChoices(distinct(AuditEntry.entity), distinct(AuditEntry.actor), distinct(AuditEntry.action))
