"""The users of the league-night load test: a locustfile that bench/league_night.py runs headless
against the service it started on 127.0.0.1 (not meant to be run on its own).

The plan (a JSON file named by LEAGUE_NIGHT_PLAN, written by bench/league_night.py) holds the keys,
the league's ids and tonight's nights, each on a timeline of seconds from the start. Three kinds
of user:

- `Website`: the league's website and the pages framed in venue sites, together at a fixed rate
  (each user at `rate / web_users` requests per second): standings 35%, profiles 25%, season and
  venue qualifiers 10%, pages of reports 10%, embed pages 10%, games and ratings 10%.
- `Host`: one a night, each at its own venue, running it through the API as a host's phone does
  (R22): it opens the night, signs its field in, draws the seats, starts the clock and records the
  bust-outs (some with who knocked the player out) at the plan's times; the last bust-out leaves
  one player and the night becomes the venue's report. A few hosts then correct (4%) or void (2%)
  that report. After each bust-out the host reads the live page (and every fourth time the
  night's answer) and records a failure named "fresh: …" when it does not show the bust-out; after
  each report, correction and void it reads back what the write changed (the venue's standings,
  the season's qualifiers, the winner's profile, the report; after the report the live page and
  the night's answer too): the proof that no answer is stale.
- `LivePage`: a venue's TV or a player's phone following one night's live page
  (/embed/venues/{id}/night) as the page's own script does: every 5 seconds, with the ETag it
  last got (a 304 while nothing changed). From the moment its night is opened.

Users are Locust's FastHttpUser (a fraction of the CPU of its requests-based HttpUser, on the
two cores the service uses too). The website and the live pages pace themselves inside one task
(`_every`), not by Locust's wait_time between tasks, which on this machine added tens of ms to
what the clients timed (see `_every`).

Every night's action names its kind in X-Request-ID (`ln.<kind>.<n>`), so the service's request
log says which kind each was (they share one path). Counts the statistics do not give (the
live page's 304s, how late the hosts ran, what was planned and done) are written at the end to
the plan's `stats_out`.

Bounded twice: by Locust's --run-time, and by `max_requests` (the run stops when it is reached).
It refuses to start against any host but 127.0.0.1.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import gevent
from locust import constant, events, task
from locust.contrib.fasthttp import FastHttpUser
from locust.env import Environment
from locust.exception import StopUser
from locust.user.task import LOCUST_STATE_RUNNING, LOCUST_STATE_STOPPING, LOCUST_STATE_WAITING

PLAN: dict[str, Any] = json.loads(Path(os.environ["LEAGUE_NIGHT_PLAN"]).read_text())
SEASON = PLAN["season_id"]
POLL_SECONDS = PLAN["poll_seconds"]
NIGHT_READ_EVERY = 4  # the night's own answer is read back after every fourth bust-out
_sent = {"requests": 0}
_stats: Counter[str] = Counter()
_lag: list[float] = []  # seconds each host action ran behind its plan
_started: dict[str, float] = {}
_opened: dict[int, int] = {}  # venue -> night id, once its host opened it
_request_ids = itertools.count(1)
_hosts = itertools.count()
_followers = itertools.count()
PLAYERS_LEFT = re.compile(r"Players <strong>(\d+)</strong> of (\d+)")
PLACES = re.compile(r'<table class="places">(.*?)</table>', re.S)


@events.test_start.add_listener
def _only_this_machine(environment: Environment, **_kwargs: Any) -> None:
    if urlsplit(environment.host or "").hostname != "127.0.0.1":
        raise SystemExit(f"league night: only against 127.0.0.1, not {environment.host!r}")
    _started.setdefault("at", time.monotonic())


@events.test_stop.add_listener
def _write_stats(**_kwargs: Any) -> None:
    lags = sorted(_lag)
    stats = {
        **_stats,
        "host_actions_late_max_s": round(lags[-1], 2) if lags else 0.0,
        "host_actions_late_p95_s": round(lags[int(0.95 * (len(lags) - 1))], 2) if lags else 0.0,
        "host_actions_late_over_5s": sum(1 for lag in lags if lag > 5),
    }
    Path(PLAN["stats_out"]).write_text(json.dumps(stats, indent=2, sort_keys=True))


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


def _json(answer: Any) -> dict[str, Any]:
    """An answer's JSON, or {} (a failed request has no body to read)."""
    try:
        body = json.loads(answer.text or "{}")
    except (TypeError, ValueError):
        return {}
    return body if isinstance(body, dict) else {}


def _since_start() -> float:
    return time.monotonic() - _started.setdefault("at", time.monotonic())


def _every(user: FastHttpUser, interval: float, action: Callable[[], None]) -> None:
    """`action` every `interval` seconds, from a random instant of the first interval (the readers
    are not all at the same instant), until Locust stops the user. Paced here, in one task, not by
    Locust's wait_time between tasks: on this machine 40 users reading GET /health once a second
    that way saw 25 ms at the median (the service: 0.4 ms), the same reads paced in the task 2.4 ms."""
    _waiting(user, random.uniform(0, interval))
    due = time.monotonic()
    while True:
        action()
        due += interval
        ahead = due - time.monotonic()
        if ahead > 0:
            _waiting(user, ahead)
        else:
            due = time.monotonic()  # behind: the next one at once, and no catching up after


def _waiting(user: FastHttpUser, seconds: float) -> None:
    """Sleeps as Locust's own wait does: a user stopped meanwhile is stopped at once (not after
    --stop-timeout), and one stopped before it stops here."""
    if user._state == LOCUST_STATE_STOPPING:
        raise StopUser()
    user._state = LOCUST_STATE_WAITING
    gevent.sleep(seconds)
    user._state = LOCUST_STATE_RUNNING


class Website(FastHttpUser):
    """Reads at a fixed overall rate (each user `rate / web_users` a second), in the website's
    proportions."""

    weight = 1
    wait_time = constant(3600)  # the task paces itself (_every) until the night ends

    def on_start(self) -> None:
        self.rng = random.Random()
        reads = (
            (35, self.standings),
            (25, self.profile),
            (5, self.season_qualifiers),
            (5, self.venue_qualifiers),
            (10, self.reports_page),
            (10, self.embed),
            (10, self.games_or_ratings),
        )
        self.weights = [weight for weight, _read in reads]
        self.reads = [read for _weight, read in reads]

    @task
    def read_all_night(self) -> None:
        _every(self, PLAN["web_users"] / PLAN["rate"], self.one_read)

    def one_read(self) -> None:
        self.rng.choices(self.reads, self.weights)[0]()

    def venue(self) -> int:
        return int(self.rng.choice(PLAN["venues"]))

    def read(self, path: str, name: str) -> None:
        _stats["website_requests"] += 1
        self.client.get(path, name=name)

    def standings(self) -> None:
        self.read(f"/api/v1/seasons/{SEASON}/venues/{self.venue()}/standings", "standings")

    def profile(self) -> None:
        self.read(f"/api/v1/players/{self.rng.choice(PLAN['players'])}", "profile")

    def season_qualifiers(self) -> None:
        self.read(f"/api/v1/seasons/{SEASON}/qualifiers", "qualifiers (season)")

    def venue_qualifiers(self) -> None:
        self.read(f"/api/v1/seasons/{SEASON}/venues/{self.venue()}/qualifiers", "qualifiers (venue)")

    def reports_page(self) -> None:
        if self.rng.random() < 0.5:
            path = f"/api/v1/tournaments?venue_id={self.venue()}&per_page=50"
        else:
            path = f"/api/v1/tournaments?season_id={SEASON}&per_page=50&page={self.rng.randint(1, 5)}"
        self.read(path, "reports page")

    def embed(self) -> None:
        self.read(f"/embed/seasons/{SEASON}/venues/{self.venue()}/standings", "embed standings")

    def games_or_ratings(self) -> None:
        region = self.rng.choice(PLAN["regions"])
        if PLAN["ratings"] and self.rng.random() < 0.5:
            self.read(f"/api/v1/ratings?region_id={region}&per_page=50", "ratings")
        elif self.rng.random() < 0.5:
            self.read(f"/api/v1/games?region_id={region}", "games")
        else:
            self.read(f"/embed/regions/{region}/games", "embed games")


class LivePage(FastHttpUser):
    """One night's live page on a TV or a phone: polled every POLL_SECONDS with its ETag, as the
    page's script does (api/embed/live.py), from the moment the night is opened."""

    fixed_count = len(PLAN["followed"])
    wait_time = constant(3600)  # the task paces itself (_every) until the night ends

    def on_start(self) -> None:
        self.venue = PLAN["followed"][next(_followers) % len(PLAN["followed"])]
        self.tag: str | None = None

    @task
    def follow(self) -> None:
        while self.venue not in _opened:  # the TV is switched on once the night is open
            _waiting(self, 0.5)
        _every(self, POLL_SECONDS, self.poll)

    def poll(self) -> None:
        headers = {"If-None-Match": self.tag} if self.tag else {}
        with self.client.get(
            f"/embed/venues/{self.venue}/night", headers=headers, name="live page", catch_response=True
        ) as answer:
            if answer.status_code == 304:
                _stats["live_page_polls_304"] += 1
            elif answer.status_code == 200:
                _stats["live_page_polls_200"] += 1
                self.tag = answer.headers.get("ETag") or None
            else:
                _stats["live_page_polls_failed"] += 1
                answer.failure(f"{answer.status_code}: {(answer.text or '')[:300]}")


class Host(FastHttpUser):
    """One venue's host running tonight's game on the plan's timeline, then changing its report
    when the plan says so. Each write is read back at once."""

    fixed_count = len(PLAN["nights"])
    wait_time = constant(3600)  # one night each: the task runs it whole, once

    def on_start(self) -> None:
        index = next(_hosts)
        self.night = PLAN["nights"][index] if index < len(PLAN["nights"]) else None
        self.venue = self.night["venue"] if self.night else 0
        self.night_id = 0
        self.sequence = 0
        self.date = ""
        self.actions = 0
        self.report: int | None = None
        self.order: list[int] = []
        self.count = 0 if self.night is None else PLAN["tournaments_before"][str(self.venue)]

    @task
    def run_night(self) -> None:
        night, self.night = self.night, None
        if night is None:
            return
        _stats["nights_planned"] += 1
        self.order = list(night["field"])  # the finishing order: the first is the one left
        if not self.open(night["open_at"]):
            return
        for player, at in zip(night["field"], night["sign_in_at"], strict=True):
            self.act(at, "sign_in", "sign-in", player={"player_id": player})
        self.act(night["seat_at"], "seat", "seat draw")
        self.act(night["clock_at"], "clock", "clock", clock="start")
        busts = night["busts"]
        for number, (player, knocker, at) in enumerate(busts, start=1):
            self.bust(at, player, knocker, last=number == len(busts))
        if self.report is None:
            return
        change = night.get("change")
        if change and change["kind"] == "correct":
            self.correct(change["at"])
        elif change:
            self.void(change["at"])

    # --- the night's writes ---------------------------------------------------------------

    def _key(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {PLAN['host_keys'][str(self.venue)]}"}

    def _at(self, at: float) -> None:
        """Waits for the plan's instant; a host behind it acts at once (and the lag is kept).
        Once the night's time is up, the host stops there."""
        late = _since_start() - at
        if late < 0:
            _waiting(self, -late)
        else:
            _lag.append(late)

    def _write(
        self, method: str, path: str, body: dict[str, Any], name: str, expected: int, slug: str = ""
    ) -> dict[str, Any] | None:
        """The host's write: its answer's JSON, or None (recorded as a failure) when it is not
        the status expected."""
        headers = self._key()
        if slug:
            headers["X-Request-ID"] = f"ln.{slug}.{next(_request_ids)}"
        with self.client.request(
            method, path, json=body, headers=headers, name=name, catch_response=True
        ) as answer:
            if answer.status_code != expected:
                answer.failure(f"{answer.status_code}: {(answer.text or '')[:300]}")
                return None
            answer.success()
            return _json(answer)

    def open(self, at: float) -> bool:
        self._at(at)
        opened = self._write("POST", f"/api/v1/venues/{self.venue}/nights", {"session": 2}, "open night", 201)
        if opened is None:
            _stats["nights_not_opened"] += 1
            return False
        self.night_id, self.sequence, self.date = opened["id"], opened["sequence"], opened["date"]
        _opened[self.venue] = self.night_id
        _stats["nights_opened"] += 1
        return True

    def act(self, at: float, kind: str, name: str, **fields: Any) -> dict[str, Any] | None:
        """One action of the night (R22), on the sequence the host last saw; the night as the
        action left it, or None."""
        self._at(at)
        self.actions += 1
        body = {"action_id": f"ln-{self.night_id}-{self.actions:04d}", "sequence": self.sequence}
        done = self._write(
            "POST",
            f"/api/v1/nights/{self.night_id}/actions",
            {**body, "type": kind, **fields},
            name,
            200,
            slug=name.replace(" ", "-"),
        )
        _stats[f"actions_{kind}"] += 1
        if done is None:
            _stats[f"actions_{kind}_failed"] += 1
            self.resync()
            return None
        night: dict[str, Any] = done.get("night", {})
        self.sequence = night.get("sequence", self.sequence)
        return night

    def resync(self) -> None:
        """After a refused action: the night as it stands, so the next one is made on it."""
        state = _json(self.client.get(f"/api/v1/nights/{self.night_id}", name="night"))
        self.sequence = state.get("sequence", self.sequence)

    def bust(self, at: float, player: int, knocker: int | None, last: bool) -> None:
        fields: dict[str, Any] = {"players": [{"player_id": player}]}
        if knocker is not None:
            fields["knocked_out_by"] = knocker
        night = self.act(at, "bust", "report" if last else "bust-out", **fields)
        if night is None:
            return
        if not last:
            _stats["bust_outs"] += 1
            self.read_live_page(night, player)
            if _stats["bust_outs"] % NIGHT_READ_EVERY == 0:
                self.read_night(night, player)
            return
        if night.get("state") != "reported" or not night.get("tournament_id"):
            _check(
                "report",
                False,
                f"night {self.night_id}: {night.get('state')}, {night.get('report_problems')}",
            )
            return
        _stats["reports"] += 1
        self.report = night["tournament_id"]
        self.count += 1
        self.read_night(night, player)
        self.read_live_page(night, player)
        self.read_back(self.report, self.order)

    def correct(self, at: float) -> None:
        """The host swaps the first two places: a correction with a reason (R17)."""
        self._at(at)
        order = [self.order[1], self.order[0], *self.order[2:]]
        body = {
            "venue_id": self.venue,
            "date": self.date,
            "session": 2,
            "kind": "regular",
            "results": [{"place": p, "player_id": pid} for p, pid in enumerate(order, start=1)],
            "reason": "first two places swapped",
        }
        path = f"/api/v1/tournaments/{self.report}"
        if self._write("PUT", path, body, "correction", 200) is None:
            return
        _stats["corrections"] += 1
        self.order = order
        assert self.report is not None
        self.read_back(self.report, order)

    def void(self, at: float) -> None:
        self._at(at)
        reason = {"reason": "posted at the wrong venue"}
        if self._write("POST", f"/api/v1/tournaments/{self.report}/void", reason, "void", 200) is None:
            return
        _stats["voids"] += 1
        self.count -= 1
        assert self.report is not None
        self.read_back(self.report, None)

    # --- reading back what a write changed --------------------------------------------------

    def read_live_page(self, night: dict[str, Any], player: int) -> None:
        """The live page shows the bust-out just recorded: the players left, the player's place
        among the places so far (and, once reported, that the game is over)."""
        page = self.client.get(f"/embed/venues/{self.venue}/night", name="live page").text or ""
        left, entrants = night.get("players_left"), night.get("entrants")
        shown = PLAYERS_LEFT.search(page)
        place = next((p["place"] for p in night.get("players", []) if p["player_id"] == player), None)
        places = PLACES.search(page)
        ok = (
            shown is not None
            and (int(shown.group(1)), int(shown.group(2))) == (left, entrants)
            and places is not None
            and f'<td class="n">{place}</td>' in places.group(1)
            and (night.get("state") == "open" or "The game is over." in page)
        )
        detail = f"venue {self.venue}: {shown.group(0) if shown else 'no count'}, not {left} of {entrants}"
        _check("live page", ok, f"{detail} (place {place} of player {player})")

    def read_night(self, night: dict[str, Any], player: int) -> None:
        """The night's own answer shows the bust-out: its sequence, the player out at the place."""
        state = _json(self.client.get(f"/api/v1/nights/{self.night_id}", name="night"))
        mine: dict[str, Any] = next((p for p in night.get("players", []) if p["player_id"] == player), {})
        read: dict[str, Any] = next((p for p in state.get("players", []) if p["player_id"] == player), {})
        ok = (
            state.get("sequence") == night.get("sequence")
            and state.get("state") == night.get("state")
            and (read.get("status"), read.get("place")) == ("out", mine.get("place"))
        )
        _check(
            "night",
            ok,
            f"night {self.night_id}: sequence {state.get('sequence')} (not {night.get('sequence')}), "
            f"player {player} {read.get('status')} at {read.get('place')}",
        )

    def read_back(self, report: int, order: list[int] | None) -> None:
        """Every read the report, correction or void changed shows it (None: voided)."""
        venue, expected = self.venue, self.count
        standings = _json(
            self.client.get(f"/api/v1/seasons/{SEASON}/venues/{venue}/standings", name="standings")
        )
        _check(
            "standings",
            standings.get("tournaments") == expected,
            f"venue {venue}: {standings.get('tournaments')} tournaments, not {expected}",
        )
        lists = _json(self.client.get(f"/api/v1/seasons/{SEASON}/qualifiers", name="qualifiers (season)"))
        counted = {entry["venue_id"]: entry["tournaments"] for entry in lists.get("venues", [])}
        _check(
            "qualifiers",
            counted.get(venue) == expected,
            f"venue {venue}: {counted.get(venue)} tournaments in the lists, not {expected}",
        )
        if order is None:
            return
        winner = order[0]
        profile = _json(self.client.get(f"/api/v1/players/{winner}", name="profile"))
        places = [
            result["place"]
            for season in profile.get("seasons", [])
            for result in season.get("results", [])
            if result["tournament_id"] == report
        ]
        _check("profile", places == [1], f"player {winner}: places {places} in tournament {report}")
        shown = _json(self.client.get(f"/api/v1/tournaments/{report}", name="report read"))
        first = next((row["player"]["id"] for row in shown.get("results", []) if row["place"] == 1), None)
        _check("report", first == winner, f"tournament {report}: first {first}, not {winner}")
