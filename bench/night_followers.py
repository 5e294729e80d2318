"""What following one night costs (R22): a venue's TV and 50 phones poll the night while the host
plays it.

The demo league (its night in progress at Red Lion), in process (Flask's test client, one
thread). Every follower polls both the night's answer (GET /api/v1/nights/{id}) and the live page
(GET /embed/venues/{id}/night) with the ETag it last got. The host sends one action every
`--every` rounds: a sign-in, the draw, or a bust-out. It prints:
- how many polls were 304s;
- how many were 200s, and how many of those the service computed (the rest came from its
  store of answers);
- the p50 and p99 of each kind, and GET /health as the floor.

    .venv/bin/python bench/night_followers.py                    # SQLite
    .venv/bin/python bench/night_followers.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from bench.scratch import scratch_database  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def count_computed() -> list[int]:
    """How many times the night's state is computed (by the answer or the page's view), counted
    in a list that the views' calls bump."""
    import api.embed.routes
    import api.nights.routes

    calls = [0]
    for module in (api.nights.routes, api.embed.routes):
        computing = module.night_view

        def counted(*args: Any, computing: Any = computing, **kwargs: Any) -> Any:
            calls[0] += 1
            return computing(*args, **kwargs)

        module.night_view = counted  # type: ignore[attr-defined]
    return calls


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--followers", type=int, default=51, help="the TV and 50 phones")
    parser.add_argument("--rounds", type=int, default=40, help="polls per follower")
    parser.add_argument("--every", type=int, default=5, help="rounds between the host's actions")
    parser.add_argument("--postgres", default=None, help="a PostgreSQL server's URL (default: SQLite)")
    args = parser.parse_args()
    with scratch_database(args.postgres) as url:
        upgrade(alembic_config(url))
        app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False})
        runner = app.test_cli_runner()
        assert runner.invoke(args=["demo", "load"]).exit_code == 0
        office = runner.invoke(args=["keys", "create", "--role", "office", "--name", "Bench"]).output.split()[
            -1
        ]
        client = app.test_client()
        computed = count_computed()
        auth = {"Authorization": f"Bearer {office}"}
        night = client.get("/api/v1/venues/2/nights", headers=auth).get_json()["items"][0]
        paths = [f"/api/v1/nights/{night['id']}", "/embed/venues/2/night"]
        tags: dict[tuple[int, str], str] = {}
        timings: dict[str, list[float]] = {"304": [], "200": [], "health": []}
        actions = 0
        playing = [
            p["player_id"] for p in client.get(paths[0]).get_json()["players"] if p["status"] == "playing"
        ]
        for round_number in range(args.rounds):
            if round_number and round_number % args.every == 0 and len(playing) > 2:
                state = client.get(paths[0]).get_json()
                body: dict[str, Any] = {
                    "action_id": f"bench-{round_number:06d}",
                    "sequence": state["sequence"],
                    "type": "bust",
                    "players": [{"player_id": playing.pop()}],
                }
                assert (
                    client.post(f"/api/v1/nights/{night['id']}/actions", json=body, headers=auth).status_code
                    == 200
                )
                actions += 1
            for follower in range(args.followers):
                for path in paths:
                    headers = {"Accept": "text/html"} if path.startswith("/embed/") else {}
                    tag = tags.get((follower, path))
                    if tag:
                        headers["If-None-Match"] = tag
                    started = time.perf_counter()
                    answer = client.get(path, headers=headers)
                    spent = (time.perf_counter() - started) * 1000
                    timings[str(answer.status_code)].append(spent)
                    if answer.status_code == 200:
                        tags[(follower, path)] = answer.headers["ETag"]
            started = time.perf_counter()
            client.get("/health")
            timings["health"].append((time.perf_counter() - started) * 1000)
        polls = args.followers * args.rounds * len(paths)
        print(f"database: {'PostgreSQL' if args.postgres else 'SQLite'}")
        print(
            f"polls: {polls} by {args.followers} followers over {args.rounds} rounds; host actions: {actions}"
        )
        print(f"304s: {len(timings['304'])} ({100 * len(timings['304']) / polls:.1f}%)")
        print(f"200s: {len(timings['200'])}, of which computed by the service: {computed[0]}")
        for kind in ("304", "200", "health"):
            values = timings[kind]
            if values:
                print(
                    f"{kind:>7}: p50 {statistics.median(values):6.2f} ms"
                    f"   p99 {percentile(values, 0.99):6.2f} ms"
                )


if __name__ == "__main__":
    main()
