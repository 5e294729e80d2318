"""Reading the audit log (R18): the office filters it by what, who and when."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.audit import AuditEntry
from models.services.access import require_office
from models.services.paging import Page, PageRequest, paginate


@dataclass(frozen=True)
class AuditFilters:
    entity: str | None = None
    entity_id: int | None = None
    action: str | None = None
    actor: str | None = None
    since: datetime | None = None  # at or after
    until: datetime | None = None  # before


def list_audit_entries(
    session: Session, actor: Actor, filters: AuditFilters, page: PageRequest
) -> Page[AuditEntry]:
    """Entries, newest first: for the office."""
    require_office(actor, "reads the audit log")
    query = select(AuditEntry).order_by(AuditEntry.id.desc())
    for name in ("entity", "entity_id", "action", "actor"):
        value = getattr(filters, name)
        if value is not None:
            query = query.where(getattr(AuditEntry, name) == value)
    if filters.since is not None:
        query = query.where(AuditEntry.at >= filters.since)
    if filters.until is not None:
        query = query.where(AuditEntry.at < filters.until)
    return paginate(session, query, page)
