"""Cached reads are never stale, on any worker.

Two workers are modelled as two apps, A and B, each with its own cache (per process) or sharing one
Redis, on ONE committed database; every test runs on SQLite and on PostgreSQL, in both cache modes.
A small league is built once per backend through the HTTP API and copied for each test.

For each kind of write: both workers read the views the write changes (so both have them cached,
and keep their ETags), A writes, then B and A read them again sending the old ETag. Each answer must
be new (a cached answer is whole, so a stale one is the old one) and the same on both, the old ETag
must get no 304, each worker's new ETag must be a 304 on the other, and the write's effect is
checked in concrete values. Also: a refused write changes nothing (every current ETag stays a
304), a new day is a new answer, a revoked key is refused, a restored backup (after `flask cache
reset`) is never answered from the abandoned timeline, callers never get each other's answers
(R19), and JSON and CSV of one URL are never swapped.

These tests hold whether answers are cached or not: they fail only when a cached answer (or a 304)
outlives a change."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from flask import Flask
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import make_url

from app import create_app
from tests.builders import SANCTIONS, SEASONS, TOURNAMENTS, ago, sanction_body, utc_today
from tests.support.databases import ScratchDatabases
from tests.support.league import Caller, League, assert_problem, new_key
from tests.support.servers import REDIS_URL, redis_answers

PLAYERS = "/api/v1/players"
CHARTS = "/api/v1/points-charts"
CSV = "text/csv"
BANDS = [{"min_entrants": 2, "max_entrants": None, "points": [30, 20, 10]}]


# Database copies -----------------------------------------------------------------------------------


class Copies:
    """Copies of a database (a backup), dropped when the test ends (a PostgreSQL copy in the
    background, ScratchDatabases.discard)."""

    def __init__(self, scratch: ScratchDatabases) -> None:
        self.scratch = scratch
        self.made: list[str] = []

    def copy(self, url: str, onto: str | None = None) -> str:
        """A copy of the database at `url`, as a new database, or written over the database `onto`
        (a restore, while apps may be connected to it); the copy's URL."""
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite":
            target = onto or f"sqlite:///{self.scratch.tmp.mktemp('copy') / 'league.db'}"
            source = sqlite3.connect(str(parsed.database))
            destination = sqlite3.connect(str(make_url(target).database))
            try:
                source.backup(destination)
            finally:
                source.close()
                destination.close()
            return target
        target = onto or parsed.set(database=f"league_test_{uuid.uuid4().hex[:12]}").render_as_string(
            hide_password=False
        )
        name = make_url(target).database
        with self._admin(url) as conn:
            if onto:
                conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{parsed.database}"'))
            conn.execute(text(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
        if not onto:
            self.made.append(target)
            self.scratch.created.append(str(name))
        return target

    def drop_all(self) -> None:
        """Each copy dropped in the background (ScratchDatabases.discard), not while a test waits."""
        for url in self.made:
            self.scratch.discard(url)
        self.made.clear()

    @staticmethod
    @contextmanager
    def _admin(url: str) -> Iterator[Connection]:
        engine = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                yield conn
        finally:
            engine.dispose()


# Workers -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class View:
    """One GET: who asks (public, office, host1, host2, host12), the URL, and its Accept header."""

    who: str
    path: str
    accept: str | None = None


@dataclass(frozen=True)
class Answer:
    status: int
    mimetype: str | None
    body: Any  # parsed JSON (a problem without its request_id), CSV text, or None (a 304)
    etag: str | None

    @property
    def content(self) -> tuple[int, str | None, Any]:
        return self.status, self.mimetype, self.body


@dataclass(frozen=True)
class Keys:
    office: str
    host1: str  # a host of venue 1
    host2: str  # a host of venue 2
    host12: str  # a host of venues 1 and 2


class Worker:
    """One app (as one gunicorn worker is one process) and its callers, all on the shared database."""

    def __init__(self, name: str, app: Flask, keys: Keys) -> None:
        self.name, self.app = name, app
        client = app.test_client()
        self.callers = {"public": Caller(client, None)}
        self.callers.update({who: Caller(client, key) for who, key in vars(keys).items()})

    def __getattr__(self, who: str) -> Caller:
        try:
            return self.callers[who]
        except KeyError:
            raise AttributeError(who) from None

    def read(self, view: View, etag: str | None = None) -> Answer:
        headers = {} if view.accept is None else {"Accept": view.accept}
        if etag is not None:
            headers["If-None-Match"] = etag
        response = self.callers[view.who].get(view.path, headers=headers)
        body: Any = None
        if response.status_code == 304:
            pass
        elif response.is_json:
            body = response.get_json()
            if response.status_code >= 400:
                body.pop("request_id", None)
        else:
            body = response.get_data(as_text=True)
        return Answer(response.status_code, response.mimetype, body, response.headers.get("ETag"))

    def read_all(self, views: dict[str, View]) -> dict[str, Answer]:
        return {name: self.read(view) for name, view in views.items()}

    def cli(self, *args: str) -> str:
        result = self.app.test_cli_runner().invoke(args=list(args))
        assert result.exit_code == 0, result.output
        return str(result.output)


# The league ----------------------------------------------------------------------------------------


class Template:
    """The league built once per backend (see `build_league`), copied for each test."""

    def __init__(self, url: str, ids: dict[str, int], keys: Keys, copies: Copies) -> None:
        self.url, self.ids, self.keys = url, ids, keys
        self._own = copies
        self._spares = ThreadPoolExecutor(max_workers=1)
        self._spare: Future[str] | None = None

    def copy_for(self, copies: Copies) -> str:
        """A copy for one test, dropped with its `copies`. On PostgreSQL, where a copy takes a
        while, the next test's copy is made while this test runs."""
        if make_url(self.url).get_backend_name() == "sqlite":
            return copies.copy(self.url)
        url = self._spare.result() if self._spare else self._own.copy(self.url)
        self._own.made.remove(url)
        copies.made.append(url)
        self._spare = self._spares.submit(self._own.copy, self.url)
        return url

    def close(self) -> None:
        self._spares.shutdown(wait=True)
        self._own.drop_all()


def created(caller: Caller, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = caller.post(path, json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return data


def report_body(venue_id: int, day_ago: int, *player_ids: int) -> dict[str, Any]:
    """A report `day_ago` days ago; past a host's 7 days, with the reason the office gives (R17)."""
    results = [{"place": place, "player_id": pid} for place, pid in enumerate(player_ids, start=1)]
    late = {"reason": "Entered by the office from the paper sheet"} if day_ago > 7 else {}
    return {"venue_id": venue_id, "date": ago(day_ago), "results": results, **late}


def build_league(url: str) -> tuple[dict[str, int], Keys]:
    """Region North: venue 1 (Crown) and venue 2 (Lion), a season running now (a bands chart
    30/20/10; quota 20%). Region South: venue 3 (Anchor), a season that has ended (`past`).
    Ace, Bee, Cat, Dan, Eve call venue 1 home; Zed and Fay venue 2. Reports: t1 at venue 1 ten days
    ago (Ace 30, Bee 20, Cat 10, Dan, Eve), t2 at venue 2 (Zed 30, Fay 20), t3 at venue 3 in the
    past season (Ace, Bee, Cat). Quota 1 everywhere: Ace qualifies at venue 1, Zed at venue 2."""
    app = create_app({"DATABASE_URL": url, "TESTING": True, "RATELIMIT_ENABLED": False, "CACHE_URL": ""})
    office = Caller(app.test_client(), new_key(app, "office", name="Office: Cache"))
    league = League(office)
    north, south = league.region(name="North"), league.region(name="South")
    v1 = league.venue(north["id"], name="Crown")["id"]
    v2 = league.venue(north["id"], name="Lion")["id"]
    v3 = league.venue(south["id"], name="Anchor")["id"]
    chart = league.chart(name="Binder", kind="bands", bands=BANDS)["id"]
    now = {"name": "Now", "region_ids": [north["id"]], "starts_on": ago(60), "ends_on": ago(-30)}
    past = {"name": "Past", "region_ids": [south["id"]], "starts_on": ago(80), "ends_on": ago(10)}
    ids = {
        "v1": v1,
        "v2": v2,
        "v3": v3,
        "chart": chart,
        "formula": league.chart(name="Linear", kind="formula", formula="n - p + 1", fraction=1)["id"],
        "season": league.season(**now, points_chart_id=chart)["id"],
        "past": league.season(**past, championship_date=ago(5), points_chart_id=chart)["id"],
    }
    for name, home in (
        ("Ace", v1),
        ("Bee", v1),
        ("Cat", v1),
        ("Dan", v1),
        ("Eve", v1),
        ("Zed", v2),
        ("Fay", v2),
    ):
        body = {
            "full_name": f"{name} Cachetest",
            "display_name": name,
            "email": f"{name.lower()}.private@example.org",
            "date_of_birth": "1990-01-01",
            "home_venue_id": home,
        }
        ids[name] = created(office, PLAYERS, body)["id"]
    everyone_at_1 = (ids[n] for n in ("Ace", "Bee", "Cat", "Dan", "Eve"))
    ids["t1"] = created(office, TOURNAMENTS, report_body(v1, 10, *everyone_at_1))["id"]
    ids["t2"] = created(office, TOURNAMENTS, report_body(v2, 9, ids["Zed"], ids["Fay"]))["id"]
    ids["t3"] = created(office, TOURNAMENTS, report_body(v3, 20, ids["Ace"], ids["Bee"], ids["Cat"]))["id"]
    keys = Keys(
        office=office.key or "",
        host1=new_key(app, "host", [v1], "Host: Crown"),
        host2=new_key(app, "host", [v2], "Host: Lion"),
        host12=new_key(app, "host", [v1, v2], "Host: Crown and Lion"),
    )
    app.extensions["league_db"].engine.dispose()
    return ids, keys


@pytest.fixture(scope="session")
def template(backend: str, scratch: ScratchDatabases) -> Iterator[Template]:
    url = scratch.migrated(backend)
    template = Template(url, *build_league(url), Copies(scratch))
    yield template
    template.close()


@pytest.fixture(params=["memory", "redis"])
def cache_config(request: pytest.FixtureRequest) -> dict[str, Any]:
    """The workers' cache: each its own (per process), or one Redis they share."""
    if request.param == "memory":
        return {"CACHE_URL": ""}
    if not redis_answers():
        pytest.skip("Redis does not answer at 127.0.0.1:6379")
    return {"CACHE_URL": REDIS_URL}


AppFactory = Callable[..., Flask]


@pytest.fixture()
def copies(scratch: ScratchDatabases) -> Iterator[Copies]:
    made = Copies(scratch)
    yield made
    made.drop_all()


@pytest.fixture()
def league_url(template: Template, copies: Copies) -> str:
    """This test's own copy of the league, committed to (no rollback)."""
    return template.copy_for(copies)


@pytest.fixture()
def make_app(league_url: str, cache_config: dict[str, Any]) -> Iterator[AppFactory]:
    """make_app(**config) -> a new app on the test's database (with the test's cache unless told)."""
    made: list[Flask] = []

    def make(**config: Any) -> Flask:
        base = {"DATABASE_URL": league_url, "TESTING": True, "RATELIMIT_ENABLED": False}
        app = create_app({**base, **cache_config, **config})
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["league_db"].engine.dispose()


@dataclass
class Pub:
    """The league (see `build_league`), read by workers A and B; every write goes through A."""

    a: Worker
    b: Worker
    ids: dict[str, int]
    keys: Keys
    url: str
    views: dict[str, View] = field(default_factory=dict)

    def __getitem__(self, name: str) -> int:
        return self.ids[name]

    @property
    def office(self) -> Caller:
        return self.a.office


@pytest.fixture()
def pub(template: Template, league_url: str, make_app: AppFactory) -> Pub:
    pub = Pub(
        Worker("A", make_app(), template.keys),
        Worker("B", make_app(), template.keys),
        template.ids,
        template.keys,
        league_url,
    )
    # Every test's database is a copy of one template, as a restored backup is: as after a restore,
    # `cache reset` keeps answers cached for another copy (in Redis, say) from being taken for its.
    pub.a.cli("cache", "reset")
    pub.views = league_views(pub)
    return pub


def league_views(pub: Pub) -> dict[str, View]:
    """What the league's readers look at."""
    season, past = f"{SEASONS}/{pub['season']}", f"{SEASONS}/{pub['past']}"
    return {
        "standings 1": View("public", f"{season}/venues/{pub['v1']}/standings"),
        "standings 1 csv": View("public", f"{season}/venues/{pub['v1']}/standings", CSV),
        "standings 2": View("public", f"{season}/venues/{pub['v2']}/standings"),
        "qualifiers 1": View("public", f"{season}/venues/{pub['v1']}/qualifiers"),
        "qualifiers 1 to host 1": View("host1", f"{season}/venues/{pub['v1']}/qualifiers"),
        "qualifiers 2": View("public", f"{season}/venues/{pub['v2']}/qualifiers"),
        "qualifiers": View("public", f"{season}/qualifiers"),
        "past qualifiers": View("public", f"{past}/qualifiers"),
        "Ace": View("public", f"{PLAYERS}/{pub['Ace']}"),
        "Ace to host 1": View("host1", f"{PLAYERS}/{pub['Ace']}"),
        "Ace to host 2": View("host2", f"{PLAYERS}/{pub['Ace']}"),
        "Zed to host 1": View("host1", f"{PLAYERS}/{pub['Zed']}"),
        "players to host 1": View("host1", f"{PLAYERS}?per_page=100"),
        "reports": View("public", TOURNAMENTS),
        # Pages of reports keyed by their filters' scopes (api/cache._reports_answer).
        "reports 1": View("public", f"{TOURNAMENTS}?venue_id={pub['v1']}"),
        "reports 1 now": View("public", f"{TOURNAMENTS}?venue_id={pub['v1']}&season_id={pub['season']}"),
        "season reports": View("public", f"{TOURNAMENTS}?season_id={pub['season']}"),
        "reports to office": View("office", f"{TOURNAMENTS}?include_voided=true"),
        "report 1": View("public", f"{TOURNAMENTS}/{pub['t1']}"),
        "season": View("public", season),
        "seasons": View("public", SEASONS),
        "chart": View("public", f"{CHARTS}/{pub['chart']}"),
        "formula": View("public", f"{CHARTS}/{pub['formula']}"),
        "formula preview": View("public", f"{CHARTS}/{pub['formula']}/preview?entrants=10"),
        "door 1": View("host1", f"/api/v1/venues/{pub['v1']}/barred"),
        "venue 1": View("public", f"/api/v1/venues/{pub['v1']}"),
        "venues": View("public", "/api/v1/venues"),
        "league settings": View("public", "/api/v1/league-settings"),
        "ratings": View("public", "/api/v1/ratings?per_page=500"),
        "ratings page": View("public", "/embed/ratings", "text/html"),
        "Ace ratings": View("public", f"{PLAYERS}/{pub['Ace']}/rating-history"),
    }


# Reading what the answers say ----------------------------------------------------------------------


def points(standings: dict[str, Any]) -> dict[int, int]:
    """{player id: points} of a standings answer."""
    return {row["player"]["id"]: row["points"] for row in standings["standings"]}


def qualifier_ids(listing: dict[str, Any]) -> list[int]:
    return [item["player"]["id"] for item in listing["qualifiers"]]


def skipped(listing: dict[str, Any]) -> list[tuple[int, str]]:
    return [(item["player"]["id"], item["reason"]) for item in listing["skipped"]]


def venue_list(season_listing: dict[str, Any], venue_id: int) -> dict[str, Any]:
    listings: list[dict[str, Any]] = [v for v in season_listing["venues"] if v["venue_id"] == venue_id]
    (listing,) = listings
    return listing


def barred_ids(door: dict[str, Any]) -> list[int]:
    return [row["player"]["id"] for row in door["barred"]]


def profile_season(profile: dict[str, Any], season_id: int, venue_id: int) -> dict[str, Any]:
    rows: list[dict[str, Any]] = [
        s for s in profile["seasons"] if (s["season_id"], s["venue_id"]) == (season_id, venue_id)
    ]
    (row,) = rows
    return row


def personal(player: dict[str, Any]) -> bool:
    """Whether an answer about a player shows personal data (R19): all of it or none."""
    shown = [key in player for key in ("email", "date_of_birth", "full_name")]
    assert all(shown) or not any(shown), player
    return all(shown)


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


# The check every write must pass -------------------------------------------------------------------


Seen = dict[str, dict[str, Answer]]  # worker name -> view name -> answer


def read_on_both(pub: Pub, views: dict[str, View]) -> Seen:
    """Each view read on both workers (so each has it cached); both answer the same, a 200."""
    seen = {worker.name: worker.read_all(views) for worker in (pub.a, pub.b)}
    for name in views:
        assert seen["A"][name].status == 200, (name, seen["A"][name])
        assert seen["A"][name].content == seen["B"][name].content, name
    return seen


def assert_fresh_on_both(pub: Pub, views: dict[str, View], before: Seen) -> dict[str, Any]:
    """After a change: B, then A, asked for each view with their old ETag, answer it anew (a
    cached answer is a whole answer, so a stale one is the old one) and the same on both; each
    one's new ETag is a 304 on the other. The answers' bodies."""
    now: Seen = {}
    for worker in (pub.b, pub.a):
        now[worker.name] = {}
        for name, view in views.items():
            old = before[worker.name][name]
            answer = worker.read(view, etag=old.etag)
            assert answer.status != 304, f"{name}: worker {worker.name} answered the old ETag with a 304"
            assert answer.content != old.content, f"{name}: worker {worker.name} answered as before"
            now[worker.name][name] = answer
    for name, view in views.items():
        assert now["A"][name].content == now["B"][name].content, f"{name}: A and B differ"
        if now["A"][name].status == 200:
            for reader, other in ((pub.a, "B"), (pub.b, "A")):
                etag = now[other][name].etag
                assert etag and reader.read(view, etag=etag).status == 304, (
                    f"{name}: {other}'s ETag on {reader.name}"
                )
    return {name: answer.body for name, answer in now["B"].items()}


def rated_points(history: dict[str, Any]) -> list[tuple[int, int]]:
    """R20: (report, place) of each point of a player's rating history."""
    return [(point["tournament_id"], point["place"]) for point in history["points"]]


def rated_total(table: dict[str, Any]) -> int:
    return int(table["total"])


RATINGS = ("ratings", "ratings page", "Ace ratings")


# The writes ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """What the views said before the write, and what worker B says after it."""

    before: dict[str, Any]
    after: dict[str, Any]


@dataclass(frozen=True)
class Write:
    """A write through worker A (`write`), the views it changes, what B must then show (`check`),
    and what comes before both workers read (`setup`) with any views of its own (`more_views`)."""

    write: Callable[[Pub], Any]
    views: tuple[str, ...]
    check: Callable[[Pub, Change], None]
    setup: Callable[[Pub], Any] | None = None
    more_views: Callable[[Pub], dict[str, View]] | None = None


def post_report(pub: Pub) -> None:
    ok(pub.a.host1.post(TOURNAMENTS, json=report_body(pub["v1"], 5, pub["Bee"], pub["Cat"], pub["Ace"])), 201)


def saw_report(pub: Pub, c: Change) -> None:
    """A host's new report: Bee 20 + 30, Ace 30 + 10, Cat 10 + 20; Bee overtakes Ace."""
    standings = c.after["standings 1"]
    assert standings["tournaments"] == 2
    assert {pub["Bee"]: 50, pub["Ace"]: 40, pub["Cat"]: 30}.items() <= points(standings).items()
    assert qualifier_ids(c.after["qualifiers 1"]) == [pub["Bee"]]
    assert profile_season(c.after["Ace"], pub["season"], pub["v1"])["played"] == 2
    assert c.after["reports"]["total"] == 4
    # R20: Ace's rating moves on by the new report.
    assert len(rated_points(c.after["Ace ratings"])) == len(rated_points(c.before["Ace ratings"])) + 1


def post_report_elsewhere(pub: Pub) -> None:
    ok(pub.a.host2.post(TOURNAMENTS, json=report_body(pub["v2"], 5, pub["Fay"], pub["Ace"])), 201)


def saw_report_elsewhere(pub: Pub, c: Change) -> None:
    """R19: Ace has now played at venue 2, so its host sees Ace's personal data."""
    assert not personal(c.before["Ace to host 2"])
    assert personal(c.after["Ace to host 2"])
    assert c.after["Ace to host 2"]["email"] == "ace.private@example.org"
    assert points(c.after["standings 2"]) == {pub["Zed"]: 30, pub["Fay"]: 50, pub["Ace"]: 20}


def correct(pub: Pub) -> None:
    order = [pub[n] for n in ("Bee", "Ace", "Cat", "Dan", "Eve")]
    body = {"reason": "Ace and Bee were swapped.", "results": report_body(pub["v1"], 10, *order)["results"]}
    ok(pub.office.put(f"{TOURNAMENTS}/{pub['t1']}", json=body))


def saw_correction(pub: Pub, c: Change) -> None:
    """R17: the corrected order is what every view shows."""
    assert c.after["standings 1"]["standings"][0]["player"]["id"] == pub["Bee"]
    assert {pub["Bee"]: 30, pub["Ace"]: 20}.items() <= points(c.after["standings 1"]).items()
    assert c.after["report 1"]["version"] == 2
    assert [r["player"]["id"] for r in c.after["report 1"]["results"]][:2] == [pub["Bee"], pub["Ace"]]
    assert qualifier_ids(c.after["qualifiers 1"]) == [pub["Bee"]]
    assert qualifier_ids(venue_list(c.after["qualifiers"], pub["v1"])) == [pub["Bee"]]
    assert profile_season(c.after["Ace"], pub["season"], pub["v1"])["points"] == 20
    assert (pub["t1"], 2) in rated_points(c.after["Ace ratings"])  # R20: rated again at place 2


def void(pub: Pub) -> None:
    ok(pub.office.post(f"{TOURNAMENTS}/{pub['t1']}/void", json={"reason": "Posted for the wrong pub."}))


def saw_void(pub: Pub, c: Change) -> None:
    """R17: a voided report counts nowhere, and only the office still reads it."""
    assert (c.after["standings 1"]["tournaments"], c.after["standings 1"]["standings"]) == (0, [])
    assert qualifier_ids(c.after["qualifiers 1"]) == []
    assert c.after["report 1"]["status"] == 404
    assert pub["t1"] not in [r["id"] for r in c.after["reports"]["items"]]
    (voided,) = [r for r in c.after["reports to office"]["items"] if r["id"] == pub["t1"]]
    assert voided["voided"] is True
    assert [s["venue_id"] for s in c.after["Ace"]["seasons"]] == [pub["v3"]]
    assert pub["t1"] not in [report for report, _ in rated_points(c.after["Ace ratings"])]  # R20


def rescore(pub: Pub) -> None:
    body = {"participation_points": 5, "reason": "League meeting vote."}
    ok(pub.office.patch(f"{SEASONS}/{pub['season']}", json=body))


def saw_rescore(pub: Pub, c: Change) -> None:
    """A season setting that rescores: every entrant of the season has 5 more points."""
    assert points(c.after["standings 1"]) == {
        pub["Ace"]: 35,
        pub["Bee"]: 25,
        pub["Cat"]: 15,
        pub["Dan"]: 5,
        pub["Eve"]: 5,
    }
    assert points(c.after["standings 2"]) == {pub["Zed"]: 35, pub["Fay"]: 25}
    assert {r["participation_points"] for r in c.after["report 1"]["results"]} == {5}
    assert c.after["season"]["participation_points"] == 5
    assert profile_season(c.after["Ace"], pub["season"], pub["v1"])["points"] == 35
    assert ",35,30,5," in c.after["standings 1 csv"]


def widen_cut(pub: Pub) -> None:
    ok(pub.office.patch(f"{SEASONS}/{pub['season']}", json={"cut_fraction": 0.4}))


def saw_wider_cut(pub: Pub, c: Change) -> None:
    """R12: 40% of five entrants is two qualifiers."""
    assert c.after["season"]["cut_fraction"] == 0.4
    assert qualifier_ids(c.after["qualifiers 1"]) == [pub["Ace"], pub["Bee"]]
    assert qualifier_ids(venue_list(c.after["qualifiers"], pub["v1"])) == [pub["Ace"], pub["Bee"]]


def edit_chart(pub: Pub) -> None:
    bands = [{**BANDS[0], "points": [60, 40, 20]}]
    ok(pub.office.patch(f"{CHARTS}/{pub['chart']}", json={"bands": bands, "reason": "Misprinted binder."}))


def saw_chart_edit(pub: Pub, c: Change) -> None:
    """R7: every season on the chart is rescored, the ended one too."""
    assert c.after["chart"]["bands"][0]["points"] == [60, 40, 20]
    assert {pub["Ace"]: 60, pub["Bee"]: 40, pub["Cat"]: 20}.items() <= points(c.after["standings 1"]).items()
    assert points(c.after["standings 2"]) == {pub["Zed"]: 60, pub["Fay"]: 40}
    assert [r["points"] for r in c.after["report 1"]["results"]] == [60, 40, 20, 0, 0]
    assert profile_season(c.after["Ace"], pub["past"], pub["v3"])["points"] == 60
    assert venue_list(c.after["past qualifiers"], pub["v3"])["qualifiers"][0]["points"] == 60


def edit_formula(pub: Pub) -> None:
    ok(
        pub.office.patch(
            f"{CHARTS}/{pub['formula']}", json={"formula": "2 * (n - p + 1)", "reason": "Doubled."}
        )
    )


def saw_formula_edit(pub: Pub, c: Change) -> None:
    """R7: a formula chart's new formula, and its preview by it (points memoised per formula)."""
    assert c.after["formula"]["formula"] == "2 * (n - p + 1)"
    assert c.after["formula preview"]["points"] == [20, 18, 16, 14, 12, 10, 8, 6, 4, 2]


def suspend_ace(pub: Pub) -> None:
    ok(pub.office.post(SANCTIONS, json=sanction_body(pub["Ace"], first_day=ago(1), last_day=ago(-20))), 201)


def saw_suspension(pub: Pub, c: Change) -> None:
    """R13, R16: suspended league-wide today, Ace is skipped and Bee moves up; the door bars Ace.
    The venue's host reads why; the public reads ineligible (R19)."""
    assert skipped(c.after["qualifiers 1"]) == [(pub["Ace"], "ineligible")]
    assert skipped(c.after["qualifiers 1 to host 1"]) == [(pub["Ace"], "suspended")]
    assert qualifier_ids(c.after["qualifiers 1"]) == [pub["Bee"]]
    assert barred_ids(c.after["door 1"]) == [pub["Ace"]]
    (entry,) = [q for q in c.after["Ace"]["qualification"] if q["season_id"] == pub["season"]]
    assert [(v["status"], v["reason"]) for v in entry["venues"]] == [("skipped", "ineligible")]


def lift(pub: Pub) -> None:
    (sanction,) = ok(pub.office.get(f"{SANCTIONS}?player_id={pub['Ace']}"))["items"]
    ok(pub.office.post(f"{SANCTIONS}/{sanction['id']}/lift", json={"reason": "Apology accepted."}))


def saw_lift(pub: Pub, c: Change) -> None:
    """R15: a lifted suspension bars no one: Ace qualifies again and is off the door list."""
    assert skipped(c.before["qualifiers 1 to host 1"]) == [(pub["Ace"], "suspended")]
    assert (skipped(c.after["qualifiers 1"]), qualifier_ids(c.after["qualifiers 1"])) == ([], [pub["Ace"]])
    assert barred_ids(c.after["door 1"]) == []


def host_bans_dan(pub: Pub) -> None:
    body = sanction_body(pub["Dan"], kind="venue_ban", category="outside_alcohol", venue_id=pub["v1"])
    ok(pub.a.host1.post(SANCTIONS, json=body), 201)


def saw_venue_ban(pub: Pub, c: Change) -> None:
    """R15: a host's ban from its own venue is on that venue's door list at once."""
    assert barred_ids(c.after["door 1"]) == [pub["Dan"]]


def disqualify_ace(pub: Pub) -> None:
    body = {"player_id": pub["Ace"], "reason": "Collusion at the final table."}
    ok(pub.office.post(f"{SEASONS}/{pub['season']}/disqualifications", json=body), 201)


def saw_disqualification(pub: Pub, c: Change) -> None:
    """R13: a disqualified player is skipped, and the next moves up; the venue's host reads why,
    the public reads ineligible (R19)."""
    assert skipped(c.after["qualifiers 1 to host 1"]) == [(pub["Ace"], "disqualified")]
    assert qualifier_ids(c.after["qualifiers 1"]) == [pub["Bee"]]
    assert skipped(venue_list(c.after["qualifiers"], pub["v1"])) == [(pub["Ace"], "ineligible")]


def withdraw(pub: Pub) -> None:
    path = f"{SEASONS}/{pub['season']}/disqualifications"
    (dq,) = ok(pub.office.get(path))["items"]
    ok(pub.office.post(f"{path}/{dq['id']}/withdraw", json={"reason": "Cleared on appeal."}))


def saw_withdrawal(pub: Pub, c: Change) -> None:
    assert skipped(c.before["qualifiers 1 to host 1"]) == [(pub["Ace"], "disqualified")]
    assert (skipped(c.after["qualifiers 1"]), qualifier_ids(c.after["qualifiers 1"])) == ([], [pub["Ace"]])


def merge_zed_into_ace(pub: Pub) -> None:
    body = {"duplicate_id": pub["Zed"], "reason": "Ace signed up twice."}
    ok(pub.office.post(f"{PLAYERS}/{pub['Ace']}/merge", json=body))


def saw_merge(pub: Pub, c: Change) -> None:
    """R17, R14: Zed's result at venue 2 is Ace's; Ace qualifies at venue 1 (best rank, then more
    points, then the lower venue id), so Fay moves up at venue 2."""
    assert points(c.after["standings 2"]) == {pub["Ace"]: 30, pub["Fay"]: 20}
    assert skipped(c.after["qualifiers 2"]) == [(pub["Ace"], "qualified_elsewhere")]
    assert qualifier_ids(c.after["qualifiers 2"]) == [pub["Fay"]]
    assert profile_season(c.after["Ace"], pub["season"], pub["v2"])["points"] == 30
    assert (c.after["Zed to host 1"]["merged_into_id"], c.after["Zed to host 1"]["seasons"]) == (
        pub["Ace"],
        [],
    )
    # R20: Zed's results are rated under Ace; Zed is off the table.
    assert len(rated_points(c.after["Ace ratings"])) > len(rated_points(c.before["Ace ratings"]))
    assert pub["Zed"] not in [row["player"]["id"] for row in c.after["ratings"]["items"]]


def undo_merge(pub: Pub) -> None:
    (merge,) = ok(pub.office.get("/api/v1/player-merges"))["items"]
    ok(pub.office.post(f"/api/v1/player-merges/{merge['id']}/undo", json={"reason": "Twins."}))


def saw_undo(pub: Pub, c: Change) -> None:
    """R17: after the undo, Zed has his result back."""
    assert points(c.before["standings 2"]) == {pub["Ace"]: 30, pub["Fay"]: 20}
    assert points(c.after["standings 2"]) == {pub["Zed"]: 30, pub["Fay"]: 20}
    assert qualifier_ids(c.after["qualifiers 2"]) == [pub["Zed"]]
    assert c.after["Zed to host 1"]["merged_into_id"] is None
    assert pub["Zed"] in [row["player"]["id"] for row in c.after["ratings"]["items"]]  # R20
    assert len(rated_points(c.after["Ace ratings"])) < len(rated_points(c.before["Ace ratings"]))
    assert [s["venue_id"] for s in c.after["Ace"]["seasons"] if s["season_id"] == pub["season"]] == [
        pub["v1"]
    ]


def publish(pub: Pub) -> None:
    body = {"note": "Spring lists.", "settlements": []}
    ok(pub.office.post(f"{SEASONS}/{pub['past']}/qualifiers/publish", json=body), 201)


def saw_publication(pub: Pub, c: Change) -> None:
    """R12: the ended season's lists are official now, for every reader."""
    before, after = c.before["past qualifiers"], c.after["past qualifiers"]
    assert (before["published"], before["note"]) == (False, None)
    assert (after["published"], after["provisional"], after["note"]) == (True, False, "Spring lists.")
    assert qualifier_ids(venue_list(after, pub["v3"])) == [pub["Ace"]]
    (entry,) = [q for q in c.after["Ace"]["qualification"] if q["season_id"] == pub["past"]]
    assert entry["published"] is True


def load_demo(pub: Pub) -> None:
    assert "Demo league loaded." in pub.a.cli("demo", "load")


def demo_views(pub: Pub) -> dict[str, View]:
    (demo,) = [s for s in ok(pub.office.get(SEASONS))["items"] if s["name"] not in ("Now", "Past")]
    venues = ok(pub.office.get("/api/v1/venues?per_page=100"))["items"]
    crown = next(v["id"] for v in venues if v["name"] == "The Crown")
    region = demo["region_ids"][0]
    return {
        "demo standings": View("public", f"{SEASONS}/{demo['id']}/venues/{crown}/standings"),
        "demo qualifiers": View("public", f"{SEASONS}/{demo['id']}/qualifiers"),
        "demo door": View("office", f"/api/v1/venues/{crown}/barred"),
        # R20: the league's table leaves the demo's players out; its region's shows them.
        "demo ratings": View("public", f"/api/v1/ratings?region_id={region}&per_page=500"),
    }


def remove_demo(pub: Pub) -> None:
    assert "Demo league removed." in pub.a.cli("demo", "remove", "--yes")


def saw_demo_removed(pub: Pub, c: Change) -> None:
    """A command, not a request, deletes the demo league: every worker forgets it at once."""
    assert c.before["demo standings"]["tournaments"] > 0
    assert [c.after[name]["status"] for name in ("demo standings", "demo qualifiers", "demo door")] == [
        404
    ] * 3
    assert sorted(s["name"] for s in c.after["seasons"]["items"]) == ["Now", "Past"]
    assert sorted(v["name"] for v in c.after["venues"]["items"]) == ["Anchor", "Crown", "Lion"]
    assert c.after["reports"]["total"] == 3
    # R20: its players, shown in its region's table (never the league's), are gone with it.
    assert rated_total(c.before["demo ratings"]) > 0
    assert c.after["demo ratings"]["status"] == 422  # no such region now


def rename_ace(pub: Pub) -> None:
    ok(pub.office.patch(f"{PLAYERS}/{pub['Ace']}", json={"display_name": "Ace High"}))


def saw_rename(pub: Pub, c: Change) -> None:
    """The display name (all the public sees of a player, R19) is the new one everywhere."""
    assert c.after["standings 1"]["standings"][0]["player"] == {
        "id": pub["Ace"],
        "display_name": "Ace High",
        "label": "Ace High",
    }
    assert f',{pub["Ace"]},"Ace High",' in c.after["standings 1 csv"]  # text quoted, numbers bare
    assert c.after["report 1"]["results"][0]["player"]["display_name"] == "Ace High"
    assert c.after["qualifiers 1"]["qualifiers"][0]["player"]["display_name"] == "Ace High"
    assert (c.after["Ace"]["display_name"], c.after["Ace to host 1"]["display_name"]) == ("Ace High",) * 2
    assert "Ace High" in c.after["ratings page"] and c.after["Ace ratings"]["player"]["label"] == "Ace High"
    assert "Ace High" in [p["display_name"] for p in c.after["players to host 1"]["items"]]


def rename_venue(pub: Pub) -> None:
    ok(pub.office.patch(f"/api/v1/venues/{pub['v1']}", json={"name": "Crown Inn"}))


def saw_venue_rename(pub: Pub, c: Change) -> None:
    assert c.after["venue 1"]["name"] == "Crown Inn"
    assert "Crown Inn" in [v["name"] for v in c.after["venues"]["items"]]
    assert c.after["qualifiers 1"]["venue_name"] == "Crown Inn"
    assert profile_season(c.after["Ace"], pub["season"], pub["v1"])["venue_name"] == "Crown Inn"
    assert '"Now","Crown Inn",1,' in c.after["standings 1 csv"]


def move_zed_home(pub: Pub) -> None:
    ok(pub.office.patch(f"{PLAYERS}/{pub['Zed']}", json={"home_venue_id": pub["v1"]}))


def saw_new_home(pub: Pub, c: Change) -> None:
    """R19: Zed now calls venue 1 home, so its host sees his personal data."""
    assert not personal(c.before["Zed to host 1"])
    assert personal(c.after["Zed to host 1"]) and c.after["Zed to host 1"]["home_venue_id"] == pub["v1"]
    (zed,) = [p for p in c.after["players to host 1"]["items"] if p["id"] == pub["Zed"]]
    assert zed["email"] == "zed.private@example.org"


def sql_rename(pub: Pub) -> None:
    """A change made outside the service (by hand, in SQL): no request, no audit entry."""
    engine = create_engine(make_url(pub.url))
    try:
        with engine.begin() as conn:
            conn.execute(
                text("UPDATE players SET display_name = 'Ace Typo' WHERE id = :id"), {"id": pub["Ace"]}
            )
    finally:
        engine.dispose()


def saw_sql_rename(pub: Pub, c: Change) -> None:
    assert c.after["standings 1"]["standings"][0]["player"] == {
        "id": pub["Ace"],
        "display_name": "Ace Typo",
        "label": "Ace Typo",
    }
    assert c.after["Ace"]["display_name"] == "Ace Typo"
    assert c.after["report 1"]["results"][0]["player"]["display_name"] == "Ace Typo"


def spoil_ace_ratings(pub: Pub) -> None:
    """R20: Ace's rating history spoiled by hand in SQL (a bulk load behind the service's back)."""
    engine = create_engine(make_url(pub.url))
    try:
        with engine.begin() as conn:
            conn.execute(
                text("UPDATE rating_points SET place = 99 WHERE player_id = :id"), {"id": pub["Ace"]}
            )
    finally:
        engine.dispose()


def rebuild_ratings(pub: Pub) -> None:
    pub.a.cli("ratings", "rebuild")


def saw_ratings_rebuilt(pub: Pub, c: Change) -> None:
    """R20: a command, not a request, rebuilds the ratings: every worker answers the rebuilt ones."""
    assert {place for _, place in rated_points(c.before["Ace ratings"])} == {99}
    assert 99 not in {place for _, place in rated_points(c.after["Ace ratings"])}


def league_settings(pub: Pub) -> None:
    ok(pub.office.patch("/api/v1/league-settings", json={"min_suspension_days": 21}))


def saw_league_settings(pub: Pub, c: Change) -> None:
    assert (
        c.before["league settings"]["min_suspension_days"],
        c.after["league settings"]["min_suspension_days"],
    ) == (
        14,
        21,
    )


def erase_ace(pub: Pub) -> None:
    ok(pub.office.post(f"{PLAYERS}/{pub['Ace']}/erase", json={"reason": "Asked by email."}))


def erasure_views(pub: Pub) -> dict[str, View]:
    return {
        "Ace to office": View("office", f"{PLAYERS}/{pub['Ace']}"),
        "Ace's audit entries": View("office", f"/api/v1/audit-log?entity=player&entity_id={pub['Ace']}"),
    }


def saw_erasure(pub: Pub, c: Change) -> None:
    """R21: the personal fields and the old name are gone everywhere, the audit log's values read
    "[erased]", the points stand."""
    new = f"Former player {pub['Ace']}"
    assert c.before["Ace to office"]["email"] == "ace.private@example.org"
    assert (c.after["Ace to office"]["email"], c.after["Ace to host 1"]["email"]) == (None, None)
    assert c.after["Ace"]["display_name"] == new
    (row,) = [r for r in c.after["standings 1"]["standings"] if r["player"]["id"] == pub["Ace"]]
    (old,) = [r for r in c.before["standings 1"]["standings"] if r["player"]["id"] == pub["Ace"]]
    assert row["player"]["display_name"] == new and row["points"] == old["points"]
    assert c.after["report 1"]["results"][0]["player"]["display_name"] == new
    assert "Cachetest" not in c.after["standings 1 csv"]
    created = [e for e in c.after["Ace's audit entries"]["items"] if e["action"] == "player.create"]
    assert created and created[0]["after"]["email"] == "[erased]"


QUALIFIERS = ("qualifiers 1", "qualifiers")
REPORTS_1 = ("reports 1", "reports 1 now", "season reports")  # pages of reports that hold venue 1's
WRITES = {
    "report": Write(
        post_report,
        ("standings 1", "standings 1 csv", "qualifiers 1", "Ace", "reports", *REPORTS_1, *RATINGS),
        saw_report,
    ),
    "report-elsewhere-r19": Write(
        post_report_elsewhere, ("Ace to host 2", "standings 2", "Ace", "season reports"), saw_report_elsewhere
    ),
    "correction-r17": Write(
        correct,
        ("standings 1", "standings 1 csv", "report 1", *QUALIFIERS, "Ace", *REPORTS_1, *RATINGS),
        saw_correction,
    ),
    "void-r17": Write(
        void,
        (
            "standings 1",
            "qualifiers 1",
            "report 1",
            "reports",
            "reports to office",
            "Ace",
            *REPORTS_1,
            *RATINGS,
        ),
        saw_void,
    ),
    "season-rescore": Write(
        rescore,
        ("standings 1", "standings 1 csv", "standings 2", "report 1", "season", "Ace", *REPORTS_1),
        saw_rescore,
    ),
    "season-cut-fraction-r12": Write(widen_cut, ("season", *QUALIFIERS), saw_wider_cut),
    "chart-edit-r7": Write(
        edit_chart,
        ("chart", "standings 1", "standings 2", "report 1", "Ace", "past qualifiers"),
        saw_chart_edit,
    ),
    "formula-edit-r7": Write(edit_formula, ("formula", "formula preview"), saw_formula_edit),
    "suspension-r13-r16": Write(
        suspend_ace, ("qualifiers 1", "qualifiers 1 to host 1", "door 1", "Ace"), saw_suspension
    ),
    "sanction-lift-r15": Write(
        lift, ("qualifiers 1", "qualifiers 1 to host 1", "door 1"), saw_lift, setup=suspend_ace
    ),
    "venue-ban-by-host-r15": Write(host_bans_dan, ("door 1",), saw_venue_ban),
    "disqualification-r13": Write(
        disqualify_ace, (*QUALIFIERS, "qualifiers 1 to host 1"), saw_disqualification
    ),
    "disqualification-withdrawn-r13": Write(
        withdraw, ("qualifiers 1", "qualifiers 1 to host 1"), saw_withdrawal, setup=disqualify_ace
    ),
    "merge-r17": Write(
        merge_zed_into_ace,
        ("standings 2", "qualifiers 2", "Ace", "Zed to host 1", "season reports", *RATINGS),
        saw_merge,
    ),
    "merge-undo-r17": Write(
        undo_merge,
        ("standings 2", "qualifiers 2", "Ace", "Zed to host 1", *RATINGS),
        saw_undo,
        setup=merge_zed_into_ace,
    ),
    "publish-r12": Write(publish, ("past qualifiers", "Ace"), saw_publication),
    "demo-remove-cli": Write(
        remove_demo,
        ("seasons", "venues", "reports"),
        saw_demo_removed,
        setup=load_demo,
        more_views=demo_views,
    ),
    "player-rename-r19": Write(
        rename_ace,
        (
            "standings 1",
            "standings 1 csv",
            "report 1",
            *REPORTS_1,
            "qualifiers 1",
            "Ace",
            "Ace to host 1",
            "players to host 1",
            "ratings",
            "ratings page",
            "Ace ratings",
        ),
        saw_rename,
    ),
    "venue-rename": Write(
        rename_venue, ("venue 1", "venues", "qualifiers 1", "Ace", "standings 1 csv"), saw_venue_rename
    ),
    "home-venue-r19": Write(move_zed_home, ("Zed to host 1", "players to host 1"), saw_new_home),
    "plain-sql-rename": Write(sql_rename, ("standings 1", "Ace", "report 1", *REPORTS_1), saw_sql_rename),
    "ratings-rebuild-cli-r20": Write(
        rebuild_ratings, ("Ace ratings",), saw_ratings_rebuilt, setup=spoil_ace_ratings
    ),
    "league-settings": Write(league_settings, ("league settings",), saw_league_settings),
    "erasure-r21": Write(
        erase_ace,
        (
            "standings 1",
            "standings 1 csv",
            "report 1",
            *REPORTS_1,
            "Ace",
            "Ace to host 1",
        ),
        saw_erasure,
        more_views=erasure_views,
    ),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_a_read_after_a_write_is_fresh_on_every_worker(pub: Pub, write: Write) -> None:
    """Any write through worker A: worker B (and A) then answer the views it changed as they now
    are, the old ETag is no 304, and the write's effect is there in concrete values."""
    if write.setup is not None:
        write.setup(pub)
    views = {name: pub.views[name] for name in write.views}
    if write.more_views is not None:
        views.update(write.more_views(pub))
    before = read_on_both(pub, views)
    write.write(pub)
    after = assert_fresh_on_both(pub, views, before)
    write.check(pub, Change({name: answer.body for name, answer in before["B"].items()}, after))


def assert_kept_on_both(pub: Pub, views: dict[str, View], before: Seen) -> None:
    """After a write that cannot change these views: each worker answers each one's old ETag with
    a 304 (the answer it had is still the answer), and the answer itself is the same."""
    for worker in (pub.a, pub.b):
        for name, view in views.items():
            old = before[worker.name][name]
            assert worker.read(view, etag=old.etag).status == 304, f"{name}: retired on {worker.name}"
            assert worker.read(view).content == old.content, f"{name}: changed on {worker.name}"


def test_answers_survive_the_writes_that_cannot_change_them(pub: Pub) -> None:
    """A report retires only what it can change. At venue 2 (registering a new player too): venue
    1's standings (JSON, CSV), the past season's lists and the pages of venue 1's reports stay
    answered as cached (the old ETag is a 304 on both workers), while venue 2's standings, the
    season's lists, which read every venue (R14), and the page of the season's reports are new.
    Then at venue 1: venue 2's standings and the past season's lists stay as they were."""
    names = (
        "standings 1",
        "standings 1 csv",
        "standings 2",
        "qualifiers",
        "past qualifiers",
        "reports 1",
        "reports 1 now",
        "season reports",
    )
    views = {name: pub.views[name] for name in names}
    before = read_on_both(pub, views)
    # Fay, Ace and a newcomer registered by the report itself (a new player moves no scope)
    body = report_body(pub["v2"], 5, pub["Fay"], pub["Ace"])
    body["results"].append(
        {"place": 3, "new_player": {"full_name": "Gus Newman", "email": "gus@example.org"}}
    )
    ok(pub.a.host2.post(TOURNAMENTS, json=body), 201)
    kept = ("standings 1", "standings 1 csv", "past qualifiers", "reports 1", "reports 1 now")
    assert_kept_on_both(pub, {name: views[name] for name in kept}, before)
    changed = ("standings 2", "qualifiers", "season reports")
    after = assert_fresh_on_both(pub, {name: views[name] for name in changed}, before)
    # Ace and Gus join Zed and Fay there; Fay 20 + 30
    assert len(points(after["standings 2"])) == 4 and points(after["standings 2"])[pub["Fay"]] == 50
    before = read_on_both(pub, views)
    post_report(pub)
    assert_kept_on_both(pub, {name: views[name] for name in ("standings 2", "past qualifiers")}, before)
    changed = ("standings 1", "qualifiers", "reports 1", "reports 1 now", "season reports")
    assert_fresh_on_both(pub, {name: views[name] for name in changed}, before)


# Refusals, days, keys, restores --------------------------------------------------------------------


def test_a_refused_write_changes_nothing_and_current_etags_stay_304_r16(pub: Pub) -> None:
    """R16: a report naming a suspended player is refused whole; every answer stays as it was, so
    each worker's current ETag of every view is a 304 on both workers."""
    suspend_ace(pub)
    before = read_on_both(pub, pub.views)
    refused = pub.a.host1.post(TOURNAMENTS, json=report_body(pub["v1"], 0, pub["Bee"], pub["Ace"]))
    assert_problem(refused, 422, "results.1.player_id", rule="R16")
    for worker in (pub.b, pub.a):
        for name, view in pub.views.items():
            for source in ("A", "B"):
                answer = worker.read(view, etag=before[source][name].etag)
                assert answer.status == 304, f"{name}: {source}'s ETag on {worker.name}: {answer.status}"
    assert pub.b.read(pub.views["standings 1"]).content == before["A"]["standings 1"].content


def test_a_new_day_is_a_new_answer(pub: Pub) -> None:
    """Provisional lists, the door list and `as_of` follow the day: Ace's suspension ends today,
    so tomorrow he qualifies again and is off the door list, on every worker."""
    ok(pub.office.post(SANCTIONS, json=sanction_body(pub["Ace"], first_day=ago(20), last_day=ago(0))), 201)
    views = {name: pub.views[name] for name in ("standings 1", "qualifiers 1", "door 1", "Ace")}
    today = read_on_both(pub, views)
    assert skipped(today["B"]["qualifiers 1"].body) == [(pub["Ace"], "ineligible")]
    assert barred_ids(today["B"]["door 1"].body) == [pub["Ace"]]
    tomorrow = datetime.combine(utc_today() + timedelta(days=1), time(12), tzinfo=UTC)
    with time_machine.travel(tomorrow, tick=False):
        now = assert_fresh_on_both(pub, views, today)
    assert now["standings 1"]["as_of"] == tomorrow.date().isoformat()
    assert (skipped(now["qualifiers 1"]), qualifier_ids(now["qualifiers 1"])) == ([], [pub["Ace"]])
    assert barred_ids(now["door 1"]) == []


def test_a_venues_schedule_and_zone_are_read_fresh_on_every_worker_r2_r2a(pub: Pub) -> None:
    """R2 and R2a: the office gives venue 1 a weekly night, then puts the venue on Kiritimati's
    clock (UTC+14: at noon in UTC it is tomorrow there). Each change is read at once on both
    workers: the night in the venue's games, then the games on the venue's new clock, the venue's
    zone, and its standings as of its own today (the zones in use and the league's zone are kept
    per worker by the league scope's version, which the change moves)."""
    noon = datetime.combine(utc_today(), time(12), tzinfo=UTC)
    v1, kiritimati = pub["v1"], "Pacific/Kiritimati"
    with time_machine.travel(noon, tick=False):
        games = View("public", f"/api/v1/games?venue_id={v1}&from={ago(0)}&to={ago(-13)}")
        views = {"games 1": games, "venue 1": pub.views["venue 1"], "standings 1": pub.views["standings 1"]}
        before = read_on_both(pub, views)
        assert before["B"]["games 1"].body["items"] == []
        night = {"weekday": noon.isoweekday(), "starts_at": "19:00", "sessions": 1}
        ok(pub.office.put(f"/api/v1/venues/{v1}/schedule", json={"schedule": [night]}))
        scheduled = assert_fresh_on_both(pub, {"games 1": games}, before)
        assert [g["date"] for g in scheduled["games 1"]["items"]] == [ago(0), ago(-7)]
        before = read_on_both(pub, views)
        ok(pub.office.patch(f"/api/v1/venues/{v1}", json={"timezone": kiritimati}))
        now = assert_fresh_on_both(pub, views, before)
    assert now["venue 1"]["timezone"] == kiritimati
    assert {g["timezone"] for g in now["games 1"]["items"]} == {kiritimati}
    tomorrow = (noon + timedelta(days=1)).date().isoformat()
    assert (before["B"]["standings 1"].body["as_of"], now["standings 1"]["as_of"]) == (ago(0), tomorrow)


def test_a_revoked_key_is_refused_not_answered_from_the_cache(pub: Pub) -> None:
    """Once a host's key is revoked, no worker answers it (401), cached answer or ETag."""
    views = {name: view for name, view in pub.views.items() if view.who == "host1"}
    before = read_on_both(pub, views)
    (key,) = [
        k for k in ok(pub.office.get("/api/v1/api-keys?per_page=100"))["items"] if k["name"] == "Host: Crown"
    ]
    assert pub.office.delete(f"/api/v1/api-keys/{key['id']}").status_code == 204
    for worker in (pub.b, pub.a):
        for name, view in views.items():
            assert_problem(worker.host1.get(view.path), 401)
            refused = worker.host1.get(view.path, headers={"If-None-Match": before[worker.name][name].etag})
            assert refused.status_code == 401, (name, worker.name, refused.status_code)


def data_version(url: str) -> int:
    """The league's data version, as the database holds it (the one table this file reads directly)."""
    engine = create_engine(make_url(url))
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT version FROM data_version")).scalar_one())
    finally:
        engine.dispose()


def test_after_restoring_a_backup_and_cache_reset_no_worker_answers_from_the_abandoned_timeline(
    pub: Pub, copies: Copies
) -> None:
    """A backup is restored over the live database while the workers run, and `flask cache reset`
    is run (here as often as it takes for the data version to come back to the very number the
    abandoned timeline's answers were cached under): no worker serves an answer of the abandoned
    timeline, then or after the next write."""
    views = {name: pub.views[name] for name in ("standings 1", "Ace", "report 1")}
    for worker in (pub.a, pub.b):  # PostgreSQL copies a database no one is connected to
        worker.app.extensions["league_db"].engine.dispose()
    backup = copies.copy(pub.url)
    read_on_both(pub, views)
    rename_ace(pub)
    abandoned = read_on_both(pub, views)
    assert abandoned["B"]["Ace"].body["display_name"] == "Ace High"
    cached_at = data_version(pub.url)
    copies.copy(backup, onto=pub.url)
    for _ in range(10):
        assert "retired" in pub.a.cli("cache", "reset")
        if data_version(pub.url) >= cached_at:
            break
    restored = assert_fresh_on_both(pub, views, abandoned)
    assert restored["Ace"]["display_name"] == "Ace"
    ok(pub.office.patch(f"{PLAYERS}/{pub['Ace']}", json={"display_name": "Ace Low"}))
    for worker in (pub.b, pub.a):
        for name, view in views.items():
            answer = worker.read(view, etag=abandoned[worker.name][name].etag)
            assert answer.status == 200, (name, worker.name)
            assert "Ace High" not in str(answer.body) and "Ace Low" in str(answer.body), (name, worker.name)


def test_db_backup_and_restore_serve_the_same_standings_again(pub: Pub, tmp_path: Path) -> None:
    """`flask --app app db backup FILE` copies the live database (SQLite's online backup API, or
    pg_dump on PostgreSQL); after changes, `db restore FILE --yes` brings it back (pg_restore
    there) and retires the cached answers itself: both workers serve the standings, report and
    player of the backup again, not the changes, then or after the next write."""
    views = {name: pub.views[name] for name in ("standings 1", "Ace", "report 1")}
    before = read_on_both(pub, views)
    backup = tmp_path / "league.backup"
    assert "Backed up" in pub.a.cli("db", "backup", str(backup))
    assert backup.stat().st_size > 0
    rename_ace(pub)
    changed = assert_fresh_on_both(pub, views, before)
    assert changed["Ace"]["display_name"] == "Ace High"
    abandoned = read_on_both(pub, views)
    assert "cached answers retired" in pub.a.cli("db", "restore", str(backup), "--yes")
    restored = assert_fresh_on_both(pub, views, abandoned)
    assert restored["Ace"]["display_name"] == "Ace"
    assert restored["standings 1"] == before["A"]["standings 1"].body
    ok(pub.office.patch(f"{PLAYERS}/{pub['Ace']}", json={"display_name": "Ace Again"}))
    assert pub.b.read(views["Ace"]).body["display_name"] == "Ace Again"


def test_r21_a_db_restore_from_before_an_erasure_applies_the_erasure_again(pub: Pub, tmp_path: Path) -> None:
    """R21: a backup made before Ace's erasure holds his personal data; `db restore` keeps the
    list of erasures it replaces and applies it again, so both workers answer him erased, his
    points as restored, and the audit log says so."""
    backup = tmp_path / "league.backup"
    assert "Backed up" in pub.a.cli("db", "backup", str(backup))
    erase_ace(pub)
    output = pub.a.cli("db", "restore", str(backup), "--yes")
    assert "Erasures applied again: 1 record(s)." in output
    ace = {"Ace to office": View("office", f"{PLAYERS}/{pub['Ace']}")}
    for worker in (pub.a, pub.b):
        player = worker.read(ace["Ace to office"]).body
        assert (player["email"], player["display_name"]) == (None, f"Former player {pub['Ace']}")
    entries = ok(pub.office.get("/api/v1/audit-log?action=player.erase_reapplied"))["items"]
    assert [e["entity_id"] for e in entries] == [pub["Ace"]]


def test_db_restore_asks_first(pub: Pub, tmp_path: Path) -> None:
    """Without --yes, `db restore` asks, and a "no" changes nothing."""
    backup = tmp_path / "league.backup"
    pub.a.cli("db", "backup", str(backup))
    rename_ace(pub)
    result = pub.a.app.test_cli_runner().invoke(args=["db", "restore", str(backup)], input="n\n")
    assert result.exit_code != 0 and "Aborted" in result.output
    assert pub.b.read(pub.views["Ace"]).body["display_name"] == "Ace High"


# Callers and representations -----------------------------------------------------------------------


def test_callers_never_get_each_others_answers_r19(pub: Pub) -> None:
    """R19: the public never sees personal data; a host sees it only for players of its own venues;
    the public, a host of venue 1, of venue 2, of both, and the office each get their own answer,
    whichever a worker was asked first, and another caller's ETag is no 304 for a different answer."""
    ace, zed = f"{PLAYERS}/{pub['Ace']}", f"{PLAYERS}/{pub['Zed']}"
    sees = {  # (who, player) -> whether they see the player's personal data
        ("public", ace): False,
        ("host1", ace): True,
        ("host2", ace): False,
        ("host12", ace): True,
        ("office", ace): True,
        ("public", zed): False,
        ("host1", zed): False,
        ("host2", zed): True,
        ("host12", zed): True,
        ("office", zed): True,
    }
    first: dict[tuple[str, str], Answer] = {}
    for worker, order in ((pub.a, list(sees)), (pub.b, list(reversed(sees)))):  # public first, last
        for _round in range(2):  # the second round comes from the cache
            for who, path in order:
                answer = worker.read(View(who, path))
                assert answer.status == 200 and personal(answer.body) is sees[who, path], (
                    worker.name,
                    who,
                    path,
                )
                assert answer.content == first.setdefault((who, path), answer).content, (
                    worker.name,
                    who,
                    path,
                )
    for (who, path), mine in first.items():
        for (other, other_path), theirs in first.items():
            if other_path != path or theirs.content == mine.content:
                continue
            for worker in (pub.a, pub.b):
                got = worker.read(View(who, path), etag=theirs.etag)
                assert got.status == 200, f"{who} got a 304 for {other}'s ETag of {path} on {worker.name}"
                assert personal(got.body) is sees[who, path]
    lists = [View(who, f"{PLAYERS}?per_page=100") for who in ("public", "host1", "host2", "public", "host2")]
    for worker in (pub.b, pub.a):
        listed = {view.who: worker.read(view).body["items"] for view in lists}
        assert not any(personal(p) for p in listed["public"])
        assert {p["id"] for p in listed["host1"] if personal(p)} == {
            pub[n] for n in ("Ace", "Bee", "Cat", "Dan", "Eve")
        }
        assert {p["id"] for p in listed["host2"] if personal(p)} == {pub["Zed"], pub["Fay"]}


def test_json_and_csv_of_one_url_are_never_swapped(pub: Pub) -> None:
    """The standings URL answers JSON or CSV by Accept (or ?format=csv): each worker, asked in
    either order, gives each its own answer, and one's ETag is no 304 for the other."""
    url = pub.views["standings 1"].path
    asks = {
        "json": (View("public", url), "application/json"),
        "json by accept": (View("public", url, "application/json"), "application/json"),
        "csv by accept": (View("public", url, CSV), CSV),
        "csv by format": (View("public", url + "?format=csv"), CSV),
    }
    first: dict[str, Answer] = {}
    for worker, order in ((pub.a, list(asks)), (pub.b, list(reversed(asks)))):
        for _round in range(2):
            for name in order:
                view, mimetype = asks[name]
                answer = worker.read(view)
                assert (answer.status, answer.mimetype) == (200, mimetype), (worker.name, name)
                if mimetype == CSV:
                    assert answer.body.lstrip("\ufeff").startswith('"season","venue","rank",'), answer.body[
                        :80
                    ]
                else:
                    assert answer.body["standings"][0]["player"]["id"] == pub["Ace"]
                assert answer.content == first.setdefault(name, answer).content, (worker.name, name)
    csv_view, json_view = asks["csv by accept"][0], asks["json"][0]
    for worker in (pub.a, pub.b):
        for name in ("json", "json by accept"):
            got = worker.read(csv_view, etag=first[name].etag)
            assert (got.status, got.mimetype) == (200, CSV), (worker.name, name)
        got = worker.read(json_view, etag=first["csv by accept"].etag)
        assert (got.status, got.mimetype) == (200, "application/json"), worker.name
