"""Fixtures of the delivery worker's tests (R23)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.support.databases import ScratchDatabases


@pytest.fixture()
def private_ok(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Flask:
    """The app, its webhooks allowed to reach the tests' receivers on 127.0.0.1."""
    monkeypatch.setitem(app.config, "WEBHOOKS_ALLOW_PRIVATE", True)
    return app


@pytest.fixture()
def league_db(backend: str, scratch: ScratchDatabases) -> Iterator[str]:
    """A migrated database of its own (the worker is a process of its own), dropped after."""
    url = scratch.migrated(backend)
    yield url
    scratch.discard(url)
