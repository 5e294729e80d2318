"""Looking up regions, venues and points charts, and the chart a season plays by (R1, R7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from models.actor import Actor
from models.entities.league import PointsChart, Region, Season, Venue
from models.rules.charts import DEFAULT_CHART
from models.services.paging import Page, PageRequest, paginate


def list_regions(session: Session, page: PageRequest) -> Page[Region]:
    return paginate(session, select(Region).order_by(Region.name), page)


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
    nights = selectinload(Venue.nights)  # type: ignore[attr-defined]
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


def list_charts(session: Session, page: PageRequest) -> Page[PointsChart]:
    return paginate(session, select(PointsChart).order_by(PointsChart.id), page)


@dataclass(frozen=True)
class DefaultChart:
    """The chart a season naming none plays by (R7: top 30%, step 10), shaped like a stored one."""

    id: None = None
    name: str = "default"
    kind: str = DEFAULT_CHART.kind
    fraction: Decimal = DEFAULT_CHART.fraction
    step: int = DEFAULT_CHART.step
    bands: list[object] = field(default_factory=list)
    formula: None = None
    preset: None = None


def chart_in_force(season: Season) -> PointsChart | DefaultChart:
    """R7: the season's chart, or the default one when it names none."""
    return season.points_chart if season.points_chart is not None else DefaultChart()


def venues_of_actor(session: Session, actor: Actor) -> list[Venue]:
    """The venues a caller acts for, by name: every one for the office, a host's own."""
    query = select(Venue).order_by(Venue.name, Venue.id)
    if not actor.is_office:
        query = query.where(Venue.id.in_(sorted(actor.venue_ids)))
    return list(session.scalars(query))
