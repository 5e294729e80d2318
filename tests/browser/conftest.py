"""The browser tests' Chromium: Debian's package, driven by Playwright (its own browser download
is never needed). Without it the tests are skipped, unless REQUIRE_BROWSER=1 (as `.ci/run` sets)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS


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
