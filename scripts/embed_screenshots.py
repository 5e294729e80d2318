"""The README's pictures of the pages for other websites: the demo league's standings page
(light, on a desktop; dark, on a phone), framed as a pub's site would, taken by headless Chromium.

    .venv/bin/python scripts/embed_screenshots.py          # writes docs/embed-*.png
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from app import create_app  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402
from tests.browser.conftest import CHROMIUM_ARGS  # noqa: E402

SHOTS = {
    # file: (query, viewport width, height)
    "embed-standings.png": ("?rows=8&players=5", 760, 600),
    "embed-standings-dark-phone.png": ("?rows=5&players=5&theme=dark", 390, 600),
}


def main() -> None:
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
        client = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False, "TESTING": True}).test_client()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            for name, (query, width, height) in SHOTS.items():
                html = client.get(f"/embed/seasons/1/venues/3/standings{query}").get_data(as_text=True)
                page = browser.new_page(viewport={"width": width, "height": height})
                page.set_content(html, wait_until="load")
                page.screenshot(path=str(ROOT / "docs" / name), full_page=True)
                page.close()
                print(f"wrote docs/{name}")
            browser.close()


if __name__ == "__main__":
    main()
