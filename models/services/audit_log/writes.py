"""R18: write the append-only audit log; snapshot entities as plain JSON for before/after."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import insert, inspect
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.audit import AuditEntry
from models.entities.base import table_of
from models.infra.clock import utcnow
from models.services.audit_log.personal_text import scrub_erased, scrub_tree
from models.services.audit_log.player_keys import seal_entries


def plain(value: Any) -> Any:
    """A JSON-safe copy of a value: dates as ISO strings, decimals as strings (exact)."""
    if isinstance(value, datetime):
        return value.isoformat() + "Z"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    return value


def snapshot(entity: Any, **extra: Any) -> dict[str, Any]:
    """Every column of an entity, plus `extra` (e.g. related ids), as JSON-safe data."""
    mapper = inspect(entity).mapper
    data = {attr.key: plain(getattr(entity, attr.key)) for attr in mapper.column_attrs}
    data.update({key: plain(value) for key, value in extra.items()})
    return data


def record(
    session: Session,
    actor: Actor,
    action: str,
    entity: str,
    entity_id: int | None,
    *,
    before: Any = None,
    after: Any = None,
    reason: str | None = None,
) -> None:
    """One audit entry, written at once in the caller's transaction."""
    record_each(session, actor, action, entity, [(entity_id, before, after)], reason=reason)


def record_each(
    session: Session,
    actor: Actor,
    action: str,
    entity: str,
    entries: Sequence[tuple[int | None, Any, Any]],
    *,
    reason: str | None = None,
) -> None:
    """One audit entry per (entity id, before, after), all in one Core INSERT in the caller's
    transaction (the unit of work's bookkeeping cost more than the INSERT; a report may register
    thousands of players). Every personal value about a player is sealed under that player's
    key as it is stored (R21: audit_keys), so that erasure can make it unreadable."""
    if not entries:
        return
    common = {
        "at": utcnow(),
        "actor_key_id": actor.key_id,
        "actor": actor.name,
        "actor_role": actor.role,
        "request_id": actor.request_id,
        "action": action,
        "entity": entity,
    }
    # R21: an erased player's values in the entry's free text read "[erased]" as it is stored.
    reason = scrub_erased(session, reason)
    rows = [
        (entity_id, scrub_tree(session, before), scrub_tree(session, after))
        for entity_id, before, after in entries
    ]
    sealed = seal_entries(
        session, entity, [(entity_id, before, after, reason) for entity_id, before, after in rows]
    )
    session.connection().execute(
        AUDIT_INSERT,
        [
            {**common, "entity_id": entity_id, "before": before, "after": after, "reason": stored_reason}
            for (entity_id, _before, _after), (before, after, stored_reason) in zip(
                entries, sealed, strict=True
            )
        ],
    )


AUDIT_INSERT = insert(table_of(AuditEntry))


def record_update(
    session: Session,
    actor: Actor,
    action: str,
    entity: str,
    entity_id: int,
    *,
    before: dict[str, Any],
    after: dict[str, Any],
    reason: str | None = None,
    **outcome: Any,
) -> None:
    """An update's audit entry (R18), with `outcome` (e.g. how many results it rescored) added to
    the state after. An update that changed nothing (a PATCH of `{}`, or of the stored values)
    and had no outcome is not an event: nothing is recorded."""
    if before == after and not any(outcome.values()):
        return
    record(
        session, actor, action, entity, entity_id, before=before, after={**after, **outcome}, reason=reason
    )
