"""The wall clocks of the league (R2a): "today at this venue" and "today in the league", and
how its dates and times read for people (R24).

Every date of the league is a local date. A venue's today is the date on its wall clock (its own
zone, else the league's); league-wide matters (whether a season has ended, publishing, a
provisional list's suspension check) read the league's zone. Only models/infra/clock.py reads
the time; this module only says which zone."""

from __future__ import annotations

from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities import Sanction, Venue
from models.freshness.memos import cached_by_league
from models.infra import clock
from models.rules.people_dates import DateWords
from models.services.lookup import league_settings


def league_zone(session: Session) -> str:
    """The league's zone (the settings bump the `league` scope: cached by its version)."""
    return cached_by_league(session, "league zone", lambda: league_settings(session).zone)


def people_dates(session: Session) -> DateWords:
    """R24: how the league says dates and times to people (its format, locale and zone), read
    once: the pages, the emails and the chat messages all say them through it (the settings bump
    the `league` scope: cached by its version)."""
    return cached_by_league(session, "date words", lambda: league_settings(session).dates)


def venue_zone(session: Session, venue: Venue | int) -> str:
    """The venue's own zone, else the league's."""
    if isinstance(venue, int):
        own = session.scalar(select(Venue.timezone).where(Venue.id == venue))
    else:
        own = venue.timezone
    return own or league_zone(session)


def in_league(session: Session) -> date:
    """Today on the league's wall clock."""
    return clock.today_in(league_zone(session))


def at_venue(session: Session, venue: Venue | int) -> date:
    """Today on the venue's wall clock."""
    return clock.today_in(venue_zone(session, venue))


def venue_since(session: Session, venue: Venue) -> date:
    """R2, R17: the venue's first day in the league: the date on its wall clock when it was added
    (no schedule gives it a night before)."""
    return clock.local_time(venue.created_at, venue_zone(session, venue)).date()


def at(session: Session, venue_id: int | None) -> date:
    """Today at the venue when one is named, else in the league."""
    return in_league(session) if venue_id is None else at_venue(session, venue_id)


def for_sanction(session: Session, sanction: Sanction) -> date:
    """A venue ban's today is its venue's; a league-wide sanction's is the league's."""
    return at(session, sanction.venue_id)


def zones_in_use(session: Session) -> tuple[str, ...]:
    """The league's zone and every venue's own, sorted (a zone is a venue's or the settings':
    cached by the `league` scope's version, which they bump)."""
    return cached_by_league(session, "zones in use", lambda: _zones_in_use(session))


def _zones_in_use(session: Session) -> tuple[str, ...]:
    own = session.scalars(select(Venue.timezone).where(Venue.timezone.is_not(None)).distinct())
    return tuple(sorted({league_zone(session), *own}))


def day_key(session: Session) -> str:
    """The local date in every zone in use: it changes at each of their midnights, so an answer
    cached under it is never served on a later local day anywhere (the cache's day key)."""
    zones = zones_in_use(session)
    return " ".join(f"{zone}={clock.today_in(zone).isoformat()}" for zone in zones)
