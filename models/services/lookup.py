"""Finding one record by id, or refusing: the lookups every service and view shares."""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy.orm import Session

from models.errors import InvalidInput, NotFound

T = TypeVar("T")


def get_or_raise(session: Session, entity: type[T], entity_id: int, label: str) -> T:
    """The record with this id, or NotFound naming what was looked for."""
    found = session.get(entity, entity_id)
    if found is None:
        raise NotFound(f"There is no {label} with id {entity_id}.")
    return found


def require_exists(
    session: Session, entity: type[Any], entity_id: int | None, field: str, label: str
) -> None:
    """Refuse a reference (a field of the request) to a record that does not exist."""
    if entity_id is not None and session.get(entity, entity_id) is None:
        raise InvalidInput.at(field, f"There is no {label} with id {entity_id}.")
