"""Migration 0014's guards of R17 (merges), written to past the service as a script would: one
live merge per duplicate; a record merged away is neither a survivor nor merged again; it holds
no results, sanctions or disqualifications, and none is written on it. Each refusal's message
starts with the rule (api/errors.py answers it as a 409)."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from tests.support.migrations import (
    NOW,
    add_merge,
    add_player,
    add_region,
    add_report,
    add_result,
    add_season,
    merge_player,
)


def refused(conn: Connection, write: object, *args: object, match: str = "R17") -> None:
    """The write fails in the database (with the rule's message); the test goes on."""
    with pytest.raises(DBAPIError, match=match):  # noqa: SIM117 - the savepoint must roll back
        with conn.begin_nested():
            write(conn, *args)  # type: ignore[operator]


def test_r17_one_live_merge_per_duplicate(migrated: Connection) -> None:
    """R17: a second live merge of one duplicate is refused by the partial unique index; once
    the first is undone, a new merge of it is stored."""
    conn = migrated
    first, second, duplicate = (add_player(conn, name) for name in ("Ann", "Bob", "Cy"))
    add_merge(conn, first, duplicate)
    with pytest.raises(IntegrityError):  # noqa: SIM117 - the savepoint must roll back
        with conn.begin_nested():
            add_merge(conn, second, duplicate)
    conn.execute(text("UPDATE player_merges SET undone_at = :now"), {"now": NOW})
    add_merge(conn, second, duplicate)
    live = "SELECT count(*) FROM player_merges WHERE duplicate_id = :d AND undone_at IS NULL"
    assert conn.execute(text(live), {"d": duplicate}).scalar_one() == 1


def test_r17_a_record_merged_away_is_no_survivor(migrated: Connection) -> None:
    """R17: B merged into A: neither a player record nor a merge may have B as its survivor,
    and A may not be merged into B (crosswise); a player is not merged into itself."""
    conn = migrated
    a, b, c = (add_player(conn, name) for name in ("Ann", "Bea", "Cal"))
    merge_player(conn, b, a)
    refused(conn, merge_player, c, b)
    refused(conn, merge_player, a, b)
    refused(conn, add_merge, b, c)
    refused(conn, add_player, "Dee", b)
    refused(conn, merge_player, c, c)
    merge_player(conn, a, c)  # a chain: B into A, then A into C
    assert conn.execute(text("SELECT merged_into_id FROM players WHERE id = :a"), {"a": a}).scalar_one() == c


def test_r17_a_record_merged_away_is_not_merged_again(migrated: Connection) -> None:
    """R17: B merged into A is not pointed at another survivor until that merge is undone."""
    conn = migrated
    a, b, c = (add_player(conn, name) for name in ("Ann", "Bea", "Cal"))
    merge_player(conn, b, a)
    refused(conn, merge_player, b, c)
    merge_player(conn, b, None)  # undone
    merge_player(conn, b, c)


def test_r17_a_record_merged_away_holds_nothing_and_gets_nothing(migrated: Connection) -> None:
    """R17: a player with a result is not marked merged away (its results move first); no
    result, sanction or disqualification is written on, or moved onto, a player merged away."""
    conn = migrated
    region = add_region(conn, "North")
    season = add_season(conn, "2026-01-05", "2026-03-29", [region])
    report = add_report(conn, season, region, "2026-02-01")
    a, b, c = (add_player(conn, name) for name in ("Ann", "Bea", "Cal"))
    result = add_result(conn, report, b, 1)
    refused(conn, merge_player, b, a)
    conn.execute(text("UPDATE results SET player_id = :a WHERE id = :r"), {"a": a, "r": result})
    merge_player(conn, b, a)
    refused(conn, add_result, report, b, 2)

    def move_back(conn: Connection) -> None:
        conn.execute(text("UPDATE results SET player_id = :b WHERE id = :r"), {"b": b, "r": result})

    def sanction(conn: Connection) -> None:
        conn.execute(
            text(
                "INSERT INTO sanctions (player_id, kind, category, first_day, reason, issued_by,"
                " issued_by_role, issued_at) VALUES (:b, 'warning', 'fighting', '2026-02-01', 'x',"
                " 'Office: Dana', 'office', :now)"
            ),
            {"b": b, "now": NOW},
        )

    def disqualification(conn: Connection) -> None:
        conn.execute(
            text(
                "INSERT INTO disqualifications (season_id, player_id, reason, created_at, created_by)"
                " VALUES (:s, :b, 'x', :now, 'Office: Dana')"
            ),
            {"s": season, "b": b, "now": NOW},
        )

    refused(conn, move_back)
    refused(conn, sanction)
    refused(conn, disqualification)
    add_result(conn, report, c, 2)  # a player not merged away gets results as ever
    held = "SELECT count(*) FROM results WHERE player_id = :b"
    assert conn.execute(text(held), {"b": b}).scalar_one() == 0
