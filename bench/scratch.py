"""A scratch database for a benchmark: an SQLite file, or a PostgreSQL database made for the run
and dropped after it. And the day the benchmarks' leagues are dated from, and the machine's load
written beside a run's figures (`uptime`, before and after)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from models.infra.clock import default_zone, today_in

# R21: a database other than the embedded default needs the audit log's master key; a
# benchmark's scratch league is given one unless the environment has its own.
os.environ.setdefault("AUDIT_KEY", "bench-audit-key-" + "0" * 48)


@contextmanager
def scratch_database(postgres_url: str | None) -> Iterator[str]:
    """The URL of an empty database: an SQLite file without an argument, else a new PostgreSQL
    database on the server of `postgres_url`; removed or dropped when the block ends."""
    if postgres_url is None:
        directory = tempfile.mkdtemp(prefix="league-bench-")
        try:
            yield f"sqlite:///{directory}/bench.db"
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        return
    name = f"league_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def today() -> date:
    """Today on the league's clock as a new league reckons it (LEAGUE_TIMEZONE, else UTC; R2a)."""
    return today_in(default_zone())


def uptime() -> dict[str, Any]:
    """`uptime` as it printed, and the load averages."""
    try:
        said = subprocess.run(["uptime"], capture_output=True, text=True, timeout=10, check=False).stdout
    except (OSError, subprocess.TimeoutExpired) as failed:
        said = f"uptime failed: {failed}"
    return {
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
        "uptime": said.strip(),
        "load": [round(load, 2) for load in os.getloadavg()],
    }
