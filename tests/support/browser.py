"""The browser tests' Chromium (Debian's package, driven by Playwright) and the players they need.

Only Debian's Chromium is ever launched (`launch`: by its executable path, with Playwright told
of no browsers of its own, so nothing can fall back to Playwright's download), and every wait in
a page is bounded generously (`PATIENCE_MS`, minutes: two cores shared by a whole suite)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, sync_playwright

from tests.support.servers import PATIENCE, Server

DEBIAN_CHROMIUM = Path("/usr/bin/chromium")  # `apt-get install chromium`
CHROMIUM = str(DEBIAN_CHROMIUM) if os.access(DEBIAN_CHROMIUM, os.X_OK) else None
# Every action, wait and navigation of a page: minutes, as for a server to come up.
PATIENCE_MS = int(PATIENCE * 1000)
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


def require_chromium() -> str:
    """Debian's Chromium, or the test is skipped (failed under REQUIRE_BROWSER=1, as `.ci/run` sets)."""
    if CHROMIUM is None:
        message = f"no Debian chromium at {DEBIAN_CHROMIUM} (apt-get install chromium)"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {message}", pytrace=False)
        pytest.skip(f"{message}; .ci/run requires it")
    return CHROMIUM


@contextmanager
def launch(no_downloads: Path) -> Iterator[Browser]:
    """Debian's Chromium, headless, its contexts and pages patient (`PATIENCE_MS`). Playwright is
    pointed at `no_downloads`, an empty folder, for its own browsers: a launch without Debian's
    executable would fail there, never run a downloaded browser."""
    executable = require_chromium()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(no_downloads))
        patch.setenv("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            try:
                yield patient(browser)
            finally:
                browser.close()


def patient(browser: Browser) -> Browser:
    """The browser, every context and page it opens waiting up to `PATIENCE_MS` for what it waits
    for (Playwright's own default is 30 s: short on a loaded machine)."""
    new_context, new_page = browser.new_context, browser.new_page

    def patient_context(*args: Any, **kwargs: Any) -> BrowserContext:
        context = new_context(*args, **kwargs)
        context.set_default_timeout(PATIENCE_MS)
        context.set_default_navigation_timeout(PATIENCE_MS)
        return context

    def patient_page(*args: Any, **kwargs: Any) -> Page:
        page = new_page(*args, **kwargs)
        page.context.set_default_timeout(PATIENCE_MS)
        page.context.set_default_navigation_timeout(PATIENCE_MS)
        return page

    setattr(browser, "new_context", patient_context)  # noqa: B010 - an instance's own method, patched
    setattr(browser, "new_page", patient_page)  # noqa: B010
    return browser


# A phone held upright, and a desk's screen.
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}

# What must never be off-screen on a phone: every part of a form, every refusal reason, every
# table's key column, every link; and the page must not scroll sideways.
OFF_SCREEN = """() => {
  const width = window.innerWidth;
  const needed = 'input:not([type=hidden]), select, textarea, button, label, .problem, th[scope=row], a';
  const off = [];
  for (const element of document.querySelectorAll(needed)) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;  // not shown (display: none)
    if (box.right > width + 0.5) {
      const named = (element.id || element.textContent || '').trim().slice(0, 60);
      off.push(`${element.tagName.toLowerCase()} "${named}" ends at ${Math.round(box.right)}px`);
    }
  }
  return {width, scrolled: document.documentElement.scrollWidth, off};
}"""


def fits(page: Page, name: str, shots: Path, screen: dict[str, int] = PHONE) -> None:
    """The page at 390 px (or the `screen` given), once loaded whole (a click's navigation has only
    begun when the click returns): screenshot taken, nothing needed off-screen, no sideways
    scroll."""
    page.wait_for_load_state("load")
    page.wait_for_function("document.readyState === 'complete'")
    seen = page.evaluate(OFF_SCREEN)
    device = "phone" if screen is PHONE else f"w{screen['width']}"
    page.screenshot(path=str(shots / f"{device}-{name}.png"), full_page=True)
    assert seen["width"] == screen["width"], seen
    assert seen["scrolled"] <= seen["width"] and not seen["off"], (name, seen)


def submit(control: Locator) -> None:
    """Click a form's button or a link, and wait until the page it brings has loaded whole. A
    click returns once the navigation has begun: the new page may not be parsed to its end yet
    (fewer rows than it will have), and a read straight after could even see the old one."""
    with control.page.expect_navigation(wait_until="load"):
        control.click()


def field(page: Page, label: str) -> Locator:
    return page.get_by_label(label, exact=True)


def sign_in(
    browser: Browser, base: str, key: str, shots: Path | None = None, screen: dict[str, int] = PHONE
) -> Page:
    page = browser.new_context(viewport=screen).new_page()
    page.goto(f"{base}/console/sign-in")
    if shots is not None:
        fits(page, "sign-in", shots)
    field(page, "API key").fill(key)
    submit(page.get_by_role("button", name="Sign in"))
    page.wait_for_url(f"{base}/console/")  # the home page loaded before it is measured
    return page
