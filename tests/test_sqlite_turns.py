"""Writers on the embedded database (SQLite) take turns (models/infra/db.py): a write transaction
waits for its turn on a lock file beside the database, whichever process or thread it runs in,
and its turn ends with it (commit, rollback), so the next writer goes on at once instead of
polling SQLite's lock with growing sleeps. Two engines on one file stand for two processes.
How long writers wait on a busy league night is measured by bench/league_night.py, not here."""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text

from models.infra import db
from models.infra.db import SQLITE_WRITE_INTENT, make_engine

GENEROUS = 60.0  # seconds: a bound that only a hung writer reaches


def _writer(engine: Engine, n: int, log: list[str], inside: Callable[[], None] = lambda: None) -> None:
    SQLITE_WRITE_INTENT.set(True)  # as a write request sets it (api/db.py), in its own thread
    try:
        with engine.begin() as conn:
            log.append(f"in {n}")
            conn.execute(text("INSERT INTO t (n) VALUES (:n)"), {"n": n})
            inside()
            log.append(f"out {n}")
    except RuntimeError:
        log.append(f"rolled back {n}")


def _started(target: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


def test_writers_take_turns_across_engines_and_a_turn_ends_with_its_transaction(
    tmp_path: Path, monkeypatch: Any
) -> None:
    database = tmp_path / "turns.db"
    first, second = make_engine(f"sqlite:///{database}"), make_engine(f"sqlite:///{database}")
    SQLITE_WRITE_INTENT.set(False)  # this thread reads (an earlier test may have written here)
    with first.begin() as conn:
        conn.execute(text("CREATE TABLE t (n INTEGER)"))
    log: list[str] = []
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        holding.set()
        assert release.wait(GENEROUS)

    a = _started(lambda: _writer(first, 1, log, hold))
    assert holding.wait(GENEROUS)
    # Each writer after the first says when it starts waiting for its turn.
    waiting = threading.Semaphore(0)
    take_turn = db._take_turn

    def said(lock_file: str) -> Any:
        waiting.release()
        return take_turn(lock_file)

    monkeypatch.setattr(db, "_take_turn", said)
    b = _started(lambda: _writer(second, 2, log))  # another "process"
    c = _started(lambda: _writer(first, 3, log))  # another thread of the first
    assert waiting.acquire(timeout=GENEROUS) and waiting.acquire(timeout=GENEROUS)
    # Both wait while the first writer holds its turn: nobody else writes.
    assert log == ["in 1"]
    assert Path(f"{database}.write-lock").exists()
    # A reader does not wait for a turn.
    with second.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM t")).scalar_one() == 0
    release.set()
    for thread in (a, b, c):
        thread.join(GENEROUS)
    assert log[:2] == ["in 1", "out 1"]
    # Each of the others wrote whole, one after the other.
    assert sorted(log[2:]) == ["in 2", "in 3", "out 2", "out 3"]
    assert log[3] == log[2].replace("in", "out")

    # A rolled-back write ends its turn too: the next writer goes on.
    def fail() -> None:
        raise RuntimeError("refused")

    _started(lambda: _writer(second, 4, log, fail)).join(GENEROUS)
    _started(lambda: _writer(first, 5, log)).join(GENEROUS)
    assert log[-3:] == ["rolled back 4", "in 5", "out 5"]
    with first.connect() as conn:
        assert sorted(conn.execute(text("SELECT n FROM t")).scalars()) == [1, 2, 3, 5]
    first.dispose()
    second.dispose()


def test_a_writer_gives_up_waiting_for_its_turn_after_the_bound_and_the_lock_goes_on(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Another process writing past TURN_WAIT_SECONDS: the wait ends (SQLite is then asked
    itself, and answers "database is locked" if it is still held, which the API answers with a
    409 to send again); the writer that gave up holds nothing, so the next one gets its turn."""
    lock_file = str(tmp_path / "turns.db.write-lock")
    other = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o600)  # another process's turn
    fcntl.flock(other, fcntl.LOCK_EX)
    monkeypatch.setattr(db, "TURN_WAIT_SECONDS", 0.5)
    assert db._take_turn(lock_file) is None
    os.close(other)  # its write ends
    monkeypatch.setattr(db, "TURN_WAIT_SECONDS", GENEROUS)
    turn = db._take_turn(lock_file)
    assert turn is not None
    db._let_go(*turn)
