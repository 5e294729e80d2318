"""The spec's JavaScript tools (tests/client/ts: package.json and its lock, exact versions): where
they are, and the environment they run in."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1] / "client" / "ts"
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
