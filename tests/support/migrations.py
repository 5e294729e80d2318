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
