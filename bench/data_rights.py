"""Benchmark: what sealing the audit log's personal values (R21) costs, in-process on a scratch
database.

Posts reports that register N new players each, up to the default max_entrants (every new
player's audit entry carries its personal fields, each sealed under the player's own new key),
once as the service runs and once with sealing switched off (the entries stored as they were
before R21), and prints both (medians of 3); then reads pages of the audit log (100 entries a
page, every value opened; each page once, so none is answered from the cache), one player's data
export (never cached), and one erasure. Prints milliseconds; it does not judge the figures.

    .venv/bin/python bench/data_rights.py                     # SQLite
    .venv/bin/python bench/data_rights.py postgresql+psycopg://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import statistics
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from bench.scratch import scratch_database  # noqa: E402
from models.actor import SYSTEM  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402
from models.services.api_keys.writes import create_key  # noqa: E402
from models.services.audit_log import writes as audit  # noqa: E402

SIZES = (100, 500)
REPEAT = 3


@contextmanager
def sealing_off() -> Iterator[None]:
    """The audit entries stored as they were before R21: nothing sealed."""
    sealed = audit.seal_entries

    def plain(_session: Any, _entity: str, rows: Any) -> list[Any]:
        return [(before, after, reason) for _id, before, after, reason in rows]

    audit.seal_entries = plain  # type: ignore[assignment]
    try:
        yield
    finally:
        audit.seal_entries = sealed  # type: ignore[assignment]


def ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:8.1f}"


def main() -> None:
    url_arg = sys.argv[1] if len(sys.argv) > 1 else None
    with scratch_database(url_arg) as url:
        upgrade(alembic_config(url))
        app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False, "LOG_LEVEL": "WARNING"})
        db = app.extensions["league_db"]
        with db.sessionmaker() as session, session.begin():
            _key, secret = create_key(session, SYSTEM, "Office: bench", "office", [])
        client = app.test_client()
        office = {"Authorization": f"Bearer {secret}"}

        def post(path: str, body: dict[str, Any], status: int = 201) -> Any:
            response = client.post(path, json=body, headers=office)
            assert response.status_code == status, response.get_data(as_text=True)
            return response.get_json()

        region = post("/api/v1/regions", {"name": "Bench"})["id"]
        today = date.today()  # noqa: DTZ011 - a bench's own season around its run
        season = post(
            "/api/v1/seasons",
            {
                "name": "Bench season",
                "starts_on": (today - timedelta(days=400)).isoformat(),
                "ends_on": (today + timedelta(days=30)).isoformat(),
            },
        )["id"]
        day = iter(range(1, 400))
        print(f"database: {url.split(':')[0]}")
        print(f"{'report of N new players':<34} {'sealed ms':>9} {'plain ms':>9}")
        first_player = None
        for size in SIZES:
            timings: dict[str, list[float]] = {"sealed": [], "plain": []}
            for mode in ("sealed", "plain", "sealed", "plain", "sealed", "plain")[: REPEAT * 2]:
                venue = post("/api/v1/venues", {"name": f"V {uuid.uuid4().hex[:8]}", "region_id": region})[
                    "id"
                ]
                rows = [
                    {
                        "place": place,
                        "new_player": {
                            "full_name": f"Bench{uuid.uuid4().hex[:6]} Person{place}",
                            "email": f"{uuid.uuid4().hex[:12]}@example.org",
                        },
                    }
                    for place in range(1, size + 1)
                ]
                body = {
                    "venue_id": venue,
                    "season_id": season,
                    "date": (today - timedelta(days=next(day))).isoformat(),
                    "results": rows,
                    "reason": "Bench: entered by the office",  # R17: most nights are past a host's 7 days
                }
                began = time.perf_counter()
                if mode == "plain":
                    with sealing_off():
                        report = post("/api/v1/tournaments", body)
                else:
                    report = post("/api/v1/tournaments", body)
                timings[mode].append(time.perf_counter() - began)
                if first_player is None and mode == "sealed":
                    first_player = report["results"][0]["player"]["id"]
            print(f"{size:>6} new players{'':<20} {ms(timings['sealed'])} {ms(timings['plain'])}")

        def timed(method: str, path: str, body: Any = None, repeat: int = 5) -> list[float]:
            times = []
            for _ in range(repeat):
                began = time.perf_counter()
                response = client.open(path, method=method, json=body, headers=office)
                times.append(time.perf_counter() - began)
                assert response.status_code == 200, response.get_data(as_text=True)
            return times

        page = [timed("GET", f"/api/v1/audit-log?per_page=100&page={n}", repeat=1)[0] for n in range(2, 7)]
        print(f"{'audit log, 100 entries a page':<34} {ms(page)}")
        export = timed("GET", f"/api/v1/players/{first_player}/data-export")
        print(f"{'one player data export':<34} {ms(export)}")
        erase = timed("POST", f"/api/v1/players/{first_player}/erase", {"reason": "Bench."}, repeat=1)
        print(f"{'one erasure':<34} {ms(erase)}")


if __name__ == "__main__":
    main()
