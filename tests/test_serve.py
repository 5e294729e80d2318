"""The README's serve command (`./scripts/serve`) runs the production server: gunicorn with
several workers on the embedded SQLite default, never Flask's development server (which warns
"Do not use it in a production deployment"), and beside it the delivery worker (webhooks,
emails, and the refresher of answers); stopping it stops both."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.servers import PATIENCE, stop

# Starts real servers (gunicorn): seconds each; left out of the fast loop (scripts/test-fast).
pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def answers(port: int) -> bool:
    """/health answers 200 (False while nothing listens yet)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=PATIENCE) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def test_serve_runs_gunicorn_with_several_workers(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "PORT": str(port),
        "WORKERS": "2",
        "DEMO": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'league.db'}",
    }
    env.pop("DEBUG", None)
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [str(ROOT / "scripts" / "serve")],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        # Up: /health answered and both workers booted (the first can answer before the second has
        # booted). Polled up to PATIENCE, each probe as patient as any request.
        deadline = time.monotonic() + PATIENCE
        while not (answers(port) and log.read_text().count("Booting worker") >= 2):
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.3)  # the poll's interval
        output = log.read_text()
        assert "gunicorn" in output.lower() and output.count("Booting worker") == 2, output
        assert "development server" not in output and "Do not use it in a production" not in output
        assert any("deliver" in command for command in commands_in(server.pid)), output
    finally:
        stop(server)  # SIGTERM to the script alone: it stops what it started
    deadline = time.monotonic() + PATIENCE
    while commands_in(server.pid):
        assert time.monotonic() < deadline, commands_in(server.pid)
        time.sleep(0.3)  # the poll's interval


def commands_in(session: int) -> list[str]:
    """The command lines of the live processes of a session (the script started a new one)."""
    commands = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if command and os.getsid(int(proc.name)) == session:
                commands.append(command)
        except OSError:  # gone meanwhile
            continue
    return commands
