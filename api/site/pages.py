"""The site's frame (R24): its blueprint, how a page is made (its stylesheet in the league's
accent, its title, description and canonical address, dates in the league's words), and what
several pages share."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from flask import Response, abort, request
from werkzeug.exceptions import NotFound as HttpNotFound

from api import db
from api.blueprint import Blueprint
from api.html import html_page
from api.site.style import site_css
from api.site.words import ordinal, plural
from models.entities import LeagueSettings
from models.services import wall_clock
from models.services.lookup import league_settings

blp = Blueprint(
    "site",
    __name__,
    template_folder="templates",
    description="The league's own site for its players (R24): pages, display names only (R19).",
)

HTML_PAGE = {200: {"description": "A page (HTML).", "content": {"text/html": {"schema": {"type": "string"}}}}}
# The rating table's first page on the front page, and a page of the ratings.
TOP_RATINGS, RATINGS_PAGE = 10, 100


@blp.app_template_filter("fromiso")
def from_iso(value: str | date | None) -> date | None:
    """An answer's ISO date as a date (the page says it in the league's words)."""
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(value)


def settings() -> LeagueSettings:
    return league_settings(db.session())


def site_on() -> LeagueSettings:
    """The league's settings, or a 404 when the office turned the site off."""
    found = settings()
    if not found.site_enabled:
        abort(404)
    return found


def page(template: str, title: str, description: str, **context: Any) -> Response:
    """A page of the site: its stylesheet in the league's accent, its title and description (and
    the same for link previews), its canonical address, and dates in the league's words."""
    found = settings()
    words = found.dates
    name = found.site_title or found.name
    canonical = request.base_url
    return html_page(
        template,
        site_css(found.site_accent),
        200,
        frame_ancestors="'none'",
        forms="'self'",
        site_name=name,
        title=title,
        description=description,
        canonical=canonical,
        day=words.day,
        ordinal=ordinal,
        plural=plural,
        **context,
    )


def _iso(value: str | None) -> date | None:
    return None if value is None else date.fromisoformat(value)


def running_seasons(seasons: list[dict[str, Any]], today: date) -> list[dict[str, Any]]:
    return [s for s in seasons if _iso(s["starts_on"]) <= today <= _iso(s["ends_on"])]  # type: ignore[operator]


WEEKDAYS = {
    1: "Mondays",
    2: "Tuesdays",
    3: "Wednesdays",
    4: "Thursdays",
    5: "Fridays",
    6: "Saturdays",
    7: "Sundays",
}


def covers(season: Mapping[str, Any], venue: Mapping[str, Any]) -> bool:
    return not season["region_ids"] or venue["region_id"] in season["region_ids"]


def chosen_season(seasons: list[dict[str, Any]], asked: int | None, today: date) -> dict[str, Any] | None:
    if asked is not None:
        found = next((s for s in seasons if s["id"] == asked), None)
        if found is None:
            raise HttpNotFound(f"Season {asked} does not cover this venue.")
        return found
    running = running_seasons(seasons, today)
    if running:
        return running[0]
    started = [s for s in seasons if date.fromisoformat(s["starts_on"]) <= today]
    return max(started, key=lambda s: s["starts_on"], default=None)


def league_today() -> date:
    """Today on the league's wall clock (R2a)."""
    return wall_clock.in_league(db.session())


def weeks_later(day: date, weeks: int) -> date:
    return day + timedelta(weeks=weeks)
