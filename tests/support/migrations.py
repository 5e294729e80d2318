"""Rows written as a script would, with plain SQL past the service, for the migration tests (the
database's own guards must hold whoever writes)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, text

NOW = datetime(2026, 1, 1, 12, 0)


def add_region(conn: Connection, name: str) -> int:
    return int(
        conn.execute(
            text("INSERT INTO regions (name, created_at) VALUES (:name, :now) RETURNING id"),
            {"name": name, "now": NOW},
        ).scalar_one()
    )


def add_season(conn: Connection, starts_on: str, ends_on: str, region_ids: list[int] | None = None) -> int:
    """Insert a season as a script would, with plain SQL: no region ids means all regions."""
    season_id = int(
        conn.execute(
            text(
                "INSERT INTO seasons (name, starts_on, ends_on, all_regions, participation_points,"
                " attendance_bonus, absent_keeps_place_points, cut_fraction, min_events_to_qualify,"
                " min_age, double_qualifier_policy, correction_days, created_at, updated_at)"
                " VALUES (:name, :starts_on, :ends_on, :all_regions, 0, '[]', :no, 0.2, 1, 21,"
                " 'best_rank', 7, :now, :now) RETURNING id"
            ),
            {
                "name": f"Season {starts_on}",
                "starts_on": starts_on,
                "ends_on": ends_on,
                "all_regions": not region_ids,
                "no": False,
                "now": NOW,
            },
        ).scalar_one()
    )
    for region_id in region_ids or []:
        conn.execute(
            text("INSERT INTO season_regions (season_id, region_id) VALUES (:s, :r)"),
            {"s": season_id, "r": region_id},
        )
    return season_id


def add_player(conn: Connection, name: str, merged_into: int | None = None) -> int:
    """Insert a player as a script would (merged into another when told)."""
    return int(
        conn.execute(
            text(
                "INSERT INTO players (full_name, display_name, display_key, name_key, merged_into_id,"
                " created_at, updated_at) VALUES (:name, :name, :key, :key, :into, :now, :now)"
                " RETURNING id"
            ),
            {"name": name, "key": name.lower(), "into": merged_into, "now": NOW},
        ).scalar_one()
    )


def merge_player(conn: Connection, duplicate: int, survivor: int | None) -> None:
    """Point a player at the one it was merged into (None: a player again), as a script would."""
    conn.execute(
        text("UPDATE players SET merged_into_id = :into WHERE id = :id"), {"into": survivor, "id": duplicate}
    )


def add_merge(conn: Connection, survivor: int, duplicate: int, undone: bool = False) -> int:
    """Insert a merge's record (undone when told), as a script would."""
    return int(
        conn.execute(
            text(
                "INSERT INTO player_merges (survivor_id, duplicate_id, reason, merged_at, merged_by, moved,"
                " undone_at) VALUES (:s, :d, 'Same person.', :now, 'Office: Dana', '{}', :undone)"
                " RETURNING id"
            ),
            {"s": survivor, "d": duplicate, "now": NOW, "undone": NOW if undone else None},
        ).scalar_one()
    )


def add_report(conn: Connection, season_id: int, region_id: int, day: str) -> int:
    """A venue of the region and one regular report there on the day, with no results yet."""
    venue = conn.execute(
        text(
            "INSERT INTO venues (name, region_id, active, created_at, updated_at)"
            " VALUES (:name, :region, :yes, :now, :now) RETURNING id"
        ),
        {"name": f"Venue {day}", "region": region_id, "yes": True, "now": NOW},
    ).scalar_one()
    return int(
        conn.execute(
            text(
                "INSERT INTO tournaments (venue_id, season_id, date, session, kind, entrants, version,"
                " reported_by, reported_by_role, created_at, updated_at)"
                " VALUES (:venue, :season, :day, 1, 'regular', 2, 1, 'Office: Dana', 'office', :now, :now)"
                " RETURNING id"
            ),
            {"venue": venue, "season": season_id, "day": day, "now": NOW},
        ).scalar_one()
    )


def add_result(conn: Connection, tournament_id: int, player_id: int, place: int) -> int:
    return int(
        conn.execute(
            text(
                "INSERT INTO results (tournament_id, player_id, place, status, placement_points,"
                " participation_points, points) VALUES (:t, :p, :place, 'played', 0, 0, 0) RETURNING id"
            ),
            {"t": tournament_id, "p": player_id, "place": place},
        ).scalar_one()
    )
