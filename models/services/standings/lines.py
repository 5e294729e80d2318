"""Keeping the stored standing lines (R9-R11; models/entities/standings.py) up to date: every write
that changes what they sum (a report, a correction, a void, a merge and its undo, a rescore, a
change of R9/R10 settings, the demo's removal) calls these in its own transaction.
`rebuild_lines` recomputes them all (after a bulk load or a restore). Reading them is
standing_line_queries.py's."""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import ColumnElement, case, delete, func, insert, literal, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from models.entities.base import table_of
from models.entities.league import Season
from models.entities.standings import StandingLine
from models.rules.standings import Entry, Tier, line_of, line_points
from models.services.standings.line_queries import SUMS, counted_results, line_sums, season_tiers

# Reads are standing_line_queries'; these stay importable from here for tests/conftest.py.
from models.services.standings.line_queries import line_columns as line_columns
from models.services.standings.line_queries import stored_lines as stored_lines
from models.services.standings.line_queries import summed_lines as summed_lines

# The season settings a stored line depends on (beside the stored points of each result).
LINE_SETTINGS = ("count_best", "attendance_bonus")


def _bonus(played: ColumnElement[Any], tiers: Sequence[Tier]) -> ColumnElement[Any]:
    """R9 in SQL: the points of the highest tier reached (rules/standings.attendance_bonus)."""
    if not tiers:
        return literal(0)
    highest_first = sorted(tiers, key=lambda tier: -tier.events)
    return case(*((played >= tier.events, tier.points) for tier in highest_first), else_=0)


def refresh_lines(
    session: Session,
    season: Season,
    venue_ids: Collection[int] | None = None,
    players: Collection[int] | None = None,
) -> None:
    """Recompute the stored lines of a season at these venues (all when None), of these players
    (all when None), from the results as this transaction sees them, its own changes flushed.

    Exact under concurrent writers: SQLite lets one writer at a time; on PostgreSQL every writer
    takes the data version's row lock at its first change and keeps it to commit (migration
    0008), so this statement, after this transaction's first change, reads every other writer's
    results committed (read committed: each statement sees what is committed when it starts)."""
    session.flush()
    if (venue_ids is not None and not venue_ids) or (players is not None and not players):
        return
    mine: list[Any] = [StandingLine.season_id == season.id]
    if venue_ids is not None:
        mine.append(StandingLine.venue_id.in_(sorted(venue_ids)))
    if players is not None:
        mine.append(StandingLine.player_id.in_(sorted(players)))
    session.execute(delete(StandingLine).where(*mine), execution_options={"synchronize_session": False})
    sums = line_sums(
        season, counted_results(season, None if venue_ids is None else sorted(venue_ids), players=players)
    ).subquery()
    columns = ["season_id", "venue_id", "player_id", *SUMS, "points"]
    rows = select(
        literal(season.id),
        sums.c.venue_id,
        sums.c.player_id,
        *(sums.c[name] for name in SUMS),
        sums.c.counted + _bonus(sums.c.played, season_tiers(season)),
    )
    session.execute(insert(StandingLine).from_select(columns, rows))


def add_results(
    session: Session, season: Season, venue_id: int, results: Sequence[Mapping[str, Any]]
) -> None:
    """A new report's results (one per player, each with place, status and points) added to the
    stored lines of its venue in one statement: each line moves on by the one result (a line
    made for a first result), whatever the history. Under count_best (R10) a new result can
    push another out of the counted ones: those lines are recomputed."""
    players = {int(result["player_id"]) for result in results}
    if season.count_best is not None:
        refresh_lines(session, season, [venue_id], players)
        return
    session.flush()
    tiers = season_tiers(season)
    rows = []
    for result in results:
        entry = Entry(
            0,
            result["place"],
            result["status"],
            result["placement_points"],
            result["participation_points"],
            result.get("knockout_points", 0),
            result.get("knockouts", 0),
        )
        line = line_of(int(result["player_id"]), "", [entry], None)
        sums = {name: getattr(line, name) for name in SUMS}
        rows.append(
            {
                "season_id": season.id,
                "venue_id": venue_id,
                "player_id": line.player_id,
                **sums,
                "points": line_points(line, tiers),
            }
        )
    statement = _adding(session.get_bind().dialect.name, tuple(tiers))
    session.connection().execute(statement, rows)


@functools.lru_cache(maxsize=64)
def _adding(dialect: str, tiers: tuple[Tier, ...]) -> Any:
    """add_results' upsert for a database and a season's bonus tiers, built once (building it
    costs more than running it)."""
    lines = table_of(StandingLine)
    statement = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(lines)
    new, old = statement.excluded, lines.c
    least, greatest = (func.least, func.greatest) if dialect == "postgresql" else (func.min, func.max)
    played = old.played + new.played
    return statement.on_conflict_do_update(
        index_elements=["season_id", "venue_id", "player_id"],
        set_={
            "finishes": old.finishes + new.finishes,
            "played": played,
            "placement_points": old.placement_points + new.placement_points,
            "participation_points": old.participation_points + new.participation_points,
            "counted": old.counted + new.counted,
            "wins": old.wins + new.wins,
            "points_finishes": old.points_finishes + new.points_finishes,
            "best_finish": least(old.best_finish, new.best_finish),
            "place_total": old.place_total + new.place_total,
            "best_single": greatest(old.best_single, new.best_single),
            "places": old.places + "," + new.places,
            "knockout_points": old.knockout_points + new.knockout_points,
            "knockouts": old.knockouts + new.knockouts,
            "points": old.counted + new.counted + _bonus(played, tiers),
        },
    )


def refresh_places(
    session: Session, places: Iterable[tuple[int, int]], players: Collection[int] | None = None
) -> None:
    """refresh_lines for each (season id, venue id) pair, a statement pair per season."""
    by_season: dict[int, set[int]] = {}
    for season_id, venue_id in places:
        by_season.setdefault(season_id, set()).add(venue_id)
    for season_id, venue_ids in sorted(by_season.items()):
        season = session.get(Season, season_id)
        if season is not None:
            refresh_lines(session, season, venue_ids, players)


def rebuild_lines(session: Session, season_ids: Collection[int] | None = None) -> int:
    """Recompute every stored line (of these seasons; all when None) from the results; returns
    how many lines there are now."""
    query = select(Season).order_by(Season.id)
    if season_ids is not None:
        query = query.where(Season.id.in_(sorted(season_ids)))
    count = 0
    for season in session.scalars(query).all():
        refresh_lines(session, season)
        count += (
            session.scalar(
                select(func.count()).select_from(StandingLine).where(StandingLine.season_id == season.id)
            )
            or 0
        )
    return count
