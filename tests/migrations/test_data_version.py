"""The data version (the key of every cached answer) is bumped with every change to league data,
in the change's own transaction, whoever makes it: the service, a command or a plain SQL script.
The triggers are held to models/freshness/tables.py's map of tables to scopes, and the scope
names they write to `Scope` (models/freshness/scopes.py)."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection, Engine, inspect, text

from models.freshness.scopes import Scope
from models.freshness.tables import (
    LEAGUE_SCOPE_TABLES,
    NIGHT_TABLES,
    OUTBOX_SCOPE_TABLES,
    OUTBOX_TABLES,
    SCOPE_FREE_TABLES,
    SCOPED_TABLES,
    UNVERSIONED_TABLES,
)
from tests.support.migrations import NOW, add_player, add_region, add_report, add_result, add_season


def version(conn: Connection) -> int:
    return int(conn.execute(text("SELECT version FROM data_version")).scalar_one())


def triggers_named(
    engine: Engine, prefix: str, timing: str, orientation: str = "STATEMENT"
) -> dict[str, set[str]]:
    """Each table's events with a trigger named `prefix…`, as the database itself lists them
    (on PostgreSQL, triggers of that timing and orientation: STATEMENT or ROW)."""
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
                " WHERE trigger_name LIKE :name AND action_orientation = :orientation"
                " AND action_timing = :timing"
            ),
            {"name": prefix + "%", "timing": timing, "orientation": orientation},
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
        report = add_report(migrated, season, region, "2026-01-10")
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
        report = add_report(migrated, season, region, "2026-01-10")
        other = add_report(migrated, season, region, "2026-01-17")
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


# The outbox scope (migration 0033) -----------------------------------------------------------------


def outbox_version(conn: Connection) -> int:
    return scopes(conn).get(Scope.OUTBOX, 0)


def test_the_outbox_tables_answers_read_move_the_outbox_scope(migrated: Connection) -> None:
    """R23: the subscriptions, their deliveries, the events and the consents, which the office's
    and hosts' cached answers read, move `outbox` with every change (on PostgreSQL, row triggers
    deferred to the commit); the weekly email's queue, read by no answer, moves nothing."""
    engine = migrated.engine
    every = {"INSERT", "UPDATE", "DELETE"}
    assert OUTBOX_TABLES - {"email_messages", "email_subscription_requests", "email_confirmations"} == (
        OUTBOX_SCOPE_TABLES
    )
    row_triggers = triggers_named(engine, "outbox_scope_", "AFTER", orientation="ROW")
    assert row_triggers == {table: every for table in OUTBOX_SCOPE_TABLES}
    if engine.dialect.name == "postgresql":
        deferred = migrated.execute(
            text(
                "SELECT bool_and(tgdeferrable AND tginitdeferred), count(*) FROM pg_trigger"
                " WHERE tgname LIKE 'outbox_scope_%' AND tgconstraint <> 0"
            )
        ).one()
        assert tuple(deferred) == (True, len(OUTBOX_SCOPE_TABLES) * 3)
        migrated.rollback()


def test_any_change_to_them_moves_the_outbox_scope_at_its_commit_and_no_data_version(
    migrated: Connection,
) -> None:
    """Whoever makes it (plain SQL here, as the delivery worker's or a script's): each change
    moves `outbox`, on PostgreSQL once, at the commit (after every other lock the transaction
    took); the data version stays. A message of the weekly email moves nothing."""
    postgresql = migrated.dialect.name == "postgresql"
    with migrated.begin():
        player = add_player(migrated, "Ann A.")
    hook = "INSERT INTO webhooks (url, events, secret, created_by, created_at, updated_at)"
    event = "INSERT INTO outbox_events (event_id, kind, data, created_at)"
    moving = [
        f"{hook} VALUES ('https://example.org/h', '[\"*\"]', 's', 'Office', :now, :now)",
        f"{event} VALUES ('msg_1', 'webhook.ping', '{{}}', :now)",
        "INSERT INTO webhook_deliveries (webhook_id, event_id, next_attempt_at, created_at)"
        " SELECT w.id, e.id, :now, :now FROM webhooks AS w, outbox_events AS e",
        "UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = 500",
        "UPDATE webhooks SET failures_in_a_row = failures_in_a_row + 1",
        "UPDATE outbox_events SET staff_only = true",
        "INSERT INTO email_consents (player_id, source, given_at, given_by)"
        " VALUES (:player, 'door', :now, 'Host')",
        "DELETE FROM email_consents",
        "DELETE FROM webhook_deliveries",
        "DELETE FROM outbox_events",
        "DELETE FROM webhooks",
    ]
    still = [
        "INSERT INTO email_messages (player_id, kind, period, subject, body, next_attempt_at, created_at)"
        " VALUES (:player, 'digest', '2026-W01', 'Your week', 'Hello', :now, :now)",
        "UPDATE email_messages SET attempts = 1",
    ]
    for change, moves in [(c, True) for c in moving] + [(c, False) for c in still]:
        before, data = outbox_version(migrated), version(migrated)
        migrated.rollback()
        with migrated.begin():
            migrated.execute(text(change), {"now": NOW, "player": player})
            if postgresql:
                assert outbox_version(migrated) == before, change  # not before the commit
        after = outbox_version(migrated)
        if not moves:
            assert after == before, change
        elif postgresql:
            assert after == before + 1, change
        else:
            assert after > before, change
        assert version(migrated) == data, change
        migrated.rollback()
