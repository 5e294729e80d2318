"""Standings' answer written by hand beside its schema (schemas.StandingsOut): the most read answer
of all, and a national league's venue has hundreds of rows (the schema's per-field dump was most of
its cost). tests/api/test_answers.py holds it to the schema's dump of the same table."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app

from api.fields import exact_number
from models.rules.standings import Row
from models.services.paging import Page
from models.services.standings.queries import VenueStandings


def standings_answer(table: VenueStandings, page: Page[Row]) -> dict[str, Any]:
    """StandingsOut, written directly. The page's rows keep their ranks in the whole table, and
    their labels (R19: the player number where two rows of the whole table share a display name,
    so that a player reads the same on every page)."""
    labels = table.labels
    return {
        "season_id": table.season.id,
        "venue_id": table.venue.id,
        "as_of": table.as_of.isoformat(),
        "tournaments": table.tournaments,
        "entrants": table.entrants,
        "average_attendance": exact_number(table.average_attendance_shown),
        "total": page.total,
        "page": page.page,
        "per_page": page.per_page,
        "pages": page.pages,
        "standings": [
            {
                "rank": row.rank,
                "tied": row.tied,
                "player": {
                    "id": row.player_id,
                    "display_name": row.display_name,
                    "label": labels[row.player_id],
                },
                "points": row.points,
                "placement_points": row.placement_points,
                "participation_points": row.participation_points,
                "knockout_points": row.knockout_points,
                "knockouts": row.knockouts,
                "bonus_points": row.bonus_points,
                "played": row.played,
                "wins": row.wins,
                "points_finishes": row.points_finishes,
                "best_finish": row.best_finish,
                "average_finish": exact_number(row.average_finish),
                "best_single": row.best_single,
                "decided_by": row.decided_by,
                "decided_at_place": row.decided_at_place,
            }
            for row in page.items
        ],
    }


def standings_body(table: VenueStandings, page: Page[Row]) -> Response:
    """The answer as JSON."""
    return Response(current_app.json.dumps(standings_answer(table, page)), mimetype="application/json")
