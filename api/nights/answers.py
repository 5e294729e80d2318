"""A night's answer (R22), written from its state (models/services/nights/queries.py) in the
shape of `NightStateOut`: tests/api/test_answers.py holds it to the schema's dump."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from api.fields import exact_number
from models.rules.structures import Period
from models.services.nights.projection import Projection
from models.services.nights.queries import NightView


def period_answer(period: Period | None) -> dict[str, Any] | None:
    if period is None:
        return None
    return {
        "is_break": period.is_break,
        "level": period.level,
        "small_blind": period.small_blind,
        "big_blind": period.big_blind,
        "minutes": period.minutes,
        "note": period.note,
    }


def projection_answer(projection: Projection) -> dict[str, Any]:
    """R22: the standings if the night ended now, rows in the shape of a standings row."""
    return {
        "season_id": projection.season_id,
        "final": projection.final,
        "tournaments": projection.tournaments,
        "unscored": projection.unscored,
        "standings": [
            {
                "rank": shown.row.rank,
                "tied": shown.row.tied,
                "rank_before": shown.rank_before,
                "player": {
                    "id": shown.row.player_id,
                    "display_name": shown.row.display_name,
                    "label": shown.label,
                },
                "points": shown.row.points,
                "placement_points": shown.row.placement_points,
                "participation_points": shown.row.participation_points,
                "bonus_points": shown.row.bonus_points,
                "played": shown.row.played,
                "wins": shown.row.wins,
                "points_finishes": shown.row.points_finishes,
                "best_finish": shown.row.best_finish,
                "average_finish": exact_number(shown.row.average_finish),
                "tonight": None if shown.tonight is None else asdict(shown.tonight),
            }
            for shown in projection.rows
        ],
    }


def night_answer(view: NightView, projection: Projection | None = None) -> dict[str, Any]:
    """The night; with the standings if it ended now when given (the night's own answer, and
    not an action's: a host's phone does not wait on them)."""
    night, clock = view.night, view.clock
    return {
        "id": night.id,
        "venue_id": night.venue_id,
        "venue_name": view.venue.name,
        "season_id": night.season_id,
        "date": night.date,
        "session": night.session,
        "scheduled": night.scheduled,
        "state": night.state,
        "sequence": night.sequence,
        "structure": night.structure,
        "table_size": night.table_size,
        "clock": {
            "status": clock.status,
            "started_at": clock.started_at,
            "paused_at": clock.paused_at,
            "paused_seconds": clock.paused_seconds,
            "period": period_answer(clock.period),
            "next": period_answer(clock.next),
            "level_started_at": clock.level_started_at,
            "level_ends_at": clock.level_ends_at,
            # Running, time left changes every second: the page counts to level_ends_at.
            "seconds_left": None if clock.status == "running" else clock.seconds_left,
            "late_registration_open": clock.late_registration_open,
            "late_registration_closes": clock.late_registration_closes,
            "moved_seconds": night.clock_moved_seconds,
        },
        "entrants": view.entrants,
        "players_left": view.players_left,
        "re_entries": view.re_entries,
        "average_stack": view.average_stack,
        "players": [asdict(seat) for seat in view.players],
        "moves": [{"player_id": m["player_id"], "source": m["from"], "to": m["to"]} for m in view.moves],
        "tournament_id": night.tournament_id,
        "ended_by": view.ended_by,
        "re_entry": asdict(view.re_entry),
        "undoable": None
        if view.undoable is None
        else {
            "kind": view.undoable.kind,
            "sequence": view.undoable.sequence,
            "players": [{"player_id": pid, "label": label} for pid, label in view.undoable.players],
        },
        "report_problems": night.report_problems,
        "projected_standings": None if projection is None else projection_answer(projection),
    }
