"""A gunicorn config (`-c tests/support/stop_points.py`) that freezes a worker at a chosen point of
storing a report, so that a test can kill it exactly there, whatever the machine's speed. Before
each POST to /api/v1/tournaments the worker reads the file named by the environment's
STOP_POINT_FILE; when it names one of these points, the worker stops itself (SIGSTOP) on reaching it:

- "players": just after the first INSERT INTO players (the report's transaction is writing);
- "results": just after the first INSERT INTO results;
- "commit": just before the COMMIT (every row written, none committed);
- "committed": just after the commit, before the answer.

The test sees the worker stopped (state T in /proc/<pid>/stat) and kills it (SIGKILL). An empty or
missing file stops nothing."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

# The point armed for the request being served (a sync worker serves one at a time), and whether
# the report's rows have begun (so that "commit" is the report's commit, not another's).
_armed: dict[str, Any] = {"point": None, "writing": False}


def pre_request(_worker: Any, req: Any) -> None:
    point = None
    if req.method == "POST" and req.path == "/api/v1/tournaments":
        plan = Path(os.environ["STOP_POINT_FILE"])
        point = (plan.read_text().strip() if plan.exists() else "") or None
    _armed.update(point=point, writing=False)


def _reached(point: str) -> None:
    if _armed["point"] == point:
        _armed["point"] = None
        os.kill(os.getpid(), signal.SIGSTOP)  # returns only if the test sends SIGCONT


def _after_execute(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
    if statement.startswith("INSERT INTO players "):
        _armed["writing"] = True
        _reached("players")
    elif statement.startswith("INSERT INTO results "):
        _reached("results")


def _before_commit(_conn: Any) -> None:
    if _armed["writing"]:
        _reached("commit")


def _after_commit(_session: Any) -> None:
    if _armed["writing"]:
        _reached("committed")


def post_worker_init(_worker: Any) -> None:
    event.listen(Engine, "after_cursor_execute", _after_execute)
    event.listen(Engine, "commit", _before_commit)
    event.listen(Session, "after_commit", _after_commit)
