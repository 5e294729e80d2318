"""The data version (the key of every cached answer) is bumped with every change to league data,
in the change's own transaction, whoever makes it: the service, a command or a plain SQL script.
The triggers are held to models/entities/freshness.py's map of tables to scopes, and the scope
names they write to `Scope` (models/services/freshness.py)."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection, Engine, inspect, text

from models.entities import (
    LEAGUE_SCOPE_TABLES,
    NIGHT_TABLES,
    OUTBOX_TABLES,
    SCOPE_FREE_TABLES,
    SCOPED_TABLES,
    UNVERSIONED_TABLES,
)
from models.services.freshness import Scope
from tests.support.migrations import NOW, add_player, add_region, add_result, add_season, add_tournament


def version(conn: Connection) -> int:
    return int(conn.execute(text("SELECT version FROM data_version")).scalar_one())


def triggers_named(engine: Engine, prefix: str, timing: str) -> dict[str, set[str]]:
    """Each table's events with a trigger named `prefix…`, as the database itself lists them
    (on PostgreSQL, statement triggers of that timing)."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            rows = conn.execute(
                text("SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE :name"),
                {"name": prefix + "%"},
            ).all()
            found: dict[str, set[str]] = {}
            for table, sql in rows:
                event = next(e for e in ("INSERT", "UPDATE", "DELETE") if f"AFTER {e} ON" in sql)
                found.setdefault(table, set()).add(event)
            return found
        rows = conn.execute(
            text(
                "SELECT event_object_table, event_manipulation FROM information_schema.triggers"
                " WHERE trigger_name LIKE :name AND action_orientation = 'STATEMENT'"
                " AND action_timing = :timing"
            ),
            {"name": prefix + "%", "timing": timing},
        ).all()
        found = {}
        for table, event in rows:
            found.setdefault(table, set()).add(event)
        return found


def versioned_triggers(engine: Engine) -> dict[str, set[str]]:
    """Each table's events that move the version on."""
    return triggers_named(engine, "data_version_", "BEFORE")


def test_every_table_of_league_data_moves_the_version_on(migrated: Connection) -> None:
    """A table added by a later migration without the triggers fails here: its changes would
    leave cached answers stale."""
    engine = migrated.engine
    tables = set(inspect(engine).get_table_names()) - UNVERSIONED_TABLES - NIGHT_TABLES - OUTBOX_TABLES
    assert len(tables) > 10
    triggers = versioned_triggers(engine)
    missing = {t: {"INSERT", "UPDATE", "DELETE"} - triggers.get(t, set()) for t in tables}
    assert {t: events for t, events in missing.items() if events} == {}
    # R22: a night's live state is versioned by the night's own sequence: a bust-out at one
    # venue moves no data version, so it retires no other cached answer.
    assert set(inspect(engine).get_table_names()) >= NIGHT_TABLES | OUTBOX_TABLES
    assert not set(triggers) & (NIGHT_TABLES | OUTBOX_TABLES)


@pytest.mark.parametrize("operation", ["insert", "update", "delete"])
def test_a_plain_sql_change_moves_the_version_on(migrated: Connection, operation: str) -> None:
    with migrated.begin():
        region_id = add_region(migrated, "North")
    before = version(migrated)
    migrated.rollback()
    with migrated.begin():
        if operation == "insert":
            add_region(migrated, "South")
        elif operation == "update":
            migrated.execute(text("UPDATE regions SET name = 'Far North' WHERE id = :id"), {"id": region_id})
        else:
            migrated.execute(text("DELETE FROM regions WHERE id = :id"), {"id": region_id})
    assert version(migrated) > before


def test_each_transaction_moves_it_on_again(migrated: Connection) -> None:
    """PostgreSQL moves it once per transaction (many updates of one row in a transaction slow
    it down), SQLite once per row: either way every committed transaction moves it on, and a
    savepoint rolled back takes its move back with its changes."""
    seen = [version(migrated)]
    migrated.rollback()
    for name in ("North", "South"):
        with migrated.begin():
            add_region(migrated, name)
            add_region(migrated, name + " 2")
        seen.append(version(migrated))
        migrated.rollback()
    assert seen[0] < seen[1] < seen[2]
    with migrated.begin():
        nested = migrated.begin_nested()
        add_region(migrated, "East")
        nested.rollback()
        add_region(migrated, "West")
    assert version(migrated) > seen[2]


def test_a_change_rolled_back_leaves_the_version_as_it_was(migrated: Connection) -> None:
    before = version(migrated)
    add_season(migrated, "2026-01-01", "2026-03-01")
    assert version(migrated) > before
    migrated.rollback()
    assert version(migrated) == before


def test_a_read_and_a_stored_idempotent_answer_leave_the_version_alone(migrated: Connection) -> None:
    with migrated.begin():
        before = version(migrated)
        migrated.execute(text("SELECT count(*) FROM regions")).scalar_one()
        migrated.execute(
            text(
                "INSERT INTO idempotent_requests (api_key_id, idempotency_key, request_hash,"
                " status_code, response_body, created_at) VALUES (1, 'k', 'h', 201, '{}', :now)"
            ),
            {"now": NOW},
        )
        assert version(migrated) == before


# Scopes (migration 0022) ---------------------------------------------------------------------------


def scope_triggers(engine: Engine) -> dict[str, set[str]]:
    """Each table's events that move a scope's version on."""
    return triggers_named(engine, "scope_", "AFTER")


def scopes(conn: Connection) -> dict[str, int]:
    return {scope: int(v) for scope, v in conn.execute(text("SELECT scope, version FROM scope_versions"))}


def test_every_table_is_placed_in_a_scope_and_moves_it_on(migrated: Connection) -> None:
    """Every table of league data is one whose changes move `season:S` and `venue:S:V` on, or
    `league`, or one no scoped answer reads; a table added later and not placed fails here (its
    changes could leave a scoped answer stale). Players move `league` on only when changed."""
    engine = migrated.engine
    tables = set(inspect(engine).get_table_names()) - UNVERSIONED_TABLES - NIGHT_TABLES - OUTBOX_TABLES
    assert tables == SCOPED_TABLES | LEAGUE_SCOPE_TABLES | SCOPE_FREE_TABLES
    assert not (SCOPED_TABLES & LEAGUE_SCOPE_TABLES) and not (
        SCOPE_FREE_TABLES & (SCOPED_TABLES | LEAGUE_SCOPE_TABLES)
    )
    every = {"INSERT", "UPDATE", "DELETE"}
    want = {table: every for table in SCOPED_TABLES | LEAGUE_SCOPE_TABLES} | {"players": {"UPDATE", "DELETE"}}
    assert scope_triggers(engine) == want


def test_a_result_moves_its_season_and_venue_on_and_a_new_player_moves_nothing(migrated: Connection) -> None:
    """Whoever makes the change (plain SQL here): a result's INSERT and UPDATE move the season and
    the venue of its report on, and nothing of another season; a new player moves no scope, a
    changed one moves `league`."""
    with migrated.begin():
        region = add_region(migrated, "North")
        season = add_season(migrated, "2026-01-01", "2026-03-31")
        other = add_season(migrated, "2026-04-01", "2026-06-30")
        report = add_tournament(migrated, season, region, "2026-01-10")
        venue = migrated.execute(
            text("SELECT venue_id FROM tournaments WHERE id = :t"), {"t": report}
        ).scalar_one()
    before = scopes(migrated)
    migrated.rollback()
    with migrated.begin():
        ann = add_player(migrated, "Ann A.")
    assert scopes(migrated) == before  # a new player: no scope
    migrated.rollback()
    with migrated.begin():
        add_result(migrated, report, ann, 1)
    after = scopes(migrated)
    migrated.rollback()
    for scope in (Scope.season(season), Scope.venue(season, venue)):
        assert after[scope] > before.get(scope, 0), scope
    assert after.get(Scope.season(other), 0) == before.get(Scope.season(other), 0)
    assert after.get(Scope.LEAGUE) == before.get(Scope.LEAGUE)
    with migrated.begin():
        migrated.execute(text("UPDATE players SET display_name = 'Ann B.' WHERE id = :p"), {"p": ann})
    assert scopes(migrated)[Scope.LEAGUE] > after.get(Scope.LEAGUE, 0)


def test_a_change_to_a_report_moves_that_reports_scope_alone(migrated: Connection) -> None:
    """Migration 0024: a report's own scope (`report:T`, what a kept answer of one report is filed
    under) moves on with every change to the report or its results, whoever makes it (plain SQL
    here): a result added, corrected or removed, the report voided. Another report of the same
    venue and season keeps its version."""
    with migrated.begin():
        region = add_region(migrated, "North")
        season = add_season(migrated, "2026-01-01", "2026-03-31")
        report = add_tournament(migrated, season, region, "2026-01-10")
        other = add_tournament(migrated, season, region, "2026-01-17")
        migrated.execute(
            text(
                "UPDATE tournaments SET venue_id = (SELECT venue_id FROM tournaments WHERE id = :r)"
                " WHERE id = :o"
            ),
            {"r": report, "o": other},
        )
        ann = add_player(migrated, "Ann A.")
        bob = add_player(migrated, "Bob B.")
        add_result(migrated, other, bob, 1)
    changes = [
        lambda: add_result(migrated, report, ann, 1),
        lambda: migrated.execute(
            text("UPDATE results SET place = 2 WHERE tournament_id = :r"), {"r": report}
        ),
        lambda: migrated.execute(text("DELETE FROM results WHERE tournament_id = :r"), {"r": report}),
        lambda: migrated.execute(text("UPDATE tournaments SET entrants = 9 WHERE id = :r"), {"r": report}),
    ]
    for change in changes:
        before = scopes(migrated)
        migrated.rollback()
        with migrated.begin():
            change()
        after = scopes(migrated)
        assert after[Scope.report(report)] > before.get(Scope.report(report), 0)
        assert after.get(Scope.report(other)) == before.get(Scope.report(other))
