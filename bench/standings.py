"""Benchmark: a season of realistic size, how fast the website's pages answer (the API's
standings, and the pages other websites frame), and what the sanction check (R16) costs a report
when the league has thousands of sanctions, and what scoring a report by a formula chart (R7)
costs beside a bands chart.

30 venues x 12 weekly tournaments x ~25 entrants (about 9,000 results), on a scratch database
(SQLite by default; pass a PostgreSQL URL as the first argument). Prints its figures; it does not
judge them: compare ratios within one run (machines here are noisy).

    .venv/bin/python bench/standings.py
    .venv/bin/python bench/standings.py postgresql+psycopg://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import tracemalloc
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy.engine import make_url  # noqa: E402

from app import create_app  # noqa: E402
from bench.scratch import scratch_database  # noqa: E402
from models.actor import SYSTEM  # noqa: E402
from models.entities import PointsChart  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402
from models.rules.reports import score_report  # noqa: E402
from models.services.players.writes import create_player  # noqa: E402
from models.services.points_charts.writes import create_chart  # noqa: E402
from models.services.regions.writes import create_region  # noqa: E402
from models.services.reports.scoring import chart_rule  # noqa: E402
from models.services.reports.writes import submit_report  # noqa: E402
from models.services.sanctions.writes import issue_sanction  # noqa: E402
from models.services.seasons.writes import create_season  # noqa: E402
from models.services.venues.writes import create_venue  # noqa: E402

VENUES, WEEKS, ENTRANTS, PLAYERS = 30, 12, 25, 1500
SANCTIONS, BIG_FIELD, WRITES = 5000, 40, 20


def load(app, rng: random.Random) -> tuple[int, list[int], float]:  # type: ignore[no-untyped-def]
    session = app.extensions["league_db"].sessionmaker()
    start = date.today() - timedelta(weeks=WEEKS + 1)
    region = create_region(session, SYSTEM, "Bench region")
    venues = [
        create_venue(session, SYSTEM, {"name": f"Venue {i}", "region_id": region.id, "active": True})
        for i in range(VENUES)
    ]
    season = create_season(
        session,
        SYSTEM,
        {
            "name": "Bench season",
            "starts_on": start,
            "ends_on": start + timedelta(weeks=WEEKS),
            "participation_points": 5,
            "attendance_bonus": [{"events": 6, "points": 20}],
        },
    )
    players = [
        create_player(session, SYSTEM, {"full_name": f"Player {i} Bench{i}", "email": f"p{i}@example.org"})[
            0
        ].id
        for i in range(PLAYERS)
    ]
    session.commit()
    began = time.perf_counter()
    reports = 0
    for week in range(WEEKS):
        for offset, venue in enumerate(venues):
            pool = players[offset * 50 : offset * 50 + 50]  # each venue has its regulars
            field = rng.sample(pool, ENTRANTS - 3) + rng.sample(players, 3)
            field = list(dict.fromkeys(field))
            submit_report(
                session,
                SYSTEM,
                {
                    "venue_id": venue.id,
                    "date": start + timedelta(weeks=week, days=offset % 7),
                    "session": 1,
                    "kind": "regular",
                    "results": [
                        {"place": p, "player_id": pid, "status": "played"}
                        for p, pid in enumerate(field, start=1)
                    ],
                },
            )
            reports += 1
        session.commit()
    load_seconds = time.perf_counter() - began
    session.close()
    return season.id, [v.id for v in venues], load_seconds / reports


def big_report_writes(app, venue_id: int, day: date, first_session: int, rng: random.Random) -> list[float]:  # type: ignore[no-untyped-def]
    """Seconds to store each of WRITES reports of BIG_FIELD players (through the service)."""
    session = app.extensions["league_db"].sessionmaker()
    times = []
    for n in range(WRITES):
        field = rng.sample(range(1, PLAYERS + 1), BIG_FIELD)
        began = time.perf_counter()
        submit_report(
            session,
            SYSTEM,
            {
                "venue_id": venue_id,
                "date": day,
                "session": first_session + n,
                "kind": "regular",
                "results": [
                    {"place": p, "player_id": pid, "status": "played"} for p, pid in enumerate(field, 1)
                ],
            },
        )
        session.commit()
        times.append(time.perf_counter() - began)
    session.close()
    return times


def add_sanctions(app, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    """SANCTIONS records across the league: mostly warnings and reminders, some suspensions and
    bans that ended before the season (so reports are still accepted)."""
    session = app.extensions["league_db"].sessionmaker()
    long_ago = date.today() - timedelta(days=800)
    for n in range(SANCTIONS):
        kind = ("warning", "reminder", "suspension", "venue_ban")[n % 4]
        data = {
            "player_id": rng.randrange(1, PLAYERS + 1),
            "kind": kind,
            "category": "late_arrival",
            "first_day": long_ago,
            "last_day": long_ago + timedelta(days=20),
            "reason": "bench",
        }
        if kind == "venue_ban":
            data["venue_id"] = rng.randrange(1, VENUES + 1)
        issue_sanction(session, SYSTEM, data)
    session.commit()
    session.close()


SCORINGS = 3000
BANDS = [
    {"min_entrants": 2, "max_entrants": 9, "points": [30, 20, 10]},
    {"min_entrants": 10, "max_entrants": 19, "points": [50, 40, 30, 20, 10]},
    {"min_entrants": 20, "max_entrants": None, "points": [70, 60, 50, 40, 30, 20, 10]},
]


def chart_scoring(app, rng: random.Random) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """R7: seconds to score one report (10-40 entrants) by a chart loaded from the database, as
    a report or a rescore does (chart_rule, then score_report), for a bands chart and a formula
    chart (the league's own, so it is parsed and checked like any): each the median of
    SCORINGS; and the formula's check when saved (every field 2..max_entrants)."""
    session = app.extensions["league_db"].sessionmaker()
    bands = create_chart(session, SYSTEM, {"name": "Bench bands", "kind": "bands", "bands": BANDS})
    began = time.perf_counter()
    formula = create_chart(
        session,
        SYSTEM,
        {"name": "Bench formula", "kind": "formula", "formula": "sqrt(n) / sqrt(p) * 100 + 0 * k"},
    )
    saved = time.perf_counter() - began
    session.commit()
    fields = [rng.randrange(10, 41) for _ in range(SCORINGS)]
    figures = {"formula saved (checked)": saved}
    for name, chart_id in (("bands", bands.id), ("formula", formula.id)):
        chart = session.get(PointsChart, chart_id)
        times = []
        for entrants in fields:
            entries = [(place, "played") for place in range(1, entrants + 1)]
            began = time.perf_counter()
            score_report(chart_rule(chart), entries, 0, False)
            times.append(time.perf_counter() - began)
        figures[name] = statistics.median(times)
    session.close()
    return figures


def print_scoring(scoring: dict[str, float]) -> None:
    print(f"score a report, bands chart   {scoring['bands'] * 1e6:8.1f} us  (median of {SCORINGS})")
    print(f"score a report, formula chart {scoring['formula'] * 1e6:8.1f} us")
    print(f"formula / bands scoring       {scoring['formula'] / scoring['bands']:8.2f} x  (R7: at most 1.5)")
    print(f"formula chart saved (checked) {scoring['formula saved (checked)'] * 1000:8.2f} ms  (n = 2..500)")


def timed(client, path: str, repeat: int, headers: dict[str, str] | None = None) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        response = client.get(path, headers=headers or {})
        times.append(time.perf_counter() - began)
        assert response.status_code in (200, 304), response.status_code
    return times


def main() -> None:
    with scratch_database(sys.argv[1] if len(sys.argv) > 1 else None) as url:
        upgrade(alembic_config(url))
        app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False, "LOG_LEVEL": "WARNING"})
        rng = random.Random(7)
        season_id, venue_ids, per_report = load(app, rng)
        client = app.test_client()
        path = f"/api/v1/seasons/{season_id}/venues/{venue_ids[0]}/standings"
        timed(client, path, 3)  # warm up
        json_times = timed(client, path, 30)
        tracemalloc.start()  # a separate pass: tracing slows every allocation
        timed(client, path, 3)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        etag = client.get(path).headers["ETag"]
        cached = timed(client, path, 30, {"If-None-Match": etag})
        csv_times = timed(client, path + "?format=csv", 30)
        health = timed(client, "/health", 30)
        # The pages for other websites: computed once, then served as the API's answers are.
        embed = f"/embed/seasons/{season_id}/venues/{venue_ids[0]}/standings"
        embed_first = timed(client, embed, 1)
        embed_times = timed(client, embed, 30)
        embed_cached = timed(client, embed, 30, {"If-None-Match": client.get(embed).headers["ETag"]})
        region_id = client.get(f"/api/v1/venues/{venue_ids[0]}").get_json()["region_id"]
        region_page = f"/embed/seasons/{season_id}/regions/{region_id}/qualifiers"
        region_first = timed(client, region_page, 1)
        region_times = timed(client, region_page, 30)
        day = date.today() - timedelta(weeks=3)  # inside the season
        without = big_report_writes(app, venue_ids[1], day, 2, rng)
        add_sanctions(app, rng)
        with_sanctions = big_report_writes(app, venue_ids[1], day, 2 + WRITES, rng)
        ms = lambda xs: statistics.median(xs) * 1000  # noqa: E731
        print(f"database                      {make_url(url).get_backend_name()}")
        print(
            f"season size                   {VENUES} venues x {WEEKS} weeks x {ENTRANTS} entrants "
            f"= {VENUES * WEEKS * ENTRANTS} results"
        )
        print(f"report write (service)        {per_report * 1000:8.2f} ms per report")
        print(
            f"standings JSON, median        {ms(json_times):8.2f} ms  (p90 "
            f"{sorted(json_times)[26] * 1000:.2f} ms)"
        )
        print(f"standings 304 (If-None-Match) {ms(cached):8.2f} ms")
        print(f"standings CSV, median         {ms(csv_times):8.2f} ms")
        print(f"GET /health, median           {ms(health):8.2f} ms   (floor: app + one query)")
        print(f"embed standings page, first   {ms(embed_first):8.2f} ms  (table, race of 5, chart)")
        print(f"embed standings page, median  {ms(embed_times):8.2f} ms")
        print(f"embed page / standings JSON   {ms(embed_times) / ms(json_times):8.2f} x  (both warm)")
        print(f"embed standings page 304      {ms(embed_cached):8.2f} ms")
        print(f"embed region qualifiers first {ms(region_first):8.2f} ms  ({VENUES} venues' lists)")
        print(f"embed region qualifiers median{ms(region_times):8.2f} ms")
        print(f"standings / health ratio      {ms(json_times) / ms(health):8.1f} x")
        print(f"peak Python memory, standings {peak / 1024:8.0f} KiB")
        print(f"report of {BIG_FIELD}, no sanctions     {ms(without):8.2f} ms")
        print(f"report of {BIG_FIELD}, {SANCTIONS} sanctions {ms(with_sanctions):8.2f} ms")
        print(f"sanction check cost ratio     {ms(with_sanctions) / ms(without):8.2f} x  (R16: one query)")
        print_scoring(chart_scoring(app, rng))


if __name__ == "__main__":
    main()
