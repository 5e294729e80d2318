"""Benchmark: the league's own site (R24) beside the API answers it shows. Each page is made from
the API's cached answers and cached itself: a warm page must cost about what a warm API answer
costs (the target: within twice), and a page computed afresh costs its answers (most of them
already cached) and its template.

The season of bench/standings.py (30 venues x 12 weeks x 25 entrants), on a scratch database
(SQLite by default; pass a PostgreSQL URL as the first argument). For each page kind: the warm
page and its main API answer (median of 30, in process), the page computed after a write (its
answers warm), and the 304. Prints a table and writes bench/results/site-<database>.json.

    .venv/bin/python bench/site.py
    .venv/bin/python bench/site.py postgresql+psycopg://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy.engine import make_url  # noqa: E402

from app import create_app  # noqa: E402
from bench.scratch import scratch_database, uptime  # noqa: E402
from bench.standings import load  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402

HTML = {"Accept": "text/html"}
RESULTS = Path(__file__).resolve().parent / "results"


def timed(client: Any, path: str, times: int, headers: dict[str, str] | None = None) -> list[float]:
    took = []
    for _ in range(times):
        began = time.perf_counter()
        response = client.get(path, headers=headers or {})
        took.append(time.perf_counter() - began)
        assert response.status_code in (200, 304), (path, response.status_code)
    return took


def ms(values: list[float]) -> float:
    return round(statistics.median(values) * 1000, 2)


def kinds(client: Any, season_id: int, venue_id: int) -> list[tuple[str, str, str]]:
    """(kind, page, the API answer it mostly shows)."""
    report = client.get(f"/api/v1/tournaments?venue_id={venue_id}&per_page=1").get_json()["items"][0]
    player = report["results"][0]["player"]["id"]
    other = report["results"][1]["player"]["id"]
    return [
        ("front page", "/", "/api/v1/games"),
        (
            "venue",
            f"/venues/{venue_id}",
            f"/api/v1/seasons/{season_id}/venues/{venue_id}/standings?per_page=500",
        ),
        ("season", f"/seasons/{season_id}", f"/api/v1/seasons/{season_id}/qualifiers"),
        ("night's result", f"/results/{report['id']}", f"/api/v1/tournaments/{report['id']}"),
        ("player", f"/players/{player}", f"/api/v1/players/{player}"),
        (
            "head-to-head",
            f"/players/{player}/against?other={other}",
            f"/api/v1/players/{player}/head-to-head?other={other}",
        ),
        ("ratings", "/ratings", "/api/v1/ratings?per_page=100"),
        (
            "venue card",
            f"/venues/{venue_id}/card.png",
            f"/api/v1/seasons/{season_id}/venues/{venue_id}/standings?per_page=5",
        ),
    ]


def main() -> None:
    with scratch_database(sys.argv[1] if len(sys.argv) > 1 else None) as url:
        upgrade(alembic_config(url))
        app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False, "LOG_LEVEL": "WARNING"})
        season_id, venue_ids, _per_report = load(app, random.Random(7))
        client = app.test_client()
        load_before = uptime()
        rows = []
        for kind, page, api in kinds(client, season_id, venue_ids[0]):
            client.get(api)
            computed = timed(client, page, 1, HTML)  # its answers warm or not: the first read
            api_warm = timed(client, api, 30)
            page_warm = timed(client, page, 30, HTML)
            etag = client.get(page, headers=HTML).headers["ETag"]
            not_modified = timed(client, page, 30, {**HTML, "If-None-Match": etag})
            rows.append(
                {
                    "kind": kind,
                    "page": page,
                    "api": api,
                    "page_first_ms": ms(computed),
                    "page_warm_ms": ms(page_warm),
                    "api_warm_ms": ms(api_warm),
                    "ratio": round(ms(page_warm) / ms(api_warm), 2),
                    "page_304_ms": ms(not_modified),
                }
            )
        backend = make_url(url).get_backend_name()
        print(f"database {backend}")
        print(
            f"{'page':16} {'first':>8} {'warm':>8} {'API warm':>9} {'ratio':>6} {'304':>7}"
            "   (ms, medians of 30)"
        )
        for row in rows:
            print(
                f"{row['kind']:16} {row['page_first_ms']:8.2f} {row['page_warm_ms']:8.2f} "
                f"{row['api_warm_ms']:9.2f} {row['ratio']:6.2f} {row['page_304_ms']:7.2f}"
            )
        RESULTS.mkdir(exist_ok=True)
        out = RESULTS / f"site-{backend}.json"
        out.write_text(
            json.dumps(
                {"database": backend, "uptime_before": load_before, "uptime_after": uptime(), "pages": rows},
                indent=2,
            )
            + "\n"
        )
        print(f"wrote {out.relative_to(RESULTS.parent.parent)}")


if __name__ == "__main__":
    main()
