"""Migration 0017: venue_nights and schedule_exceptions (a venue's regular nights and the
exceptions to them, R2a): one night per (venue, weekday, start), one exception per (venue, kind,
date), weekdays 1-7 and sessions 1-20 guarded; undone and redone. Their data-version triggers are
proved with every table's in test_data_version.py."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import IntegrityError

from models.infra.migrate import alembic_config, downgrade, upgrade
from tests.support.migrations import NOW, add_region


def add_venue(conn: Connection, region: int) -> int:
    return int(
        conn.execute(
            text(
                "INSERT INTO venues (name, region_id, active, created_at, updated_at)"
                " VALUES ('The Crown', :region, :yes, :now, :now) RETURNING id"
            ),
            {"region": region, "yes": True, "now": NOW},
        ).scalar_one()
    )


def add_night(
    conn: Connection, venue: int, weekday: int, starts_at: str = "19:00", sessions: int = 1
) -> None:
    conn.execute(
        text(
            "INSERT INTO venue_nights (venue_id, weekday, starts_at, sessions)"
            " VALUES (:venue, :weekday, :starts_at, :sessions)"
        ),
        {"venue": venue, "weekday": weekday, "starts_at": starts_at, "sessions": sessions},
    )


def add_exception(conn: Connection, venue: int, kind: str, day: str) -> None:
    conn.execute(
        text(
            "INSERT INTO schedule_exceptions (venue_id, kind, date, created_by, created_at)"
            " VALUES (:venue, :kind, :day, 'Office: Dana', :now)"
        ),
        {"venue": venue, "kind": kind, "day": day, "now": NOW},
    )


def refused(write: object, *args: object) -> None:
    conn = args[0]
    with pytest.raises(IntegrityError):  # noqa: SIM117 - the savepoint must roll back
        with conn.begin_nested():  # type: ignore[attr-defined]
            write(*args)  # type: ignore[operator]


def test_r2a_nights_and_exceptions_are_stored_once(migrated: Connection) -> None:
    conn = migrated
    venue = add_venue(conn, add_region(conn, "River Valley"))
    add_night(conn, venue, 2)
    refused(add_night, conn, venue, 2)  # the same weekday and start twice
    add_night(conn, venue, 2, "21:00")
    refused(add_night, conn, venue, 8)
    refused(add_night, conn, venue, 3, "19:00", 21)
    add_exception(conn, venue, "cancelled", "2026-12-01")
    refused(add_exception, conn, venue, "cancelled", "2026-12-01")
    refused(add_exception, conn, venue, "postponed", "2026-12-02")
    add_exception(conn, venue, "moved", "2026-12-01")


def test_0017_is_undone_and_redone(empty_url: str, empty_engine: Engine) -> None:
    config = alembic_config(empty_url)
    upgrade(config)
    downgrade(config, "0016")
    names = set(inspect(empty_engine).get_table_names())
    assert not names & {"venue_nights", "schedule_exceptions"}
    upgrade(config)
    assert {"venue_nights", "schedule_exceptions"} <= set(inspect(empty_engine).get_table_names())


def test_0026_stamps_the_nights_of_the_exceptions_stored_before_it(
    empty_url: str, empty_engine: Engine
) -> None:
    """R2a: migration 0026 gives each (venue, date) of the exceptions stored before it a revision
    per exception, at its creation; regular nights stored before it were written 2026-01-01 (the
    feeds' fixed DTSTAMP until then), and venues start at calendar_sequence 0. Undone and redone."""
    config = alembic_config(empty_url)
    upgrade(config, "0025")
    with empty_engine.begin() as conn:
        venue = add_venue(conn, add_region(conn, "River Valley"))
        add_night(conn, venue, 2)
        add_exception(conn, venue, "cancelled", "2026-12-01")
        add_exception(conn, venue, "moved", "2026-12-01")
        add_exception(conn, venue, "added", "2026-12-03")
    upgrade(config)
    with empty_engine.connect() as conn:
        stamps = conn.execute(text("SELECT venue_id, date, sequence FROM night_stamps ORDER BY date")).all()
        assert [(v, str(d), n) for v, d, n in stamps] == [(venue, "2026-12-01", 2), (venue, "2026-12-03", 1)]
        assert str(conn.execute(text("SELECT changed_at FROM venue_nights")).scalar_one()).startswith(
            "2026-01-01 00:00:00"
        )
        assert conn.execute(text("SELECT calendar_sequence FROM venues")).scalar_one() == 0
    downgrade(config, "0025")
    assert "night_stamps" not in inspect(empty_engine).get_table_names()
    assert "calendar_sequence" not in {c["name"] for c in inspect(empty_engine).get_columns("venues")}
    upgrade(config)
    assert "night_stamps" in inspect(empty_engine).get_table_names()
