"""The spec's JavaScript tools (tests/client/ts: package.json and its lock, exact versions),
installed with `npm ci` when node_modules is missing or the lock changed. Without npm the tests
using them are skipped, unless CI=true or REQUIRE_NODE=1 (as `.ci/run` sets) makes that a failure."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent / "ts"
MODULES = TOOLS / "node_modules"
# No telemetry or update check from Redocly CLI (and no network beyond npm's registry).
NODE_ENV = {
    **os.environ,
    "REDOCLY_TELEMETRY": "off",
    "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true",
    "NO_COLOR": "1",
}


def node_required() -> bool:
    return os.environ.get("REQUIRE_NODE") == "1" or os.environ.get("CI", "").lower() in ("1", "true")


def installed_stamp() -> Path:
    """Marks node_modules as installed from this lock (npm ci removes it with the rest)."""
    lock = hashlib.sha256((TOOLS / "package-lock.json").read_bytes()).hexdigest()[:16]
    return MODULES / f".installed-{lock}"


@pytest.fixture(scope="session")
def node_bin() -> Path:
    """node_modules/.bin of tests/client/ts, installed from the lock when it needs to be."""
    npm = shutil.which("npm")
    if npm is None:
        if node_required():
            pytest.fail("npm is required (CI=true or REQUIRE_NODE=1) but missing: install Node.js 20.19+")
        pytest.skip("no npm on this machine (Node.js 20.19+); .ci/run requires it")
    stamp = installed_stamp()
    if not stamp.exists():
        installed = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=TOOLS,
            capture_output=True,
            text=True,
            env=NODE_ENV,
            timeout=600,
        )
        assert installed.returncode == 0, f"npm ci in {TOOLS} failed:\n{installed.stdout}{installed.stderr}"
        stamp.touch()
    return MODULES / ".bin"
