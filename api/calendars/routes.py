"""A venue's or a region's scheduled games as an iCalendar feed (RFC 5545) that a phone can
subscribe to: the past 2 weeks and the next 12, each game at its venue's local time with the
venue's zone (a VTIMEZONE), cancelled games kept as STATUS:CANCELLED so a phone removes them.
Each event's DTSTAMP is when that game last changed and its SEQUENCE how many times it changed
(`schedule_queries.revisions`), so a subscribed calendar notices a moved game (R2a); a feed
changes only with its games."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, timedelta

from flask import Response
from flask.views import MethodView
from icalendar import Calendar, Event

from api import db
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by
from models.services.games.queries import WEEKS_AHEAD, WEEKS_BEHIND, region_feed, venue_feed
from models.services.venues.schedule_queries import Game, Revision, revisions

blp = Blueprint("calendars", __name__, url_prefix="/api/v1", description="Calendar feeds (RFC 5545).")

UID_DOMAIN = "poker-league"
CALENDAR_ANSWER = {
    200: {
        "description": "An iCalendar feed (RFC 5545): one event per scheduled night.",
        "content": {"text/calendar": {"schema": {"type": "string"}}},
    }
}


def event_of(game: Game, revision: Revision) -> Event:
    event = Event()
    event.add("uid", f"{game.uid}@{UID_DOMAIN}")
    event.add("dtstamp", revision.changed_at.replace(tzinfo=UTC))  # stored naive UTC
    event.add("sequence", revision.sequence)
    event.add("dtstart", game.starts)
    event.add("dtend", game.ends)
    event.add("summary", f"Poker at {game.venue.name}" + (" (cancelled)" if game.scheduled.cancelled else ""))
    event.add("location", ", ".join(part for part in (game.venue.name, game.venue.city) if part))
    event.add("status", "CANCELLED" if game.scheduled.cancelled else "CONFIRMED")
    if game.scheduled.note:
        event.add("description", game.scheduled.note)
    return event


def feed(name: str, games: Sequence[Game]) -> Response:
    calendar = Calendar()
    calendar.add("prodid", "-//Poker League//Games//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    for game, revision in zip(games, revisions(db.session(), games), strict=True):
        calendar.add_component(event_of(game, revision))
    if games:
        first = games[0].scheduled.date - timedelta(weeks=WEEKS_BEHIND)
        last = games[-1].scheduled.date + timedelta(weeks=WEEKS_AHEAD)
        calendar.add_missing_timezones(first_date=first, last_date=last)
    return Response(calendar.to_ical(), mimetype="text/calendar")


@blp.route("/venues/<id:venue_id>/calendar.ics")
@cached_by(DATA_VERSION, why="the schedules' games (no scope covers schedules) and their reports")
class VenueCalendar(MethodView):
    @blp.doc(operationId="get_venue_calendar", responses=CALENDAR_ANSWER)
    def get(self, venue_id: int) -> Response:
        """A venue's scheduled games as a calendar feed (the past 2 weeks, the next 12)"""
        venue, games = venue_feed(db.session(), venue_id)
        return feed(f"Poker at {venue.name}", games)


@blp.route("/regions/<id:region_id>/calendar.ics")
@cached_by(DATA_VERSION, why="the schedules' games (no scope covers schedules) and their reports")
class RegionCalendar(MethodView):
    @blp.doc(operationId="get_region_calendar", responses=CALENDAR_ANSWER)
    def get(self, region_id: int) -> Response:
        """A region's scheduled games as a calendar feed (the past 2 weeks, the next 12)"""
        region, games = region_feed(db.session(), region_id)
        return feed(f"Poker in {region.name}", games)
