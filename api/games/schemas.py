"""Schemas of the league's games: a range of local dates in, the scheduled games out."""

from __future__ import annotations

from marshmallow import fields

from api.fields import Day, QueryId
from api.pagination import PageArgs
from api.schemas import Answer


class GamesQuery(PageArgs):
    first = Day(
        data_key="from", metadata={"description": "The first local date; default this week's Monday."}
    )
    last = Day(
        data_key="to",
        metadata={"description": "The last local date (at most 92 days on); default its Sunday."},
    )
    region_id = QueryId()
    venue_id = QueryId()


class GameRegionOut(Answer):
    id = fields.Integer()
    name = fields.String()


class GameVenueOut(Answer):
    id = fields.Integer()
    name = fields.String()
    city = fields.String(allow_none=True)
    region = fields.Nested(GameRegionOut)


class GameSeasonOut(Answer):
    id = fields.Integer()
    name = fields.String()


class GameOut(Answer):
    venue = fields.Nested(GameVenueOut)
    date = Day(attribute="scheduled.date", metadata={"description": "The local date at the venue (R2a)."})
    weekday = fields.Integer(attribute="scheduled.weekday", metadata={"description": "ISO: Monday 1."})
    starts_at = fields.String(
        attribute="start_on_clock",
        allow_none=True,
        metadata={
            "description": "Local HH:MM as the venue's clock shows it: the schedule's start, but "
            "for one the clocks skip that day (the hour they go forward), which is as much later "
            "as they jump (R2a). Null for a game played but not scheduled (`unscheduled`)."
        },
    )
    timezone = fields.String(attribute="zone", metadata={"description": "The venue's zone (R2a)."})
    starts = fields.DateTime(
        attribute="start_instant",
        format="iso",
        allow_none=True,
        metadata={
            "description": "The start as an instant, with its offset; null for a game played "
            "but not scheduled."
        },
    )
    sessions = fields.Integer(attribute="scheduled.sessions")
    season = fields.Nested(
        GameSeasonOut,
        metadata={
            "description": "The season covering the venue that day: games outside every "
            "season are not listed (R2)."
        },
    )
    reported = fields.Boolean(metadata={"description": "A live regular report at the venue that date."})
    missing = fields.Boolean(
        metadata={"description": "Its date is before the venue's today, with no report."}
    )
    cancelled = fields.Boolean(attribute="scheduled.cancelled")
    make_up = fields.Boolean(attribute="scheduled.make_up")
    unscheduled = fields.Boolean(
        attribute="scheduled.unscheduled",
        metadata={
            "description": "A game the venue played (a live regular report is in) that no "
            "schedule or exception gave, such as a make-up game nobody recorded (R2): listed "
            "after the day's scheduled games, `sessions` as many as were reported."
        },
    )
    moved_from = Day(attribute="scheduled.moved_from", allow_none=True)
    note = fields.String(attribute="scheduled.note", allow_none=True)


class GamePage(Answer):
    starts_on = Day()
    ends_on = Day()
    items = fields.List(fields.Nested(GameOut))
    total = fields.Integer()
    page = fields.Integer()
    per_page = fields.Integer()
    pages = fields.Integer()
