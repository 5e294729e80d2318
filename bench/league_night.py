"""Load test: a league night at national scale, driven by Locust against real gunicorn.

The league is bench/national.py's (400 venues, 30,000 players, four past seasons in bulk and a
current season posted through the API, about 500,000 results; `--scale` shrinks it). Then, for
`--minutes` (10), Locust runs headless against 127.0.0.1 only (bench/league_night_users.py):

- hosts post `--reports` (400) reports, each at its own venue, 8-40 entrants, on a fixed pace,
  with a few corrections (4%) and voids (2%), and read back at once what each write changed
  (standings, the season's lists, the winner's profile, the report): a failure "fresh: …" when an
  answer does not show the write;
- the website reads at a fixed `--rate` (40 requests a second): standings 35%, profiles 25%,
  season and venue qualifiers 10%, pages of reports 10%, embed pages 10%, games and ratings 10%.

It prints, per kind of request, the count, errors and p50/p95/p99 as Locust's clients saw them and
as the service's own request log timed them, and the throughput held; a Markdown table with
--markdown; JSON in bench/results/league_night.json. Bounded in time (--minutes, plus a margin)
and in requests (--max-requests). It does not judge the figures; the targets are printed beside.

    .venv/bin/python bench/league_night.py --markdown                          # both databases
    .venv/bin/python bench/league_night.py --scale 0.1 --minutes 2 --databases sqlite   # a smoke run
    .venv/bin/python bench/league_night.py --databases sqlite --cache-url redis://127.0.0.1:6379/0 \
        --out bench/results/league_night_redis.json          # the workers sharing answers in Redis
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.national import (  # noqa: E402
    BenchFailure,
    Client,
    League,
    Report,
    bulk_history,
    bulk_league,
    create_keys,
    draw_field,
    generate,
    load_season,
    percentile,
    progress,
    serve,
)
from bench.scratch import scratch_database, today  # noqa: E402
from models.infra.db import make_engine  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
CORRECTIONS, VOIDS = 0.04, 0.02  # shares of tonight's reports corrected, voided
WEB_USERS = 40
PROFILED_PLAYERS = 2000  # the players whose profiles the website reads
READ_TARGET_P99, WRITE_TARGET_P99 = 50.0, 100.0  # ms
WRITES = ("report", "correction", "void")
# The service's request log names a path, not a request kind: these say which kind it was.
KINDS = (
    ("report", "POST", re.compile(r"^/api/v1/tournaments$")),
    ("correction", "PUT", re.compile(r"^/api/v1/tournaments/\d+$")),
    ("void", "POST", re.compile(r"^/api/v1/tournaments/\d+/void$")),
    ("report read", "GET", re.compile(r"^/api/v1/tournaments/\d+$")),
    ("standings", "GET", re.compile(r"^/api/v1/seasons/\d+/venues/\d+/standings$")),
    ("qualifiers (venue)", "GET", re.compile(r"^/api/v1/seasons/\d+/venues/\d+/qualifiers$")),
    ("qualifiers (season)", "GET", re.compile(r"^/api/v1/seasons/\d+/qualifiers$")),
    ("profile", "GET", re.compile(r"^/api/v1/players/\d+$")),
    ("reports page", "GET", re.compile(r"^/api/v1/tournaments$")),
    ("embed standings", "GET", re.compile(r"^/embed/seasons/\d+/venues/\d+/standings$")),
    ("embed games", "GET", re.compile(r"^/embed/regions/\d+/games$")),
    ("games", "GET", re.compile(r"^/api/v1/games$")),
    ("ratings", "GET", re.compile(r"^/api/v1/ratings$")),
)


def tonight(league: League, reports: int, rng: random.Random) -> tuple[list[Report], list[tuple[str, int]]]:
    """Tonight's reports (each at its own venue, session 2: the season's own are session 1) and the
    host's schedule of writes: each correction and void a few writes after its report."""
    venues = rng.sample(sorted(league.venue_region), min(reports, len(league.venue_region)))
    day = today()
    planned = [Report(venue, day, 2, tuple(draw_field(rng, league, venue))) for venue in venues]
    schedule: list[tuple[str, int]] = [("report", index) for index in range(len(planned))]
    changed = rng.sample(range(len(planned)), round(len(planned) * (CORRECTIONS + VOIDS)))
    corrected = set(changed[: round(len(planned) * CORRECTIONS)])
    for index in sorted(changed, reverse=True):
        at = min(len(schedule), schedule.index(("report", index)) + rng.randint(3, 15))
        schedule.insert(at, ("correct" if index in corrected else "void", index))
    return planned, schedule


def write_plan(
    path: Path,
    args: argparse.Namespace,
    league: League,
    season_id: int,
    keys: dict[int, str],
    planned: list[Report],
    schedule: list[tuple[str, int]],
    ratings: bool,
) -> None:
    before = Counter(report.venue_id for report in league.current)
    rng = random.Random(args.seed + 2)
    players = sorted(league.home)
    plan = {
        "season_id": season_id,
        "venues": sorted(league.venue_region),
        "regions": list(range(1, league.regions + 1)),
        "players": rng.sample(players, min(PROFILED_PLAYERS, len(players))),
        "host_keys": {str(venue): key for venue, key in keys.items()},
        "tournaments_before": {str(venue): before.get(venue, 0) for venue in league.venue_region},
        "tonight": [report.body() for report in planned],
        "schedule": schedule,
        "pace": args.minutes * 60 / (len(schedule) + 1),
        "rate": args.rate,
        "web_users": WEB_USERS,
        "ratings": ratings,
        "max_requests": args.max_requests,
    }
    path.write_text(json.dumps(plan))


def run_locust(port: int, plan: Path, minutes: float, work_dir: Path, database: str) -> Path:
    """Locust, headless, bounded by --run-time (and the plan's max_requests); its CSV prefix."""
    prefix = work_dir / f"locust-{database}"
    locust = Path(sys.executable).parent / "locust"
    command = [
        str(locust),
        "-f",
        str(ROOT / "bench" / "league_night_users.py"),
        "--headless",
        "--host",
        f"http://127.0.0.1:{port}",
        "--users",
        str(WEB_USERS + 1),
        "--spawn-rate",
        str(WEB_USERS + 1),
        "--run-time",
        f"{math.ceil(minutes * 60)}s",
        "--stop-timeout",
        "10",
        "--csv",
        str(prefix),
        "--only-summary",
        "--loglevel",
        "WARNING",
    ]
    env = {**os.environ, "LEAGUE_NIGHT_PLAN": str(plan)}
    with (work_dir / f"locust-{database}.log").open("wb") as log:
        finished = subprocess.run(
            command, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=minutes * 60 + 120, check=False
        )
    # Locust exits 1 when any request failed: that is a figure, not a failure of the run.
    if finished.returncode not in (0, 1) or not Path(f"{prefix}_stats.csv").exists():
        tail = (work_dir / f"locust-{database}.log").read_text(errors="replace")[-3000:]
        raise BenchFailure(f"locust exited {finished.returncode}:\n{tail}")
    return prefix


def client_figures(prefix: Path) -> dict[str, dict[str, float]]:
    """Locust's own figures per request name: count, failures, p50/p95/p99 (ms)."""
    figures: dict[str, dict[str, float]] = {}
    with open(f"{prefix}_stats.csv", newline="") as stats:
        for row in csv.DictReader(stats):
            if row["Name"] == "Aggregated":
                continue
            figures[row["Name"]] = {
                "count": int(row["Request Count"]),
                "errors": int(row["Failure Count"]),
                "p50": float(row["50%"] or 0),
                "p95": float(row["95%"] or 0),
                "p99": float(row["99%"] or 0),
                "per_s": float(row["Requests/s"] or 0),
            }
    return figures


def failures(prefix: Path) -> list[str]:
    with open(f"{prefix}_failures.csv", newline="") as rows:
        return [f"{row['Name']}: {row['Error']} (×{row['Occurrences']})" for row in csv.DictReader(rows)]


def server_figures(log_path: Path, since: float) -> dict[str, dict[str, float]]:
    """The service's request log (one JSON line a request), from `since` on: p50/p95/p99 per kind."""
    timings: dict[str, list[float]] = defaultdict(list)
    statuses: dict[str, Counter[int]] = defaultdict(Counter)
    for line in log_path.read_text(errors="replace").splitlines():
        if not line.startswith("{"):
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if (
            "ms" not in entry
            or datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).timestamp() < since
        ):
            continue
        kind = next(
            (name for name, method, path in KINDS if entry["method"] == method and path.match(entry["path"])),
            None,
        )
        if kind is not None:
            timings[kind].append(float(entry["ms"]))
            statuses[kind][int(entry["status"])] += 1
    return {
        kind: {
            "count": len(samples),
            "server_errors": sum(n for status, n in statuses[kind].items() if status >= 500),
            "p50": percentile(samples, 0.50),
            "p95": percentile(samples, 0.95),
            "p99": percentile(samples, 0.99),
        }
        for kind, samples in timings.items()
    }


def run_database(
    url: str, database: str, league: League, args: argparse.Namespace, work_dir: Path
) -> dict[str, Any]:
    upgrade(alembic_config(url))
    engine = make_engine(url)
    bulk_league(engine, league)
    office, hosts = create_keys(engine, sorted(league.venue_region))
    log_path = work_dir / f"gunicorn-{database}.log"
    with serve(url, args.workers, log_path, threads=args.threads) as server:
        client = Client(server.port)
        starts_on, ends_on = league.seasons[-1]
        season, _ms = client.post(
            "/api/v1/seasons",
            {"name": "National", "starts_on": starts_on.isoformat(), "ends_on": ends_on.isoformat()},
            office,
        )
    progress(database, "loading history in bulk")
    bulk_history(engine, league)
    engine.dispose()
    rng = random.Random(args.seed + 1)
    planned, schedule = tonight(league, args.reports, rng)
    with serve(url, args.workers, log_path, threads=args.threads) as server:
        client = Client(server.port)
        progress(database, f"posting the current season's {len(league.current)} reports")
        load_season(client, league.current, office, args.workers, database)
        for history_id in range(1, len(league.history) + 1):
            client.post(f"/api/v1/seasons/{history_id}/qualifiers/publish", {}, office)
        status, _body, _ms = client.call("GET", "/api/v1/ratings")
        plan = work_dir / f"plan-{database}.json"
        write_plan(plan, args, league, season["id"], hosts, planned, schedule, ratings=status == 200)
        progress(
            database,
            f"league night: {len(planned)} reports, {len(schedule) - len(planned)} corrections "
            f"and voids, {args.rate} reads/s for {args.minutes} min",
        )
        began = time.time()
        prefix = run_locust(server.port, plan, args.minutes, work_dir, database)
        held = time.time() - began
        peak_mb = server.worker_peak_mb()
    clients = client_figures(prefix)
    reads = sum(
        figures["count"]
        for name, figures in clients.items()
        if name not in WRITES and not name.startswith("fresh:")
    )
    return {
        "client": clients,
        "server": server_figures(log_path, began),
        "failures": failures(prefix),
        "reads_per_s": round(reads / held, 1),
        "seconds": round(held, 1),
        "peak_worker_mb": round(peak_mb, 1),
    }


def table(results: dict[str, dict[str, Any]], markdown: bool) -> str:
    rows = [
        [
            "request",
            "database",
            "count",
            "errors",
            "client p50",
            "p95",
            "p99",
            "service p50",
            "p95",
            "p99",
            "target p99",
        ]
    ]
    for database, result in results.items():
        for name, figures in sorted(
            result["client"].items(), key=lambda item: (item[0].startswith("fresh"), item[0])
        ):
            served = result["server"].get(name, {})
            target = (
                ""
                if name.startswith("fresh")
                else (f"≤ {WRITE_TARGET_P99:g}" if name in WRITES else f"≤ {READ_TARGET_P99:g}")
            )
            rows.append(
                [
                    name,
                    database,
                    str(figures["count"]),
                    str(figures["errors"]),
                    *(f"{figures[p]:.0f}" for p in ("p50", "p95", "p99")),
                    *(f"{served[p]:.1f}" if served else "" for p in ("p50", "p95", "p99")),
                    target,
                ]
            )
        rows.append(
            [
                f"reads/s held ({result['seconds']:.0f} s)",
                database,
                f"{result['reads_per_s']}",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
            ]
        )
        rows.append(
            [
                "peak worker memory (MB)",
                database,
                f"{result['peak_worker_mb']}",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
            ]
        )
    if markdown:
        lines = ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join("---" for _ in rows[0]) + " |"]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows[1:]])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) for row in rows
    )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--scale", type=float, default=1.0, help="shrinks the league (as bench/national.py)")
    parser.add_argument("--databases", default="sqlite,postgresql", help="comma-separated: sqlite,postgresql")
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker")
    parser.add_argument("--minutes", type=float, default=10.0, help="how long the night lasts")
    parser.add_argument("--reports", type=int, default=400, help="tonight's reports, each at its own venue")
    parser.add_argument("--rate", type=float, default=40.0, help="the website's reads per second")
    parser.add_argument("--max-requests", type=int, default=100_000, help="the run stops at this many")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "league_night.json")
    parser.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    parser.add_argument(
        "--cache-url",
        default="",
        help="the workers' shared answer cache (CACHE_URL, e.g. redis://127.0.0.1:6379/0); else each its own",
    )
    args = parser.parse_args()
    args.databases = [name.strip() for name in args.databases.split(",") if name.strip()]
    if set(args.databases) - {"sqlite", "postgresql"} or not args.databases:
        parser.error("--databases: sqlite and/or postgresql")
    if not 0 < args.minutes <= 60 or not 0 < args.rate <= 500:
        parser.error("--minutes: 0-60; --rate: 0-500 (the run is bounded)")
    return args


def main() -> None:
    args = parse_args()
    # gunicorn's workers are given this environment: the cache is the one asked for, or none shared.
    if args.cache_url:
        os.environ["CACHE_URL"] = args.cache_url
    else:
        os.environ.pop("CACHE_URL", None)
    league = generate(args.seed, args.scale)
    progress("league", json.dumps(league.counts()))
    results: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="league-night-") as work:
        for database in args.databases:
            postgres = args.postgres_url if database == "postgresql" else None
            try:
                with scratch_database(postgres) as url:
                    results[database] = run_database(url, database, league, args, Path(work))
            except BenchFailure as failure:
                problems.append(f"{database}: {failure}")
                print(f"FAILED {problems[-1]}", file=sys.stderr, flush=True)
    if not results:
        sys.exit("\n".join(problems))
    report = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": args.seed,
        "scale": args.scale,
        "workers": args.workers,
        "threads": args.threads,
        "cache": "shared (CACHE_URL)" if args.cache_url else "each worker its own",
        "minutes": args.minutes,
        "rate": args.rate,
        "league": league.counts(),
        "databases": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(table(results, markdown=False))
    if args.markdown:
        print()
        print(table(results, markdown=True))
    for database, result in results.items():
        for failure in result["failures"]:
            print(f"{database}: {failure}")
    print(f"\nwritten to {args.out}")
    if problems:
        sys.exit("\n".join(problems))


if __name__ == "__main__":
    main()
