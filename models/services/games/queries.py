"""The league's games: every venue's scheduled games in a range of local dates (R2, R2a), for
the public list, the calendar feeds and the embedded week."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy.orm import Session

from models.entities import Region, Venue
from models.errors import InvalidInput
from models.services import wall_clock
from models.services.lookup import get_or_raise
from models.services.paging import Page, PageRequest, page_of
from models.services.venues.schedule_queries import Game, games_between

MOST_DAYS = 92
WEEKS_AHEAD = 12
WEEKS_BEHIND = 2
# R2: a calendar feed lists at most this many games. A venue's never comes near it (3 games a
# weekday at most); a region's of many venues may, and then ends early, at a whole day.
MOST_EVENTS = 1000


def this_week(session: Session) -> tuple[date, date]:
    """Monday to Sunday of this week on the league's clock (R2a)."""
    today = wall_clock.in_league(session)
    monday = today - timedelta(days=today.weekday())
    return monday, monday + timedelta(days=6)


def game_range(session: Session, first: date | None, last: date | None) -> tuple[date, date]:
    """The range asked for: this week when neither end is given; one end alone gives a week."""
    if first is None and last is None:
        return this_week(session)
    if first is None:
        assert last is not None
        return _checked(last - timedelta(days=6), last)
    return _checked(first, last if last is not None else first + timedelta(days=6))


def _checked(first: date, last: date) -> tuple[date, date]:
    if last < first:
        raise InvalidInput.at("to", "`to` comes on or after `from`.")
    if (last - first).days + 1 > MOST_DAYS:
        raise InvalidInput.at("to", f"A range of games is at most {MOST_DAYS} days.")
    return first, last


def list_games(
    session: Session,
    page: PageRequest,
    first: date | None = None,
    last: date | None = None,
    *,
    region_id: int | None = None,
    venue_id: int | None = None,
) -> tuple[date, date, Page[Game]]:
    start, end = game_range(session, first, last)
    if region_id is not None:
        get_or_raise(session, Region, region_id, "region")
    if venue_id is not None:
        get_or_raise(session, Venue, venue_id, "venue")
    games = games_between(session, start, end, region_id=region_id, venue_id=venue_id, played=True)
    return start, end, page_of(games, page)


def venue_feed(session: Session, venue_id: int) -> tuple[Venue, list[Game]]:
    """A venue's games for its calendar: the past 2 weeks and the next 12, on its clock."""
    venue = get_or_raise(session, Venue, venue_id, "venue")
    today = wall_clock.at_venue(session, venue)
    first, last = today - timedelta(weeks=WEEKS_BEHIND), today + timedelta(weeks=WEEKS_AHEAD)
    return venue, whole_days(games_between(session, first, last, venue_id=venue.id))


def region_feed(session: Session, region_id: int) -> tuple[Region, list[Game]]:
    """A region's games for its calendar: the past 2 weeks and the next 12, on the league's clock."""
    region = get_or_raise(session, Region, region_id, "region")
    today = wall_clock.in_league(session)
    first, last = today - timedelta(weeks=WEEKS_BEHIND), today + timedelta(weeks=WEEKS_AHEAD)
    return region, whole_days(games_between(session, first, last, region_id=region.id))


def whole_days(games: list[Game], most: int = MOST_EVENTS) -> list[Game]:
    """A feed's games (by date): all of them when they are at most `most`, else those of the
    days before the day where the `most + 1`-th falls, so no day is listed in part."""
    if len(games) <= most:
        return games
    cut = games[most].scheduled.date
    return [game for game in games[:most] if game.scheduled.date < cut] or games[:most]


def region_week(session: Session, region_id: int) -> tuple[Region, date, date, list[Game]]:
    """A region's games of this week on the league's clock (the embedded page), games played
    but not scheduled too (R2)."""
    region = get_or_raise(session, Region, region_id, "region")
    first, last = this_week(session)
    return region, first, last, games_between(session, first, last, region_id=region.id, played=True)
