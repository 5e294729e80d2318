"""Reads right after a write, in process, on a national league loaded in bulk.

bench/national.py's league (400 venues, 30,000 players at scale 1) with every season's reports
loaded in bulk, the current one too (about 500,000 results; none published, so a profile reads
the lists of five seasons). Then, for each kind of read, `--samples` times: a 20-player report
at one venue tonight, posted through the API, and at once the read (so computed afresh, or kept
by a version the report did not move), then the same read again (warm, from the cache). It
prints each read's p50 after the write, the p50 warm and the report's p50; GET /health is the
floor. In process (Flask's test client, no HTTP, one thread), with the garbage collector set as
gunicorn's workers set it (gunicorn.conf.py): it shows what a read costs the service, without the
network or the load of a league night (bench/league_night.py measures those).

    .venv/bin/python bench/after_write.py                          # SQLite and PostgreSQL
    .venv/bin/python bench/after_write.py --scale 0.1 --databases sqlite   # a smoke run
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402

from bench.national import bulk_history, bulk_league, create_keys, generate, progress  # noqa: E402
from bench.scratch import scratch_database  # noqa: E402
from models.infra.db import make_engine  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
VENUE, REGION = 7, 1

Reads = dict[str, Callable[[list[int]], str]]


def reads(season: int, players: list[int], other: int) -> Reads:
    """Each read, given the report's field (its winner first)."""
    someone_else = players[-1]
    return {
        "venue standings (the report's venue)": lambda f: (
            f"/api/v1/seasons/{season}/venues/{VENUE}/standings"
        ),
        "venue standings (another venue)": lambda f: f"/api/v1/seasons/{season}/venues/{other}/standings",
        "embedded standings": lambda f: f"/embed/seasons/{season}/venues/{VENUE}/standings",
        "season qualifiers": lambda f: f"/api/v1/seasons/{season}/qualifiers",
        "venue qualifiers (another venue)": lambda f: f"/api/v1/seasons/{season}/venues/{other}/qualifiers",
        "player profile (the winner)": lambda f: f"/api/v1/players/{f[0]}",
        "player profile (another player)": lambda f: (
            f"/api/v1/players/{someone_else if someone_else not in f else f[-1]}"
        ),
        "page of 50 reports (the venue's)": lambda f: f"/api/v1/tournaments?venue_id={VENUE}&per_page=50",
        "page of 50 reports (the season's, page 2)": lambda f: (
            f"/api/v1/tournaments?season_id={season}&per_page=50&page=2"
        ),
        "rating table (a region, 50)": lambda f: f"/api/v1/ratings?region_id={REGION}&per_page=50",
        "games (a region)": lambda f: f"/api/v1/games?region_id={REGION}",
        "GET /health (floor)": lambda f: "/health",
    }


class Scratch:
    """The league loaded: the office's key, the current season, the measured venue's players,
    tonight, and the sessions the venue already holds tonight."""

    def __init__(self, url: str, database: str, scale: float, seed: int) -> None:
        league = generate(seed, scale)
        upgrade(alembic_config(url))
        engine = make_engine(url)
        began = time.perf_counter()
        bulk_league(engine, league, with_current=True)
        bulk_history(engine, league, with_current=True)
        progress(database, f"league loaded in {time.perf_counter() - began:.1f} s")
        self.office, _hosts = create_keys(engine, [])
        self.season = len(league.seasons)
        self.other_venue = sorted(league.venue_region)[len(league.venue_region) * 3 // 4]
        with engine.connect() as conn:
            self.players = list(
                conn.scalars(
                    text(
                        "SELECT DISTINCT r.player_id FROM results r "
                        "JOIN tournaments t ON t.id = r.tournament_id "
                        "WHERE t.season_id = :s AND t.venue_id = :v ORDER BY r.player_id"
                    ),
                    {"s": self.season, "v": VENUE},
                )
            )
            tonight = conn.scalar(
                text("SELECT MAX(date) FROM tournaments WHERE season_id = :s"), {"s": self.season}
            )
            self.sessions = int(
                conn.scalar(
                    text(
                        "SELECT COALESCE(MAX(session), 0) FROM tournaments WHERE venue_id = :v AND date = :d"
                    ),
                    {"v": VENUE, "d": tonight},
                )
                or 0
            )
        engine.dispose()
        self.tonight = date.fromisoformat(tonight) if isinstance(tonight, str) else tonight


def measure(url: str, database: str, scale: float, seed: int, samples: int) -> dict[str, dict[str, float]]:
    scratch = Scratch(url, database, scale, seed)
    office, season, players, tonight, sessions = (
        scratch.office,
        scratch.season,
        scratch.players,
        scratch.tonight,
        scratch.sessions,
    )
    os.environ["DATABASE_URL"] = url
    from app import create_app

    client = create_app().test_client()
    headers = {"Authorization": f"Bearer {office}"}
    rng = random.Random(seed)
    posted: list[float] = []

    def write() -> list[int]:
        nonlocal sessions
        sessions += 1
        field = rng.sample(players, min(20, len(players)))
        body = {
            "venue_id": VENUE,
            "date": tonight.isoformat(),
            "session": sessions,
            "kind": "regular",
            "results": [{"place": i, "player_id": p} for i, p in enumerate(field, start=1)],
        }
        began = time.perf_counter()
        answer = client.post("/api/v1/tournaments", json=body, headers=headers)
        posted.append((time.perf_counter() - began) * 1000)
        if answer.status_code != 201:
            raise SystemExit(f"{database}: the report was refused: {answer.get_data(as_text=True)[:500]}")
        return field

    def get(path: str) -> float:
        began = time.perf_counter()
        answer = client.get(path)
        ms = (time.perf_counter() - began) * 1000
        if answer.status_code != 200:
            raise SystemExit(f"{database}: GET {path} answered {answer.status_code}")
        return ms

    kinds = reads(season, players, scratch.other_venue)
    for path in kinds.values():  # warm: every kind read once after a write
        get(path(write()))
    # As gunicorn's workers do (gunicorn.conf.py).
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)
    figures: dict[str, dict[str, float]] = {}
    for name, path in kinds.items():
        after, warm = [], []
        for _ in range(samples):
            field = write()
            after.append(get(path(field)))
            warm.append(get(path(field)))
        figures[name] = {
            "after_write_p50_ms": statistics.median(after),
            "warm_p50_ms": statistics.median(warm),
        }
        progress(database, f"{name}: {figures[name]['after_write_p50_ms']:.1f} ms after a write")
    figures["POST report 20 players"] = {"after_write_p50_ms": statistics.median(posted), "warm_p50_ms": 0.0}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "after_write.json")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    for database in [d.strip() for d in args.databases.split(",") if d.strip()]:
        with scratch_database(args.postgres_url if database == "postgresql" else None) as url:
            results[database] = measure(url, database, args.scale, args.seed, args.samples)
    databases = list(results)
    floor = {d: results[d]["GET /health (floor)"]["after_write_p50_ms"] for d in databases}
    head = "| read (p50, ms) | " + " | ".join(f"{d} after write | ×floor | warm" for d in databases) + " |"
    print(head)
    print("| --- |" + " ---: | ---: | ---: |" * len(databases))
    for name in results[databases[0]]:
        cells = []
        for d in databases:
            row = results[d][name]
            cells += [
                f"{row['after_write_p50_ms']:.1f}",
                f"{row['after_write_p50_ms'] / floor[d]:.1f}",
                f"{row['warm_p50_ms']:.2f}",
            ]
        print(f"| {name} | " + " | ".join(cells) + " |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({"scale": args.scale, "samples": args.samples, "results": results}, indent=2) + "\n"
    )


if __name__ == "__main__":
    main()
