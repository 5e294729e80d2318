"""The docs' pictures (docs/console.md, docs/website.md), taken by headless Chromium from the demo
league: the standings page other websites frame (light on a desktop, dark on a phone), and the
web console on a phone (390 px wide): a host's spreadsheet previewed, and refused for a suspended
player and an email no one has, each reason under its row; the live page of the demo's night in
progress, on a TV and on a phone; the league's own site (R24) on a phone: its front page, a
venue, a player and a night's result (docs/website.md).

    .venv/bin/python scripts/screenshots.py          # docs/embed-*.png, console-*, night-*, site-*
    .venv/bin/python scripts/screenshots.py console  # only docs/console-*.png (or: embed, night, site)
    .venv/bin/python scripts/screenshots.py setup    # docs/setup/: a league set up in the console

`setup` runs tests/browser/test_setting_up_a_league.py on SQLite with its screenshots sent to
docs/setup/: a new league's every step at 390 px, from an empty database to its first report.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from app import create_app  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402
from tests.support.browser import CHROMIUM_ARGS  # noqa: E402

SHOTS = {
    # name: (query, viewport width, height)
    "standings": ("?rows=8&players=5", 760, 600),
    "standings-dark-phone": ("?rows=5&players=5&theme=dark", 390, 600),
}
SIZES = {f"embed-{name}": (width, height) for name, (_query, width, height) in SHOTS.items()}
# The console as a host holds a phone at the bar: 390 × 844.
SIZES.update({"console-preview": (390, 844), "console-refused": (390, 844)})
# The live night page (R22) on a venue's TV and on a phone.
SIZES.update({"night-tv": (1920, 1080), "night-phone": (390, 844)})
# The league's own site (R24) on a phone; a long page is cut to its first screens.
SIZES.update({f"site-{name}": (390, 844) for name in ("front", "venue", "player", "night")})
SITE_HEIGHT = 1600
SITE_VENUE = "Dockside Tap"  # one of the demo's venues
UNKNOWN_EMAIL = "sam.the.new.regular@dockside-tap-quiz-night.example.org"


def console_pages(client: Any, key: str) -> dict[str, str]:
    """The console as a host at the demo's Dockside Tap sees it: tonight's sheet previewed, and
    the same sheet refused once it names a suspended player (the demo has one)."""

    def token(page: Any) -> str:
        return re.search(
            r'name="csrf_token" type="hidden" value="([^"]+)"', page.get_data(as_text=True)
        ).group(1)

    client.post("/console/sign-in", data={"key": key, "csrf_token": token(client.get("/console/sign-in"))})
    standings = client.get("/api/v1/seasons/1/venues/3/standings").get_json()["standings"]
    rows = [row["player"]["id"] for row in standings[:8]]
    listed = client.get("/api/v1/sanctions?kind=suspension", headers={"Authorization": f"Bearer {key}"})
    suspended = listed.get_json()["items"][0]["player_id"]
    shots = {}
    refused = [*rows[:3], suspended, *rows[3:5], UNKNOWN_EMAIL]
    for name, players in (("console-preview", rows), ("console-refused", refused)):
        sheet = "place,player_id,email\n" + "".join(
            f"{place},{pid},\n" if isinstance(pid, int) else f"{place},,{pid}\n"
            for place, pid in enumerate(players, 1)
        )
        form = client.get("/console/venues/3/report")
        data = {
            "csrf_token": token(form),
            "date": date.today().isoformat(),
            "session": "3",
            "kind": "regular",
            "pasted": sheet,
        }
        shots[name] = client.post("/console/venues/3/report", data=data).get_data(as_text=True)
    return shots


def site_pages(client: Any) -> dict[str, str]:
    """The site as a player at the demo's Dockside Tap reads it: the front page, the venue, its
    leader, and its latest night's result."""
    venues = client.get("/api/v1/venues").get_json()["items"]
    venue = next(v["id"] for v in venues if v["name"] == SITE_VENUE)
    season = client.get("/api/v1/seasons").get_json()["items"][0]["id"]
    standings = client.get(f"/api/v1/seasons/{season}/venues/{venue}/standings").get_json()["standings"]
    nights = client.get(f"/api/v1/tournaments?venue_id={venue}").get_json()["items"]
    latest = max(nights, key=lambda night: (night["date"], night["session"], night["id"]))
    paths = {
        "site-front": "/",
        "site-venue": f"/venues/{venue}",
        "site-player": f"/players/{standings[0]['player']['id']}",
        "site-night": f"/results/{latest['id']}",
    }
    return {
        name: client.get(path, headers={"Accept": "text/html"}).get_data(as_text=True)
        for name, path in paths.items()
    }


def setup_path() -> None:
    """The setup path's pictures, as the browser test takes them (docs/setup/phone-setup-*.png)."""
    shots = ROOT / "docs" / "setup"
    env = {**os.environ, "TEST_BACKENDS": "sqlite", "SETUP_SCREENSHOTS": str(shots), "PYTHONPATH": str(ROOT)}
    test = "tests/browser/test_setting_up_a_league.py"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", test],
        cwd=ROOT,
        env=env,
        check=True,
    )
    print(f"wrote {len(list(shots.glob('phone-setup-*.png')))} pictures to docs/setup/")


def main(wanted: list[str]) -> None:
    if wanted == ["setup"]:
        setup_path()
        return
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("needs Debian's chromium (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as work:
        url = f"sqlite:///{work}/demo.db"
        upgrade(alembic_config(url))
        flask = Path(sys.executable).parent / "flask"
        subprocess.run(
            [str(flask), "--app", "app", "demo", "load"],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": url},
            check=True,
        )
        made = subprocess.run(
            [
                str(flask),
                "--app",
                "app",
                "keys",
                "create",
                "--role",
                "host",
                "--venue",
                "3",
                "--name",
                "Host: Dockside",
            ],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": url},
            check=True,
            capture_output=True,
            text=True,
        )
        host_key = made.stdout.strip().splitlines()[-1]
        client = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False, "TESTING": True}).test_client()
        pages = {
            f"embed-{name}": client.get(f"/embed/seasons/1/venues/3/standings{query}").get_data(as_text=True)
            for name, (query, _w, _h) in SHOTS.items()
        }
        pages.update(console_pages(client, host_key))
        # The demo's night in progress (its second venue); drawn without its script, which would
        # ask a server this copy of the page does not come from.
        live = client.get("/embed/venues/2/night").get_data(as_text=True)
        live = re.sub(r"<script>.*?</script>", "", live, flags=re.S)
        pages.update({"night-tv": live, "night-phone": live})
        pages.update(site_pages(client))
        pages = {name: page for name, page in pages.items() if not wanted or name.split("-")[0] in wanted}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            for name, html in pages.items():
                width, height = SIZES.get(name, (760, 600))
                page = browser.new_page(viewport={"width": width, "height": height})
                page.set_content(html, wait_until="load")
                shot = ROOT / "docs" / f"{name}.png"
                if name.startswith("site-"):  # the first screens of a long page: a small file
                    tall = page.evaluate("document.documentElement.scrollHeight")
                    clip = {"x": 0, "y": 0, "width": width, "height": min(tall, SITE_HEIGHT)}
                    page.screenshot(path=str(shot), full_page=True, clip=clip)
                else:
                    page.screenshot(path=str(shot), full_page=True)
                page.close()
                print(f"wrote docs/{name}.png")
            browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])
