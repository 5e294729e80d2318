"""Benchmark: the service at national scale, run as in production (gunicorn) and read over HTTP.

A league generated from a seed: 400 venues in 10 regions, 30,000 players with a home venue, four
past 12-week seasons loaded in bulk as history (then published, as a league publishes each
season's lists once it ends), and a current 12-week season (1-2 nights a week at
every venue, 8-40 entrants, ~22 on average, mostly regulars) posted through the API: about 500,000
results in all. On a scratch database of each kind asked for, it times against GET /health (the
floor, same run): posting a 25-player report (on the empty league and on the full one), a venue's
standings, the season-wide qualifiers, a page of reports and a player's profile, each warm
(repeated) and right after a write; and the workers' peak memory. Prints a table (a Markdown one
too with --markdown) and writes JSON. It does not judge the figures: compare ratios within a run.

    .venv/bin/python bench/national.py                      # SQLite and PostgreSQL, full scale
    .venv/bin/python bench/national.py --scale 0.05 --databases sqlite --markdown
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import math
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gunicorn import version_info as gunicorn_version  # noqa: E402
from sqlalchemy import Engine, Table, insert, text  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from bench.scratch import scratch_database, today, uptime  # noqa: E402
from models.actor import SYSTEM  # noqa: E402
from models.entities import Base, Player, Region, Report, Result, Season, Venue  # noqa: E402
from models.freshness.versions import renew_epoch  # noqa: E402
from models.infra.db import make_engine, make_sessionmaker  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402
from models.rules.charts import DEFAULT_CHART  # noqa: E402
from models.rules.drafts import LAST_SESSION  # noqa: E402
from models.rules.players import default_display_name, display_key, normalise_name  # noqa: E402
from models.rules.reports import score_report  # noqa: E402
from models.services.api_keys.writes import create_key  # noqa: E402
from models.services.ratings.writes import point_of, rate_new_report, rebuild_ratings, replay_from  # noqa: E402
from models.services.standings.lines import rebuild_lines  # noqa: E402

# The league at scale 1.
REGIONS, VENUES, PLAYERS, WEEKS, HISTORY_SEASONS = 10, 400, 30_000, 12, 4
SECOND_NIGHT = 0.4  # share of venue-weeks with two tournaments in the current season
FIELD = (8, 40, 18)  # triangular(low, high, mode) entrants: 22 on average
REGULARS = 0.85  # share of a field from the venue's regulars; visitors are ...
SAME_REGION = 0.8  # ... mostly from the same region
# Share of venue-weeks with a tournament in the history seasons (one a week, the league was
# smaller): tuned so history and the current season hold about 500,000 results.
HISTORY_NIGHTS = 0.83

# What is measured, and how often.
MEASURED_VENUES, REPORT_SIZE = 8, 25
EMPTY_POSTS, FULL_POSTS, FLOOR_SAMPLES, WARM_SAMPLES = 100, 200, 300, 100
STANDINGS_CYCLES, QUALIFIER_WARM, QUALIFIER_CYCLES, COLD_CYCLES, PROFILE_CYCLES = 50, 10, 5, 20, 10
MERGES = 10  # merges timed, each of a duplicate with one result
# R17: the office's reason for the season's reports it posts (nights past the hosts' window).
LATE_REASON = "Bench: the season's sheets entered by the office"
PAGE_SIZE = 50
DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"

FIRST_NAMES = ("Ann", "Ben", "Cara", "Dan", "Eva", "Finn", "Gail", "Hugo", "Iris", "Jack", "Kate", "Mia")
SURNAME_STARTS = ("Ash", "Bell", "Black", "Brook", "Clay", "Cross", "Dun", "Fair", "Green", "Hall", "Hart")
SURNAME_ENDS = ("by", "ford", "ham", "ley", "ton", "well", "wood", "worth", "field", "more", "stead", "wick")

# The table's rows: (key, label). Timings are {"ms", "ratio"} (to the floor); the others {"value"}.
DEFAULT_OUT = ROOT / "bench" / "results" / "national.json"
ROWS = (
    ("health", "GET /health (floor)"),
    ("report_empty_p50", "POST report 25 players, empty league, fresh workers p50"),
    ("report_full_fresh_p50", "POST report 25 players, full league, fresh workers p50"),
    ("report_p50", "POST report 25 players p50"),
    ("report_p99", "POST report 25 players p99"),
    ("merge_p50", "POST merge (a duplicate with one result) p50"),
    ("merge_max", "POST merge max"),
    ("standings_warm_p50", "GET venue standings warm p50"),
    ("standings_warm_p99", "GET venue standings warm p99"),
    ("standings_after_write_p50", "GET venue standings after write p50"),
    ("standings_after_write_p99", "GET venue standings after write p99"),
    ("qualifiers_first", "GET season qualifiers from scratch (a worker's first)"),
    ("qualifiers_warm", "GET season qualifiers warm median"),
    ("qualifiers_scratch", "GET season qualifiers after write median"),
    ("qualifiers_scratch_max", "GET season qualifiers after write max"),
    ("page_warm_p50", "GET page of 50 reports warm p50"),
    ("page_after_write_p50", "GET page of 50 reports after write p50"),
    ("profile_warm_p50", "GET player profile warm p50"),
    ("profile_after_write_p50", "GET player profile after write p50"),
    ("report_full_over_empty", "report cost full / empty league, fresh workers (×)"),
    ("peak_worker_mb", "peak memory per worker (MB)"),
    ("bulk_load_s", "bulk load: league + history (s)"),
    ("season_load_s", "current season over HTTP (s)"),
    ("season_reports_per_s", "current season over HTTP (reports/s)"),
    ("ratings_results", "R20: results rated in the rebuild"),
    ("ratings_rebuild_s", "R20: full rating rebuild (s)"),
    ("ratings_report_rating_p50_ms", "R20: a 25-player report's rating share p50 (ms)"),
    ("ratings_report_rating_p95_ms", "R20: a 25-player report's rating share p95 (ms)"),
    ("ratings_statement_floor_p50_ms", "R20: one SELECT 1 in the same session p50 (ms)"),
    ("ratings_correction_replay_p50_ms", "R20: correcting one of tonight's reports, replayed p50 (ms)"),
    ("ratings_correction_replay_whole_ms", "R20: the same, every later report rated again (ms)"),
)


class BenchFailure(Exception):
    """The service answered something the benchmark cannot go on from."""


@dataclass(frozen=True)
class PlannedReport:
    venue_id: int
    date: date
    session: int
    players: tuple[int, ...]

    def body(self) -> dict[str, Any]:
        return {
            "venue_id": self.venue_id,
            "date": self.date.isoformat(),
            "session": self.session,
            "kind": "regular",
            "results": [{"place": p, "player_id": pid} for p, pid in enumerate(self.players, start=1)],
        }


@dataclass
class League:
    regions: int
    venue_region: dict[int, int]
    home: dict[int, int]
    names: dict[int, str]
    born: dict[int, date]
    regulars: dict[int, list[int]]
    region_players: dict[int, list[int]]
    # (starts_on, ends_on) of each season, the oldest first; the last is the current one.
    seasons: list[tuple[date, date]]
    history: list[list[PlannedReport]] = field(default_factory=list)
    current: list[PlannedReport] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        history_results = sum(len(r.players) for season in self.history for r in season)
        current_results = sum(len(r.players) for r in self.current)
        return {
            "regions": self.regions,
            "venues": len(self.venue_region),
            "players": len(self.home),
            "history_seasons": len(self.history),
            "history_tournaments": sum(len(season) for season in self.history),
            "history_results": history_results,
            "current_tournaments": len(self.current),
            "current_results": current_results,
            "results": history_results + current_results,
        }


def generate(seed: int, scale: float) -> League:
    """The whole league, deterministic for a seed (the dates move with today's date)."""
    rng = random.Random(seed)
    venues, players = max(2, round(VENUES * scale)), max(REPORT_SIZE * 4, round(PLAYERS * scale))
    regions = max(2, round(REGIONS * scale))
    venue_region = {v: (v - 1) % regions + 1 for v in range(1, venues + 1)}
    homes = [i % venues + 1 for i in range(players)]
    rng.shuffle(homes)
    home = dict(enumerate(homes, start=1))
    names = {
        p: f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAME_STARTS)}{rng.choice(SURNAME_ENDS)}" for p in home
    }
    born = {p: date(1950, 1, 1) + timedelta(days=rng.randrange(50 * 365)) for p in home}
    regulars: dict[int, list[int]] = {v: [] for v in venue_region}
    region_players: dict[int, list[int]] = {r: [] for r in range(1, regions + 1)}
    for player, venue in home.items():
        regulars[venue].append(player)
        region_players[venue_region[venue]].append(player)
    current_start = today() - timedelta(weeks=WEEKS) + timedelta(days=1)
    starts = [current_start - timedelta(weeks=(WEEKS + 1) * k) for k in range(HISTORY_SEASONS, -1, -1)]
    league = League(
        regions,
        venue_region,
        home,
        names,
        born,
        regulars,
        region_players,
        [(start, start + timedelta(weeks=WEEKS, days=-1)) for start in starts],
    )
    nights = {v: rng.randrange(7) for v in venue_region}
    for start, _end in league.seasons[:-1]:
        season = []
        for week in range(WEEKS):
            for venue in venue_region:
                if rng.random() < HISTORY_NIGHTS:
                    day = start + timedelta(weeks=week, days=nights[venue])
                    season.append(PlannedReport(venue, day, 1, tuple(draw_field(rng, league, venue))))
        league.history.append(sorted(season, key=lambda r: r.date))
    for week in range(WEEKS):
        for venue in venue_region:
            days = [nights[venue]] + ([(nights[venue] + 3) % 7] if rng.random() < SECOND_NIGHT else [])
            for night in days:
                day = current_start + timedelta(weeks=week, days=night)
                league.current.append(PlannedReport(venue, day, 1, tuple(draw_field(rng, league, venue))))
    league.current.sort(key=lambda r: r.date)
    return league


def draw_field(rng: random.Random, league: League, venue: int) -> list[int]:
    """One night's finishing order: mostly the venue's regulars, then visitors."""
    entrants = round(rng.triangular(*FIELD))
    regulars = league.regulars[venue]
    chosen = rng.sample(regulars, min(round(entrants * REGULARS), len(regulars)))
    seen = set(chosen)
    nearby = league.region_players[league.venue_region[venue]]
    while len(chosen) < entrants:
        player = rng.choice(nearby) if rng.random() < SAME_REGION else rng.randint(1, len(league.home))
        if player not in seen and league.home[player] != venue:
            chosen.append(player)
            seen.add(player)
    return chosen


# --- the database, in bulk --------------------------------------------------------------------


def bulk_league(engine: Engine, league: League, with_current: bool = False) -> None:
    """Regions, venues, players and the history seasons (still without results); with the
    current season too when `with_current` (`--ratings-only` loads its reports in bulk)."""
    session = make_sessionmaker(engine)()
    insert_rows(session, Region, [{"id": r, "name": f"Region {r}"} for r in range(1, league.regions + 1)])
    insert_rows(
        session,
        Venue,
        [
            {"id": v, "name": f"Venue {v}", "region_id": r, "city": f"Town {v}", "active": True}
            for v, r in league.venue_region.items()
        ],
    )
    rows = []
    for player, name in league.names.items():
        display = default_display_name(name)
        rows.append(
            {
                "id": player,
                "full_name": name,
                "display_name": display,
                "name_key": normalise_name(name),
                "display_key": display_key(display),
                "email": f"player{player}@example.org",
                "date_of_birth": league.born[player],
                "home_venue_id": league.home[player],
            }
        )
    insert_rows(session, Player, rows)
    insert_rows(
        session,
        Season,
        [
            {
                "id": number,
                "name": f"History {number}",
                "starts_on": starts_on,
                "ends_on": ends_on,
                "all_regions": True,
                "attendance_bonus": [],
                # Hosts post the extra reports on the history's last days (`Extras`), weeks ago:
                # a window that long keeps them the hosts' (R17).
                "correction_days": 3650,
            }
            for number, (starts_on, ends_on) in enumerate(
                league.seasons if with_current else league.seasons[:-1], start=1
            )
        ],
    )
    session.commit()
    session.close()
    reset_sequences(engine, ("regions", "venues", "players", "seasons"))


def bulk_history(
    engine: Engine, league: League, with_current: bool = False, timings: dict[str, float] | None = None
) -> None:
    """The history seasons' tournaments and results, ids after those the API gave already; the
    current season's as well when `with_current`. `timings`, when given, gets the seconds of each
    step (rows, standing lines, ratings, the rest)."""
    began = time.perf_counter()
    steps = timings if timings is not None else {}

    def step(name: str) -> None:
        nonlocal began
        now = time.perf_counter()
        steps[name] = round(now - began, 2)
        began = now

    session = make_sessionmaker(engine)()
    if engine.dialect.name == "postgresql":
        # As a bulk import would: without the row and statement triggers (the data version's, the
        # scopes', the keys'), which move the same few version rows thousands of times in one
        # transaction (each move walks the row's versions made before it: ten times the league
        # took over an hour). Every version is renewed once at the end instead (a new epoch).
        session.execute(text("SET LOCAL session_replication_role = replica"))
    tournament_id = session.scalar(text("SELECT COALESCE(MAX(id), 0) FROM tournaments"))
    result_id = session.scalar(text("SELECT COALESCE(MAX(id), 0) FROM results"))
    reports, results = [], []
    seasons = [*league.history, league.current] if with_current else league.history
    for season_id, season in enumerate(seasons, start=1):
        for report in season:
            tournament_id += 1
            reports.append(
                {
                    "id": tournament_id,
                    "venue_id": report.venue_id,
                    "season_id": season_id,
                    "date": report.date,
                    "session": report.session,
                    "kind": "regular",
                    "entrants": len(report.players),
                    "version": 1,
                    "reported_by": "bench import",
                }
            )
            earned = score_report(
                DEFAULT_CHART, [(place, "played") for place in range(1, len(report.players) + 1)], 0, False
            )
            for place, (player, points) in enumerate(zip(report.players, earned, strict=True), start=1):
                result_id += 1
                results.append(
                    {
                        "id": result_id,
                        "tournament_id": tournament_id,
                        "player_id": player,
                        "place": place,
                        "status": "played",
                        "placement_points": points.placement_points,
                        "participation_points": points.participation_points,
                        "points": points.points,
                    }
                )
    insert_rows(session, Report, reports)
    insert_rows(session, Result, results)
    step("rows_s")
    # Results loaded behind the service's back: their standing lines are summed here, as
    # `flask --app app standings rebuild` would.
    rebuild_lines(session, range(1, len(seasons) + 1))
    step("standing_lines_s")
    rebuild_ratings(session)  # R20: and the ratings, as `flask --app app ratings rebuild` would
    step("ratings_s")
    if engine.dialect.name == "postgresql":
        renew_epoch(session)  # every answer cached before the load retired (triggers were off)
    session.commit()
    session.close()
    reset_sequences(engine, ("tournaments", "results"))
    step("commit_s")
    analyze(engine)
    step("analyze_s")


def analyze(engine: Engine) -> None:
    """PostgreSQL's planner statistics and visibility map for what was just loaded, as after a
    bulk import a league runs `VACUUM ANALYZE` (docs/national-league.md). A league's server
    gathers them by itself (autovacuum analyses and vacuums a table once a share of it has
    changed or been inserted), but not within the seconds between a bulk load and the first
    measure: without statistics the planner guesses the sizes of half-a-million-row tables, and
    without the visibility map no index-only scan is taken (a region's rating table read every
    point of the league). SQLite's planner keeps no statistics unless asked (and the service
    never asks), so it is left as a league would have it."""
    if engine.dialect.name != "postgresql":
        return
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("VACUUM ANALYZE"))


RATING_SAMPLES = 200


def timed_ratings(url: str, league: League, database: str) -> dict[str, float]:
    progress(database, "timing the ratings (R20): a full rebuild and a report's share")
    engine = make_engine(url)
    try:
        ratings = rating_figures(engine, league)
    finally:
        engine.dispose()
    progress(database, f"ratings: {json.dumps(ratings)}")
    return ratings


def rating_figures(engine: Engine, league: League) -> dict[str, float]:
    """R20 on the full league, in process: a full rebuild of every rating (timed, rolled back),
    and the ratings' share of a new report (`rate_new_report` alone, for a 25-player report later
    than every other, each in its own transaction, rolled back), p50 and p95, beside the floor
    of one `SELECT 1` in the same session (the share is one read and one write on PostgreSQL)."""
    session = make_sessionmaker(engine)()
    results = session.scalar(text("SELECT COUNT(*) FROM results")) or 0
    began = time.perf_counter()
    rated, points = rebuild_ratings(session)
    rebuild_s = time.perf_counter() - began
    session.rollback()
    rng = random.Random(7)
    last_day = session.scalar(text("SELECT MAX(date) FROM tournaments"))
    if isinstance(last_day, str):
        last_day = date.fromisoformat(last_day)
    season_id = session.scalar(text("SELECT MAX(id) FROM seasons"))
    players_ids, venue_ids = sorted(league.home), sorted(league.venue_region)
    timings, statements = [], []
    for sample in range(RATING_SAMPLES):
        # The floor: one statement through the same session (a round trip on PostgreSQL).
        began = time.perf_counter()
        session.execute(text("SELECT 1")).scalar()
        statements.append((time.perf_counter() - began) * 1000)
        field = rng.sample(players_ids, REPORT_SIZE)
        report = session.scalars(
            insert(Report).returning(Report),
            [
                {
                    "venue_id": venue_ids[sample % len(venue_ids)],
                    "season_id": season_id,
                    "date": last_day + timedelta(days=1),
                    "session": 1,
                    "kind": "regular",
                    "entrants": REPORT_SIZE,
                    "reported_by": "bench",
                    "reported_by_role": "office",
                }
            ],
        ).one()
        rows = [{"player_id": p, "place": i, "status": "played"} for i, p in enumerate(field, start=1)]
        session.execute(insert(Result), [{**row, "tournament_id": report.id} for row in rows])
        session.flush()
        began = time.perf_counter()
        rate_new_report(session, report, rows)
        timings.append((time.perf_counter() - began) * 1000)
        session.rollback()  # the whole transaction, as a real report's is its own (no savepoint)
    corrections, whole = correction_replays(session)
    session.close()
    return {
        "results": float(results),
        "players_rated": float(rated),
        "history_points": float(points),
        "rebuild_s": round(rebuild_s, 2),
        "report_rating_p50_ms": round(statistics.median(timings), 3),
        "report_rating_p95_ms": round(percentile(timings, 0.95), 3),
        "statement_floor_p50_ms": round(statistics.median(statements), 3),
        "correction_replay_p50_ms": round(statistics.median(corrections), 2),
        "correction_replay_whole_ms": round(statistics.median(whole), 1),
    }


CORRECTION_SAMPLES = 20


def correction_replays(session: Session) -> tuple[list[float], list[float]]:
    """R20: a correction of one of tonight's reports (a report of the newest day, its last
    entrant made a no-show), replayed
    as the service replays it (only the reports it reaches), each in its own transaction rolled
    back; and, for comparison, three replays of every report from its point on (`whole`)."""
    newest = [
        row[0]
        for row in session.execute(
            text("SELECT id FROM tournaments WHERE date = (SELECT MAX(date) FROM tournaments)")
        )
    ]
    session.rollback()
    rng = random.Random(11)
    timings: dict[bool, list[float]] = {False: [], True: []}
    for sample in range(CORRECTION_SAMPLES + 3):
        whole = sample >= CORRECTION_SAMPLES
        report = session.get_one(Report, rng.choice(newest))
        session.execute(
            text(
                "UPDATE results SET status = 'no_show' WHERE id = (SELECT id FROM results"
                " WHERE tournament_id = :t ORDER BY place DESC LIMIT 1)"
            ),
            {"t": report.id},
        )
        players = {result.player_id for result in report.results}
        began = time.perf_counter()
        replay_from(session, point_of(report), players=players, whole=whole)
        timings[whole].append((time.perf_counter() - began) * 1000)
        session.rollback()
    return timings[False], timings[True]


def insert_rows(session: Session, entity: type[Base], rows: list[dict[str, Any]]) -> None:
    """Multi-row INSERTs, not one statement a row: on PostgreSQL every statement on league data
    moves the data version on (a statement trigger), and one transaction updating one row
    hundreds of thousands of times slows down quadratically. RETURNING makes SQLAlchemy send its
    "insertmanyvalues" batches (1,000 rows a statement) on both databases."""
    table = cast(Table, entity.__table__)
    session.execute(insert(table).returning(table.c.id), rows)


def reset_sequences(engine: Engine, tables: tuple[str, ...]) -> None:
    """PostgreSQL: move the id sequences past the ids given in bulk, so API inserts do not collide."""
    if engine.dialect.name != "postgresql":
        return
    with engine.begin() as conn:
        for table in tables:
            conn.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 1), "
                    f"MAX(id) IS NOT NULL) FROM {table}"
                )
            )


def create_keys(engine: Engine, venues: list[int]) -> tuple[str, dict[int, str]]:
    """The office's key and one host key per measured venue (their secrets)."""
    session = make_sessionmaker(engine)()
    _key, office = create_key(session, SYSTEM, "Office: bench", "office", [])
    hosts = {v: create_key(session, SYSTEM, f"Host: venue {v}", "host", [v])[1] for v in venues}
    session.commit()
    session.close()
    return office, hosts


# --- the service and its client ---------------------------------------------------------------


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    # The delivery worker (`flask --app app deliver`) beside gunicorn, when asked for.
    refresher: subprocess.Popen[bytes] | None = None
    refresher_log: Path | None = None

    def worker_peak_mb(self) -> float:
        """The largest VmHWM (peak resident memory) among the master's worker processes."""
        children: list[int] = []
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            children += [int(pid) for pid in (task / "children").read_text().split()]
        peaks = []
        for pid in children:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peaks.append(int(line.split()[1]) / 1024)
        return max(peaks)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# How long the delivery worker must stay up after it starts to count as started (it has no other
# sign of life: a worker that cannot start exits within a second or two of its imports).
REFRESHER_SETTLE_SECONDS = 5.0


@contextmanager
def serve(
    url: str, workers: int, log_path: Path, threads: int = 1, refresher: bool = False
) -> Iterator[Server]:
    """gunicorn serving the app on `url` on a free port, until the block ends (`threads` > 1: that
    many threads in each worker, as ./scripts/serve runs it). With `refresher`, the service's
    background worker too (`python -m flask --app app deliver`: webhooks, and the cached answers
    refreshed after writes), in the same environment, its output in `<log>-deliver.log`; a
    worker that exits at its start is a BenchFailure, as is one that has died by the end."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "RATELIMIT_ENABLED": "0", "LOG_LEVEL": "WARNING"}
    gunicorn = Path(sys.executable).parent / "gunicorn"
    command = [str(gunicorn), "-w", str(workers), "-b", f"127.0.0.1:{port}", "app:create_app()"]
    if threads > 1:
        command += ["--worker-class", "gthread", "--threads", str(threads)]
    if gunicorn_version >= (25, 1):
        command.append("--no-control-socket")  # else a socket under ~/.gunicorn, shared with any other
    with log_path.open("ab") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    server = Server(port, process)
    try:
        if refresher:  # started beside gunicorn's own start, confirmed once gunicorn answers
            server.refresher_log = log_path.with_name(f"{log_path.stem}-deliver.log")
            server.refresher = start_refresher(env, server.refresher_log)
        started = time.monotonic()
        wait_healthy(port, process, log_path)
        if server.refresher is not None and server.refresher_log is not None:
            confirm_refresher(server.refresher, server.refresher_log, started)
        yield server
        if server.refresher is not None and server.refresher.poll() is not None:
            raise BenchFailure(
                f"the delivery worker (flask --app app deliver) died during the run "
                f"({server.refresher.returncode}):\n{log_tail(server.refresher_log or log_path)}"
            )
    finally:
        if server.refresher is not None:
            stop_process(server.refresher, 20)
        stop_process(process, 60)


def start_refresher(env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    """`python -m flask --app app deliver`, started in `env` (confirm_refresher says whether it
    started)."""
    command = [sys.executable, "-m", "flask", "--app", "app", "deliver"]
    with log_path.open("ab") as log:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def confirm_refresher(worker: subprocess.Popen[bytes], log_path: Path, started: float) -> None:
    """A BenchFailure (with its output) when the worker exits within REFRESHER_SETTLE_SECONDS of
    its start (`started`, time.monotonic())."""
    try:
        worker.wait(timeout=max(0.0, started + REFRESHER_SETTLE_SECONDS - time.monotonic()))
    except subprocess.TimeoutExpired:
        return  # still running: started
    raise BenchFailure(
        f"the delivery worker (flask --app app deliver) exited at its start ({worker.returncode}):\n"
        f"{log_tail(log_path)}"
    )


def stop_process(process: subprocess.Popen[bytes], timeout: float) -> None:
    """SIGTERM, then SIGKILL after `timeout` seconds."""
    try:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        pass
    finally:
        if process.poll() is None:  # past its timeout, or the wait was interrupted
            process.kill()
            process.wait(timeout=10)


def wait_healthy(port: int, process: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise BenchFailure(f"gunicorn exited ({process.returncode}):\n{log_tail(log_path)}")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            conn.request("GET", "/health")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        finally:
            conn.close()
        time.sleep(0.2)
    raise BenchFailure(f"GET /health did not answer 200 within 60 s:\n{log_tail(log_path)}")


def log_tail(log_path: Path, lines: int = 30) -> str:
    return "\n".join(log_path.read_text(errors="replace").splitlines()[-lines:])


class Client:
    """HTTP calls with one keep-alive connection per thread; times each call, body read in full."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._local = threading.local()

    def _connection(self) -> http.client.HTTPConnection:
        conn: http.client.HTTPConnection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        return conn

    @property
    def last_headers(self) -> dict[str, str]:
        """The headers of this thread's last answer."""
        headers: dict[str, str] = getattr(self._local, "headers", {})
        return headers

    def call(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        key: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes, float]:
        """(status, body, milliseconds)."""
        headers = {**(headers or {}), **({"Authorization": f"Bearer {key}"} if key else {})}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn = self._connection()
        began = time.perf_counter()
        try:
            conn.request(method, path, payload, headers)
            response = conn.getresponse()
            answer = response.read()
            self._local.headers = dict(response.getheaders())
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            raise BenchFailure(f"{method} {path}: {exc!r} (a worker killed by its timeout?)") from exc
        return response.status, answer, (time.perf_counter() - began) * 1000

    def get(self, path: str) -> float:
        status, answer, ms = self.call("GET", path)
        if status != 200:
            raise BenchFailure(f"GET {path} answered {status}: {answer.decode(errors='replace')[:2000]}")
        return ms

    def post(
        self, path: str, body: dict[str, Any], key: str, expected: int = 201
    ) -> tuple[dict[str, Any], float]:
        status, answer, ms = self.call("POST", path, body, key)
        if status != expected:
            raise BenchFailure(
                f"POST {path} ({json.dumps(body)[:300]}...) answered {status}: "
                f"{answer.decode(errors='replace')[:2000]}"
            )
        created: dict[str, Any] = json.loads(answer)
        return created, ms

    def report(self, report: PlannedReport, key: str, reason: str | None = None) -> float:
        """POST the report with this key (and `reason`: the office's for a night past the hosts'
        correction window, R17); ms."""
        body = report.body() if reason is None else {**report.body(), "reason": reason}
        return self.post("/api/v1/tournaments", body, key)[1]


# --- measuring ------------------------------------------------------------------------------


def percentile(samples: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1))]


def progress(database: str, message: str) -> None:
    print(f"[{datetime.now(UTC):%H:%M:%S}] {database}: {message}", file=sys.stderr, flush=True)


class Extras:
    """Reports of exactly REPORT_SIZE regulars posted for measuring at the measured venues: extra
    sessions (the season's own reports are session 1), each later in the rating order (R20: date,
    session, id) than the ones measured before it, so that each is rated as a new report, not a
    replay. On the empty league they go one a day over the last 30 days of the last history season
    (so the current season, posted later in date order, comes after them: no day piles up
    look-alike reports, a new report being compared with the same day's, R4); once the season is
    loaded (`to_the_end`), on today, sessions 2, 3, ... after the season's last reports."""

    def __init__(self, league: League, venues: list[int], keys: dict[int, str], rng: random.Random) -> None:
        self.league, self.rng, self.keys, self.venues = league, rng, keys, venues
        last_history_day = league.seasons[-2][1]
        self.slots = {v: self._days(last_history_day - timedelta(days=29), last_history_day) for v in venues}
        self.posted = 0

    @staticmethod
    def _days(first: date, last: date) -> Iterator[tuple[date, int]]:
        for offset in range((last - first).days + 1):
            yield first + timedelta(days=offset), 2

    def to_the_end(self) -> None:
        """From now on, each after the season's last report: today, at a session number that
        never goes down from one post to the next (whatever the venue: the order is date, session,
        id) and is new at its venue. Past session 99 (the last there is), a venue's free sessions
        of today are used, lowest first: those posts are replays (none at the default counts)."""
        used: dict[int, set[int]] = {v: set() for v in self.venues}
        level = [2]

        def slots(venue: int) -> Iterator[tuple[date, int]]:
            while True:
                while level[0] in used[venue] and level[0] <= LAST_SESSION:
                    level[0] += 1
                session = level[0]
                if session > LAST_SESSION:
                    session = min(set(range(2, LAST_SESSION + 1)) - used[venue])
                used[venue].add(session)
                yield today(), session

        self.slots = {v: slots(v) for v in self.venues}

    def post(self, client: Client, venue: int, including: int | None = None) -> float:
        regulars = [p for p in self.league.regulars[venue] if p != including]
        players = self.rng.sample(regulars, REPORT_SIZE - (including is not None))
        if including is not None:
            players.insert(self.rng.randrange(REPORT_SIZE), including)
        day, session = next(self.slots[venue])
        self.posted += 1
        return client.report(PlannedReport(venue, day, session, tuple(players)), self.keys[venue])


def load_season(
    client: Client, reports: list[PlannedReport], office: str, workers: int, database: str
) -> float:
    """Posts the season's reports in date order with `workers` client threads, as the office
    (most nights are weeks ago: with the reason R17 asks of it); seconds taken."""
    began = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(client.report, report, office, LATE_REASON) for report in reports]
        try:
            for done, future in enumerate(futures, start=1):
                future.result()
                if done % 1000 == 0:
                    progress(database, f"{done}/{len(reports)} reports, {time.perf_counter() - began:.0f} s")
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise
    return time.perf_counter() - began


def repeat(client: Client, path: str, samples: int, warmup: int) -> list[float]:
    for _ in range(warmup):
        client.get(path)
    return [client.get(path) for _ in range(samples)]


def after_writes(cycles: int, write: Callable[[], float], read: Callable[[], float]) -> list[float]:
    """The time of the first read right after each write."""
    samples = []
    for _ in range(cycles):
        write()
        samples.append(read())
    return samples


def merge_timings(client: Client, extras: Extras, league: League, office: str) -> list[float]:
    """A duplicate registered tonight (one result, at one measured venue) merged by the office into
    a regular of another venue (R17): its result moves, both players' standing lines are refreshed,
    under the merge's locks. ms each."""
    venues = list(extras.slots)
    timings = []
    for i in range(MERGES):
        here, there = venues[i % len(venues)], venues[(i + 1) % len(venues)]
        email = f"bench.duplicate.{i}.{extras.rng.randrange(10**9)}@example.org"
        duplicate, _ms = client.post(
            "/api/v1/players", {"full_name": f"Bench Duplicate {i}", "email": email}, office
        )
        extras.post(client, here, including=duplicate["id"])
        survivor = league.regulars[there][i % len(league.regulars[there])]
        body = {"duplicate_id": duplicate["id"], "reason": "Benchmark: the same person."}
        merged, ms = client.post(f"/api/v1/players/{survivor}/merge", body, office, expected=200)
        assert merged.get("merge_id"), merged
        timings.append(ms)
    return timings


def measure_full(
    client: Client,
    extras: Extras,
    league: League,
    season_id: int,
    workers: int,
    database: str,
    office: str,
) -> dict[str, float]:
    """Every timing on the full league, in ms."""
    venue = next(iter(extras.slots))
    warmup = 5 * workers
    floor = statistics.median(repeat(client, "/health", FLOOR_SAMPLES, warmup))
    venues = list(extras.slots)
    posts = [extras.post(client, venues[i % len(venues)]) for i in range(FULL_POSTS)]
    progress(database, f"report p50 {statistics.median(posts):.1f} ms; standings")
    standings = f"/api/v1/seasons/{season_id}/venues/{venue}/standings"
    standings_warm = repeat(client, standings, WARM_SAMPLES * 2, warmup)
    # Written at every measured venue in turn (this one among them): each venue has 98 sessions of
    # today, and the writes after the season take session numbers that never go down (R20's order).
    turns = itertools.cycle(venues)
    standings_cold = after_writes(
        STANDINGS_CYCLES, lambda: extras.post(client, next(turns)), lambda: client.get(standings)
    )
    progress(database, "qualifiers")
    qualifiers = f"/api/v1/seasons/{season_id}/qualifiers"
    # The worker this connection keeps to has computed no lists yet: from scratch.
    qualifiers_first = client.get(qualifiers)
    qualifiers_warm = repeat(client, qualifiers, QUALIFIER_WARM, 2 * workers)
    others = turns
    qualifiers_cold = after_writes(
        QUALIFIER_CYCLES, lambda: extras.post(client, next(others)), lambda: client.get(qualifiers)
    )
    progress(database, f"qualifiers after write {statistics.median(qualifiers_cold):.0f} ms; reports pages")
    middle = max(1, len(league.current) // PAGE_SIZE // 2)
    page = f"/api/v1/tournaments?season_id={season_id}&per_page={PAGE_SIZE}&page={middle}"
    page_warm = repeat(client, page, WARM_SAMPLES, warmup)
    page_cold = after_writes(COLD_CYCLES, lambda: extras.post(client, next(others)), lambda: client.get(page))
    progress(database, "player profiles")
    home = venues[1 % len(venues)]
    player = league.regulars[home][0]
    profile = f"/api/v1/players/{player}"
    profile_warm = repeat(client, profile, WARM_SAMPLES, warmup)
    profile_cold = after_writes(
        PROFILE_CYCLES, lambda: extras.post(client, home, including=player), lambda: client.get(profile)
    )
    progress(database, "merges")
    merges = merge_timings(client, extras, league, office)
    return {
        "health": floor,
        "merge_p50": statistics.median(merges),
        "merge_max": max(merges),
        "report_p50": statistics.median(posts),
        "report_p99": percentile(posts, 0.99),
        "standings_warm_p50": statistics.median(standings_warm),
        "standings_warm_p99": percentile(standings_warm, 0.99),
        "standings_after_write_p50": statistics.median(standings_cold),
        "standings_after_write_p99": percentile(standings_cold, 0.99),
        "qualifiers_first": qualifiers_first,
        "qualifiers_warm": statistics.median(qualifiers_warm),
        "qualifiers_scratch": statistics.median(qualifiers_cold),
        "qualifiers_scratch_max": max(qualifiers_cold),
        "page_warm_p50": statistics.median(page_warm),
        "page_after_write_p50": statistics.median(page_cold),
        "profile_warm_p50": statistics.median(profile_warm),
        "profile_after_write_p50": statistics.median(profile_cold),
    }


def measured_venues(league: League) -> list[int]:
    venues = sorted(league.venue_region)
    count = min(MEASURED_VENUES, len(venues))
    return [venues[i * len(venues) // count] for i in range(count)]


def run_ratings_only(url: str, database: str, league: League) -> tuple[dict[str, dict[str, float]], int]:
    """`--ratings-only`: every season's reports loaded in bulk, the current one's too (about
    500,000 results at scale 1; the ratings rebuilt, as a real league's would be), then R20's two
    figures alone."""
    upgrade(alembic_config(url))
    engine = make_engine(url)
    began = time.perf_counter()
    bulk_league(engine, league, with_current=True)
    progress(database, f"league loaded in {time.perf_counter() - began:.1f} s")
    bulk_history(engine, league, with_current=True)
    progress(database, f"history loaded in {time.perf_counter() - began:.1f} s in all")
    engine.dispose()
    ratings = timed_ratings(url, league, database)
    return {f"ratings_{name}": {"value": value} for name, value in ratings.items()}, 0


def run_database(
    url: str,
    database: str,
    league: League,
    seed: int,
    workers: int,
    work_dir: Path,
    bulk_current: bool = False,
    skip_ratings: bool = False,
) -> tuple[dict[str, dict[str, float]], int]:
    """Everything on one scratch database: load, serve, measure. Returns the measures and how many
    reports were posted for measuring (beside the season's own). With `bulk_current`, the current
    season's reports are loaded in bulk with the history (`--bulk-current`: ten times the league
    would take an hour over HTTP), not posted. With `skip_ratings`, R20's own figures (a full
    rebuild timed again, replays) are left out (`--skip-ratings`: at ten times the league they
    take longer than the rest)."""
    upgrade(alembic_config(url))
    engine = make_engine(url)
    venues = measured_venues(league)
    began = time.perf_counter()
    bulk_league(engine, league)
    bulk_s = time.perf_counter() - began
    office, hosts = create_keys(engine, venues)
    extras = Extras(league, venues, hosts, random.Random(seed + 1))
    log_path = work_dir / f"gunicorn-{database}.log"
    progress(database, f"league loaded in {bulk_s:.1f} s; serving with {workers} workers")
    with serve(url, workers, log_path) as server:
        client = Client(server.port)
        starts_on, ends_on = league.seasons[-1]
        season, _ms = client.post(
            "/api/v1/seasons",
            {"name": "National", "starts_on": starts_on.isoformat(), "ends_on": ends_on.isoformat()},
            office,
        )
        # Untimed first: each worker's first writes pay for its start (as the loaded league's did).
        posts = [extras.post(client, venues[i % len(venues)]) for i in range(5 * workers + EMPTY_POSTS)]
        empty = posts[5 * workers :]
    progress(database, f"empty league: report p50 {statistics.median(empty):.1f} ms; loading history")
    began = time.perf_counter()
    # The season made above is the current one (id 5, after the four of history).
    bulk_history(engine, league, with_current=bulk_current)
    bulk_s += time.perf_counter() - began
    engine.dispose()
    progress(database, f"history loaded (bulk load {bulk_s:.1f} s in all); the current season")
    with serve(url, workers, log_path) as server:
        client = Client(server.port)
        season_s = 0.0 if bulk_current else load_season(client, league.current, office, workers, database)
        # A league publishes each season's lists once it has ended (R12): history is read as
        # published, as a real league's is.
        for history_id in range(1, len(league.history) + 1):
            client.post(f"/api/v1/seasons/{history_id}/qualifiers/publish", {}, office)
        progress(database, f"current season posted in {season_s:.0f} s, history published; measuring")
        extras.to_the_end()
        timings = measure_full(client, extras, league, season["id"], workers, database, office)
        peak_mb = server.worker_peak_mb()
    # History alone, compared like with like: reports on the full league, posted to fresh workers
    # after the same untimed warm-up as on the empty one (the workers above had served the whole
    # season first).
    with serve(url, workers, log_path) as server:
        client = Client(server.port)
        posts = [extras.post(client, venues[i % len(venues)]) for i in range(5 * workers + EMPTY_POSTS)]
        full_fresh = posts[5 * workers :]
        peak_mb = max(peak_mb, server.worker_peak_mb())
    ratings = {} if skip_ratings else timed_ratings(url, league, database)
    timings["report_empty_p50"] = statistics.median(empty)
    timings["report_full_fresh_p50"] = statistics.median(full_fresh)
    floor = timings["health"]
    measures: dict[str, dict[str, float]] = {
        key: {"ms": round(ms, 3), "ratio": round(ms / floor, 2)} for key, ms in timings.items()
    }
    measures["report_full_over_empty"] = {
        "value": round(timings["report_full_fresh_p50"] / timings["report_empty_p50"], 2)
    }
    measures["peak_worker_mb"] = {"value": round(peak_mb, 1)}
    measures["bulk_load_s"] = {"value": round(bulk_s, 1)}
    if not bulk_current:
        measures["season_load_s"] = {"value": round(season_s, 1)}
        measures["season_reports_per_s"] = {"value": round(len(league.current) / season_s, 1)}
    for name, value in ratings.items():
        measures[f"ratings_{name}"] = {"value": value}
    return measures, extras.posted


# --- output ---------------------------------------------------------------------------------


def number(value: float) -> str:
    if value >= 100:
        return f"{value:.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def table_rows(results: dict[str, dict[str, dict[str, float]]]) -> list[list[str]]:
    rows = []
    present = set().union(*(measures.keys() for measures in results.values()))
    for key, label in ROWS:
        if key not in present:
            continue  # not measured in this run (`--ratings-only`)
        row = [label]
        for measures in results.values():
            entry = measures[key]
            if "ms" in entry:
                row += [number(entry["ms"]), number(entry["ratio"])]
            else:
                row += [number(entry["value"]), ""]
        rows.append(row)
    return rows


def headers(databases: list[str]) -> list[str]:
    return ["measure"] + [h for db in databases for h in (f"{db} ms", "×floor")]


def text_table(results: dict[str, dict[str, dict[str, float]]]) -> str:
    head = headers(list(results))
    rows = table_rows(results)
    widths = [max(len(line[i]) for line in [head, *rows]) for i in range(len(head))]
    lines = []
    for line in [head, *rows]:
        cells = [line[0].ljust(widths[0])] + [
            cell.rjust(w) for cell, w in zip(line[1:], widths[1:], strict=True)
        ]
        lines.append("   ".join(cells))
    return "\n".join(lines)


def markdown_table(results: dict[str, dict[str, dict[str, float]]]) -> str:
    head = headers(list(results))
    lines = ["| " + " | ".join(head) + " |", "| --- |" + " ---: |" * (len(head) - 1)]
    lines += ["| " + " | ".join(row) + " |" for row in table_rows(results)]
    return "\n".join(lines)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="shrinks venues and players (0.05: a smoke run of a minute or two)",
    )
    parser.add_argument("--databases", default="sqlite,postgresql", help="comma-separated: sqlite,postgresql")
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers, and client threads to load")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    parser.add_argument(
        "--bulk-current",
        action="store_true",
        help="load the current season in bulk too, not over HTTP (for --scale 10)",
    )
    parser.add_argument(
        "--skip-ratings",
        action="store_true",
        help="leave out R20's own figures (a timed full rebuild, replays): minutes at --scale 10",
    )
    parser.add_argument(
        "--ratings-only",
        action="store_true",
        help="R20 alone: load the league and time a full rating rebuild and a report's rating share",
    )
    args = parser.parse_args()
    args.databases = [name.strip() for name in args.databases.split(",") if name.strip()]
    unknown = set(args.databases) - {"sqlite", "postgresql"}
    if unknown or not args.databases:
        parser.error(f"--databases: sqlite and/or postgresql, not {', '.join(sorted(unknown)) or 'nothing'}")
    return args


def main() -> None:
    args = parse_args()
    load_before = uptime()  # beside the figures: a noisy day is visible
    began = time.perf_counter()
    league = generate(args.seed, args.scale)
    counts = league.counts()
    progress("league", f"generated in {time.perf_counter() - began:.1f} s: {json.dumps(counts)}")
    results: dict[str, dict[str, dict[str, float]]] = {}
    extra_reports: dict[str, int] = {}
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="league-national-") as work_dir:
        for database in args.databases:
            postgres = args.postgres_url if database == "postgresql" else None
            try:
                with scratch_database(postgres) as url:
                    if args.ratings_only:
                        results[database], extra_reports[database] = run_ratings_only(url, database, league)
                    else:
                        results[database], extra_reports[database] = run_database(
                            url,
                            database,
                            league,
                            args.seed,
                            args.workers,
                            Path(work_dir),
                            args.bulk_current,
                            args.skip_ratings,
                        )
            except BenchFailure as failure:
                failures.append(f"{database}: {failure}")
                print(f"FAILED {failures[-1]}", file=sys.stderr, flush=True)
    if not results:
        sys.exit("\n".join(failures))
    report = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": args.seed,
        "scale": args.scale,
        "workers": args.workers,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_before": load_before,
            "load_after": uptime(),
        },
        "league": {**counts, "extra_reports": extra_reports},
        "databases": results,
    }
    if args.ratings_only and args.out == DEFAULT_OUT:
        args.out = args.out.with_name("national-ratings.json")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(text_table(results))
    if args.markdown:
        print()
        print(markdown_table(results))
    print(f"\n{json.dumps(counts)}\nwritten to {args.out}")
    if failures:
        sys.exit("\n".join(failures))


if __name__ == "__main__":
    main()
