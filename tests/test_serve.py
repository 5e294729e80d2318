"""The README's serve command (`./scripts/serve`) runs the production server: gunicorn with
several workers on the embedded SQLite default, never Flask's development server (which warns
"Do not use it in a production deployment")."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.servers import PATIENCE

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
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=PATIENCE)
