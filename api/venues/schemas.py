"""Schemas of venues: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.fields import Day, Id, Name, QueryId, QueryText, StrictBool, StrictInt, Text, UtcDateTime, ZoneName
from api.pagination import PageArgs
from api.schemas import Answer
from models.rules.nights import MOST_AT_A_TABLE
from models.rules.schedules import EXCEPTION_KINDS, MOST_GAMES_A_WEEKDAY, MOST_SESSIONS

HH_MM = r"^([01]\d|2[0-3]):[0-5]\d$"
TIME = validate.Regexp(HH_MM, error="A start time is HH:MM, 00:00 to 23:59.")
SESSIONS = validate.Range(min=1, max=MOST_SESSIONS, error=f"Sessions are 1 to {MOST_SESSIONS}.")
# R2: at most 3 games on one weekday, so at most 21 in all. Checked by the rule (a 422 naming the
# weekday's fourth game, R2), not here: documented only.
MOST_GAMES = 7 * MOST_GAMES_A_WEEKDAY
SCHEDULE = (
    f"The venue's regular games, whole (replacing the ones before): at most {MOST_GAMES_A_WEEKDAY} "
    f"on one weekday (R2), so at most {MOST_GAMES}."
)


class RegularGameIn(Schema):
    weekday = StrictInt(
        required=True,
        validate=validate.Range(min=1, max=7, error="A weekday is 1 (Monday) to 7 (Sunday)."),
        metadata={"description": "ISO weekday: Monday 1 to Sunday 7."},
    )
    starts_at = fields.String(
        required=True, validate=TIME, metadata={"description": "Local start, HH:MM (R2a)."}
    )
    sessions = StrictInt(
        validate=SESSIONS, metadata={"description": "Tournaments that night; 1 if left out."}
    )


class RegularGameOut(Answer):
    weekday = fields.Integer()
    starts_at = fields.String()
    sessions = fields.Integer()


class ScheduleIn(Schema):
    schedule = fields.List(
        fields.Nested(RegularGameIn),
        required=True,
        metadata={"description": SCHEDULE, "maxItems": MOST_GAMES},
    )


class ReEntryIn(Schema):
    """R22 (002): whether a player out may re-enter, once, at a break, and until which break."""

    allowed = StrictBool(required=True, metadata={"description": "Whether its nights allow re-entry."})
    until_break = StrictInt(
        allow_none=True,
        load_default=None,
        validate=validate.Range(1, 60, error="A break's number is 1 (the first) to 60."),
        metadata={
            "description": "Re-entry at the structure's first N breaks (1: the first break only); "
            "null or left out: at any break."
        },
    )


class ReEntrySettingOut(Schema):
    allowed = fields.Boolean(required=True)
    until_break = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Null: at any break."}
    )


class VenueIn(Schema):
    name = Name(max_length=120, required=True)
    region_id = Id(required=True)
    city = Text(max_length=120, allow_none=True)
    active = StrictBool(load_default=True)
    timezone = ZoneName(
        allow_none=True,
        metadata={
            "description": "R2a: the IANA zone of the venue's wall clock, when it differs from the "
            "league's (a national league spans zones); null: the league's. Its dates (a report's, "
            "today, the door list's night) are read on it. Changing it changes no stored date."
        },
    )

    table_size = StrictInt(
        validate=validate.Range(2, MOST_AT_A_TABLE),
        metadata={
            "description": "R22: players at a table of the seat draw (default 10; 8 for a 002-style league)."
        },
    )
    structure_id = Id(
        allow_none=True,
        metadata={"description": "R22: the blind structure its nights play; null: the league's."},
    )
    late_after_level = StrictInt(
        allow_none=True,
        validate=validate.Range(1, 60),
        metadata={
            "description": "R22: late registration closes when the level after this one starts (its "
            "break still open). Null, with late_minutes null: at the end of the structure's first break."
        },
    )
    late_minutes = StrictInt(
        allow_none=True,
        validate=validate.Range(1, 600),
        metadata={
            "description": "R22: or late registration closes this many minutes of play after the start (000)."
        },
    )
    re_entry = fields.Nested(
        ReEntryIn,
        metadata={
            "description": "R22 (002): re-entry at its nights, given whole: a player out may re-enter "
            "once, at a break, until the `until_break`th; default allowed at any break. A night "
            "keeps what it was opened with."
        },
    )


class VenuePatch(VenueIn):
    """A PATCH names only the fields it changes."""

    schedule = fields.List(
        fields.Nested(RegularGameIn), metadata={"description": SCHEDULE, "maxItems": MOST_GAMES}
    )


class VenueOut(Answer):
    id = fields.Integer()
    name = fields.String()
    region_id = fields.Integer()
    city = fields.String(allow_none=True)
    active = StrictBool()
    timezone = fields.String(allow_none=True, metadata={"description": "Null: the league's zone (R2a)."})
    table_size = fields.Integer(metadata={"description": "R22: players at a table of the seat draw."})
    structure_id = fields.Integer(
        allow_none=True, metadata={"description": "R22: null: the league's structure."}
    )
    late_after_level = fields.Integer(allow_none=True)
    late_minutes = fields.Integer(allow_none=True)
    re_entry = fields.Nested(
        ReEntrySettingOut, metadata={"description": "R22 (002): re-entry at its nights."}
    )
    created_at = UtcDateTime()
    updated_at = UtcDateTime()
    schedule = fields.List(
        fields.Nested(RegularGameOut),
        attribute="regular_games",
        metadata={
            "description": "The venue's regular games: weekday, local start, sessions; at most "
            f"{MOST_GAMES_A_WEEKDAY} on one weekday (R2).",
            "maxItems": MOST_GAMES,
        },
    )


class ExceptionIn(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(EXCEPTION_KINDS))
    date = Day(required=True, metadata={"description": "The scheduled game's date (or the make-up's)."})
    to = Day(metadata={"description": "A moved game's new date."})
    starts_at = fields.String(validate=TIME, metadata={"description": "HH:MM; a make-up game's is required."})
    sessions = StrictInt(validate=SESSIONS, metadata={"description": "A make-up game's; 1 if left out."})
    note = Text(max_length=500, allow_none=True)


class ExceptionOut(Answer):
    id = fields.Integer()
    venue_id = fields.Integer()
    kind = fields.String()
    date = Day()
    to = Day(attribute="to_date", allow_none=True)
    starts_at = fields.String(allow_none=True)
    sessions = fields.Integer(allow_none=True)
    note = fields.String(allow_none=True)
    created_by = fields.String()
    created_at = UtcDateTime()


class ExceptionList(Answer):
    items = fields.List(fields.Nested(ExceptionOut))
    total = fields.Integer()


class VenueQuery(PageArgs):
    region_id = QueryId()
    active = fields.Boolean()
    q = QueryText(metadata={"description": "Part of the venue's name or city."})
