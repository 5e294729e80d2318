"""Blind structures (R22): kept by the office, checked when saved (rules/structures); the one a
night plays: the one asked for, else its venue's, else the league's, else 001's built in."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities import LeagueSettings, Structure, Venue
from models.errors import Conflict, Problem, refuse
from models.rules.structures import LEAGUE_DEFAULT, Break, Level, structure_problems
from models.rules.structures import Structure as Rules
from models.services.access import may_keep_structures
from models.services.audit_log.writes import record, snapshot
from models.services.lookup import get_or_raise, require_exists

BUILT_IN_NAME = "League standard (2,000 chips, 20-minute levels)"


def rules_of(levels: list[dict[str, Any]], breaks: list[dict[str, Any]], starting_chips: int) -> Rules:
    return Rules(
        starting_chips=starting_chips,
        levels=tuple(Level(row["small_blind"], row["big_blind"], row["minutes"]) for row in levels),
        breaks=tuple(Break(row["after_level"], row["minutes"], row.get("note") or "") for row in breaks),
    )


def as_json(rules: Rules, structure_id: int | None, name: str) -> dict[str, Any]:
    """A structure as a night keeps it, and as the API writes it."""
    return {
        "id": structure_id,
        "name": name,
        "starting_chips": rules.starting_chips,
        "levels": [
            {"small_blind": x.small_blind, "big_blind": x.big_blind, "minutes": x.minutes}
            for x in rules.levels
        ],
        "breaks": [
            {"after_level": b.after_level, "minutes": b.minutes, "note": b.note} for b in rules.breaks
        ],
    }


def rules_of_row(structure: Structure) -> Rules:
    return rules_of(structure.levels, structure.breaks, structure.starting_chips)


def built_in() -> dict[str, Any]:
    return as_json(LEAGUE_DEFAULT, None, BUILT_IN_NAME)


def _checked(session: Session, data: dict[str, Any], keep_id: int | None) -> None:
    refuse(
        "The structure is refused",
        structure_problems(rules_of(data["levels"], data.get("breaks", []), data["starting_chips"])),
    )
    taken = session.scalar(
        select(Structure.id).where(Structure.name == data["name"], Structure.id != (keep_id or 0))
    )
    if taken is not None:
        raise Conflict(
            f"Structure {taken} is named {data['name']!r} already.",
            problems=[Problem("name", "Already in use.")],
        )


def create_structure(session: Session, actor: Actor, data: dict[str, Any]) -> Structure:
    may_keep_structures(actor)
    data = {"breaks": [], **data}
    _checked(session, data, None)
    structure = Structure(**data)
    session.add(structure)
    session.flush()
    record(session, actor, "structure.create", "structure", structure.id, after=snapshot(structure))
    return structure


def update_structure(session: Session, actor: Actor, structure_id: int, changes: dict[str, Any]) -> Structure:
    """A change applies to nights opened after it: a night keeps the structure it opened with."""
    may_keep_structures(actor)
    structure = get_or_raise(session, Structure, structure_id, "structure")
    before = snapshot(structure)
    merged = {
        "name": structure.name,
        "starting_chips": structure.starting_chips,
        "levels": structure.levels,
        "breaks": structure.breaks,
        **changes,
    }
    _checked(session, merged, structure.id)
    for key, value in changes.items():
        setattr(structure, key, value)
    session.flush()
    record(
        session,
        actor,
        "structure.update",
        "structure",
        structure.id,
        before=before,
        after=snapshot(structure),
    )
    return structure


def list_structures(session: Session) -> list[Structure]:
    return list(session.scalars(select(Structure).order_by(Structure.name, Structure.id)))


def structure_for(session: Session, venue: Venue, asked: int | None = None) -> dict[str, Any]:
    """R22: the structure a night at the venue plays, as the night keeps it: the one `asked`
    for, else the venue's, else the league's, else 001's (built in)."""
    settings = session.get(LeagueSettings, 1)
    chosen = asked or venue.structure_id or (settings.structure_id if settings else None)
    if chosen is None:
        return built_in()
    if asked is not None:
        require_exists(session, Structure, asked, "structure_id", "structure")
    structure = get_or_raise(session, Structure, chosen, "structure")
    return as_json(rules_of_row(structure), structure.id, structure.name)
