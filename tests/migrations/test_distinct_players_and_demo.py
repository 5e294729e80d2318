"""Migration 0016: distinct_players (R5: a pair the office told apart, stored once, the lower id
first: the last guard of R17a), the demo flags filled from the demo's marks before it (its region's
name, its players' email domain), and the league's name; written to as a script would, and undone."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import IntegrityError

from models.infra.migrate import alembic_config, downgrade, upgrade
from tests.support.migrations import NOW, add_player, add_region


def add_pair(conn: Connection, low: int, high: int) -> None:
    conn.execute(
        text(
            "INSERT INTO distinct_players (low_id, high_id, reason, recorded_at, recorded_by)"
            " VALUES (:low, :high, 'Two people.', :now, 'Office: Dana')"
        ),
        {"low": low, "high": high, "now": NOW},
    )


def refused(conn: Connection, low: int, high: int) -> None:
    with pytest.raises(IntegrityError):  # noqa: SIM117 - the savepoint must roll back
        with conn.begin_nested():
            add_pair(conn, low, high)


def test_r17a_r5_a_pair_is_stored_once_the_lower_id_first(migrated: Connection) -> None:
    conn = migrated
    ann, bea, cal = (add_player(conn, name) for name in ("Ann", "Bea", "Cal"))
    add_pair(conn, ann, bea)
    refused(conn, ann, bea)  # once (R17a)
    refused(conn, bea, ann)  # the lower id first: the same pair cannot hide the other way round
    refused(conn, cal, cal)
    refused(conn, ann, 999_999)  # a player that exists
    add_pair(conn, ann, cal)
    assert conn.execute(text("SELECT count(*) FROM distinct_players")).scalar_one() == 2


def test_the_demo_flags_are_filled_from_the_demos_marks_and_the_league_gets_a_name(
    empty_url: str, empty_engine: Engine
) -> None:
    """A database at 0015 holding a demo (its region "Demo", its players of demo.example.org)
    and a league's own region and player: 0016 flags the demo's only; the league is named
    "Poker League"; going back to 0015 drops what 0016 added, and forward again works."""
    config = alembic_config(empty_url)
    upgrade(config, "0015")
    with empty_engine.begin() as conn:
        add_region(conn, "Demo")
        add_region(conn, "River Valley")
        demo_player, own = add_player(conn, "Ann Demo"), add_player(conn, "Our Own")
        conn.execute(
            text("UPDATE players SET email = 'ann.lee.0@demo.example.org' WHERE id = :id"),
            {"id": demo_player},
        )
        conn.execute(text("UPDATE players SET email = 'own@example.org' WHERE id = :id"), {"id": own})
    upgrade(config, "0016")
    with empty_engine.connect() as conn:
        regions = dict(conn.execute(text("SELECT name, demo FROM regions")).all())
        players = dict(conn.execute(text("SELECT id, demo FROM players")).all())
        name = conn.execute(text("SELECT name FROM league_settings")).scalar_one()
    assert {k: bool(v) for k, v in regions.items()} == {"Demo": True, "River Valley": False}
    assert {k: bool(v) for k, v in players.items()} == {demo_player: True, own: False}
    assert name == "Poker League"
    downgrade(config, "0015")
    tables = inspect(empty_engine)
    assert "distinct_players" not in tables.get_table_names()
    assert "demo" not in {c["name"] for c in tables.get_columns("players")}
    assert "name" not in {c["name"] for c in tables.get_columns("league_settings")}
    upgrade(config)
