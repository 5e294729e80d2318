"""Answers to GETs under /api/ and /embed/, the front door and the league's site (R24), cached by
the versions of what they read (the package's docstring says how they stay fresh)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from flask import Response, current_app, g, request

from api import db
from api.auth import current_actor
from api.cache.filings import Reread
from api.cache.flights import LocalFlights
from api.cache.refresher import ENVIRON_FLAG, PAGE_ACCEPT
from api.cache.release import release
from api.cache.stores import READ_LATELY, Store, read_name
from api.cache.views import page_defaults, policy
from api.csv_export import wants_csv
from api.negotiation import wants_page
from models.actor import Actor
from models.freshness.bumps import DATA
from models.freshness.versions import data_version, scope_versions
from models.services import wall_clock

# Headers of a cached answer that belong to the request that made it, not to the answer.
REQUEST_HEADERS = frozenset(
    {"content-length", "date", "set-cookie", "x-request-id", "retry-after", "cache-control", "x-cache"}
)


def flights() -> LocalFlights:
    running: LocalFlights = current_app.extensions["league_flights"]
    return running


def land() -> None:
    """At the end of a request that led a flight (whatever it answered): its followers go on."""
    key = g.pop("flight", None)
    if key is not None:
        flights().land(key)


def store() -> Store:
    answers: Store = current_app.extensions["league_cache"]
    return answers


def audience(actor: Actor) -> str:
    """Callers who see the same answers: the public, the office, or hosts of the same venues."""
    if actor.is_host:
        return "host:" + ",".join(str(venue) for venue in sorted(actor.venue_ids))
    return actor.role


def _versions(session: Any, epoch: str, version: int) -> list[Any]:
    """What the answer is keyed by: the versions of its scopes, or else the data version; and
    those of the scopes it reads besides (`plus`)."""
    declared = policy()
    view, query = request.view_args or {}, request.args
    names = None if declared.scopes is None else declared.scopes(view, query, session)
    plus = list(declared.plus)
    # What the answer is filed under for the refresher (`store_answer`): each scope it is keyed by.
    g.filed_under = [DATA, *plus] if names is None else [*names, *plus]
    if names is None:
        return [epoch, version] if not plus else [epoch, version, _scoped(session, plus)]
    return [epoch, _scoped(session, [*names, *plus])]


def _scoped(session: Any, names: list[str]) -> dict[str, int]:
    return dict(zip(names, scope_versions(session, names), strict=True))


def representation() -> list[Any]:
    """What the request's Accept header decides, as the views read it (CSV or JSON, a page or
    JSON, an error as a page): readers whose headers differ but mean the same share an answer. A
    page under /embed/ is the same page whatever Accept says (it decides only how an error is
    told, and errors are not cached there): the browser's first load (`text/html`) and the page's
    own polling (`*/*`) share it."""
    if request.path.startswith("/embed/") or request.blueprint == "site":
        return ["page", wants_csv()]
    offered = (
        request.accept_mimetypes.best_match(["application/json", "text/html"])
        if "Accept" in request.headers
        else "application/json"
    )
    return [wants_csv(), offered, wants_page()]


def _query() -> list[tuple[str, str]]:
    """The request's query as the key holds it: sorted, a list's page arguments at their defaults
    left out (`?per_page=50` is the first page as the refresher asks for it)."""
    query = sorted(request.args.items(multi=True))
    defaults = page_defaults()
    if not defaults:
        return query
    named = Counter(name for name, _value in query)  # an argument given twice is kept as it is
    return [(k, v) for k, v in query if named[k] > 1 or (k, v) not in defaults]


def _note_read(query: list[tuple[str, str]]) -> None:
    """Keep what the request is noted by if it computes its answer (`store_answer`), and how the
    refresher asks for it again: with an Accept that makes the same `representation`."""
    g.read_name = read_name(request.path, query)
    if wants_csv() and request.args.get("format") != "csv":
        accept = "text/csv"
    elif request.path.startswith("/embed/") or request.blueprint == "site" or "text/html" in representation():
        accept = PAGE_ACCEPT
    else:
        accept = ""
    g.reread = Reread(g.read_name, accept).dumps()


def _cacheable() -> bool:
    return (
        request.method in ("GET", "HEAD")
        and (
            request.path.startswith(("/api/", "/embed/"))
            or request.path == "/"
            or request.blueprint == "site"
        )
        and bool(request.endpoint)
        and not policy().writes
    )


def answer_from_cache() -> Response | None:
    """Before the view: a 304 or a cached answer, or None (the view runs; `store_answer` caches it)."""
    if not _cacheable():
        return None
    session = db.session()
    epoch, version = data_version(session)
    versions = _versions(session, epoch, version)
    query = _query()
    _note_read(query)
    # R2a: the local date in every zone in use, so no answer outlives a venue's midnight.
    days = wall_clock.day_key(session)
    # The release too: an answer an earlier release stored is never served by this one.
    parts = [release(), *versions, days, audience(current_actor()), request.path, query, representation()]
    if policy().by_host:
        parts.append(request.host)
    also = policy().also
    if also is not None:
        parts.append(list(also(request.view_args or {}, request.args, session) or ()))
    key = hashlib.sha256(json.dumps(parts, separators=(",", ":")).encode()).hexdigest()
    g.cache_key = key
    etag = key[:32]
    if request.if_none_match.star_tag:
        # `*` matches any answer there is: the view runs (the caller's right to it, the record's
        # existence) and a 200 becomes the 304 then (`store_answer`).
        return None
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
        response.set_etag(etag)
        response.vary.update(("Authorization", "Accept"))
        return response
    stored = store().get(key)
    if stored is None:
        leads = flights().lead(key, lambda: store().get(key) is not None)
        # What a leader stored meanwhile (it may have finished between the miss and the claim).
        stored = store().get(key)
        if leads and stored is None:
            g.flight = key  # this request computes the answer; `land` lets the others read it
            return None
        if leads:
            flights().land(key)
        if stored is None:
            return None  # the leader failed, or is slow: computed here too
    head, _, body = stored.partition(b"\n")
    meta = json.loads(head)
    if isinstance(meta, dict):  # a refusal (`cached_by(refusals=True)`): its status, its own request id
        problem = json.loads(body)
        problem["request_id"] = g.get("request_id")
        response = Response(json.dumps(problem), status=meta["status"], headers=meta["headers"])
        g.answered_from_cache = True
        return response
    response = Response(body, status=200, headers=meta)
    response.headers["X-Cache"] = "hit"
    if response.get_etag()[0] is None:
        response.set_etag(etag)
    else:
        # The view's own ETag (a report's version): answered conditionally on it.
        response.make_conditional(request)
    g.answered_from_cache = True
    return response


def store_refusal(response: Response) -> None:
    """After the view: file a fresh 422 of a view caching its refusals under the request's key,
    with its status (and served without an ETag: a refusal is not revalidated)."""
    key: str | None = g.get("cache_key")
    if key is None or not policy().refusals or g.get("answered_from_cache"):
        return
    headers = [(k, v) for k, v in response.headers.items() if k.lower() not in REQUEST_HEADERS]
    head = json.dumps({"status": response.status_code, "headers": headers})
    store().set(key, head.encode() + b"\n" + response.get_data())


def store_answer(response: Response) -> bool:
    """After the view: file a fresh 200 under the request's key. True when the answer is keyed."""
    key: str | None = g.get("cache_key")
    if key is None or response.status_code != 200:
        return False
    if not g.get("answered_from_cache") and not response.is_streamed:
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in REQUEST_HEADERS]
        store().set(key, json.dumps(headers).encode() + b"\n" + response.get_data())
        response.headers["X-Cache"] = "miss"  # computed by this request
        # Filed under each scope of its key: the refresher computes it again when one is bumped.
        store().file([(scope, g.reread) for scope in g.filed_under], READ_LATELY)
        if not request.environ.get(ENVIRON_FLAG):
            # A reader computed it: the refresher computes it after the next writes (for
            # READ_LATELY; a read it answers from the store then is not noted again, so an
            # answer read all evening is computed by a reader once every READ_LATELY).
            store().note([g.read_name], READ_LATELY)
    if response.get_etag()[0] is None:
        response.set_etag(key[:32])
    # Against the view's own ETag (a report's version) or the key's: If-None-Match `*`, or a tag
    # that matches only now, makes the 200 a 304.
    response.make_conditional(request)
    return True
