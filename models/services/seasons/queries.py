"""Looking seasons up (R2): which regions a season covers, overlaps, a venue's season on a date."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlalchemy import ColumnElement, Select, func, or_, select
from sqlalchemy.orm import Session

from models.entities.league import Region, Season, SeasonRegion, Venue
from models.services.paging import Page, PageRequest, paginate


def covers_regions(region_ids: Sequence[int]) -> ColumnElement[bool]:
    """R2: the seasons that cover at least one of these regions. A season naming no region
    covers them all. (`Season.covers_region` is the same test on one loaded season.)"""
    naming = select(SeasonRegion.season_id).where(SeasonRegion.region_id.in_(region_ids))
    return or_(Season.all_regions.is_(True), Season.id.in_(naming))


def overlapping_seasons(
    session: Session,
    starts_on: date,
    ends_on: date,
    region_ids: Sequence[int],
    exclude_id: int | None = None,
) -> list[Season]:
    """R2: seasons whose dates meet [starts_on, ends_on] and that cover a common region (with
    no region given: every season whose dates meet, as a season naming none covers all)."""
    query = select(Season).where(Season.starts_on <= ends_on, Season.ends_on >= starts_on)
    if exclude_id is not None:
        query = query.where(Season.id != exclude_id)
    if region_ids:
        query = query.where(covers_regions(region_ids))
    return list(session.scalars(query.order_by(Season.starts_on)))


def season_for(session: Session, venue: Venue, on: date) -> Season | None:
    """R2: the season that covers the venue's region and whose dates contain `on`."""
    candidates = overlapping_seasons(session, on, on, [venue.region_id])
    return candidates[0] if candidates else None


def list_seasons(
    session: Session, page: PageRequest, *, region_id: int | None = None, active_on: date | None = None
) -> Page[Season]:
    """Seasons, newest first; those covering a region, or running on a day."""
    query = select(Season).order_by(Season.starts_on.desc(), Season.id.desc())
    if region_id is not None:
        query = query.where(covers_regions([region_id]))
    if active_on is not None:
        query = query.where(Season.starts_on <= active_on, Season.ends_on >= active_on)
    return paginate(session, query, page)


def venues_of(season: Season) -> Select[Venue]:
    """R2: a select of the venues a season covers (all, when it names no region)."""
    query = select(Venue)
    return query if season.all_regions else query.where(Venue.region_id.in_(season.region_ids))


def covered_venues(session: Session, season: Season) -> list[Venue]:
    """R2: the venues a season covers, by name."""
    return list(session.scalars(venues_of(season).order_by(Venue.name, Venue.id)))


def demo_season(session: Session, season: Season) -> bool:
    """A season of the demo league: it names regions, and every one is the demo's."""
    if season.all_regions or not season.region_ids:
        return False
    others = select(func.count()).select_from(Region)
    return not session.scalar(others.where(Region.id.in_(season.region_ids), Region.demo.is_(False)))


def demo_seasons(session: Session, regions: tuple[int, ...]) -> tuple[int, ...]:
    """The seasons of the demo: they name regions, only the demo's."""
    named = select(Season).where(Season.all_regions.is_(False))
    return tuple(
        sorted(
            season.id
            for season in session.scalars(named)
            if season.region_ids and set(season.region_ids) <= set(regions)
        )
    )
