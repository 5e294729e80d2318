"""Benchmark: what a formula chart (R7) costs the service, with issue 44's hostile charts.

Served by gunicorn as in production (3 workers of 4 threads, ./scripts/serve on 2 cores), on a
scratch database (SQLite by default) with the league's default max_entrants (500), it times:

- saving a formula of 30 terms, each a fractional power of n / p (every term depends on both, so
  nothing is computed once per field or once per place), at fraction 0.3 and at fraction 1;
- previews of such a chart at 500 entrants (the league's maximum) and at 10,000 (past it), and
  of a chart that has no value past max_entrants (its last place fails there) at 5,000, each
  asked twice (the second may come from the answers' cache), and 8 at once from 8 threads;
- saving the formulas a normal league writes: the presets, the one docs/setting-up-a-league.md
  shows, and formulas of about 400 and 500 characters of the usual pieces; previews of the
  500-character one, alone and 8 at once;
- in process, each of those formulas' check when saved (models/rules/charts.formula_problems):
  its verdict, the work it counted (models/rules/formulas/work.py WORK) and the CPU time it took, so the
  seconds a unit of work takes here (a check may do MOST_WORK_CHECKED units).

The hostile charts the previews read are written to the database directly (their save is what is
measured above, and used to take minutes). A request still running after `--timeout` seconds is
shown as ">N s"; the server is then started again, so that the worker it pins does not slow the
next figure. Prints a table: status and seconds. It does not judge the figures.

    .venv/bin/python bench/formula_charts.py                          # SQLite
    .venv/bin/python bench/formula_charts.py --postgres-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/formula_charts.py --timeout 30
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.national import BenchFailure, Server, create_keys, serve  # noqa: E402
from bench.scratch import scratch_database  # noqa: E402
from models.entities import PointsChart  # noqa: E402
from models.infra.db import make_engine, make_sessionmaker  # noqa: E402
from models.infra.migrate import alembic_config, upgrade  # noqa: E402

CHARTS = "/api/v1/points-charts"
MAX_ENTRANTS = 500  # the league's default

# 30 terms, each a fractional power of n / p: about 100 µs a term at 28 digits, so about 3 ms a
# place; the values fall with p, stay below 1,000 and exist everywhere, so a check goes to the end.
HOSTILE = "+".join(f"(n/p)^0.{31 + term}" for term in range(30))
# The same, with no value past max_entrants: at its last place, a logarithm of a negative number.
FAILS_PAST_MAX = HOSTILE + f"+if(n>{MAX_ENTRANTS} and p==k,ln(0-p),0)"

README = "if(p == 1, 20, 0) + 10 * (k - p + 1)"
# Formulas of the usual pieces (a bonus table for the top places, the presets' shapes, the scoring
# places, a field-size bonus), about 400 and 500 characters long.
ORDINARY_400 = (
    "if(p == 1, 50, if(p == 2, 30, if(p == 3, 20, if(p <= 5, 10, 0)))) + sqrt(n) / sqrt(p) * 40"
    " + (ln(n + 1) - ln(p)) * 25 + 100 * (k - p + 1) / k + log10(n + 1) * 15 / sqrt(p)"
    " + max(0, (n - 10) / 5) * (k - p + 1) / k + if(n >= 50, 20, if(n >= 25, 10, 0)) * (1 - (p - 1) / k)"
    " + floor(sqrt(n) * 10 / p) + round((n - p + 1) / n * 30) + min(50, 2 * (k - p + 1))"
)
ORDINARY_500 = (
    "if(p == 1, 50, 0) + if(p == 2, 30, 0) + if(p == 3, 20, 0) + if(p <= 3 and n >= 20, 10, 0)"
    " + round(sqrt(n) / sqrt(p) * 100) + 10 * (k - p + 1)"
    " + if(n >= 30, 25, if(n >= 20, 15, if(n >= 10, 5, 0))) * if(p == 1, 1, 0)"
    " + max(0, 20 - 2 * p) + floor(ln(n + 1) * 10 / p) + if(p <= k / 2, 15, 5)"
    " + min(100, n) / 10 + ceil((k - p + 1) / k * 40) + log10(n) * 10 + (ln(n + 1) - ln(p)) * 20"
    " + if(p == 1 and n >= 40, 40, 0) + 5 * max(0, 10 - p) + sqrt(k - p + 1) * 3"
    " + if(n >= 60, 12, 0) * (k - p + 1) / k"
)

Row = tuple[str, str, str]

# (name, formula, fraction, max_entrants) of the checks timed in process.
CHECKS = [
    ("30 terms", HOSTILE, "0.3", MAX_ENTRANTS),
    ("30 terms", HOSTILE, "1", MAX_ENTRANTS),
    ("README's", README, "0.3", MAX_ENTRANTS),
    (f"{len(ORDINARY_400)} characters", ORDINARY_400, "0.3", MAX_ENTRANTS),
    (f"{len(ORDINARY_500)} characters", ORDINARY_500, "0.3", MAX_ENTRANTS),
    (f"{len(ORDINARY_500)} characters", ORDINARY_500, "1", 300),
    (f"{len(ORDINARY_500)} characters", ORDINARY_500, "1", MAX_ENTRANTS),
]


def seconds(ms: float) -> str:
    return f"{ms / 1000:.2f}"


class Bench:
    def __init__(self, url: str, office: str, timeout: float, log: Path) -> None:
        self.url, self.office, self.timeout, self.log = url, office, timeout, log
        self.rows: list[Row] = []
        self.names = iter(range(1, 1_000_000))

    @contextmanager
    def server(self) -> Iterator[Server]:
        with serve(self.url, 3, self.log, threads=4) as server:
            yield server

    def call(
        self, server: Server, method: str, path: str, body: dict[str, Any] | None = None
    ) -> tuple[str, float | None]:
        """(status, ms), or ("-", None) when no answer came within the timeout."""
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=self.timeout)
        headers = {"Authorization": f"Bearer {self.office}"}
        payload = None
        if body is not None:
            payload, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        began = time.perf_counter()
        try:
            conn.request(method, path, payload, headers)
            response = conn.getresponse()
            answer = response.read()
        except TimeoutError:
            return "-", None
        finally:
            conn.close()
        ms = (time.perf_counter() - began) * 1000
        if response.status >= 500:
            raise BenchFailure(f"{method} {path} answered {response.status}: {answer[:500]!r}")
        return str(response.status), ms

    def shown(self, ms: float | None) -> str:
        return f">{self.timeout:.0f}" if ms is None else seconds(ms)

    def measure(self, name: str, method: str, path: str, body: dict[str, Any] | None = None) -> bool:
        """One request on a server of its own; False when it timed out."""
        with self.server() as server:
            status, ms = self.call(server, method, path, body)
        self.rows.append((name, status, self.shown(ms)))
        return ms is not None

    def save(self, name: str, body: dict[str, Any]) -> None:
        body = {"name": f"{name} {next(self.names)}", "kind": "formula", **body}
        self.measure(f"save: {name}", "POST", CHARTS, body)

    def stored(self, formula: str, fraction: str) -> int:
        """A formula chart written to the database directly, unchecked."""
        engine = make_engine(self.url)
        with make_sessionmaker(engine)() as session, session.begin():
            chart = PointsChart(
                name=f"Stored {next(self.names)}", kind="formula", formula=formula, fraction=Decimal(fraction)
            )
            session.add(chart)
            session.flush()
            chart_id = chart.id
        engine.dispose()
        return chart_id

    def previews(self, name: str, chart: int, entrants: int) -> None:
        """The same preview twice on one server (the second may be answered from the cache)."""
        path = f"{CHARTS}/{chart}/preview?entrants={entrants}"
        with self.server() as server:
            for attempt in ("first", "again"):
                status, ms = self.call(server, "GET", path)
                self.rows.append((f"preview: {name} ({attempt})", status, self.shown(ms)))
                if ms is None:
                    return

    def at_once(self, name: str, paths: list[str]) -> None:
        """The paths asked at the same moment, one thread each: every answer's time."""
        results: list[tuple[str, float | None]] = [("-", None)] * len(paths)
        with self.server() as server:
            start = threading.Barrier(len(paths))

            def ask(index: int) -> None:
                start.wait()
                results[index] = self.call(server, "GET", paths[index])

            threads = [threading.Thread(target=ask, args=(index,)) for index in range(len(paths))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        statuses = ",".join(sorted({status for status, _ms in results}))
        times = [ms for _status, ms in results]
        done = [ms for ms in times if ms is not None]
        spread = (f"{seconds(min(done))}-{seconds(max(done))}" if done else "") + (
            f" ({times.count(None)} >{self.timeout:.0f})" if None in times else ""
        )
        self.rows.append((f"{len(paths)} previews at once: {name}", statuses, spread))


def run(url: str, timeout: float) -> list[Row]:
    upgrade(alembic_config(url))
    engine = make_engine(url)
    office, _hosts = create_keys(engine, [])
    engine.dispose()
    with tempfile.NamedTemporaryFile(prefix="formula-bench-", suffix=".log", delete=False) as log:
        bench = Bench(url, office, timeout, Path(log.name))
    print(f"hostile formula: {len(HOSTILE)} characters; gunicorn log: {log.name}", file=sys.stderr)

    steps: list[tuple[str, Callable[[], None]]] = [
        (
            f"30 terms at fraction {fraction}",
            lambda fraction=fraction: bench.save(
                f"30 terms, fraction {fraction}", {"formula": HOSTILE, "fraction": fraction}
            ),
        )
        for fraction in (0.3, 1)
    ]
    hostile = bench.stored(HOSTILE, "0.3")
    failing = bench.stored(FAILS_PAST_MAX, "0.3")
    steps += [
        ("preview at 500", lambda: bench.previews("30 terms, 500 entrants", hostile, MAX_ENTRANTS)),
        ("preview at 10,000", lambda: bench.previews("30 terms, 10,000 entrants", hostile, 10_000)),
        (
            "no value past max",
            lambda: bench.previews("no value past max_entrants, 5,000 entrants", failing, 5_000),
        ),
        (
            "8 at 10,000",
            lambda: bench.at_once(
                "30 terms, 10,000 entrants", [f"{CHARTS}/{hostile}/preview?entrants=10000"] * 8
            ),
        ),
        (
            "8 at 493-500",
            lambda: bench.at_once(
                "30 terms, 493-500 entrants",
                [f"{CHARTS}/{hostile}/preview?entrants={n}" for n in range(493, 501)],
            ),
        ),
    ]
    for preset in ("linear", "square_root", "logarithmic"):
        steps.append((preset, lambda preset=preset: bench.save(f"preset {preset}", {"preset": preset})))
    steps += [
        ("README", lambda: bench.save("README's formula", {"formula": README})),
        (
            "ordinary 400",
            lambda: bench.save(f"{len(ORDINARY_400)} characters, fraction 0.3", {"formula": ORDINARY_400}),
        ),
        (
            "ordinary 500",
            lambda: bench.save(f"{len(ORDINARY_500)} characters, fraction 0.3", {"formula": ORDINARY_500}),
        ),
        (
            "ordinary 500 at 1",
            lambda: bench.save(
                f"{len(ORDINARY_500)} characters, fraction 1", {"formula": ORDINARY_500, "fraction": 1}
            ),
        ),
    ]
    ordinary = bench.stored(ORDINARY_500, "0.3")
    steps += [
        ("preview ordinary", lambda: bench.previews("492 characters, 500 entrants", ordinary, MAX_ENTRANTS)),
        (
            "8 ordinary at 493-500",
            lambda: bench.at_once(
                "492 characters, 493-500 entrants",
                [f"{CHARTS}/{ordinary}/preview?entrants={n}" for n in range(493, 501)],
            ),
        ),
    ]
    for label, step in steps:
        began = time.perf_counter()
        step()
        print(f"{label}: done in {time.perf_counter() - began:.1f} s", file=sys.stderr)
    return bench.rows


def checks_in_process() -> list[tuple[str, str, str, str]]:
    """Each of CHECKS as a save runs it: (what, verdict, work units, CPU seconds)."""
    from models.rules.charts import MOST_WORK_CHECKED, formula_problems
    from models.rules.formulas import Work

    rows = []
    for name, formula, fraction, most in CHECKS:
        work = Work(MOST_WORK_CHECKED)
        began = time.process_time()
        problems = formula_problems(formula, Decimal(fraction), 2, most, work)
        seconds = time.process_time() - began
        stopped = re.search(r"stopped at n = \d+", problems[0].message) if problems else None
        verdict = (
            "taken" if not problems else f"refused ({stopped.group() if stopped else problems[0].message})"
        )
        rows.append((f"{name}, fraction {fraction}, 2-{most}", verdict, f"{work.spent:,}", f"{seconds:.2f}"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--postgres-url", default=None, help="PostgreSQL server (default: SQLite)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for an answer")
    args = parser.parse_args()
    with scratch_database(args.postgres_url) as url:
        rows = run(url, args.timeout)
    print(f"database: {url.split(':')[0]}; max_entrants {MAX_ENTRANTS}")
    width = max(len(name) for name, _status, _s in rows)
    print(f"{'request':<{width}}  {'status':>6}  seconds")
    for name, status, shown in rows:
        print(f"{name:<{width}}  {status:>6}  {shown}")
    checks = checks_in_process()
    print("\nchecks when saved, in process (CPU seconds; a check may do MOST_WORK_CHECKED units)")
    for what, verdict, units, seconds in checks:
        print(f"{what:<40} {verdict:<30} {units:>11} units {seconds:>6} s")


if __name__ == "__main__":
    main()
