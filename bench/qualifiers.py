"""Benchmark: season-wide playoff qualification (R12-R14) for a national league.

400 venues in 20 regions, 30,000 players, 12 weekly tournaments of 25 entrants at every venue
(120,000 results; travellers make double qualifiers), loaded in bulk on a scratch database
(SQLite by default; pass a PostgreSQL URL as the first argument). Prints its figures beside a
venue's standings at the same scale; it does not judge them: compare ratios within one run.

    .venv/bin/python bench/qualifiers.py
    .venv/bin/python bench/qualifiers.py postgresql+psycopg://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import tracemalloc
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from app import create_app  # noqa: E402
from bench.scratch import scratch_database, today  # noqa: E402
from models.entities import Player, Region, Report, Result, Season, Venue  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402
from models.rules.charts import DEFAULT_CHART  # noqa: E402
from models.rules.reports import score_report  # noqa: E402
from models.services.qualifiers.lists import compute_lists  # noqa: E402
from models.services.standings.lines import rebuild_lines  # noqa: E402

REGIONS, VENUES, PLAYERS, WEEKS, ENTRANTS, TRAVELLERS = 20, 400, 30_000, 12, 25, 3


def load(app: Any, rng: random.Random) -> int:
    """The league, in bulk (the services would take minutes for 30,000 players)."""
    session = app.extensions["league_db"].sessionmaker()
    start = today() - timedelta(weeks=WEEKS + 2)
    session.execute(insert(Region), [{"id": r + 1, "name": f"Region {r + 1}"} for r in range(REGIONS)])
    session.execute(
        insert(Venue),
        [
            {"id": v + 1, "name": f"Venue {v + 1}", "region_id": v % REGIONS + 1, "active": True}
            for v in range(VENUES)
        ],
    )
    season = Season(
        name="National", starts_on=start, ends_on=start + timedelta(weeks=WEEKS), all_regions=True
    )
    session.add(season)
    session.flush()
    born = date(1970, 1, 1)
    session.execute(
        insert(Player),
        [
            {
                "id": p + 1,
                "full_name": f"Player {p + 1}",
                "display_name": f"Player {p + 1}",
                "name_key": f"player {p + 1}",
                "display_key": f"player {p + 1}",
                "date_of_birth": born + timedelta(days=p % 9000),
                "home_venue_id": p % VENUES + 1,
            }
            for p in range(PLAYERS)
        ],
    )
    regulars = {v: [p for p in range(v, PLAYERS + 1, VENUES)] for v in range(1, VENUES + 1)}
    reports, results = [], []
    tournament_id = 0
    for week in range(WEEKS):
        for venue in range(1, VENUES + 1):
            field = rng.sample(regulars[venue], ENTRANTS - TRAVELLERS)
            field += [p for p in rng.sample(range(1, PLAYERS + 1), TRAVELLERS) if p not in field]
            tournament_id += 1
            reports.append(
                {
                    "id": tournament_id,
                    "venue_id": venue,
                    "season_id": season.id,
                    "date": start + timedelta(weeks=week, days=venue % 7),
                    "session": 1,
                    "kind": "regular",
                    "entrants": len(field),
                    "version": 1,
                    "reported_by": "bench",
                }
            )
            earned = score_report(
                DEFAULT_CHART, [(place, "played") for place in range(1, len(field) + 1)], 0, False
            )
            results += [
                {
                    "tournament_id": tournament_id,
                    "player_id": player,
                    "place": place,
                    "status": "played",
                    "placement_points": points.placement_points,
                    "participation_points": 0,
                    "points": points.points,
                }
                for place, (player, points) in enumerate(zip(field, earned, strict=True), start=1)
            ]
    session.execute(insert(Report), reports)
    for chunk in range(0, len(results), 20_000):
        session.execute(insert(Result), results[chunk : chunk + 20_000])
    rebuild_lines(session, [season.id])  # results loaded in bulk: their standing lines too
    session.commit()
    season_id = season.id
    session.close()
    return season_id


def main() -> None:
    with scratch_database(sys.argv[1] if len(sys.argv) > 1 else None) as url:
        upgrade(alembic_config(url))
        app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False, "LOG_LEVEL": "WARNING"})
        began = time.perf_counter()
        season_id = load(app, random.Random(11))
        loaded = time.perf_counter() - began
        session = app.extensions["league_db"].sessionmaker()
        season = session.get(Season, season_id)
        times = []
        for _ in range(3):
            began = time.perf_counter()
            lists = compute_lists(session, season)
            times.append(time.perf_counter() - began)
        tracemalloc.start()
        compute_lists(session, season)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        session.close()
        qualified = sum(len(v["qualifiers"]) for v in lists)
        elsewhere = sum(1 for v in lists for s in v["skipped"] if s["reason"] == "qualified_elsewhere")
        client = app.test_client()
        season_path = f"/api/v1/seasons/{season_id}/qualifiers"
        venue_path = f"/api/v1/seasons/{season_id}/venues/1/qualifiers"
        standings_path = f"/api/v1/seasons/{season_id}/venues/1/standings"

        def timed(path: str, repeat: int) -> float:
            samples = []
            for _ in range(repeat):
                start = time.perf_counter()
                response = client.get(path)
                samples.append(time.perf_counter() - start)
                assert response.status_code == 200, response.status_code
            return statistics.median(samples) * 1000

        print(f"database                          {make_url(url).get_backend_name()}")
        print(
            f"league                            {VENUES} venues, {REGIONS} regions, {PLAYERS} players, "
            f"{VENUES * WEEKS} tournaments, {len(lists)} lists"
        )
        print(f"bulk load                         {loaded:8.1f} s")
        print(
            f"qualifiers computed               {qualified} qualifiers, {elsewhere} qualified_elsewhere skips"
        )
        print(f"season-wide qualifiers (service)  {statistics.median(times) * 1000:8.0f} ms  (median of 3)")
        print(f"GET season qualifiers (JSON)      {timed(season_path, 3):8.0f} ms")
        print(f"GET one venue's qualifiers        {timed(venue_path, 3):8.0f} ms")
        print(f"GET one venue's standings         {timed(standings_path, 10):8.1f} ms  (beside: one venue)")
        print(f"GET /health                       {timed('/health', 10):8.2f} ms  (floor)")
        print(f"peak Python memory, qualifiers    {peak / 1024 / 1024:8.1f} MiB")


if __name__ == "__main__":
    main()
