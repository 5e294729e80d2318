"""Load test: a national league night on two cores, driven by Locust against real gunicorn.

The league is bench/national.py's (400 venues, 30,000 players, four past seasons and the current
one, about 500,000 results; `--scale` shrinks it), loaded in bulk, the current season too; the
stored standing lines and ratings are then rebuilt by the service's own code (as `flask --app app
standings rebuild` and `ratings rebuild` do) and the past seasons' lists published through the
API. Then, for `--minutes` (5), Locust runs headless against 127.0.0.1 only
(bench/league_night_users.py), at a lower priority (`nice -n 10`) than the service:

- `--reports` (80) live nights, each at its own venue, run through the API as a host's phone runs
  one (R22): opened early in the night, the field (8-40, about 22) signed in, the seats drawn, the
  clock started, then the bust-outs (about 20 a night, some with the knocker) spread over the
  night; the last bust-out leaves one player and the night becomes the venue's report, the 80
  reports staggered over the night. A few are then corrected (4%) or voided (2%). After each
  bust-out the host reads the live page (and every fourth time the night's answer), after each
  report, correction and void what it changed (standings, the season's lists, the winner's
  profile, the report; after the report the live page and the night's answer too): a failure
  "fresh: …" when an answer does not show the write;
- 50 live pages (a venue's TV, players' phones), each following one night as the page's own
  script does: every 5 seconds, with its ETag (a 304 while nothing changed);
- the website reads at a fixed `--rate` (40 requests a second): standings 35%, profiles 25%,
  season and venue qualifiers 10%, pages of reports 10%, embed pages 10%, games and ratings 10%.

Beside gunicorn runs the service's background worker (`flask --app app deliver`: webhooks, and the
cached answers refreshed after writes) unless `--no-refresher`. It prints how long each phase
took; per kind of request the count, errors and p50/p95/p99 as Locust's clients saw them and as
the service's own request log timed them, beside the target (reads p99 ≤ 50 ms, reports and other
writes ≤ 150 ms, server-side); the reads held each second; the CPU used by Locust, the service
and the database server; and the machine's load (`uptime`) before and after. A Markdown table
with --markdown. Each database's run writes its own JSON (bench/results/league_night-sqlite.json,
…-postgresql.json: `--out` with `{database}` in it, else the database's name is added).

Bounded: each database's run (league, load, night) stops at `--limit-minutes` (10), Locust at
--run-time and `--max-requests`, every process the bench starts has a timeout, and the load goes
to 127.0.0.1 only. A scale-1 run takes about 7 minutes a database: run each on its own.

    .venv/bin/python bench/league_night.py --databases sqlite --markdown > ln-sqlite.log 2>&1 &
    .venv/bin/python bench/league_night.py --databases postgresql --markdown > ln-pg.log 2>&1 &
    .venv/bin/python bench/league_night.py --scale 0.1 --minutes 1 --reports 10 --databases sqlite \\
        --out /tmp/ln-smoke.json                                   # a smoke run, about 2 minutes
    .venv/bin/python bench/league_night.py --databases sqlite --no-refresher   # the "before" figures
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import platform
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy.engine import make_url  # noqa: E402

from bench.national import (  # noqa: E402
    BenchFailure,
    Client,
    League,
    Server,
    bulk_history,
    bulk_league,
    create_keys,
    draw_field,
    generate,
    percentile,
    progress,
    serve,
)
from bench.scratch import scratch_database, uptime  # noqa: E402
from models.infra.db import make_engine  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
DEFAULT_OUT = ROOT / "bench" / "results" / "league_night-{database}.json"
CORRECTIONS, VOIDS = 0.04, 0.02  # shares of tonight's reports corrected, voided
WEB_USERS = 40
FOLLOWERS = 50  # live pages polling, each following one night
POLL_SECONDS = 5  # the live page's own poll (api/embed/live.py, POLL_SECONDS)
PROFILED_PLAYERS = 2000  # the players whose profiles the website reads
KNOCKER_SHARE = 0.5  # bust-outs recorded with who knocked the player out
LOCUST_NICE = 10
READ_TARGET_P99, WRITE_TARGET_P99 = 50.0, 150.0  # ms, server-side
WRITES = ("report", "correction", "void", "open night", "sign-in", "seat draw", "clock", "bust-out")
# The service's request log names a path, not a request kind. The night's actions share one path:
# their X-Request-ID says which kind each was (`ln.<kind>.<n>`); the others go by path.
ACTION_KINDS = {
    "sign-in": "sign-in",
    "seat-draw": "seat draw",
    "clock": "clock",
    "bust-out": "bust-out",
    "report": "report",  # the last bust-out: the night becomes the venue's report
}
KINDS = (
    ("open night", "POST", re.compile(r"^/api/v1/venues/\d+/nights$")),
    ("correction", "PUT", re.compile(r"^/api/v1/tournaments/\d+$")),
    ("void", "POST", re.compile(r"^/api/v1/tournaments/\d+/void$")),
    ("live page", "GET", re.compile(r"^/embed/venues/\d+/night$")),
    ("night", "GET", re.compile(r"^/api/v1/nights/\d+$")),
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
TICK = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count() or 1


# --- tonight's plan -------------------------------------------------------------------------


def plan_nights(league: League, reports: int, seconds: float, rng: random.Random) -> list[dict[str, Any]]:
    """Tonight's live nights, each at its own venue, on a timeline of seconds from the start: the
    nights end (their last bust-out, the report) evenly from 35% to 95% of the night; each opens
    in the first fifth (the earliest to end the earliest), signs its field in over the next 15%,
    draws the seats, starts the clock and records its bust-outs at random instants until its end.
    A few reports are changed a little after: corrected (4%) or voided (2%)."""
    venues = rng.sample(sorted(league.venue_region), min(reports, len(league.venue_region)))
    count = len(venues)
    ends = [seconds * (0.35 + 0.6 * k / max(1, count - 1)) for k in range(count)]
    corrected, voided = changes(count, rng)
    nights = []
    for k, venue in enumerate(venues):
        field = draw_field(rng, league, venue)  # the finishing order: the first is the one left
        end = ends[k]
        opens = rng.uniform(0.5, 1) * 0.2 * seconds * k / max(1, count - 1)
        signed = opens + 0.15 * seconds
        sign_in_at = [opens + 1 + (signed - opens - 1) * i / len(field) for i in range(len(field))]
        clock_at = signed + 1
        out_at = sorted(rng.uniform(clock_at + 1, end) for _ in range(len(field) - 2)) + [end]
        busts = []
        for number, player in enumerate(reversed(field[1:]), start=1):
            still_in = field[: len(field) - number]  # who is left once this player is out
            knocker = rng.choice(still_in) if rng.random() < KNOCKER_SHARE else None
            busts.append((player, knocker, round(out_at[number - 1], 2)))
        night: dict[str, Any] = {
            "venue": venue,
            "field": field,
            "open_at": round(opens, 2),
            "sign_in_at": [round(at, 2) for at in sign_in_at],
            "seat_at": round(signed + 0.5, 2),
            "clock_at": round(clock_at, 2),
            "busts": busts,
            "end_at": round(end, 2),
        }
        if k in corrected or k in voided:
            after = rng.uniform(0.02, 0.05) * seconds
            night["change"] = {"kind": "correct" if k in corrected else "void", "at": round(end + after, 2)}
        nights.append(night)
    return nights


def changes(count: int, rng: random.Random) -> tuple[set[int], set[int]]:
    """Which nights' reports are corrected, which voided: 4% and 2% (at least one each from ten
    nights on), of the nights ending before the last tenth (by 89% of the night: each change, 2-5%
    of the night after its report, has time to happen)."""
    corrections, voids = round(count * CORRECTIONS), round(count * VOIDS)
    if count >= 10:
        corrections, voids = max(1, corrections), max(1, voids)
    early = list(range(max(1, math.floor(count * 0.9))))
    chosen = rng.sample(early, min(len(early), corrections + voids))
    return set(chosen[:corrections]), set(chosen[corrections:])


def write_plan(
    path: Path,
    args: argparse.Namespace,
    league: League,
    season_id: int,
    keys: dict[int, str],
    nights: list[dict[str, Any]],
    ratings: bool,
    stats_out: Path,
) -> None:
    before = Counter(report.venue_id for report in league.current)
    rng = random.Random(args.seed + 2)
    players = sorted(league.home)
    # The live pages follow the nights ending last, one each (fewer nights: several on each).
    latest = sorted(nights, key=lambda night: -night["end_at"])
    plan = {
        "season_id": season_id,
        "venues": sorted(league.venue_region),
        "regions": list(range(1, league.regions + 1)),
        "players": rng.sample(players, min(PROFILED_PLAYERS, len(players))),
        "host_keys": {str(venue): key for venue, key in keys.items()},
        "tournaments_before": {str(night["venue"]): before.get(night["venue"], 0) for night in nights},
        "nights": nights,
        "followed": [latest[i % len(latest)]["venue"] for i in range(FOLLOWERS)],
        "poll_seconds": POLL_SECONDS,
        "rate": args.rate,
        "web_users": WEB_USERS,
        "ratings": ratings,
        "max_requests": args.max_requests,
        "stats_out": str(stats_out),
    }
    path.write_text(json.dumps(plan))


# --- machine figures ----------------------------------------------------------------------


def proc_stat(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after the command's name (the state first); [] when gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return []
    return text[text.rindex(")") + 2 :].split()


def children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
    except OSError:
        pass
    return found


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process, its children waited for, and its live descendants."""
    fields = proc_stat(pid)
    if not fields:
        return 0.0
    own = sum(int(fields[i]) for i in (11, 12, 13, 14)) / TICK  # utime stime cutime cstime
    return own + sum(tree_cpu_seconds(child) for child in children(pid))


def server_cpu_seconds(server: Server) -> dict[str, float]:
    figures = {"gunicorn": tree_cpu_seconds(server.process.pid)}
    if server.refresher is not None:
        figures["refresher"] = tree_cpu_seconds(server.refresher.pid)
    return figures


def postgres_cpu_seconds() -> float | None:
    """Every `postgres` process's CPU seconds (the server's backends, and those it waited for):
    None when no such process is in sight (another machine, or a container)."""
    total, seen = 0.0, False
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if name == "postgres":
            fields = proc_stat(int(entry.name))
            if fields:
                seen = True
                total += sum(int(fields[i]) for i in (11, 12, 13, 14)) / TICK
    return total if seen else None


def machine_ticks() -> tuple[int, int]:
    """(busy, all) jiffies of the whole machine, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle and iowait
    return sum(values) - idle, sum(values)


def share(seconds: float, wall: float) -> dict[str, float]:
    """CPU seconds, the share of the machine (all its cores) and of one core they make."""
    return {
        "cpu_s": round(seconds, 1),
        "share_of_machine": round(seconds / (wall * CORES), 3) if wall else 0.0,
        "cores": round(seconds / wall, 2) if wall else 0.0,
    }


def niceness(pid: int) -> int | None:
    fields = proc_stat(pid)
    return int(fields[16]) if fields else None


# --- Locust and its figures ---------------------------------------------------------------------


def run_locust(
    port: int, plan: Path, minutes: float, work_dir: Path, database: str, users: int
) -> tuple[Path, dict[str, Any]]:
    """Locust, headless, at a lower priority (`nice -n 10`), bounded by --run-time (and the plan's
    max_requests) and a timeout; its CSV prefix and its CPU (the children's rusage around it)."""
    prefix = work_dir / f"locust-{database}"
    locust = Path(sys.executable).parent / "locust"
    command = [
        "nice",
        "-n",
        str(LOCUST_NICE),
        str(locust),
        "-f",
        str(ROOT / "bench" / "league_night_users.py"),
        "--headless",
        "--host",
        f"http://127.0.0.1:{port}",
        "--users",
        str(users),
        "--spawn-rate",
        str(users),
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
    log_path = work_dir / f"locust-{database}.log"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    nice = None
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            try:
                process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                nice = niceness(process.pid)
                process.wait(timeout=minutes * 60 + 120)
        except BaseException:
            process.kill()
            process.wait(timeout=10)
            raise
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # Locust exits 1 when any request failed: that is a figure, not a failure of the run.
    if process.returncode not in (0, 1) or not Path(f"{prefix}_stats.csv").exists():
        tail = log_path.read_text(errors="replace")[-3000:]
        raise BenchFailure(f"locust exited {process.returncode}:\n{tail}")
    return prefix, {**share(cpu, wall), "wall_s": round(wall, 1), "nice": nice}


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


def kind_of(entry: dict[str, Any]) -> str | None:
    request_id = str(entry.get("request_id") or "")
    if request_id.startswith("ln."):
        return ACTION_KINDS.get(request_id.split(".")[1])
    return next(
        (name for name, method, path in KINDS if entry["method"] == method and path.match(entry["path"])),
        None,
    )


def request_log(log_path: Path, since: float) -> Iterator[dict[str, Any]]:
    """The service's request log (one JSON line a request), from `since` on."""
    for line in log_path.read_text(errors="replace").splitlines():
        if not line.startswith("{"):
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if "ms" not in entry or entry["ms"] is None or "time" not in entry:
            continue
        if datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).timestamp() >= since:
            yield entry


def server_figures(log_path: Path, since: float) -> dict[str, dict[str, float]]:
    """p50/p95/p99 per kind as the service timed them; its 5xx, 4xx and 304 answers."""
    timings: dict[str, list[float]] = defaultdict(list)
    statuses: dict[str, Counter[int]] = defaultdict(Counter)
    for entry in request_log(log_path, since):
        kind = kind_of(entry)
        if kind is not None:
            timings[kind].append(float(entry["ms"]))
            statuses[kind][int(entry["status"])] += 1
    return {
        kind: {
            "count": len(samples),
            "server_errors": sum(n for status, n in statuses[kind].items() if status >= 500),
            "client_errors": sum(n for status, n in statuses[kind].items() if 400 <= status < 500),
            "not_modified": statuses[kind].get(304, 0),
            "p50": percentile(samples, 0.50),
            "p95": percentile(samples, 0.95),
            "p99": percentile(samples, 0.99),
            "max": max(samples),
        }
        for kind, samples in timings.items()
    }


def refresher_figures(server: Server, since: float) -> dict[str, Any] | None:
    """What the refresher computed again during the night (its own request log): how many
    answers, and the ms they took in all and p50/p99."""
    if server.refresher_log is None or not server.refresher_log.exists():
        return None
    timings = [float(entry["ms"]) for entry in request_log(server.refresher_log, since)]
    if not timings:
        return {"answers": 0}
    return {
        "answers": len(timings),
        "ms_total": round(sum(timings)),
        "p50": percentile(timings, 0.50),
        "p99": percentile(timings, 0.99),
    }


def target_of(name: str) -> float | None:
    if name.startswith("fresh"):
        return None
    return WRITE_TARGET_P99 if name in WRITES else READ_TARGET_P99


# --- one database's run -------------------------------------------------------------------------


class Phases:
    """How long each phase of a run took (seconds), printed as each ends."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.seconds: dict[str, float] = {}
        self.began = time.perf_counter()

    @contextmanager
    def phase(self, name: str, said: str = "") -> Iterator[None]:
        began = time.perf_counter()
        yield
        self.seconds[name] = round(time.perf_counter() - began, 2)
        progress(self.database, f"{said or name}: {self.seconds[name]:.1f} s")

    def total(self) -> float:
        return round(time.perf_counter() - self.began, 2)


def warm_up(port: int, season_id: int, league: League, ratings: bool, threads: int) -> int:
    """The answers every reader shares (the season's lists and first pages of reports, each
    region's ratings and games), read twice by `threads` connections so that each worker has
    them, as a server up all day would: none of the night's figures is a restart's first read."""
    paths = [f"/api/v1/seasons/{season_id}/qualifiers"]
    paths += [f"/api/v1/tournaments?season_id={season_id}&per_page=50&page={page}" for page in range(1, 6)]
    for region in range(1, league.regions + 1):
        paths += [f"/api/v1/games?region_id={region}", f"/embed/regions/{region}/games"]
        if ratings:
            paths.append(f"/api/v1/ratings?region_id={region}&per_page=50")
    client = Client(port)
    with ThreadPoolExecutor(threads) as pool:
        for _ in range(2):
            list(pool.map(lambda path: client.get(path), paths * threads))
    return len(paths) * threads * 2


def prepare(
    url: str, database: str, league: League, args: argparse.Namespace, work_dir: Path, phases: Phases
) -> tuple[str, dict[int, str], int, dict[str, float]]:
    """The league in bulk (the current season too) on the scratch database, its season made
    through the API, the standing lines and ratings rebuilt: the office's key, the hosts' keys of
    tonight's venues, the season's id and the bulk load's steps."""
    with phases.phase("migrate"):
        upgrade(alembic_config(url))
    engine = make_engine(url)
    with phases.phase("bulk_league", "bulk league (regions, venues, players, past seasons, keys)"):
        bulk_league(engine, league)
        office, hosts = create_keys(engine, sorted(args.night_venues))
    log_path = work_dir / f"gunicorn-{database}.log"
    with (
        phases.phase("season_api", "the current season made through the API"),
        serve(url, args.workers, log_path, threads=args.threads) as server,
    ):
        starts_on, ends_on = league.seasons[-1]
        season, _ms = Client(server.port).post(
            "/api/v1/seasons",
            {"name": "National", "starts_on": starts_on.isoformat(), "ends_on": ends_on.isoformat()},
            office,
        )
    steps: dict[str, float] = {}
    with phases.phase("bulk_results", "bulk results, every season (standing lines and ratings rebuilt)"):
        bulk_history(engine, league, with_current=True, timings=steps)
    engine.dispose()
    progress(database, f"bulk results' steps (s): {json.dumps(steps)}")
    return office, hosts, int(season["id"]), steps


def night_under_load(
    server: Server, plan: Path, args: argparse.Namespace, work_dir: Path, database: str
) -> dict[str, Any]:
    """The night itself, with the CPU of Locust, the service, the database server and the machine
    over it."""
    users = WEB_USERS + len(args.nights) + FOLLOWERS
    server_before, db_before, machine_before = (
        server_cpu_seconds(server),
        postgres_cpu_seconds(),
        machine_ticks(),
    )
    began = time.time()
    prefix, locust_cpu = run_locust(server.port, plan, args.minutes, work_dir, database, users)
    held = time.time() - began
    server_after, db_after, machine_after = (
        server_cpu_seconds(server),
        postgres_cpu_seconds(),
        machine_ticks(),
    )
    cpu: dict[str, Any] = {"locust": locust_cpu, "cores": CORES}
    for name, seconds in server_after.items():
        cpu[name] = share(seconds - server_before.get(name, 0.0), held)
    cpu["server"] = share(sum(server_after.values()) - sum(server_before.values()), held)
    cpu["server"]["nice"] = niceness(server.process.pid)
    if database == "postgresql" and db_before is not None and db_after is not None:
        cpu["database_server"] = share(db_after - db_before, held)
    busy, every = (after - before for after, before in zip(machine_after, machine_before, strict=True))
    cpu["machine_busy_share"] = round(busy / every, 3) if every else 0.0
    return {
        "prefix": prefix,
        "began": began,
        "held": held,
        "cpu": cpu,
        "peak_mb": server.worker_peak_mb(),
        "refreshed": refresher_figures(server, began),
    }


def run_database(
    url: str, database: str, league: League, args: argparse.Namespace, work_dir: Path
) -> dict[str, Any]:
    phases = Phases(database)
    load_before = uptime()
    office, hosts, season_id, steps = prepare(url, database, league, args, work_dir, phases)
    log_path = work_dir / f"gunicorn-{database}.log"
    with ExitStack() as stack:
        with phases.phase(
            "serve", "serve (gunicorn" + ("" if args.no_refresher else " and the refresher") + ")"
        ):
            server = stack.enter_context(
                serve(url, args.workers, log_path, threads=args.threads, refresher=not args.no_refresher)
            )
        client = Client(server.port)
        with phases.phase("publish", "publish the past seasons' lists"):
            for history_id in range(1, len(league.history) + 1):
                client.post(f"/api/v1/seasons/{history_id}/qualifiers/publish", {}, office)
            ratings = client.call("GET", "/api/v1/ratings")[0] == 200
        if not args.no_warm_up:
            with phases.phase("warm_up", "warm-up (the shared answers, read by every worker)"):
                warm_up(server.port, season_id, league, ratings, 2 * args.workers)
        plan, stats_out = work_dir / f"plan-{database}.json", work_dir / f"stats-{database}.json"
        write_plan(plan, args, league, season_id, hosts, args.nights, ratings, stats_out)
        busts = sum(len(night["busts"]) for night in args.nights)
        progress(
            database,
            f"league night: {len(args.nights)} nights ({sum(len(n['field']) for n in args.nights)} "
            f"sign-ins, {busts - len(args.nights)} bust-outs before the reports), "
            f"{sum(1 for n in args.nights if 'change' in n)} corrections and voids, {args.rate} reads/s "
            f"and {FOLLOWERS} live pages for {args.minutes} min",
        )
        with phases.phase("night"):
            night = night_under_load(server, plan, args, work_dir, database)
        stopping = time.perf_counter()
    phases.seconds["stop"] = round(time.perf_counter() - stopping, 2)
    counts = json.loads(stats_out.read_text()) if stats_out.exists() else {}
    return figures(league, args, database, phases, steps, load_before, night, log_path, counts)


def figures(
    league: League,
    args: argparse.Namespace,
    database: str,
    phases: Phases,
    steps: dict[str, float],
    load_before: dict[str, Any],
    night: dict[str, Any],
    log_path: Path,
    counts: dict[str, Any],
) -> dict[str, Any]:
    prefix = night["prefix"]
    clients = client_figures(prefix)
    served = server_figures(log_path, night["began"])
    held = night["held"]
    night_s = math.ceil(args.minutes * 60)
    problems = failures(prefix)
    planned = len(args.nights)
    if counts.get("reports", 0) < planned:
        problems.append(f"hosts: {counts.get('reports', 0)} of {planned} nights became reports")
    fresh = {
        name.removeprefix("fresh: "): {"checks": int(f["count"]), "stale": int(f["errors"])}
        for name, f in clients.items()
        if name.startswith("fresh: ")
    }
    return {
        "when": load_before["at"],
        "database": database,
        "args": {
            key: (str(value) if isinstance(value, Path) else value)
            for key, value in vars(args).items()
            if key not in ("nights", "night_venues", "databases")
        },
        "machine": {"cpus": CORES, "python": platform.python_version()},
        "league": league.counts(),
        "tonight": {
            "nights": planned,
            "sign_ins": sum(len(n["field"]) for n in args.nights),
            "bust_outs": sum(len(n["busts"]) - 1 for n in args.nights),
            "corrections": sum(1 for n in args.nights if n.get("change", {}).get("kind") == "correct"),
            "voids": sum(1 for n in args.nights if n.get("change", {}).get("kind") == "void"),
            "live_pages": FOLLOWERS,
            "refresher": not args.no_refresher,
            "cache_url": bool(args.cache_url),
            "cache_dir": args.cache_dir or None,
        },
        "phases_s": {**phases.seconds, "total": phases.total(), "generate": args.generate_s},
        "bulk_steps_s": steps,
        "load_before": load_before,
        "load_after": uptime(),
        "cpu": night["cpu"],
        "refreshed": night["refreshed"],
        "client": clients,
        "server": served,
        "errors": sum(int(f["errors"]) for name, f in clients.items() if not name.startswith("fresh")),
        "server_errors": sum(int(f["server_errors"]) for f in served.values()),
        "stale": sum(f["stale"] for f in fresh.values()),
        "fresh": fresh,
        "failures": problems,
        "locust_counts": counts,
        # Over the night's own time (Locust's --run-time), not its process's start and stop.
        "website_reads_per_s": round(counts.get("website_requests", 0) / night_s, 1),
        "live_page_polls_per_s": round(
            (counts.get("live_page_polls_200", 0) + counts.get("live_page_polls_304", 0)) / night_s, 1
        ),
        "seconds": round(night_s, 1),
        "locust_wall_s": round(held, 1),
        "peak_worker_mb": round(night["peak_mb"], 1),
    }


# --- output ---------------------------------------------------------------------------------


HEAD = [
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
    "met",
]


def request_rows(database: str, result: dict[str, Any]) -> list[list[str]]:
    rows = []
    for name, figures_ in sorted(
        result["client"].items(),
        key=lambda item: (item[0].startswith("fresh"), item[0] not in WRITES, item[0]),
    ):
        served = result["server"].get(name, {})
        target = target_of(name)
        met = ""
        if target is not None and served:
            met = "yes" if served["p99"] <= target and not figures_["errors"] else "no"
        elif name.startswith("fresh"):
            met = "yes" if not figures_["errors"] else "no"
        count = str(figures_["count"])
        if served.get("not_modified"):
            count += f" ({served['not_modified']} 304)"
        rows.append(
            [
                name,
                database,
                count,
                str(figures_["errors"]),
                *(f"{figures_[p]:.0f}" for p in ("p50", "p95", "p99")),
                *(f"{served[p]:.1f}" if served else "" for p in ("p50", "p95", "p99")),
                "" if target is None else f"≤ {target:g}",
                met,
            ]
        )
    return rows


def run_rows(database: str, result: dict[str, Any]) -> list[list[str]]:
    """The run's own figures, each as one row (the value in the count column)."""
    cpu = result["cpu"]
    said = [
        (
            f"website reads/s held ({result['seconds']:.0f} s)",
            f"{result['website_reads_per_s']}",
            f"{result['args']['rate']:g}",
        ),
        ("live page polls/s", f"{result['live_page_polls_per_s']}", ""),
        ("peak worker memory (MB)", f"{result['peak_worker_mb']}", ""),
        (
            f"Locust CPU (nice {cpu['locust'].get('nice')})",
            f"{cpu['locust']['share_of_machine']:.0%} ({cpu['locust']['cpu_s']} s)",
            "",
        ),
        (
            f"service CPU (nice {cpu['server'].get('nice')})",
            f"{cpu['server']['share_of_machine']:.0%} ({cpu['server']['cpu_s']} s)",
            "",
        ),
    ]
    if "database_server" in cpu:
        database_cpu = cpu["database_server"]
        said.append(
            ("database server CPU", f"{database_cpu['share_of_machine']:.0%} ({database_cpu['cpu_s']} s)", "")
        )
    refreshed = result.get("refreshed")
    if refreshed is not None:
        said.append(("answers the refresher computed", f"{refreshed['answers']}", ""))
    said += [
        ("machine busy", f"{cpu['machine_busy_share']:.0%}", ""),
        (
            "load before → after (1 min)",
            f"{result['load_before']['load'][0]} → {result['load_after']['load'][0]}",
            "",
        ),
        ("run (s): setup + night + stop", f"{result['phases_s']['total']:.0f}", "≤ 600"),
    ]
    return [[label, database, value, "", "", "", "", "", "", "", target, ""] for label, value, target in said]


def table(results: dict[str, dict[str, Any]], markdown: bool) -> str:
    rows = [HEAD]
    for database, result in results.items():
        rows += request_rows(database, result) + run_rows(database, result)
    if markdown:
        lines = ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join("---" for _ in rows[0]) + " |"]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows[1:]])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows
    )


def out_path(template: Path, database: str) -> Path:
    """The run's JSON: `{database}` in the name filled in, else the database's name added."""
    if "{database}" in str(template):
        return Path(str(template).replace("{database}", database))
    return template.with_name(f"{template.stem}-{database}{template.suffix or '.json'}")


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
    parser.add_argument("--minutes", type=float, default=5.0, help="how long the night lasts")
    parser.add_argument(
        "--reports", type=int, default=80, help="tonight's live nights, each its venue's report"
    )
    parser.add_argument("--rate", type=float, default=40.0, help="the website's reads per second")
    parser.add_argument("--max-requests", type=int, default=100_000, help="the night stops at this many")
    parser.add_argument(
        "--limit-minutes",
        type=float,
        default=10.0,
        help="each database's whole run (league, load, night) is stopped past this",
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="JSON per database ({database} in it, else added)"
    )
    parser.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    parser.add_argument(
        "--no-refresher",
        action="store_true",
        help="without the background worker (flask --app app deliver) beside gunicorn: the 'before' figures",
    )
    parser.add_argument(
        "--no-warm-up", action="store_true", help="start the night on workers that have read nothing"
    )
    parser.add_argument(
        "--cache-url",
        default="",
        help="the workers' shared answer cache (CACHE_URL, e.g. redis://127.0.0.1:6379/0); else each its own",
    )
    parser.add_argument(
        "--cache-dir",
        default="",
        help="CACHE_DIR for the service's processes (a shared on-disk answer store)",
    )
    parser.add_argument(
        "--work-dir", type=Path, default=None, help="keep the logs and plan here (else a temp dir)"
    )
    args = parser.parse_args()
    args.databases = [name.strip() for name in args.databases.split(",") if name.strip()]
    if set(args.databases) - {"sqlite", "postgresql"} or not args.databases:
        parser.error("--databases: sqlite and/or postgresql")
    if not 0 < args.minutes <= 30 or not 0 < args.rate <= 500 or args.reports < 1:
        parser.error("--minutes: 0-30; --rate: 0-500; --reports: 1 or more (the run is bounded)")
    if not args.minutes + 1 < args.limit_minutes <= 60:
        parser.error("--limit-minutes: more than --minutes + 1, at most 60")
    if make_url(args.postgres_url).host not in (None, "127.0.0.1", "localhost"):
        parser.error(
            "--postgres-url: this machine's server only (127.0.0.1): the run makes, loads, drops a database"
        )
    if not 0 < args.max_requests <= 1_000_000:
        parser.error("--max-requests: 1-1,000,000")
    return args


class OverTime(BenchFailure):
    """A database's run went past --limit-minutes."""


@contextmanager
def bounded(minutes: float) -> Iterator[None]:
    """SIGALRM after `minutes`: the run raises OverTime, its processes are stopped on the way out."""

    def over(_signum: int, _frame: Any) -> None:
        raise OverTime(f"stopped: past its bound of {minutes:g} minutes")

    previous = signal.signal(signal.SIGALRM, over)
    signal.setitimer(signal.ITIMER_REAL, minutes * 60)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def environment(args: argparse.Namespace) -> None:
    """gunicorn's workers and the refresher are given this environment: the caches asked for."""
    for name, value in (("CACHE_URL", args.cache_url), ("CACHE_DIR", args.cache_dir)):
        if value:
            os.environ[name] = value
        else:
            os.environ.pop(name, None)


def main() -> None:
    args = parse_args()
    environment(args)
    began = time.perf_counter()
    league = generate(args.seed, args.scale)
    args.nights = plan_nights(league, args.reports, args.minutes * 60, random.Random(args.seed + 1))
    args.night_venues = [night["venue"] for night in args.nights]
    args.generate_s = round(time.perf_counter() - began, 2)
    progress("league", f"generated in {args.generate_s:.1f} s: {json.dumps(league.counts())}")
    results: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="league-night-") as temporary:
        work = args.work_dir or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        for database in args.databases:
            postgres = args.postgres_url if database == "postgresql" else None
            try:
                with bounded(args.limit_minutes), scratch_database(postgres) as url:
                    results[database] = run_database(url, database, league, args, work)
            except BenchFailure as failure:
                problems.append(f"{database}: {failure}")
                print(f"FAILED {problems[-1]}", file=sys.stderr, flush=True)
                continue
            written = out_path(args.out, database)
            written.parent.mkdir(parents=True, exist_ok=True)
            written.write_text(json.dumps(results[database], indent=2) + "\n")
            progress(database, f"written to {written}")
    if not results:
        sys.exit("\n".join(problems))
    print(table(results, markdown=False))
    if args.markdown:
        print()
        print(table(results, markdown=True))
    for database, result in results.items():
        print(f"\n{database}: phases (s) {json.dumps(result['phases_s'])}")
        print(f"{database}: bulk steps (s) {json.dumps(result['bulk_steps_s'])}")
        print(f"{database}: Locust's counts {json.dumps(result['locust_counts'])}")
        print(f"{database}: load before: {result['load_before']['uptime']}")
        print(f"{database}: load after:  {result['load_after']['uptime']}")
        for problem in result["failures"]:
            print(f"{database}: {problem}")
    if problems:
        sys.exit("\n".join(problems))


if __name__ == "__main__":
    main()
