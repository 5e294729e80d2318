"""Each bump of a scope is recorded with a number (migration 0037), which the refresher follows
(models/freshness/bumps.py): none is missed, even when PostgreSQL commits two transactions in
the other order than they took their numbers. A venue's nights move `night:V` alone."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection, inspect, text

from models.freshness.bumps import DATA, Mark, bumped_since
from models.freshness.scopes import Scope
from models.freshness.tables import NIGHT_TABLES
from tests.support.migrations import add_region, add_season

BUMP = (
    "INSERT INTO scope_versions (scope, version) VALUES (:scope, 1) "
    "ON CONFLICT (scope) DO UPDATE SET version = scope_versions.version + 1"
)


def night_triggers(conn: Connection) -> dict[str, set[str]]:
    """Each table's events with a trigger named night_scope_…, as the database lists them."""
    if conn.dialect.name == "sqlite":
        sql = "SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'night_scope_%'"
        rows = [
            (t, next(e for e in ("INSERT", "UPDATE", "DELETE") if f"AFTER {e} ON" in q))
            for t, q in conn.execute(text(sql))
        ]
    else:
        sql = (
            "SELECT event_object_table, event_manipulation FROM information_schema.triggers"
            " WHERE trigger_name LIKE 'night_scope_%' AND action_timing = 'AFTER'"
        )
        rows = [(table, event) for table, event in conn.execute(text(sql))]
    found: dict[str, set[str]] = {}
    for table, event in rows:
        found.setdefault(table, set()).add(event)
    conn.rollback()
    return found


def bumped(conn: Connection, mark: Mark) -> tuple[list[str], Mark]:
    with conn.begin():
        return bumped_since(conn, mark)


def test_every_bump_takes_a_higher_number_and_the_refresher_reads_those_after_its_mark(
    migrated: Connection,
) -> None:
    """Whoever bumps (a trigger of league data here, or a plain upsert): the row's number moves
    past every number before it; a pass names the scopes bumped after its mark, the latest last,
    and `DATA` when the data version moved."""
    _scopes, start = bumped(migrated, Mark())
    with migrated.begin():
        region = add_region(migrated, "North")  # `league`
        add_season(migrated, "2026-01-01", "2026-03-31", [region])
    scopes, after = bumped(migrated, start)
    assert scopes == [Scope.LEAGUE, DATA] and after.seq > start.seq
    with migrated.begin():
        migrated.execute(text(BUMP), {"scope": "season:1"})
        migrated.execute(text(BUMP), {"scope": Scope.LEAGUE})
    scopes, last = bumped(migrated, after)
    assert scopes == ["season:1", Scope.LEAGUE] and last.seq > after.seq  # no data version: no DATA
    assert bumped(migrated, last)[0] == []
    assert Mark.loads(last.dumps()) == last and Mark.loads(None) == Mark() == Mark.loads(b"{")
    # A backup restored (a new epoch: numbers may repeat): the mark counts from the start.
    with migrated.begin():
        migrated.execute(text("UPDATE data_version SET epoch = 'restored', version = version + 1"))
    scopes, _mark = bumped(migrated, last)
    assert {Scope.LEAGUE, "season:1", DATA} <= set(scopes)


def test_a_venues_nights_move_its_night_scope(migrated: Connection) -> None:
    """R22: every change to nights, night_entries and night_actions moves `night:V` (the
    refresher's way to the venue's live page); they still move no data version (0028, held by
    test_data_version.py), and a bust-out moves nothing else (tests/api/cache/test_refresher.py)."""
    every = {"INSERT", "UPDATE", "DELETE"}
    assert night_triggers(migrated) == {table: every for table in NIGHT_TABLES}


def test_r23_the_outbox_no_longer_keeps_what_the_refresher_did(migrated: Connection) -> None:
    columns = {column["name"] for column in inspect(migrated.engine).get_columns("outbox_events")}
    assert "refreshed_at" not in columns and "kind" in columns


def test_postgresql_commits_out_of_order_are_not_missed(migrated: Connection) -> None:
    """A transaction takes number n and commits after one that took n + 1 was seen: the mark of
    that pass keeps the first as in progress, and the next pass names its scope."""
    if migrated.dialect.name != "postgresql":
        pytest.skip("SQLite's writers take turns: numbers become visible in their order")
    migrated.rollback()
    _scopes, mark = bumped(migrated, Mark())
    with migrated.engine.connect() as first, migrated.engine.connect() as second:
        first.execute(text(BUMP), {"scope": "venue:1:1"})  # takes n, not committed yet
        second.execute(text(BUMP), {"scope": "venue:1:2"})  # takes n + 1
        second.commit()
        seen, mark = bumped(migrated, mark)
        assert seen == ["venue:1:2"] and mark.pending  # the first still in progress
        numbers = dict(
            first.execute(text("SELECT scope, seq FROM scope_versions WHERE scope LIKE 'venue:1:%'")).all()
        )
        assert numbers["venue:1:1"] < numbers["venue:1:2"] <= mark.seq
        first.commit()
        seen, mark = bumped(migrated, mark)
        assert seen == ["venue:1:1"]
        assert bumped(migrated, mark)[0] == []
