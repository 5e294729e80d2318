"""Engines and sessions, with SQLite set up to behave like the PostgreSQL we run in production."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

# Set by the caller (a write request, a command) before its first query on SQLite.
SQLITE_WRITE_INTENT: ContextVar[bool] = ContextVar("sqlite_write_intent", default=False)


def normalise_url(url: str) -> str:
    """Pin the psycopg 3 driver: the default PostgreSQL driver differs between SQLAlchemy versions."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine of the URL. Its errors never show a statement's parameters (`hide_parameters`):
    they hold personal values (R19), and an error's text may reach the service log."""
    kwargs.setdefault("hide_parameters", True)
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, **kwargs)
        _setup_sqlite(engine, parsed.database if parsed.database not in (None, "", ":memory:") else None)
        return engine
    return create_engine(url, pool_pre_ping=True, **kwargs)


# Where a connection keeps its turn to write (`_take_turn`) until it goes back to the pool.
_TURN = "sqlite write turn"
# How long a writer waits for its turn (as long as SQLite's own wait, `busy_timeout`); then it
# asks SQLite, which waits as long again and answers "database is locked" if the lock is still
# held (a 409 to send again).
TURN_WAIT_SECONDS = 10.0
_local_turns: dict[str, threading.Lock] = {}
_local_turns_lock = threading.Lock()


def _take_turn(lock_file: str) -> tuple[threading.Lock, int] | None:
    """Wait for this connection's turn to write: first among this process's threads (a lock they
    wait on), then among processes, on a lock file beside the database (an exclusive `flock`,
    let go when its descriptor closes: at the end of the transaction, or when the process dies).
    Writers wait without polling and the next goes on the moment a write ends. SQLite's own wait
    polls, sleeping up to 100 ms between tries, so a writer that had waited long kept losing to
    newer ones: a host's action took seconds behind a busy night's writes. None: no turn within
    TURN_WAIT_SECONDS."""
    with _local_turns_lock:
        local = _local_turns.setdefault(lock_file, threading.Lock())
    began = time.monotonic()
    if not local.acquire(timeout=TURN_WAIT_SECONDS):
        return None
    try:
        descriptor = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o600)
    except BaseException:
        local.release()
        raise
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return local, descriptor
    except BlockingIOError:
        pass
    except BaseException:
        _let_go(local, descriptor)
        raise
    if _other_process_ends_turn(descriptor, TURN_WAIT_SECONDS - (time.monotonic() - began)):
        return local, descriptor
    local.release()  # the descriptor is the waiting thread's now: it closes it
    return None


def _other_process_ends_turn(descriptor: int, seconds: float) -> bool:
    """Wait (at most `seconds`) for the lock file while another process writes: a thread waits
    on it in the kernel (flock has no timeout of its own). Given up, that thread closes the
    descriptor once it gets the lock, so the lock goes straight on to the next writer."""
    state = threading.Lock()
    got, gave_up = threading.Event(), threading.Event()

    def wait() -> None:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        except OSError:
            gave_up.set()
        with state:
            if gave_up.is_set():
                os.close(descriptor)
            else:
                got.set()

    threading.Thread(target=wait, name="sqlite write turn", daemon=True).start()
    if got.wait(max(seconds, 0.0)):
        return True
    with state:
        if got.is_set():
            return True
        gave_up.set()
    return False


def _let_go(local: threading.Lock, descriptor: int) -> None:
    if descriptor >= 0:
        os.close(descriptor)
    local.release()


def _end_turn(_dbapi_connection: Any, record: Any, *_rest: Any) -> None:
    turn = None if record is None else record.info.pop(_TURN, None)
    if turn is not None:
        _let_go(*turn)


def _setup_sqlite(engine: Engine, database: str | None = None) -> None:
    # pysqlite's own transaction handling breaks SAVEPOINT and transactional DDL: take it over
    # (SQLAlchemy's "Serializable isolation / Savepoints / Transactional DDL" recipe), and turn on
    # foreign keys, which SQLite leaves off per connection.
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA journal_mode=WAL")
        # In WAL mode, NORMAL syncs at checkpoints, not at every commit: a killed process loses
        # nothing and the file never corrupts; only a power cut may lose the last commits.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    lock_file = None if database is None else f"{database}.write-lock"

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        # A deferred transaction that reads and then writes cannot wait for another writer
        # (SQLite answers "database is locked" at once): writes take the lock up front, each
        # in its turn (`_take_turn`).
        if not SQLITE_WRITE_INTENT.get():
            conn.exec_driver_sql("BEGIN")
            return
        if lock_file is not None and _TURN not in conn.info:
            turn = _take_turn(lock_file)
            if turn is not None:
                conn.info[_TURN] = turn
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    # The turn ends when the connection goes back to the pool (after its commit or rollback), or
    # is thrown away.
    for name in ("checkin", "invalidate", "soft_invalidate", "close", "detach"):
        event.listen(engine.pool, name, _end_turn)


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


REPO_ROOT = Path(__file__).resolve().parents[2]


def default_database_url() -> str:
    """The embedded default: an SQLite file under instance/, created on first run."""
    return f"sqlite:///{REPO_ROOT / 'instance' / 'league.db'}"
