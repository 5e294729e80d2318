"""Scratch databases of either backend (SQLite files, PostgreSQL databases dropped at the end), and
the checks every database test ends with: the stored standing lines are the results', and the
stored ratings a computation from scratch's (R20)."""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import pytest
from sqlalchemy import Connection, create_engine, event, or_, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from models.entities import Player, Season, StandingLine
from models.entities.reports import Report, Result
from models.infra.migrate import alembic_config, upgrade
from models.rules.standings import Line, line_points
from models.services.ratings.queries import from_scratch, stored
from models.services.reports.scoring import rescore_season
from models.services.standings.lines import (
    counted_results,
    line_columns,
    season_tiers,
    stored_lines,
    summed_lines,
)

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
# The databases every database test runs on; TEST_BACKENDS=sqlite (the fast loop, scripts/test-fast)
# runs them on SQLite alone.
BACKENDS = [
    name for name in ("sqlite", "postgresql") if name in os.environ.get("TEST_BACKENDS", "sqlite,postgresql")
]
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


PG_ADMIN = postgres_admin_url() if "postgresql" in BACKENDS else None


class ScratchDatabases:
    """Creates databases of either kind, empty or at the migrations' head, and drops them
    afterwards. Under pytest-xdist each worker has its own (its own tmp folder; PostgreSQL
    databases named at random).

    PostgreSQL 15 makes a checkpoint for each DROP DATABASE (seconds on a busy machine), so a test
    never waits for one: `discard` drops in a thread of its own while the next tests run, and the
    rest are dropped at the end. Commits on these scratch databases do not wait for the disk
    (synchronous_commit off: nothing here must survive a crash of the server)."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory) -> None:
        self.tmp = tmp_path_factory
        self.created: list[str] = []
        self.templates: dict[str, str] = {}
        self._dropper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drop-database")
        self._queued: dict[str, Future[None]] = {}

    def create(self, backend: str) -> str:
        """A new, empty database of the backend."""
        if backend == "sqlite":
            path = self.tmp.mktemp("db") / "league.db"
            return f"sqlite:///{path}"
        if PG_ADMIN is None:
            pytest.skip("PostgreSQL is not reachable (set TEST_POSTGRES_URL)")
        return self._postgres(f"league_test_{uuid.uuid4().hex[:12]}")

    def migrated(self, backend: str) -> str:
        """A new database of the backend at the migrations' head: a copy of one database the
        migrations brought to head once in this run (a file copy on SQLite, a database made from
        it as TEMPLATE on PostgreSQL), rather than the migrations run again for each (the
        migrations themselves are tests/migrations'). The copy gets a data epoch of its own, as
        each migrated database has, so answers cached for one (in one Redis) are never taken for
        another's."""
        template = self.templates.get(backend)
        if template is None:
            template = self.create(backend)
            upgrade(alembic_config(template))
            self.templates[backend] = template
        if backend == "sqlite":
            url = self.create(backend)
            source = sqlite3.connect(str(make_url(template).database))
            copy = sqlite3.connect(str(make_url(url).database))
            try:
                source.backup(copy)
            finally:
                source.close()
                copy.close()
        else:
            url = self._postgres(f"league_test_{uuid.uuid4().hex[:12]}", make_url(template).database)
        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(text("UPDATE data_version SET epoch = :epoch"), {"epoch": secrets.token_hex(16)})
        engine.dispose()
        return url

    def _postgres(self, name: str, template: str | None = None) -> str:
        assert PG_ADMIN is not None
        admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            like = f' TEMPLATE "{template}"' if template else ""
            conn.execute(text(f'CREATE DATABASE "{name}"{like}'))
            conn.execute(text(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
        admin.dispose()
        self.created.append(name)
        return make_url(PG_ADMIN).set(database=name).render_as_string(hide_password=False)

    def discard(self, url: str) -> None:
        """Done with this database (every connection to it closed or abandoned): a PostgreSQL one
        is dropped in the background; a SQLite file goes with the run's tmp folder."""
        name = make_url(url).database
        if make_url(url).get_backend_name() != "postgresql" or name not in self.created:
            return
        self.created.remove(name)
        self._queued[name] = self._dropper.submit(drop_databases, [name])

    def drop_all(self) -> None:
        """At the end of the run: the databases not dropped yet (those still in the background's
        queue too) go to a process of their own, which the run does not wait for."""
        self._dropper.shutdown(wait=False, cancel_futures=True)
        names = self.created + [name for name, drop in self._queued.items() if drop.cancelled()]
        self.created.clear()
        if names and PG_ADMIN is not None:
            command = [sys.executable, "-c", DROP_IN_BACKGROUND, *names]
            quiet = subprocess.DEVNULL
            subprocess.Popen(command, cwd=REPO, stdout=quiet, stderr=quiet, start_new_session=True)


REPO = Path(__file__).resolve().parents[2]
DROP_IN_BACKGROUND = "import sys; from tests.support.databases import drop_databases as d; d(sys.argv[1:])"


def drop_databases(names: list[str]) -> None:
    if not names or PG_ADMIN is None:
        return
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        for name in names:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def rearm_data_version(_session: Any, _transaction: Any, connection: Connection) -> None:
    """A session's "after_begin" listener: PostgreSQL moves the data version once per transaction,
    and a test's requests are savepoints of one transaction, so each must be able to move it again.
    The `outbox` scope too (migration 0033; `run_deferred_triggers_at_once`)."""
    connection.execute(
        text(
            "SELECT set_config('league.data_version_moved', '', true),"
            " set_config('league.outbox_scope_moved', '', true)"
        )
    )


def run_deferred_triggers_at_once(connection: Connection) -> None:
    """PostgreSQL moves the `outbox` scope at the commit (migration 0033's deferred triggers); a
    test's transaction never commits, so there they run at the end of each statement instead."""
    connection.execute(text("SET CONSTRAINTS ALL IMMEDIATE"))


# A statement that changes rows (whatever else it reads), in any dialect the tests use. Matching a
# read by mistake only costs a check; missing a write would skip one, so the match is broad.
WRITING = re.compile(
    r"\b(INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|MERGE\s+INTO|REPLACE\s+INTO)\b", re.IGNORECASE
)
_wrote: WeakKeyDictionary[Connection, bool] = WeakKeyDictionary()


def watch_writes(connection: Connection) -> None:
    """From now on, note whether any statement on the connection (any session, app, CLI or
    service joined to it) changes rows; `wrote` tells."""
    _wrote[connection] = False

    def seen(conn: Connection, _cursor: Any, statement: str, *_args: Any) -> None:
        if not _wrote.get(conn) and WRITING.search(statement):
            _wrote[conn] = True

    event.listen(connection, "before_cursor_execute", seen)


def wrote(connection: Connection) -> bool:
    """Whether a statement since `watch_writes` changed rows (True when it was never watched)."""
    return _wrote.get(connection, True)


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
            assert_knockouts_current(session, season)


def assert_knockouts_current(session: Session, season: Season) -> None:
    """R8a: where a season's results name knockouts, their knockout points (bounties included)
    are what scoring the season again from its results gives: computed again in a savepoint,
    nothing changes."""
    named = (
        select(Result.id)
        .join(Report)
        .where(
            Report.season_id == season.id,
            or_(Result.knocked_out_by_id.is_not(None), Result.knockout_points != 0, Result.knockouts != 0),
        )
    )
    if session.scalar(named.limit(1)) is None:
        return
    savepoint = session.begin_nested()
    try:
        assert rescore_season(session, season) == 0, f"season {season.id}: knockout points are stale"
    finally:
        savepoint.rollback()


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
