"""The browser tests' Chromium: Debian's package, driven by Playwright (its own browser download
is never needed). Without it the tests are skipped, unless REQUIRE_BROWSER=1 (as `.ci/run` sets)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.api.test_cache_gunicorn import Server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Flags for a machine without a network: no background connections, no sandbox as root.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if CHROMIUM is None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail("REQUIRE_BROWSER=1 but there is no chromium: install Debian's chromium package")
        pytest.skip("no chromium on this machine (apt-get install chromium); .ci/run requires it")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def players_named(server: Server, names: tuple[str, ...], surname: str) -> list[int]:
    """Ann and Bob (the served league's) and a new player for each name; their ids, in order."""
    players = [server.ann, server.bob]
    for name in names:
        status, _headers, body = server.request(
            "POST",
            "/api/v1/players",
            {
                "full_name": f"{name} {surname}",
                "display_name": name,
                "email": f"{name}.{surname}@example.org".lower(),
            },
            Authorization=f"Bearer {server.office}",
        )
        assert status == 201, body
        players.append(body["id"])
    return players
