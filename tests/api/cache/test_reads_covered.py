"""Every cached answer reads only tables whose changes retire it, by the views' own declarations.

Every GET route of the app (Flask's url_map) is asked of a small league that has one of
everything (a report, a sanction, a merge, a night, a webhook with a delivery, a player's
consent, …), with its path's ids and each id its query takes: the API's by the office, a host and
the public, the console's by the office signed in, the rest by the public. The answers the cache
keys (today every GET under /api/ and /embed/ but `@never_cached`; the console's pages are
computed for each request) are checked: SQLAlchemy's `before_cursor_execute` notes the tables the
request read from the moment the cache keyed it (what the key itself reads is the cache's), and
each must be one that moves what the view is keyed by (api/cache/views.py): the data version
(`@cached_by` with no scopes, or a scopes function that answers None), each scope it declares or
adds (`plus`; models/freshness/tables.py maps tables to scopes), and what `also` stands for.

So a view that reads a table no declaration covers (the probe of issue 60: the delivery log,
keyed by the data version, which no delivery moves) fails here, whoever adds it, with no list of
views kept by hand. Every memo (models/freshness/memos.py: each value services or the api layer
cache for reads, the JSON fragments among them) is held the same way: what each computation
read, against the scopes it is cached by (`memos._computed`, which every memo goes through)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask, g, has_request_context, request, request_finished
from sqlalchemy import Connection, event

from api import cache, db
from api.cache.views import DATA_VERSION, Policy, check_declarations, declared, keyed, policy
from models.entities.base import Base
from models.freshness import memos
from models.freshness.tables import NIGHT_TABLES, OUTBOX_TABLES, UNVERSIONED_TABLES, covered_by
from models.rules.emails import unsubscribe_token
from tests.builders import MakeScene, Scene, ended_season, sanctioned
from tests.support.console import signed_in
from tests.support.league import Caller
from tests.support.nights import opened

# The versions themselves: every keyed read reads them first, and some answers name them.
VERSIONS = frozenset({"data_version", "scope_versions"})
# Every table of league data moves the data version (migration 0008 and those after it).
DATA_VERSION_TABLES = frozenset(Base.metadata.tables) - UNVERSIONED_TABLES - NIGHT_TABLES - OUTBOX_TABLES

# A table a statement reads or writes: each name after FROM or JOIN, and after the commas of a
# FROM list (quoted or not, with or without an alias). Only the schema's tables count, so a
# function in a FROM (`EXTRACT(… FROM …)`) or a subquery's alias is no table.
_NAME = r'"?\w+"?(?:\s+AS\s+"?\w+"?)?'
_FROMS = re.compile(rf"\b(?:FROM|JOIN|INTO|UPDATE)\s+({_NAME}(?:\s*,\s*{_NAME})*)", re.IGNORECASE)


def tables_in(statement: str) -> set[str]:
    named = {
        item.strip().split()[0].strip('"')
        for found in _FROMS.finditer(statement)
        for item in found.group(1).split(",")
    }
    return named & set(Base.metadata.tables)


class Reads:
    """The tables read, noted by `before_cursor_execute`: by each request's view (once the cache
    has keyed the request), and by each computation a service caches by scopes."""

    def __init__(self) -> None:
        self.request: set[str] = set()
        self.computing: list[set[str]] = []

    def note(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        tables = tables_in(statement)
        if has_request_context() and g.get("cache_key") is not None:
            self.request |= tables
        for frame in self.computing:
            frame |= tables

    @contextmanager
    def computation(self) -> Iterator[set[str]]:
        frame: set[str] = set()
        self.computing.append(frame)
        try:
            yield frame
        finally:
            self.computing.pop()  # computations nest: the innermost ends first


@dataclass
class Keyed:
    """What a request's answer was keyed by, as its view declares it."""

    policy: Policy
    data_version: bool = False
    scopes: list[str] = field(default_factory=list)


def keyed_by(session: Any) -> Keyed:
    """The request's view's declaration, evaluated as the cache evaluates it (api/cache/hooks)."""
    declared = policy()
    view, query = request.view_args or {}, request.args
    names = None if declared.scopes is None else declared.scopes(view, query, session)
    keyed = Keyed(declared, data_version=names is None, scopes=[*(names or ()), *declared.plus])
    return keyed


def allowed(keyed: Keyed) -> frozenset[str]:
    tables = set(VERSIONS) | set(keyed.policy.also_covers)
    if keyed.data_version:
        tables |= DATA_VERSION_TABLES
    for scope in keyed.scopes:
        tables |= covered_by(scope)
    return frozenset(tables)


@dataclass
class Asked:
    path: str
    who: str
    status: int
    read: set[str]
    keyed: Keyed | None


@dataclass
class Walk:
    app: Flask
    reads: Reads
    asked: list[Asked] = field(default_factory=list)
    computations: list[tuple[str, Sequence[str], set[str]]] = field(default_factory=list)
    _keyed: Keyed | None = None

    def finished(self, _sender: Flask, **_extra: Any) -> None:
        if g.get("cache_key") is not None and not g.get("answered_from_cache"):
            self._keyed = keyed_by(db.session())

    def ask(self, who: str, caller: Caller, path: str) -> None:
        with self.app.app_context():
            cache.clear()  # every answer and every value a service caches, computed afresh
        self.reads.request = set()
        self._keyed = None
        answer = caller.get(path)
        self.asked.append(Asked(path, who, answer.status_code, self.reads.request, self._keyed))


def watch_memos(monkeypatch: pytest.MonkeyPatch, walk: Walk) -> None:
    """Each computation of a memo (every one goes through `memos._computed`) noted with its key,
    its scopes and the tables it read."""
    original = memos._computed

    def watched(key: Any, scopes: Sequence[str], compute: Callable[[], Any]) -> Any:
        with walk.reads.computation() as read:
            value = original(key, scopes, compute)
        walk.computations.append((key, list(scopes), read))
        return value

    monkeypatch.setattr(memos, "_computed", watched)


def unscoped(walk: Walk) -> dict[str, list[str]]:
    """Each memo computation that read a table none of its scopes covers, with those tables."""
    found = {}
    for key, scopes, read in walk.computations:
        beyond = read - VERSIONS - frozenset().union(*(covered_by(scope) for scope in scopes))
        if beyond:
            found[repr(key)] = sorted(beyond)
    return found


def memo_name(key: Any) -> str:
    """What a memo's key names first (`"qualifier lists"`, `("report", 3, True)`'s "report", …)."""
    while isinstance(key, tuple) and key:
        key = key[0]
    return str(key)


# The league --------------------------------------------------------------------------------------


def created(caller: Caller, path: str, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    answer = caller.post(path, json=body)
    assert answer.status_code == status, answer.get_data(as_text=True)
    made: dict[str, Any] = answer.get_json()
    return made


def one_of_everything(app: Flask, scene: Scene) -> dict[str, Any]:
    """What a path (or the query a view requires) may name, each id of a row that exists: a
    report, a sanction, a chart, a structure, a merge, a night open at the venue, a webhook with
    a delivery (a ping), a player with consent to the weekly email."""
    office = scene.office
    ann, bea, cal, dup = scene.players("Ann A.", "Bea B.", "Cal C.", "Ann A. twice")
    report = scene.report([ann, bea, cal])
    sanction = sanctioned(office, cal, "warning", "berating")
    merge = created(office, f"/api/v1/players/{ann}/merge", {"duplicate_id": dup, "reason": "Twice."}, 200)
    levels = [{"small_blind": 50, "big_blind": 100, "minutes": 30}]
    structure = created(
        office, "/api/v1/structures", {"name": "Finals", "starting_chips": 9000, "levels": levels}
    )
    chart = scene.league.chart()
    hook = created(office, "/api/v1/webhooks", {"url": "https://example.org/hook", "events": ["*"]})
    created(office, f"/api/v1/webhooks/{hook['id']}/ping", {}, 202)
    assert office.put(f"/api/v1/players/{bea}/email-consent").status_code == 200
    barred = created(
        office,
        f"/api/v1/seasons/{scene.season_id}/disqualifications",
        {"player_id": cal, "reason": "Collusion."},
    )
    night = opened(scene)
    key = office.get("/api/v1/api-keys").get_json()["items"][0]["id"]
    return {
        "season_id": scene.season_id,
        "venue_id": scene.venue_id,
        "region_id": int(scene.region["id"]),
        "player_id": bea,
        "tournament_id": int(report["id"]),
        "sanction_id": int(sanction["id"]),
        "chart_id": int(chart["id"]),
        "structure_id": int(structure["id"]),
        "merge_id": int(merge["merge_id"]),
        "webhook_id": int(hook["id"]),
        "night_id": int(night["id"]),
        "key_id": int(key),
        "disqualification_id": int(barred["id"]),
        "token": unsubscribe_token(str(app.config["SECRET_KEY"]), bea, datetime.now(UTC), datetime.now(UTC)),
        "report_id": int(report["id"]),  # the site's page of a night's result
        "part": 1,  # the site's sitemap part
        "filename": "nothing.css",
        "other": ann,  # head-to-head's other player
        "entrants": 10,  # a chart's preview's field
    }


def query_fields(app: Flask, endpoint: str) -> dict[str, Any]:
    """The fields of the view's query (`?season_id=…`), from its declared arguments."""
    view = app.view_functions[endpoint]
    method = getattr(getattr(view, "view_class", None), "get", view)
    found: dict[str, Any] = {}
    for parameter in getattr(method, "_apidoc", {}).get("arguments", {}).get("parameters", []):
        if parameter.get("in") == "query":
            found.update(getattr(parameter.get("schema"), "_declared_fields", {}))
    return found


def paths(app: Flask, ids: dict[str, Any]) -> Iterator[str]:
    """Every GET of the app: each rule with its ids (and what its query requires), then with each
    id its query takes, and with all of them."""
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if "GET" not in (rule.methods or ()):
            continue
        fields = query_fields(app, rule.endpoint)
        required = [name for name, declared in fields.items() if declared.required]
        missing = (set(rule.arguments) | set(required)) - set(ids)
        assert not missing, f"{rule.rule}: no value in the league for {missing}"
        with app.test_request_context():
            path = app.url_for(
                rule.endpoint,
                **{name: ids[name] for name in rule.arguments},
                **{name: ids[name] for name in required},
            )
        yield path
        filters = [name for name in fields if name.endswith("_id") and name in ids and name not in required]
        joiner = "&" if "?" in path else "?"
        for name in filters:
            yield f"{path}{joiner}{name}={ids[name]}"
        if len(filters) > 1:
            yield path + joiner + "&".join(f"{name}={ids[name]}" for name in filters)


def callers_of(path: str, callers: dict[str, Any]) -> list[str]:
    """Who asks: the API's callers, the public alone for pages of other sites and the rest, the
    office signed in for the console's pages."""
    if path.startswith("/api/"):
        return ["office", "host", "public"]
    return ["console"] if path.startswith("/console/") else ["public"]


# The test ----------------------------------------------------------------------------------------


def test_every_cached_view_reads_only_tables_its_declarations_cover_r23(
    app: Flask, scene: Scene, public: Caller, connection: Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R23 among them: the office's delivery log and subscriptions, and a player's consent, are
    read by cached answers, so the tables they read move what those answers are keyed by."""
    ids = one_of_everything(app, scene)
    walk = Walk(app, Reads())
    watch_memos(monkeypatch, walk)
    callers = {
        "office": scene.office,
        "host": scene.host,
        "public": public,
        "console": Caller(signed_in(app, scene.office.key), None),
    }
    event.listen(connection, "before_cursor_execute", walk.reads.note)
    request_finished.connect(walk.finished, app)
    try:
        for path in paths(app, ids):
            for who in callers_of(path, callers):
                walk.ask(who, callers[who], path)
    finally:
        request_finished.disconnect(walk.finished, app)
        event.remove(connection, "before_cursor_execute", walk.reads.note)

    # What the cache keyed: every GET under /api/ and /embed/ but those never cached, the front
    # door and the league's site (R24), and nothing else: the console's pages are computed for
    # each request.
    keyed = {a.path for a in walk.asked if a.keyed is not None}
    assert {p.split("?")[0].split("/")[1] for p in keyed} >= {"api", "embed", "", "venues", "players"}
    assert not {p for p in keyed if p.startswith(("/console", "/docs", "/health", "/email"))}
    assert "/api/v1/webhooks" in keyed and f"/console/webhooks/{ids['webhook_id']}" not in keyed
    # Every path the cache keys was answered (a 200) to someone: its view ran, reading what it reads.
    answered = {a.path for a in walk.asked if a.status == 200}
    assert keyed - answered == set()
    uncovered = {
        f"{a.path} ({a.who})": sorted(a.read - allowed(a.keyed))
        for a in walk.asked
        if a.keyed is not None and a.status in (200, 422) and a.read - allowed(a.keyed)
    }
    assert uncovered == {}
    # The reads of the views were seen (the walk would pass if nothing were noted).
    assert {"webhooks", "webhook_deliveries", "email_consents", "results"} <= set().union(
        *(a.read for a in walk.asked)
    )
    # The memos were seen computing, each kind of them (the walk would pass if none were noted),
    # and each read only tables its scopes cover.
    seen = {memo_name(key) for key, _scopes, _read in walk.computations}
    assert seen >= {
        "qualifier lists",  # a season's lists (recomputed_by_scopes)
        "venue before tonight",  # a night's venue's standings before it (the small memo)
        "report",  # a report's JSON in a page of reports (many_by_scopes, the fragments)
        "venue list",  # a venue's list's JSON (cached_at the versions it was drawn at)
        "season ids",  # the league's small lookups (cached_by_league)
    }, seen
    assert any(read - VERSIONS for _key, _scopes, read in walk.computations), "no memo's reads were seen"
    assert unscoped(walk) == {}


def test_every_view_the_cache_keys_declares_what_it_reads(app: Flask) -> None:
    """No silent fall-back to "any write retires it": each GET the cache keys declares its scopes
    (a reason written at the view when it is the whole data version), or that it is never
    cached; the app refuses to start otherwise."""
    rules = [rule for rule in app.url_map.iter_rules() if keyed(rule)]
    assert len(rules) > 50 and any(rule.rule == "/" for rule in rules)
    for rule in rules:
        found = declared(app, rule)
        assert found is not None, rule.rule
        if found.scopes is DATA_VERSION:
            assert len(found.why.split()) >= 3, f"{rule.rule}: why is it keyed by the whole data version?"
    undeclared = Flask(__name__)
    undeclared.add_url_rule("/api/v1/silent", "silent", lambda: "")
    with pytest.raises(RuntimeError, match="/api/v1/silent"):
        check_declarations(undeclared)


def test_a_published_seasons_memos_read_only_tables_their_scopes_cover_r12(
    app: Flask, make_scene: MakeScene, connection: Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R12-R14's publication: the published lists are read through memos of their own (the
    newest publications, each publication's lists, read by a profile), which the walk above never
    meets (its season has not ended). Each is held to its scopes the same way."""
    scene = make_scene(**ended_season())
    ann, bea, cal = scene.players("Ann A.", "Bea B.", "Cal C.")
    scene.report([ann, bea, cal])
    path = f"/api/v1/seasons/{scene.season_id}/qualifiers"
    answer = scene.office.post(f"{path}/publish", json={"settlements": []})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    walk = Walk(app, Reads())
    watch_memos(monkeypatch, walk)
    event.listen(connection, "before_cursor_execute", walk.reads.note)
    try:
        region = int(scene.region["id"])
        for asked in (
            path,
            f"/api/v1/seasons/{scene.season_id}/venues/{scene.venue_id}/qualifiers",
            f"/embed/seasons/{scene.season_id}/regions/{region}/qualifiers",
            f"/api/v1/players/{ann}",  # a profile reads the publication's lists
        ):
            walk.ask("public", scene.public, asked)
    finally:
        event.remove(connection, "before_cursor_execute", walk.reads.note)
    assert all(a.status == 200 for a in walk.asked), [(a.path, a.status) for a in walk.asked]
    seen = {memo_name(key) for key, _scopes, _read in walk.computations}
    assert {"newest publications", "publication"} <= seen, seen
    assert unscoped(walk) == {}
