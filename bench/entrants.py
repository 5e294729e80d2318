"""Benchmark: how a report's cost grows with its entrants, up to the 10,000 a league may allow.

On the national league's 30,000 players (bench/national.py's generator, no results), served by
gunicorn as in production, it posts reports of 100, 1,000 and 10,000 entrants of three kinds:
registered players named by id; new players with everyday names (some close to registered
players or to each other: R5 notices); and new players who all share three names (a sign-in
sheet pasted many times over). Each report goes to a venue of its own. After each it reads that
venue's standings (first read and its 304 revalidation) and the profile of a player in the
middle of the field. Prints a table: milliseconds, and the cost per entrant against the
100-entrant report's (1.0 is linear growth). Writes JSON. It does not judge the figures.

    .venv/bin/python bench/entrants.py                          # SQLite and PostgreSQL
    .venv/bin/python bench/entrants.py --databases sqlite --sizes 100,1000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.national import (  # noqa: E402
    DEFAULT_POSTGRES,
    FIRST_NAMES,
    SURNAME_ENDS,
    SURNAME_STARTS,
    BenchFailure,
    Client,
    bulk_league,
    create_keys,
    generate,
    progress,
    serve,
)
from bench.scratch import scratch_database, today  # noqa: E402
from models.infra.db import make_engine  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402

KINDS = ("registered", "new", "same names")
# New players' everyday names: a first name from A to Z and a surname of syllables, or (1 in 5)
# a name of the national league's, which its players may well share.
NEW_FIRST_NAMES = [
    *("Abel", "Bria", "Cole", "Dora", "Egon", "Fay", "Gus", "Hana", "Ivo", "Jade", "Kai", "Lola", "Milo"),
    *("Nell", "Otis", "Pia", "Quin", "Rosa", "Saul", "Tara", "Uma", "Vic", "Wren", "Xena", "Yves", "Zoe"),
]
SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ren",
    "sa",
    "to",
    "vel",
    "dor",
    "an",
    "ber",
    "cy",
    "fen",
    "gal",
    "hol",
    "ir",
    "jas",
    "kel",
    "mor",
    "nes",
    "pra",
    "quil",
    "ros",
    "sten",
    "ul",
]
SAME_NAMES = ("Ann Ashby", "Ben Bellford", "Cara Clayton")


def results(kind: str, size: int, number: int, rng: random.Random, players: int) -> list[dict[str, Any]]:
    """A finishing order of `size` rows of a kind; `number` keeps each report's emails its own."""
    if kind == "registered":
        return [
            {"place": p, "player_id": pid} for p, pid in enumerate(rng.sample(range(1, players + 1), size), 1)
        ]
    rows = []
    for place in range(1, size + 1):
        if kind == "new" and rng.random() < 0.2:
            name = f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAME_STARTS)}{rng.choice(SURNAME_ENDS)}"
        elif kind == "new":
            surname = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).title()
            name = f"{rng.choice(NEW_FIRST_NAMES)} {surname}"
        else:
            name = SAME_NAMES[place % len(SAME_NAMES)]
        rows.append(
            {"place": place, "new_player": {"full_name": name, "email": f"r{number}p{place}@example.org"}}
        )
    return rows


def run_database(
    url: str, database: str, sizes: list[int], seed: int, work_dir: Path
) -> list[dict[str, Any]]:
    upgrade(alembic_config(url))
    engine = make_engine(url)
    league = generate(seed, 1.0)
    league.history.clear()
    bulk_league(engine, league)
    venues = list(range(1, len(KINDS) * len(sizes) + 1))
    office, hosts = create_keys(engine, venues)
    engine.dispose()
    rng = random.Random(seed)
    rows = []
    with serve(url, 1, work_dir / f"gunicorn-{database}.log") as server:
        client = Client(server.port)
        starts_on = today() - timedelta(days=27)
        season, _ms = client.post(
            "/api/v1/seasons",
            {"name": "Entrants", "starts_on": starts_on.isoformat(), "ends_on": today().isoformat()},
            office,
        )
        status, answer, _ms = client.call(
            "PATCH", "/api/v1/league-settings", {"max_entrants": max(sizes)}, office
        )
        if status != 200:
            raise BenchFailure(f"PATCH /api/v1/league-settings answered {status}: {answer[:500]!r}")
        # Untimed: the worker's first report pays for its start (the office's, 27 days ago: with
        # the reason R17 asks of it).
        warm = {
            "venue_id": venues[0],
            "date": starts_on.isoformat(),
            "session": 1,
            "kind": "regular",
            "reason": "Bench: warming the worker",
        }
        client.post("/api/v1/tournaments", {**warm, "results": results("registered", 10, 0, rng, 30)}, office)
        number = 0
        for kind in KINDS:
            for size in sizes:
                number += 1
                venue = venues[number - 1]
                body = {
                    "venue_id": venue,
                    "date": today().isoformat(),
                    "session": 1,
                    "kind": "regular",
                    "results": results(kind, size, number, rng, len(league.home)),
                }
                report, post_ms = client.post("/api/v1/tournaments", body, hosts[venue])
                standings = f"/api/v1/seasons/{season['id']}/venues/{venue}/standings"
                standings_ms = client.get(standings)
                status, _body, revalidate_ms = client.call(
                    "GET", standings, headers=etag_of(client, standings)
                )
                if status != 304:
                    raise BenchFailure(f"GET {standings} with its ETag answered {status}")
                player = report["results"][size // 2]["player"]["id"]
                profile_ms = client.get(f"/api/v1/players/{player}")
                warnings = sum(1 for w in report["warnings"] if w["code"] == "possible_duplicate")
                rows.append(
                    {
                        "kind": kind,
                        "entrants": size,
                        "post_ms": round(post_ms, 1),
                        "per_entrant_ms": round(post_ms / size, 3),
                        "standings_ms": round(standings_ms, 1),
                        "revalidate_ms": round(revalidate_ms, 1),
                        "profile_ms": round(profile_ms, 1),
                        "duplicate_notices": warnings,
                    }
                )
                progress(
                    database, f"{kind}, {size} entrants: {post_ms:.0f} ms ({warnings} duplicate notices)"
                )
    for row in rows:
        smallest = next(r for r in rows if r["kind"] == row["kind"] and r["entrants"] == min(sizes))
        row["growth"] = round(row["per_entrant_ms"] / smallest["per_entrant_ms"], 2)
    return rows


def etag_of(client: Client, path: str) -> dict[str, str]:
    status, _body, _ms = client.call("GET", path)
    etag = client.last_headers.get("ETag") if status == 200 else None
    if etag is None:
        raise BenchFailure(f"GET {path} gave no ETag")
    return {"If-None-Match": etag}


COLUMNS = (
    ("kind", "kind"),
    ("entrants", "entrants"),
    ("post_ms", "post (ms)"),
    ("per_entrant_ms", "per entrant (ms)"),
    ("growth", "per entrant vs smallest (×)"),
    ("standings_ms", "standings (ms)"),
    ("revalidate_ms", "304 (ms)"),
    ("profile_ms", "profile (ms)"),
    ("duplicate_notices", "R5 notices"),
)


def table(results: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    for database, rows in results.items():
        lines.append(f"\n{database}")
        lines.append("| " + " | ".join(title for _, title in COLUMNS) + " |")
        lines.append("|" + "---|" * len(COLUMNS))
        lines += ["| " + " | ".join(str(row[key]) for key, _ in COLUMNS) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sizes", default="100,1000,10000", help="comma-separated entrants per report")
    parser.add_argument("--databases", default="sqlite,postgresql", help="comma-separated: sqlite,postgresql")
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "entrants.json")
    args = parser.parse_args()
    sizes = sorted(int(size) for size in args.sizes.split(","))
    results: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="league-entrants-") as work:
        for database in args.databases.split(","):
            with scratch_database(args.postgres_url if database == "postgresql" else None) as url:
                results[database] = run_database(url, database, sizes, args.seed, Path(work))
    print(table(results))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
