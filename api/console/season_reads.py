"""Any season's reads in the console, a past one's as well as the running one's (R2, R11, R12): a
season's page (its venues' standings, its published qualifier lists: when, by whom, the note),
and the venues to chase for a week of it (missing reports). The same services as the API's."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from flask import request
from marshmallow import ValidationError

from api import db
from api.console.base import bp, current, page, signed_in_only
from api.errors import flatten_messages
from api.seasons.schemas import MissingQuery
from models.entities import Season
from models.rules.qualifiers import season_state
from models.services import wall_clock
from models.services.access import may_follow_seasons
from models.services.games.queries import this_week
from models.services.lookup import get_or_raise
from models.services.paging import PageRequest
from models.services.points_charts.queries import chart_in_force
from models.services.qualifiers.queries import latest_publication_ids, publications_of
from models.services.regions.queries import list_regions
from models.services.seasons.queries import covered_venues
from models.services.standings.queries import venue_totals
from models.services.venues.schedule_queries import missing_reports


@bp.route("/seasons/<id:season_id>")
@signed_in_only
def season(season_id: int) -> Any:
    """A season: its dates, regions, chart and state; each venue it covers, with the nights it
    reported, linked to its standings in this season (R11); and every publication of its
    qualifier lists, newest (the official one) first (R12)."""
    session, actor = db.session(), current()
    may_follow_seasons(actor)
    found = get_or_raise(session, Season, season_id, "season")
    today = wall_clock.in_league(session)  # R2a: whether a season runs is the league's matter
    published = latest_publication_ids(session, [found.id])
    venues = covered_venues(session, found)
    nights = {
        venue_id: totals.tournaments
        for venue_id, totals in venue_totals(session, found, None, max(today, found.ends_on)).items()
    }
    regions = {r.id: r.name for r in list_regions(session, PageRequest(1, 1000)).items}
    return page(
        "console/season.html",
        season=found,
        state=season_state(found.starts_on, found.ends_on, today, found.id in published),
        regions=[regions[r] for r in found.region_ids if r in regions],
        chart=chart_in_force(found),
        venues=venues,
        nights=nights,
        publications=publications_of(session, found),
    )


def season_weeks(season: Season) -> list[date]:
    """The Mondays of the weeks the season's days fall in (R2a: Monday to Sunday)."""
    monday = season.starts_on - timedelta(days=season.starts_on.weekday())
    weeks = []
    while monday <= season.ends_on:
        weeks.append(monday)
        monday += timedelta(days=7)
    return weeks


def iso_week(monday: date) -> str:
    """A week as the API's `week` writes it: 2026-W09."""
    year, week, _ = monday.isocalendar()
    return f"{year}-W{week:02d}"


@bp.route("/seasons/<id:season_id>/missing-reports")
@signed_in_only
def season_missing(season_id: int) -> Any:
    """The season's active venues with a report missing in a chosen week of it (the API's
    missing reports): this week while it runs, else its last week (its first, before it starts)."""
    session, actor = db.session(), current()
    may_follow_seasons(actor)
    found = get_or_raise(session, Season, season_id, "season")
    weeks = season_weeks(found)
    current_week = this_week(session)[0]
    monday = min(max(current_week, weeks[0]), weeks[-1])
    problems: list[str] = []
    status = 200
    if request.args.get("week"):
        try:
            monday = MissingQuery().load({"week": request.args["week"]})["week"]
        except ValidationError as wrong:
            problems, status = flatten_messages(wrong.messages).get("week", []), 422
    if monday not in weeks:  # a week outside the season, as the API answers it too
        weeks = sorted([*weeks, monday])
    return page(
        "console/season_missing.html",
        status,
        season=found,
        weeks=[(iso_week(week), week, week + timedelta(days=6)) for week in weeks],
        week=iso_week(monday),
        monday=monday,
        missing=missing_reports(session, found, monday) if not problems else [],
        problems=problems,
    )
