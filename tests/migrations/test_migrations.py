"""The migrations build the schema the models describe, undo it, and carry the R2 and R18
triggers; every test runs on its own empty database of each backend."""

from __future__ import annotations

from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import DBAPIError

from app import create_app
from models.entities import Base
from models.infra.migrate import alembic_config, downgrade, upgrade
from tests.support.migrations import NOW, add_region, add_season

APP_TRIGGER_FUNCTIONS = (
    "seasons_no_overlap",
    "audit_log_append_only",
    "bump_data_version",
    "players_merge_guard",
    "player_merges_survivor_guard",
    "holder_not_merged_guard",
    "holders_not_merged_guard",
)


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def schema_drift(conn: Connection) -> list[Any]:
    context = MigrationContext.configure(conn, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


def application_tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names()) - {"alembic_version"}


def leftover_triggers(engine: Engine) -> list[str]:
    """Triggers (SQLite) or trigger functions (PostgreSQL) the first migration created."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            rows = conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger'"))
        else:
            rows = conn.execute(
                text(
                    "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
                    " WHERE n.nspname = 'public' AND p.proname = ANY(:names)"
                ),
                {"names": list(APP_TRIGGER_FUNCTIONS)},
            )
        return [row[0] for row in rows]


# (a) upgrade, (b) downgrade ------------------------------------------------------------------


def test_upgrade_to_head_matches_the_models(
    empty_url: str, empty_engine: Engine, migrated: Connection
) -> None:
    version = migrated.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    assert version == head_revision()
    assert schema_drift(migrated) == [], "models and migrations disagree: write a migration"


def test_downgrade_to_base_removes_everything_and_upgrade_works_again(
    empty_url: str, empty_engine: Engine
) -> None:
    config = alembic_config(empty_url)
    upgrade(config)
    assert application_tables(empty_engine) >= {"seasons", "season_regions", "audit_log"}

    downgrade(config, "base")
    assert application_tables(empty_engine) == set()
    assert leftover_triggers(empty_engine) == []

    upgrade(config)
    with empty_engine.connect() as conn:
        assert schema_drift(conn) == []
    assert len(leftover_triggers(empty_engine)) > 0


# (c) the database's own guards: R2 (no overlapping seasons on a common region), R18 ----------


def assert_refused(conn: Connection, rule: str, write: Any, *args: Any) -> None:
    """The write fails in the database with the rule's message; the rest of the test goes on."""
    with pytest.raises(DBAPIError, match=rule):  # noqa: SIM117 - the savepoint must roll back
        with conn.begin_nested():
            write(conn, *args)


def count(conn: Connection, table: str) -> int:
    return int(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())


def test_r2_overlapping_seasons_on_a_common_region_are_refused(migrated: Connection) -> None:
    conn = migrated
    north, south = add_region(conn, "North"), add_region(conn, "South")
    add_season(conn, "2026-01-05", "2026-03-29", [north])

    assert_refused(conn, "R2", add_season, "2026-03-01", "2026-04-30", [north])
    assert_refused(conn, "R2", add_season, "2026-03-29", "2026-06-30", [south, north])
    # A season naming no region covers every region, so it meets the North season (R2).
    assert_refused(conn, "R2", add_season, "2026-02-01", "2026-02-28")
    assert count(conn, "seasons") == 1
    assert count(conn, "season_regions") == 1


def test_r2_a_region_season_inside_an_all_regions_season_is_refused(migrated: Connection) -> None:
    conn = migrated
    north = add_region(conn, "North")
    add_season(conn, "2026-01-05", "2026-03-29")

    assert_refused(conn, "R2", add_season, "2026-02-01", "2026-02-28", [north])
    assert_refused(conn, "R2", add_season, "2026-03-29", "2026-04-30")
    assert count(conn, "seasons") == 1


def test_r2_disjoint_regions_or_disjoint_dates_are_accepted(migrated: Connection) -> None:
    conn = migrated
    north, south = add_region(conn, "North"), add_region(conn, "South")
    add_season(conn, "2026-01-05", "2026-03-29", [north])
    add_season(conn, "2026-01-05", "2026-03-29", [south])  # same dates, other region
    add_season(conn, "2026-03-30", "2026-06-28", [north])  # same region, the day after
    add_season(conn, "2026-07-01", "2026-09-30")  # all regions, after every other season
    assert count(conn, "seasons") == 4
    assert count(conn, "season_regions") == 3


def test_r2_moving_a_season_into_an_overlap_is_refused(migrated: Connection) -> None:
    conn = migrated
    north = add_region(conn, "North")
    add_season(conn, "2026-01-05", "2026-03-29", [north])
    later = add_season(conn, "2026-04-06", "2026-06-28", [north])
    everywhere = add_season(conn, "2026-07-06", "2026-09-27")

    def move(conn: Connection, season_id: int, starts_on: str, ends_on: str) -> None:
        conn.execute(
            text("UPDATE seasons SET starts_on = :s, ends_on = :e WHERE id = :id"),
            {"s": starts_on, "e": ends_on, "id": season_id},
        )

    assert_refused(conn, "R2", move, later, "2026-03-01", "2026-06-28")
    assert_refused(conn, "R2", move, everywhere, "2026-06-01", "2026-09-27")
    move(conn, later, "2026-03-30", "2026-06-30")  # still disjoint: accepted
    starts_on = conn.execute(text("SELECT starts_on FROM seasons WHERE id = :id"), {"id": later}).scalar_one()
    assert str(starts_on) == "2026-03-30"


def test_r18_the_audit_log_refuses_update_and_delete(migrated: Connection) -> None:
    conn = migrated
    conn.execute(
        text(
            "INSERT INTO audit_log (at, actor, actor_role, action, entity, entity_id)"
            " VALUES (:now, 'Office: Dana', 'office', 'season.create', 'season', 1)"
        ),
        {"now": NOW},
    )

    def update(conn: Connection) -> None:
        conn.execute(text("UPDATE audit_log SET actor = 'someone else'"))

    def delete(conn: Connection) -> None:
        conn.execute(text("DELETE FROM audit_log"))

    assert_refused(conn, "R18", update)
    assert_refused(conn, "R18", delete)
    assert conn.execute(text("SELECT actor FROM audit_log")).scalar_one() == "Office: Dana"


# (d) the CLI ---------------------------------------------------------------------------------


def test_cli_db_upgrade_brings_an_empty_database_to_head(empty_url: str, empty_engine: Engine) -> None:
    app = create_app({"DATABASE_URL": empty_url})
    runner = app.test_cli_runner()

    before = runner.invoke(args=["db", "check"])
    assert before.exit_code != 0, "db check passed on an empty database"
    assert "not up to date" in str(before.exception)

    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, (result.output, result.exception)
    with empty_engine.connect() as conn:
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    assert version == head_revision()

    check = runner.invoke(args=["db", "check"])
    assert check.exit_code == 0, (check.output, check.exception)
    app.extensions["league_db"].engine.dispose()
