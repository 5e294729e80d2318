"""Finding one record by id, or refusing, and the league's one row of settings: the lookups every
service and view shares."""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import inspect
from sqlalchemy.orm import Session

from models.entities.league_settings import LeagueSettings
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


# The settings row a session has read, held in its `info`: the session's identity map holds its
# objects weakly, so without it every read of the league's zone (a profile reads it once per venue)
# would query the row again once the last caller let it go. Held only while it belongs to the
# session; a commit or a rollback expires it, as any object of the session, and the next read of
# an attribute loads it again.
_HELD = "league settings"


def league_settings(session: Session) -> LeagueSettings:
    """The one row of settings; the migration creates it, and it is made again if ever missing."""
    held: LeagueSettings | None = session.info.get(_HELD)
    if held is not None and inspect(held).session is session:
        return held
    settings = session.get(LeagueSettings, 1)
    if settings is None:
        settings = LeagueSettings(id=1)
        session.add(settings)
        session.flush()
    session.info[_HELD] = settings
    return settings
