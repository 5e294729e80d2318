"""Reading the blind structures (R22): who plays each one."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities import LeagueSettings, Venue


def played_where(session: Session) -> dict[int | None, list[str]]:
    """Who plays each structure (None: the built-in): the league's nights, and each venue that
    names one of its own, by name."""
    settings = session.get(LeagueSettings, 1)
    where: dict[int | None, list[str]] = {
        settings.structure_id if settings else None: ["the league's nights"]
    }
    named = select(Venue.name, Venue.structure_id).where(Venue.structure_id.is_not(None))
    for name, structure_id in session.execute(named.order_by(Venue.name)):
        where.setdefault(structure_id, []).append(name)
    return where
