"""Regions: create them (R1)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import Region
from models.errors import Conflict, Problem
from models.services.audit_log.writes import record, snapshot


def create_region(session: Session, actor: Actor, name: str, *, demo: bool = False) -> Region:
    """A region (the demo league's when `demo`: only its loader says so)."""
    if session.scalar(select(Region.id).where(Region.name == name)) is not None:
        raise Conflict(
            f"A region named {name!r} already exists.", problems=[Problem("name", "Already in use.")]
        )
    region = Region(name=name, demo=demo)
    session.add(region)
    session.flush()
    record(session, actor, "region.create", "region", region.id, after=snapshot(region))
    return region


# Venues -------------------------------------------------------------------------------------
