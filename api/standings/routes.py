"""Standings of a venue's season (R1, R9-R11): JSON for the website, CSV for the office."""

from __future__ import annotations

from typing import Any

from flask import Response, after_this_request
from flask.views import MethodView

from api import db
from api.blueprint import Blueprint
from api.cache.views import a_venue, cached_by
from api.contract import csv_too
from api.csv_export import CSV_ANSWER, csv_response, varies_by_accept, wants_csv
from api.pagination import page_request
from api.standings.answers import standings_body
from api.standings.schemas import (
    CSV_COLUMNS,
    STANDINGS_EXAMPLE,
    RaceOut,
    RaceQuery,
    StandingsCsvQuery,
    StandingsOut,
    StandingsQuery,
)
from models.services.paging import page_of
from models.services.standings.queries import VenueStandings, points_race, standings_of

blp = Blueprint("standings", __name__, url_prefix="/api/v1/seasons", description="Standings (R1, R9-R11).")


def _csv(table: VenueStandings) -> Response:
    """Every field of the JSON rows, with the season's and venue's names on each line."""
    rows = (
        [
            table.season.name,
            table.venue.name,
            row.rank,
            "T" if row.tied else "",
            row.player_id,
            row.display_name,
            row.points,
            row.placement_points,
            row.participation_points,
            row.knockout_points,
            row.knockouts,
            row.bonus_points,
            row.played,
            row.wins,
            row.points_finishes,
            row.best_finish,
            row.average_finish,
            row.best_single,
            row.decided_by or "",
            row.decided_at_place or "",
        ]
        for row in table.rows
    )
    name = f"standings {table.season.name} {table.venue.name} {table.as_of.isoformat()}.csv"
    return csv_response(CSV_COLUMNS, rows, name)


@blp.route("/<id:season_id>/venues/<id:venue_id>/standings")
@cached_by(a_venue)
class StandingsViews(MethodView):
    @blp.doc(operationId="get_standings")
    @csv_too
    @blp.arguments(StandingsQuery, location="query")
    @blp.response(200, StandingsOut, example=STANDINGS_EXAMPLE)
    def get(self, args: dict[str, Any], season_id: int, venue_id: int) -> Any:
        """A venue's standings for a season (R11)

        A list like the others: `page` and `per_page` (default 50, at most 500) page the rows,
        which keep their ranks in the whole table (rank 51 opens page 2, and a tie keeps its
        shared rank across a page's edge); `total` counts the rows of the whole table.

        The same URL answers CSV to `Accept: text/csv` or `?format=csv`; clients generated from
        this spec use `get_standings_csv` for that. The CSV always holds every row: it accepts
        `page` and `per_page` (checked as for the JSON) but pages nothing.
        """
        paging = page_request(args)
        table = standings_of(db.session(), season_id, venue_id, args.get("as_of"))
        after_this_request(varies_by_accept)
        if args.get("format") == "csv" or (args.get("format") is None and wants_csv()):
            return _csv(table)
        return standings_body(table, page_of(table.rows, paging))


@blp.route("/<id:season_id>/venues/<id:venue_id>/standings.csv")
@cached_by(a_venue)
class StandingsCsvViews(MethodView):
    @blp.doc(operationId="get_standings_csv", responses=CSV_ANSWER)
    @blp.arguments(StandingsCsvQuery, location="query")
    def get(self, args: dict[str, Any], season_id: int, venue_id: int) -> Response:
        """A venue's standings for a season as CSV, for spreadsheets (R11)

        Every row of the table, always: this operation takes no `page` or `per_page`.
        """
        return _csv(standings_of(db.session(), season_id, venue_id, args.get("as_of")))


@blp.route("/<id:season_id>/venues/<id:venue_id>/points-race")
@cached_by(a_venue)
class PointsRaceViews(MethodView):
    @blp.doc(operationId="get_points_race")
    @blp.arguments(RaceQuery, location="query")
    @blp.response(200, RaceOut)
    def get(self, args: dict[str, Any], season_id: int, venue_id: int) -> dict[str, Any]:
        """The points race of a venue's season: the top players' standings points after each
        tournament day (R9-R11, R8a)

        The same numbers as the standings: each player's points after a day are what the table
        said that evening (best results only where the season counts only some, R10; the
        attendance bonus once reached, R9; knockout and bounty points in each tournament's total,
        R8a), so the last of each list is the player's points in the table.
        """
        session = db.session()
        table = standings_of(session, season_id, venue_id, args.get("as_of"))
        charted = table.rows[: args["players"]]
        race = points_race(session, table, [row.player_id for row in charted])
        return {
            "season_id": table.season.id,
            "venue_id": table.venue.id,
            "as_of": table.as_of,
            "dates": race.dates,
            "players": [
                {
                    "player": {
                        "id": row.player_id,
                        "display_name": row.display_name,
                        "label": table.labels[row.player_id],
                    },
                    "rank": row.rank,
                    "tied": row.tied,
                    "points": race.points[row.player_id],
                }
                for row in charted
            ],
        }
