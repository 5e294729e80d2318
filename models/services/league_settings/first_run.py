"""A new league's first steps, in order, and which are done: its time zone, a region, venues with
their nights, a points chart, a season and a host key. The demo league (when loaded) counts for
none of them: its region, venues, chart and season are not the league's own."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from models.entities import ApiKey, PointsChart, Region, Season, Venue
from models.entities.api_keys import ApiKeyVenue
from models.entities.schedules import VenueGame
from models.services.lookup import league_settings
from models.services.seasons.queries import demo_seasons


@dataclass(frozen=True)
class FirstStep:
    """One step: what it is (`name`, also the console's key for its page) and whether it is done."""

    name: str
    done: bool


def first_steps(session: Session) -> list[FirstStep]:
    """The steps in the order a league takes them."""
    demo_regions = tuple(session.scalars(select(Region.id).where(Region.demo.is_(True))))
    own_venue = Venue.region_id.not_in(demo_regions)
    the_demos = demo_seasons(session, demo_regions)
    seasons = select(Season.id).where(Season.id.not_in(the_demos))
    demo_charts = select(Season.points_chart_id).where(
        Season.id.in_(the_demos), Season.points_chart_id.is_not(None)
    )
    charts = select(PointsChart.id).where(PointsChart.id.not_in(demo_charts))
    nights = select(VenueGame.venue_id).join(Venue, Venue.id == VenueGame.venue_id).where(own_venue)
    host_keys = (
        select(ApiKey.id)
        .join(ApiKeyVenue, ApiKeyVenue.api_key_id == ApiKey.id)
        .join(Venue, Venue.id == ApiKeyVenue.venue_id)
        .where(ApiKey.role == "host", ApiKey.revoked_at.is_(None), own_venue)
    )
    found = {
        "timezone": league_settings(session).timezone is not None,
        "region": session.scalar(select(exists().where(Region.demo.is_(False)))),
        "venues": session.scalar(select(exists(nights))),
        "chart": session.scalar(select(exists(charts))),
        "season": session.scalar(select(exists(seasons))),
        "host_key": session.scalar(select(exists(host_keys))),
    }
    return [FirstStep(name, bool(done)) for name, done in found.items()]


def demo_loaded(session: Session) -> bool:
    return bool(session.scalar(select(exists().where(Region.demo.is_(True)))))
