"""Looking up venues (R1): the public list and the venues a caller hosts."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from models.actor import Actor
from models.entities.league import Venue
from models.services.paging import Page, PageRequest, paginate


def list_venues(
    session: Session,
    page: PageRequest,
    *,
    region_id: int | None = None,
    active: bool | None = None,
    text: str | None = None,
) -> Page[Venue]:
    """Venues by name; of a region, active or not, or whose name or city holds `text`."""
    # Each venue's regular nights come in one more query for the whole page, not one per venue.
    nights = selectinload(Venue.regular_games)  # type: ignore[attr-defined]
    query = select(Venue).options(nights).order_by(Venue.name, Venue.id)
    if region_id is not None:
        query = query.where(Venue.region_id == region_id)
    if active is not None:
        query = query.where(Venue.active.is_(active))
    if text and text.strip():
        wanted = text.strip().lower()
        query = query.where(
            func.lower(Venue.name).contains(wanted, autoescape=True)
            | func.lower(Venue.city).contains(wanted, autoescape=True)
        )
    return paginate(session, query, page)


def venues_of_actor(session: Session, actor: Actor) -> list[Venue]:
    """The venues a caller acts for, by name: every one for the office, a host's own."""
    query = select(Venue).order_by(Venue.name, Venue.id)
    if not actor.is_office:
        query = query.where(Venue.id.in_(sorted(actor.venue_ids)))
    return list(session.scalars(query))
