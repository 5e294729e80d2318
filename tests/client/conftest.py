"""The spec's JavaScript tools, installed with `npm ci` when node_modules is missing or the lock
changed. Without npm the tests using them are skipped, unless CI=true or REQUIRE_NODE=1 (as
`.ci/run` sets) makes that a failure."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.node import MODULES, NODE_ENV, TOOLS, installed_stamp, node_required


@pytest.fixture(scope="session")
def node_bin() -> Path:
    """node_modules/.bin of tests/client/ts, installed from the lock when it needs to be."""
    npm = shutil.which("npm")
    if npm is None:
        if node_required():
            pytest.fail("npm is required (CI=true or REQUIRE_NODE=1) but missing: install Node.js 20.19+")
        pytest.skip("no npm on this machine (Node.js 20.19+); .ci/run requires it")
    stamp = installed_stamp()
    # Under pytest-xdist several workers may get here at once: one installs, the others wait for it.
    with (TOOLS / ".npm-ci.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not stamp.exists():
            install(npm, stamp)
    return MODULES / ".bin"


def install(npm: str, stamp: Path) -> None:
    """`npm ci` in tests/client/ts, then the stamp that says it was done for this lock."""
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
