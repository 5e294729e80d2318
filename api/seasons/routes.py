"""Seasons ("promotions", R2) and their settings, with the rulebook defaults."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from flask.views import MethodView

from api import db
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by, the_league
from api.contract import ID, links
from api.pagination import page_request, page_schema
from api.schemas import patch_of
from api.seasons.schemas import (
    MissingQuery,
    MissingReportsOut,
    SeasonChanged,
    SeasonIn,
    SeasonOut,
    SeasonPatch,
    SeasonQuery,
)
from models.entities import Season
from models.services.games.queries import this_week
from models.services.lookup import get_or_raise
from models.services.paging import Page
from models.services.seasons.queries import list_seasons
from models.services.seasons.writes import create_season, update_season
from models.services.venues.schedule_queries import missing_reports

blp = Blueprint("seasons", __name__, url_prefix="/api/v1/seasons", description="Seasons (R2).")


class Changed:
    """A season as changed, with how many stored results the change rescored."""

    def __init__(self, season: Season, rescored_results: int) -> None:
        self.season = season
        self.rescored_results = rescored_results

    def __getattr__(self, name: str) -> Any:
        return getattr(self.season, name)


@blp.route("")
@cached_by(the_league)
class SeasonsViews(MethodView):
    @blp.doc(operationId="list_seasons")
    @blp.arguments(SeasonQuery, location="query")
    @blp.response(200, page_schema(SeasonOut, "SeasonPage"))
    def get(self, args: dict[str, Any]) -> Page[Season]:
        """List seasons, newest first"""
        page = page_request(args)
        return list_seasons(db.session(), page, **args)

    @blp.doc(operationId="create_season")
    @office_only
    @links(
        GetSeason=("get_season", {"season_id": ID}),
        UpdateSeason=("update_season", {"season_id": ID}),
        ListDisqualifications=("list_disqualifications", {"season_id": ID}),
        Disqualify=("create_disqualification", {"season_id": ID}),
    )
    @blp.arguments(SeasonIn)
    @blp.response(201, SeasonOut)
    def post(self, data: dict[str, Any]) -> Season:
        """Create a season (office); unset settings take the rulebook defaults"""
        return create_season(db.session(), current_actor(), data)


@blp.route("/<id:season_id>")
@cached_by(the_league)
class SeasonByIdViews(MethodView):
    @blp.doc(operationId="get_season")
    @blp.response(200, SeasonOut)
    def get(self, season_id: int) -> Season:
        """One season with its settings"""
        return get_or_raise(db.session(), Season, season_id, "season")

    @blp.doc(operationId="update_season")
    @office_only
    @blp.arguments(patch_of(SeasonPatch))
    @blp.response(200, SeasonChanged)
    def patch(self, changes: dict[str, Any], season_id: int) -> Any:
        """Change a season's dates, regions or settings (office; audited)"""
        session = db.session()
        season = get_or_raise(session, Season, season_id, "season")
        reason = changes.pop("reason", None)
        season, rescored = update_season(session, current_actor(), season, changes, reason)
        return Changed(season, rescored)


@blp.route("/<id:season_id>/missing-reports")
@cached_by(DATA_VERSION, why="the schedules' games (no scope covers schedules) against the reports")
class MissingReportsViews(MethodView):
    @blp.doc(operationId="list_missing_reports")
    @office_only
    @blp.arguments(MissingQuery, location="query")
    @blp.response(200, MissingReportsOut)
    def get(self, args: dict[str, Any], season_id: int) -> dict[str, Any]:
        """Active venues of the season with a report missing in a week (office), to chase them

        A venue with a schedule is listed when a night of that week (exceptions applied) has
        passed in its own zone (R2a) with no report that night (`scheduled`: true, `nights`);
        a venue without one when it has no report that week at all (`scheduled`: false). Without
        `week`, this week on the league's wall clock (R2a); `week` in the answer says which.
        """
        session = db.session()
        season = get_or_raise(session, Season, season_id, "season")
        monday: date = args.get("week") or this_week(session)[0]
        venues = missing_reports(session, season, monday)
        year, week, _ = monday.isocalendar()
        return {
            "season_id": season.id,
            "week": f"{year}-W{week:02d}",
            "starts_on": monday,
            "ends_on": monday + timedelta(days=6),
            "total": len(venues),
            "venues": venues,
        }
