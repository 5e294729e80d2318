"""Benchmark: what a venue's schedule costs the public answers built from it (R2, R2a), in-process
on a scratch database.

A region of two venues: the Crown, a normal league (two sessions on Tuesday, Thursday and Friday
nights), and the Mill, whose schedule was stored before schedules were bounded: a night at every
minute of every weekday (10,080), written straight into the database as such old data would be.
Then every public answer built from schedules is read once each, the answer cache emptied before
each read, so each is computed: the Mill's and the region's calendar feeds, the region's embedded
games page, the region's `GET /games` (this week, and 92 days at 500 a page), the Mill's venue
answer and the region's list of venues. Then a second region of `--full-venues` (20) venues, each with
the most a schedule now holds (3 nights on every weekday, 21 a week): its calendar feed, its
games page and its games of this week. Prints, per answer, the status, the wall and CPU
milliseconds of this process (the database's own work is in it on SQLite, not on PostgreSQL),
the bytes answered and the events of a feed. It does not judge the figures.

    .venv/bin/python bench/schedules.py                     # SQLite
    .venv/bin/python bench/schedules.py postgresql+psycopg://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/schedules.py --minutes 60        # a night every hour: a quicker run
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert  # noqa: E402

from app import create_app  # noqa: E402
from bench.scratch import scratch_database, today  # noqa: E402
from models.actor import SYSTEM  # noqa: E402
from models.entities import VenueGame  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402
from models.services.api_keys.writes import create_key  # noqa: E402

NORMAL = [{"weekday": day, "starts_at": "19:30", "sessions": 2} for day in (2, 4, 5)]
FULL = [{"weekday": day, "starts_at": start} for day in range(1, 8) for start in ("15:00", "19:00", "21:30")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", nargs="?", help="a PostgreSQL URL (default: an SQLite file)")
    parser.add_argument("--minutes", type=int, default=1, help="minutes between the Mill's nights (1)")
    parser.add_argument("--full-venues", type=int, default=20, help="venues of the full region (20)")
    options = parser.parse_args()
    os.environ.setdefault("REQUEST_LOG", "0")  # the figures, not a log line per request
    with scratch_database(options.database) as url:
        upgrade(alembic_config(url))
        app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False, "LOG_LEVEL": "WARNING"})
        db = app.extensions["league_db"]
        with db.sessionmaker() as session, session.begin():
            _key, secret = create_key(session, SYSTEM, "Office: bench", "office", [])
        client = app.test_client()
        office = {"Authorization": f"Bearer {secret}"}

        def call(method: str, path: str, body: Any = None, status: int = 200) -> Any:
            response = client.open(path, method=method, json=body, headers=office)
            assert response.status_code == status, response.get_data(as_text=True)
            return response.get_json()

        region = call("POST", "/api/v1/regions", {"name": "Bench"}, 201)["id"]
        day = today()
        season = {
            "name": "Bench season",
            "starts_on": (day - timedelta(days=60)).isoformat(),
            "ends_on": (day + timedelta(days=120)).isoformat(),
        }
        call("POST", "/api/v1/seasons", season, 201)
        crown = call("POST", "/api/v1/venues", {"name": "The Crown", "region_id": region}, 201)["id"]
        call("PUT", f"/api/v1/venues/{crown}/schedule", {"schedule": NORMAL})
        mill = call("POST", "/api/v1/venues", {"name": "The Mill", "region_id": region}, 201)["id"]
        rows = [
            {"venue_id": mill, "weekday": weekday, "starts_at": f"{m // 60:02d}:{m % 60:02d}", "sessions": 1}
            for weekday in range(1, 8)
            for m in range(0, 24 * 60, options.minutes)
        ]
        with db.sessionmaker() as session, session.begin():
            session.execute(insert(VenueGame), rows)
        full = call("POST", "/api/v1/regions", {"name": "Full"}, 201)["id"]
        for number in range(options.full_venues):
            venue = call("POST", "/api/v1/venues", {"name": f"Full {number}", "region_id": full}, 201)["id"]
            call("PUT", f"/api/v1/venues/{venue}/schedule", {"schedule": FULL})
        print(f"database: {url.split(':')[0]}; the Mill's stored schedule: {len(rows):,} nights")
        first, last = day - timedelta(days=day.weekday()), day - timedelta(days=day.weekday()) + timedelta(91)
        reads = [
            ("venue calendar.ics (the Mill)", f"/api/v1/venues/{mill}/calendar.ics"),
            ("region calendar.ics", f"/api/v1/regions/{region}/calendar.ics"),
            ("embedded games page (region)", f"/embed/regions/{region}/games"),
            ("GET /games (this week)", f"/api/v1/games?region_id={region}"),
            (
                "GET /games (92 days, 500 a page)",
                f"/api/v1/games?region_id={region}&from={first}&to={last}&per_page=500",
            ),
            ("GET /venues/{id} (the Mill)", f"/api/v1/venues/{mill}"),
            ("GET /venues?region_id", f"/api/v1/venues?region_id={region}"),
            (f"full region ({options.full_venues}) calendar.ics", f"/api/v1/regions/{full}/calendar.ics"),
            (f"full region ({options.full_venues}) games page", f"/embed/regions/{full}/games"),
            (
                f"full region ({options.full_venues}) GET /games",
                f"/api/v1/games?region_id={full}&per_page=500",
            ),
        ]
        print(f"{'answer':<34} {'status':>6} {'wall ms':>10} {'cpu ms':>10} {'bytes':>12} {'events':>7}")
        for name, path in reads:
            app.extensions["league_cache"].clear()
            began, cpu = time.perf_counter(), time.process_time()
            response = client.get(path)  # the public: no key
            wall, used = time.perf_counter() - began, time.process_time() - cpu
            body = response.get_data()
            events = str(body.count(b"BEGIN:VEVENT")) if path.endswith(".ics") else ""
            print(
                f"{name:<34} {response.status_code:>6} {wall * 1000:>10.1f} {used * 1000:>10.1f}"
                f" {len(body):>12,} {events:>7}"
            )


if __name__ == "__main__":
    main()
