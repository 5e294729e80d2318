"""The users of the league-night load test: a locustfile that bench/league_night.py runs headless
against the service it started on 127.0.0.1 (not meant to be run on its own).

The plan (a JSON file named by LEAGUE_NIGHT_PLAN, written by bench/league_night.py) holds the keys,
the league's ids, tonight's reports and the host's schedule of writes. Two kinds of user:

- `Website`: the league's website and the pages framed in venue sites, together at a fixed rate
  (each user at `rate / web_users` requests per second): standings 35%, profiles 25%, season and
  venue qualifiers 10%, pages of reports 10%, embed pages 10%, games and ratings 10%.
- `Hosts`: one user posting tonight's reports on a fixed pace, each at its own venue, with a few
  corrections and voids. After each write it reads back what the write changed (the venue's
  standings, the season's qualifiers, the winner's profile, the report) and records a failure
  named "fresh: …" when any answer does not show the write: the proof that no answer is stale.

Bounded twice: by Locust's --run-time, and by `max_requests` (the run stops when it is reached).
It refuses to start against any host but 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from locust import HttpUser, constant_pacing, constant_throughput, events, task
from locust.env import Environment

PLAN: dict[str, Any] = json.loads(Path(os.environ["LEAGUE_NIGHT_PLAN"]).read_text())
SEASON = PLAN["season_id"]
_sent = {"requests": 0}


@events.test_start.add_listener
def _only_this_machine(environment: Environment, **_kwargs: Any) -> None:
    if urlsplit(environment.host or "").hostname != "127.0.0.1":
        raise SystemExit(f"league night: only against 127.0.0.1, not {environment.host!r}")


@events.request.add_listener
def _bounded(**_kwargs: Any) -> None:
    _sent["requests"] += 1
    runner = _environment.runner if _environment else None
    if _sent["requests"] >= PLAN["max_requests"] and runner is not None:
        runner.quit()


_environment: Environment | None = None


@events.init.add_listener
def _keep_environment(environment: Environment, **_kwargs: Any) -> None:
    global _environment
    _environment = environment


def _check(name: str, ok: bool, detail: str) -> None:
    """A freshness check, recorded beside the requests: a failure when `ok` is false."""
    events.request.fire(
        request_type="CHECK",
        name=f"fresh: {name}",
        response_time=0,
        response_length=0,
        exception=None if ok else AssertionError(detail),
        context={},
    )


class Website(HttpUser):
    """Reads at a fixed overall rate, in the website's proportions."""

    weight = 1
    wait_time = constant_throughput(PLAN["rate"] / PLAN["web_users"])

    def on_start(self) -> None:
        self.rng = random.Random()

    def venue(self) -> int:
        return int(self.rng.choice(PLAN["venues"]))

    @task(35)
    def standings(self) -> None:
        self.client.get(f"/api/v1/seasons/{SEASON}/venues/{self.venue()}/standings", name="standings")

    @task(25)
    def profile(self) -> None:
        self.client.get(f"/api/v1/players/{self.rng.choice(PLAN['players'])}", name="profile")

    @task(5)
    def season_qualifiers(self) -> None:
        self.client.get(f"/api/v1/seasons/{SEASON}/qualifiers", name="qualifiers (season)")

    @task(5)
    def venue_qualifiers(self) -> None:
        self.client.get(
            f"/api/v1/seasons/{SEASON}/venues/{self.venue()}/qualifiers", name="qualifiers (venue)"
        )

    @task(10)
    def reports_page(self) -> None:
        if self.rng.random() < 0.5:
            path = f"/api/v1/tournaments?venue_id={self.venue()}&per_page=50"
        else:
            path = f"/api/v1/tournaments?season_id={SEASON}&per_page=50&page={self.rng.randint(1, 5)}"
        self.client.get(path, name="reports page")

    @task(10)
    def embed(self) -> None:
        self.client.get(f"/embed/seasons/{SEASON}/venues/{self.venue()}/standings", name="embed standings")

    @task(10)
    def games_or_ratings(self) -> None:
        region = self.rng.choice(PLAN["regions"])
        if PLAN["ratings"] and self.rng.random() < 0.5:
            self.client.get(f"/api/v1/ratings?region_id={region}&per_page=50", name="ratings")
        elif self.rng.random() < 0.5:
            self.client.get(f"/api/v1/games?region_id={region}", name="games")
        else:
            self.client.get(f"/embed/regions/{region}/games", name="embed games")


class Hosts(HttpUser):
    """Tonight's writes, one at a time on a fixed pace, each read back at once."""

    fixed_count = 1
    wait_time = constant_pacing(PLAN["pace"])

    def on_start(self) -> None:
        self.steps = iter(PLAN["schedule"])
        self.posted: dict[int, dict[str, Any]] = {}  # plan index -> {"id", "version", "order"}
        self.counts = {int(venue): count for venue, count in PLAN["tournaments_before"].items()}

    @task
    def next_write(self) -> None:
        step = next(self.steps, None)
        if step is None:
            return  # tonight is over; the run ends with --run-time
        kind, index = step
        report = PLAN["tonight"][index]
        if kind == "report":
            self.report(index, report)
        elif index in self.posted:
            (self.correct if kind == "correct" else self.void)(index, report)

    def _key(self, venue: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {PLAN['host_keys'][str(venue)]}"}

    def _write(
        self, method: str, path: str, body: dict[str, Any], venue: int, name: str, expected: int
    ) -> Any:
        """The host's write: its answer's JSON, or None (recorded as a failure) when it is not
        the status expected."""
        with self.client.request(
            method, path, json=body, headers=self._key(venue), name=name, catch_response=True
        ) as answer:
            if answer.status_code != expected:
                answer.failure(f"{answer.status_code}: {answer.text[:300]}")
                return None
            return answer.json()

    def report(self, index: int, report: dict[str, Any]) -> None:
        created = self._write("POST", "/api/v1/tournaments", report, report["venue_id"], "report", 201)
        if created is None:
            return
        order = [row["player_id"] for row in report["results"]]
        self.posted[index] = {"id": created["id"], "version": created["version"], "order": order}
        self.counts[report["venue_id"]] += 1
        self.read_back(report["venue_id"], created["id"], order)

    def correct(self, index: int, report: dict[str, Any]) -> None:
        """The host swaps the first two places: a correction with a reason (R17)."""
        done = self.posted[index]
        order = [done["order"][1], done["order"][0], *done["order"][2:]]
        body = {
            **report,
            "results": [{"place": p, "player_id": pid} for p, pid in enumerate(order, start=1)],
            "reason": "first two places swapped",
        }
        corrected = self._write(
            "PUT", f"/api/v1/tournaments/{done['id']}", body, report["venue_id"], "correction", 200
        )
        if corrected is None:
            return
        done["version"] = corrected["version"]
        done["order"] = order
        self.read_back(report["venue_id"], done["id"], order)

    def void(self, index: int, report: dict[str, Any]) -> None:
        done = self.posted.pop(index)
        reason = {"reason": "posted at the wrong venue"}
        if (
            self._write(
                "POST", f"/api/v1/tournaments/{done['id']}/void", reason, report["venue_id"], "void", 200
            )
            is None
        ):
            return
        self.counts[report["venue_id"]] -= 1
        self.read_back(report["venue_id"], done["id"], None)

    def read_back(self, venue: int, tournament: int, order: list[int] | None) -> None:
        """Every read the write changed shows it (None: the report was voided)."""
        expected = self.counts[venue]
        standings = self.client.get(
            f"/api/v1/seasons/{SEASON}/venues/{venue}/standings", name="standings"
        ).json()
        _check(
            "standings",
            standings.get("tournaments") == expected,
            f"venue {venue}: {standings.get('tournaments')} tournaments, not {expected}",
        )
        lists = self.client.get(f"/api/v1/seasons/{SEASON}/qualifiers", name="qualifiers (season)").json()
        counted = {entry["venue_id"]: entry["tournaments"] for entry in lists.get("venues", [])}
        _check(
            "qualifiers",
            counted.get(venue) == expected,
            f"venue {venue}: {counted.get(venue)} tournaments in the lists, not {expected}",
        )
        if order is None:
            return
        winner = order[0]
        profile = self.client.get(f"/api/v1/players/{winner}", name="profile").json()
        places = [
            result["place"]
            for season in profile.get("seasons", [])
            for result in season.get("results", [])
            if result["tournament_id"] == tournament
        ]
        _check("profile", places == [1], f"player {winner}: places {places} in tournament {tournament}")
        shown = self.client.get(f"/api/v1/tournaments/{tournament}", name="report read").json()
        first = next((row["player"]["id"] for row in shown.get("results", []) if row["place"] == 1), None)
        _check("report", first == winner, f"tournament {tournament}: first {first}, not {winner}")
