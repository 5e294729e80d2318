"""The browser tests' Chromium: Debian's package (/usr/bin/chromium), driven by Playwright, whose
own browser download is never used (tests/support/browser.launch). Without it the tests are
skipped, unless REQUIRE_BROWSER=1 (as `.ci/run` sets), which makes that a failure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.support.browser import launch


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    with launch(tmp_path_factory.mktemp("no-playwright-browsers")) as launched:
        yield launched
