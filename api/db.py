"""One database session per request, committed once after the view succeeds."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, Response, current_app, g, request
from sqlalchemy.orm import Session

from api.cache.views import policy
from models.infra.db import SQLITE_WRITE_INTENT, make_engine, make_sessionmaker
from models.services.audit_log.personal_text import PURGE_ANSWERS


class Database:
    def __init__(self, url: str, **engine_options: Any) -> None:
        self.engine = make_engine(url, **engine_options)
        self.sessionmaker = make_sessionmaker(self.engine)
        # A read sees one snapshot: the data version it keys its answer on and every row it reads
        # (SQLite's read transactions already do; PostgreSQL's default sees each statement anew).
        readers = self.engine
        if self.engine.dialect.name == "postgresql":
            readers = self.engine.execution_options(isolation_level="REPEATABLE READ")
        self.read_sessionmaker = make_sessionmaker(readers)


# What the cache registers (api/cache/__init__.py), so that this module needs no import of it:
# the memos a reading session carries, and what drops everything cached after an erasure.
MEMOS = "league_reader_memos"
PURGES = "league_purges"


def init_app(app: Flask) -> None:
    app.extensions["league_db"] = Database(app.config["DATABASE_URL"])
    app.extensions.setdefault(MEMOS, {})
    app.extensions.setdefault(PURGES, [])
    app.after_request(_commit)
    app.teardown_appcontext(_close)


def database() -> Database:
    db: Database = current_app.extensions["league_db"]
    return db


@contextmanager
def reading() -> Iterator[Session]:
    """A command's read-only transaction (rolled back when the block ends): nothing is locked
    while the command waits for an answer (on SQLite, not even when the process writes too)."""
    SQLITE_WRITE_INTENT.set(False)
    with database().read_sessionmaker() as session:
        yield session


def session() -> Session:
    if "db_session" not in g:
        # A GET that writes (`@never_cached`: an audited read, R21) gets a writer's session.
        reading = request.method in ("GET", "HEAD", "OPTIONS") and not policy().writes
        SQLITE_WRITE_INTENT.set(not reading)
        g.db_session = (database().read_sessionmaker if reading else database().sessionmaker)()
        if reading:
            # Reads share what was computed under the versions they read (models/freshness/memos.py).
            g.db_session.info.update(current_app.extensions[MEMOS])
    db_session: Session = g.db_session
    return db_session


def _commit(response: Response) -> Response:
    db_session: Session | None = g.get("db_session")
    if db_session is None:
        return response
    if response.status_code >= 400:
        db_session.rollback()
        return response
    try:
        db_session.commit()
    except Exception as exc:  # noqa: BLE001 - the one place a failed commit becomes a response
        db_session.rollback()
        # Answered by the handler api/errors.py registered for it (a database guard's problem, or
        # the logged 500), as an error raised in the view would be.
        return current_app.make_response(current_app.handle_user_exception(exc))
    purge_if_asked(db_session)
    return response


def purge_if_asked(db_session: Session) -> None:
    """After a commit that asked for it (an erasure, R21): everything cached is dropped, from
    Redis too, since one may hold a value that is gone. None of it is served again anyway (the
    data version was bumped); this is so that no copy is kept."""
    if db_session.info.pop(PURGE_ANSWERS, False):
        for purge in current_app.extensions[PURGES]:
            purge()


def _close(_exc: BaseException | None) -> None:
    db_session: Session | None = g.pop("db_session", None)
    if db_session is not None:
        db_session.close()
