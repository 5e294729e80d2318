"""Scratch databases of either backend (SQLite files, PostgreSQL databases dropped at the end), and
the checks every database test ends with: the stored standing lines are the results', and the
stored ratings a computation from scratch's (R20)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterable
from typing import Any

import pytest
from sqlalchemy import Connection, create_engine, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from models.entities import Player, Season, StandingLine
from models.rules.standings import Line, line_points
from models.services.ratings.queries import from_scratch, stored
from models.services.standings.lines import (
    counted_results,
    line_columns,
    season_tiers,
    stored_lines,
    summed_lines,
)

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
BACKENDS = ["sqlite", "postgresql"]
# R21: the audit log's master key of every app, migration and server a test starts (a database
# other than the embedded default refuses to start without one).
TEST_AUDIT_KEY = "test-audit-key-" + "0" * 48


def give_audit_key() -> None:
    """Every create_app, migration and gunicorn server of the run reads this key (from the
    environment, which servers inherit), unless the run was given its own."""
    os.environ.setdefault("AUDIT_KEY", TEST_AUDIT_KEY)


def postgres_admin_url() -> str | None:
    """The PostgreSQL to test on, or None when there is none (then its tests are skipped,
    unless REQUIRE_POSTGRES=1, as in CI, which makes that a failure)."""
    url = os.environ.get("TEST_POSTGRES_URL", DEFAULT_POSTGRES)
    try:
        engine = create_engine(url, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        engine.dispose()
        return url
    except Exception as exc:  # noqa: BLE001 - any failure means "no PostgreSQL here"
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            raise RuntimeError(f"REQUIRE_POSTGRES=1 but PostgreSQL at {url} fails: {exc}") from exc
        return None


PG_ADMIN = postgres_admin_url()


class ScratchDatabases:
    """Creates empty databases of either kind and drops them afterwards."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory) -> None:
        self.tmp = tmp_path_factory
        self.created: list[str] = []

    def create(self, backend: str) -> str:
        if backend == "sqlite":
            path = self.tmp.mktemp("db") / "league.db"
            return f"sqlite:///{path}"
        if PG_ADMIN is None:
            pytest.skip("PostgreSQL is not reachable (set TEST_POSTGRES_URL)")
        name = f"league_test_{uuid.uuid4().hex[:12]}"
        admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        self.created.append(name)
        return make_url(PG_ADMIN).set(database=name).render_as_string(hide_password=False)

    def drop_all(self) -> None:
        if not self.created or PG_ADMIN is None:
            return
        admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            for name in self.created:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def rearm_data_version(_session: Any, _transaction: Any, connection: Connection) -> None:
    """A session's "after_begin" listener: PostgreSQL moves the data version once per transaction,
    and a test's requests are savepoints of one transaction, so each must be able to move it again."""
    connection.execute(text("SELECT set_config('league.data_version_moved', '', true)"))


def _canonical(lines: Iterable[tuple[int, list[Line]]]) -> dict[int, list[Line]]:
    """Lines by venue, each line's places in order (the database aggregates them in any order)."""
    return {
        venue: [line._replace(places=",".join(sorted(line.places.split(",")))) for line in venue_lines]
        for venue, venue_lines in lines
    }


def assert_standing_lines_current(connection: Connection) -> None:
    """After every test, whatever it wrote and however (R1, R9-R11): the stored standing lines
    of every season are the ones summed from the results now, their points included."""
    if not connection.in_transaction() or connection.invalidated:
        return
    with Session(bind=connection, join_transaction_mode="create_savepoint") as session:
        for season in session.scalars(select(Season)).all():
            stored = _canonical(stored_lines(session, season))
            summed = _canonical(summed_lines(session, season, counted_results(season)))
            assert stored == summed, f"season {season.id}: the stored standing lines are not the results'"
            tiers = season_tiers(season)
            for points, *line in session.execute(
                select(StandingLine.points, *(c for c in line_columns()))
                .join(Player, Player.id == StandingLine.player_id)
                .where(StandingLine.season_id == season.id)
            ):
                assert points == line_points(Line(*line), tiers), (season.id, line)


def assert_ratings_current(connection: Connection) -> None:
    """After every test, whatever it wrote and however (R20): the stored ratings and their history
    are, float for float, what a computation from scratch over the results now gives. A write that
    forgets the ratings fails the test that makes it."""
    if not connection.in_transaction() or connection.invalidated:
        return
    with Session(bind=connection, join_transaction_mode="create_savepoint") as session:
        ratings, history = stored(session)
        want_ratings, want_history = from_scratch(session)
        assert history == want_history, (
            f"the stored rating history is not a rebuild's: {len(history - want_history)} point(s) "
            f"stored not computed, {len(want_history - history)} computed not stored"
        )
        assert ratings == want_ratings, "the stored ratings are not a rebuild's"
