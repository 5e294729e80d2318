"""The league night's before-and-after table in docs/benchmarks.md, made from the JSON files
bench/league_night.py wrote (it reads nothing else, and runs nothing):

    bench/results/league_night-before-<database>.json   the release before (no refresher)
    bench/results/league_night-<database>.json          this one

For each request kind: the service's p99 (ms) before and after on each database, against its
target; then the run's own figures (reads held, errors, stale answers, CPU, load, run time).

    .venv/bin/python bench/night_table.py          # prints the Markdown tables
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.league_night import target_of  # noqa: E402

RESULTS = ROOT / "bench" / "results"
DATABASES = ("sqlite", "postgresql")


def load(name: str) -> dict[str, Any] | None:
    path = RESULTS / name
    return json.loads(path.read_text()) if path.exists() else None


def cell(result: dict[str, Any] | None, kind: str) -> str:
    if result is None or kind not in result["server"]:
        return ""
    return f"{result['server'][kind]['p99']:.0f}"


def met(result: dict[str, Any] | None, kind: str) -> str:
    target = target_of(kind)
    if result is None or target is None or kind not in result["server"]:
        return ""
    return "yes" if result["server"][kind]["p99"] <= target else "no"


def requests_table(runs: dict[str, tuple[dict[str, Any] | None, dict[str, Any] | None]]) -> list[str]:
    kinds = sorted(
        {kind for before, after in runs.values() for r in (before, after) if r for kind in r["server"]},
        key=lambda kind: (target_of(kind) or 0, kind),
    )
    head = ["request", "target p99"]
    for database in runs:
        head += [f"{database} before", "after", "met"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    for kind in kinds:
        target = target_of(kind)
        row = [kind, f"≤ {target:g}" if target else ""]
        for before, after in runs.values():
            row += [cell(before, kind), cell(after, kind), met(after, kind)]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def run_figure(result: dict[str, Any] | None, what: str) -> str:
    if result is None:
        return ""
    cpu = result["cpu"]
    checks = sum(fresh["checks"] for fresh in result["fresh"].values())
    figures = {
        "when": result["when"][:16].replace("T", " "),
        "website reads/s held": f"{result['website_reads_per_s']}",
        "live page polls/s": f"{result['live_page_polls_per_s']}",
        "errors (client, server 5xx)": f"{result['errors']}, {result['server_errors']}",
        "stale answers (of checks)": f"{result['stale']} of {checks}",
        "service CPU (share of 2 cores)": f"{cpu['server']['share_of_machine']:.0%}",
        "of which the refresher": f"{cpu.get('refresher', {}).get('share_of_machine', 0):.0%}",
        "Locust CPU (niced)": f"{cpu['locust']['share_of_machine']:.0%}",
        "machine busy": f"{cpu['machine_busy_share']:.0%}",
        "answers the refresher computed": f"{(result.get('refreshed') or {}).get('answers', 0)}",
        "peak worker memory (MB)": f"{result['peak_worker_mb']}",
        "load before → after (1 min)": f"{result['load_before']['load'][0]} → "
        f"{result['load_after']['load'][0]}",
        "whole run (s)": f"{result['phases_s'].get('total', '')}",
    }
    return figures[what]


def runs_table(runs: dict[str, tuple[dict[str, Any] | None, dict[str, Any] | None]]) -> list[str]:
    head = ["run"]
    for database in runs:
        head += [f"{database} before", "after"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    whats = (
        "when",
        "website reads/s held",
        "live page polls/s",
        "errors (client, server 5xx)",
        "stale answers (of checks)",
        "service CPU (share of 2 cores)",
        "of which the refresher",
        "Locust CPU (niced)",
        "machine busy",
        "answers the refresher computed",
        "peak worker memory (MB)",
        "load before → after (1 min)",
        "whole run (s)",
    )
    for what in whats:
        row = [what]
        for before, after in runs.values():
            row += [run_figure(before, what), run_figure(after, what)]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def main() -> None:
    described = argparse.RawDescriptionHelpFormatter
    argparse.ArgumentParser(description=__doc__, formatter_class=described).parse_args()
    runs = {
        database: (load(f"league_night-before-{database}.json"), load(f"league_night-{database}.json"))
        for database in DATABASES
    }
    if not any(before or after for before, after in runs.values()):
        sys.exit(f"no league night figures under {RESULTS}")
    print("\n".join(requests_table(runs)))
    print()
    print("\n".join(runs_table(runs)))


if __name__ == "__main__":
    main()
