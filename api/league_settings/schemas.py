"""Schemas of league settings: the shape of what comes in and goes out."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates

from api.fields import Id, Name, StrictBool, StrictInt, Text, UtcDateTime, ZoneName
from api.schemas import Answer
from models.entities.league_settings import LEAST_MAX_ENTRANTS, MOST_MAX_ENTRANTS
from models.rules.framing import frame_ancestors
from models.rules.people_dates import DEFAULT_DATE_FORMAT, DEFAULT_LOCALE
from models.rules.site import DEFAULT_ACCENT, WELCOME_MOST


class SitePatch(Schema):
    """R24: the league's own site, as the office sets it (each field optional)."""

    enabled = StrictBool(
        metadata={"description": "The site at / (on by default); off: / shows the front door for programs."}
    )
    title = Name(
        max_length=120,
        allow_none=True,
        metadata={"description": "The site's title; null: the league's name."},
    )
    welcome = Text(
        max_length=WELCOME_MOST,
        allow_none=True,
        metadata={"description": "A short welcome on the front page; null: none."},
    )
    accent = fields.String(
        metadata={
            "description": "The colour of the site's links and headings, #rrggbb, with a contrast of "
            f"at least 4.5 to 1 on white (default {DEFAULT_ACCENT}).",
            "example": DEFAULT_ACCENT,
        },
    )


class SiteOut(Schema):
    enabled = fields.Boolean(required=True)
    title = fields.String(allow_none=True, required=True)
    welcome = fields.String(allow_none=True, required=True)
    accent = fields.String(required=True)


class LeagueSettingsPatch(Schema):
    name = Name(
        max_length=120,
        metadata={
            "description": 'The league\'s name, as the front door (GET /) says it ("Poker League" at first).'
        },
    )
    min_suspension_days = StrictInt(
        validate=validate.Range(min=0, max=3650),
        metadata={
            "description": "R15: a suspension lasts at least this many days, counting the first and "
            "the last (14: from 1 December, 14 December or later)."
        },
    )
    min_outside_alcohol_months = StrictInt(
        validate=validate.Range(min=0, max=120),
        metadata={
            "description": "R15: the same minimum, in months, for an outside_alcohol suspension, "
            "counting the first and the last day (6: from 1 December, 31 May or later; from 31 "
            "August, the last day of February)."
        },
    )
    max_entrants = StrictInt(
        validate=validate.Range(min=LEAST_MAX_ENTRANTS, max=MOST_MAX_ENTRANTS),
        metadata={"description": "The most entrants a report may have (default 500)."},
    )
    embed_frame_ancestors = fields.String(
        validate=validate.Length(min=1, max=2000),
        metadata={
            "description": "Which sites may frame the embeddable pages under /embed/: a "
            "Content-Security-Policy frame-ancestors source list, e.g. `*` (any site, the default), "
            "`https://example.org https://*.example.org`, or `'none'`."
        },
    )

    timezone = ZoneName(
        allow_none=True,
        metadata={
            "description": "R2a: the league's IANA time zone (e.g. America/Chicago), where its dates "
            "are read: a venue's when the venue sets none, and league-wide matters (a season's end, "
            "publishing). Null: the service's default (LEAGUE_TIMEZONE, else UTC). An offset such "
            "as +02:00 is refused: it knows no summer time."
        },
    )

    erase_inactive_after_months = StrictInt(
        allow_none=True,
        validate=validate.Range(min=1, max=1200),
        metadata={
            "description": "R21 retention: `flask players erase-inactive` (run by cron) erases the "
            "players with no result in this many months, on the league's clock. Null: off (the "
            "default)."
        },
    )
    structure_id = Id(
        allow_none=True,
        metadata={
            "description": "R22: the blind structure a night plays where its venue names none; "
            "null: the built-in one (2,000 chips, 20-minute levels)."
        },
    )

    date_format = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={
            "description": "R24: how dates read for people on the site, the console, the emails and "
            "the chat messages (the API keeps ISO 8601): a CLDR pattern saying at least the day and "
            f"the month (default `{DEFAULT_DATE_FORMAT}`: Tue 1 Dec 2026; `d/M/y`: 1/12/2026) or a "
            "named style (`short`, `medium`, `long`, `full`).",
            "example": DEFAULT_DATE_FORMAT,
        },
    )
    locale = fields.String(
        validate=validate.Length(min=2, max=32),
        metadata={
            "description": "R24: the language and region dates and times are said in (default "
            f"`{DEFAULT_LOCALE}`; `en_US` says 7:00 PM).",
            "example": DEFAULT_LOCALE,
        },
    )
    site = fields.Nested(SitePatch, metadata={"description": "R24: the league's own site."})

    @validates("embed_frame_ancestors")
    def _sources(self, value: str, **_kwargs: Any) -> None:
        try:
            frame_ancestors(value)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None

    @post_load
    def _normalised(self, data: dict[str, Any], **_kwargs: Any) -> dict[str, Any]:
        if "embed_frame_ancestors" in data:
            data["embed_frame_ancestors"] = frame_ancestors(data["embed_frame_ancestors"])
        # The site's settings are columns of their own (site_enabled, site_title, …).
        for name, value in data.pop("site", {}).items():
            data[f"site_{name}"] = value
        return data


class LeagueSettingsOut(Answer):
    name = fields.String()
    min_suspension_days = fields.Integer()
    min_outside_alcohol_months = fields.Integer()
    max_entrants = fields.Integer()
    embed_frame_ancestors = fields.String()
    timezone = fields.String(
        attribute="zone",
        metadata={"description": "The zone in force (R2a): the office's, else LEAGUE_TIMEZONE, else UTC."},
    )
    erase_inactive_after_months = fields.Integer(
        allow_none=True, metadata={"description": "R21 retention in months; null: off."}
    )
    structure_id = fields.Integer(
        allow_none=True, metadata={"description": "R22: the league's blind structure; null: the built-in."}
    )
    date_format = fields.String(metadata={"description": "R24: how dates read for people."})
    locale = fields.String(metadata={"description": "R24: the locale dates and times are said in."})
    site = fields.Nested(SiteOut, metadata={"description": "R24: the league's own site."})
    updated_at = UtcDateTime()
