"""Answers to GETs under /api/ and /embed/, cached by the league's data version.

Every change to league data moves the data version on in the change's own transaction (database
triggers; models/entities/freshness.py). A GET reads the version first, then:

- its ETag is derived from the version, the caller's scope, the day and the request, so a matching
  `If-None-Match` is a 304 at once, with nothing computed;
- an answer stored under that key is served as it was stored;
- otherwise the view runs, and its 200 answer is stored under the key.

No worker can serve a stale answer: a key names the version the data was read at, and every
request reads the version anew. The day is in the key because defaults (`as_of`, provisional
lists, the door list) roll over at midnight; the scope because answers differ by caller (R19).
The store is per process (a least-recently-used map bounded in bytes), or Redis when `CACHE_URL`
is set, shared by every worker. So a GET under /api/ may depend on nothing but the league's data,
the caller's scope, the day and the request (path, query, Accept).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from typing import Any, Protocol

import redis
from cachetools import LRUCache
from flask import Flask, Response, current_app, g, request

from api import db
from api.auth import current_actor
from models.actor import Actor
from models.services import wall_clock
from models.services.freshness import data_version, scope_versions, season_ids, season_scopes, venue_scopes

log = logging.getLogger(__name__)

# Headers of a stored answer that belong to the request that made it, not to the answer.
REQUEST_HEADERS = frozenset(
    {"content-length", "date", "set-cookie", "x-request-id", "retry-after", "cache-control"}
)


class Store(Protocol):
    def get(self, key: str) -> bytes | None: ...

    def set(self, key: str, value: bytes) -> None: ...

    def clear(self) -> None: ...


class MemoryStore:
    """This process's answers, the least recently used dropped first when over `max_bytes`."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._answers: LRUCache[str, bytes] = LRUCache(maxsize=max_bytes, getsizeof=len)
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            return self._answers.get(key)

    def set(self, key: str, value: bytes) -> None:
        if len(value) > self.max_bytes // 4:
            return  # one answer may not push out most of the others
        with self._lock:
            self._answers[key] = value

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()


class RedisStore:
    """Answers shared by every worker. Redis failing is a miss, never a failed read."""

    PREFIX = "league:answer:"

    def __init__(self, url: str, ttl_seconds: int) -> None:
        self._redis = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self._ttl = ttl_seconds

    def get(self, key: str) -> bytes | None:
        try:
            value = self._redis.get(self.PREFIX + key)
        except redis.RedisError as exc:
            log.warning("cache: Redis read failed (%s); answering from the database", exc)
            return None
        return value if isinstance(value, bytes) else None

    def set(self, key: str, value: bytes) -> None:
        try:
            self._redis.set(self.PREFIX + key, value, ex=self._ttl)
        except redis.RedisError as exc:
            log.warning("cache: Redis write failed (%s)", exc)

    def clear(self) -> None:
        for key in self._redis.scan_iter(match=self.PREFIX + "*", count=1000):
            self._redis.delete(key)


def make_store(config: dict[str, Any]) -> Store:
    if config.get("CACHE_URL"):
        return RedisStore(config["CACHE_URL"], int(config["CACHE_TTL_SECONDS"]))
    return MemoryStore(int(config["CACHE_MAX_BYTES"]))


class Memo(MutableMapping[Any, Any]):
    """What services computed for reads, kept by this process under the data version they read
    (models/services/versioning.MEMO): the season-wide qualifier lists, and a few small things
    kept by the `league` scope (`kept_by_league`). Few, least recently used
    dropped first. Few: a national season's lists are a hundred thousand objects, which every
    full collection of the garbage collector walks; older versions only serve readers still on
    them (measured: 16 kept made each computation after a write up to 100 ms slower)."""

    def __init__(self, size: int = 16) -> None:
        self._items: LRUCache[Any, Any] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def __getitem__(self, key: Any) -> Any:
        with self._lock:
            return self._items[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value

    def __delitem__(self, key: Any) -> None:
        with self._lock:
            del self._items[key]

    def __iter__(self) -> Iterator[Any]:
        with self._lock:
            return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)


def init_app(app: Flask) -> None:
    app.extensions["league_cache"] = make_store(app.config)
    app.extensions["league_memo"] = Memo()


def store() -> Store:
    answers: Store = current_app.extensions["league_cache"]
    return answers


def scope(actor: Actor) -> str:
    """Callers who see the same answers: the public, the office, or hosts of the same venues."""
    if actor.is_host:
        return "host:" + ",".join(str(venue) for venue in sorted(actor.venue_ids))
    return actor.role


Scopes = Callable[[dict[str, Any], Mapping[str, str], Any], Sequence[str] | None]


def _venue_answer(view: dict[str, Any], _args: Mapping[str, str], _session: Any) -> Sequence[str]:
    return venue_scopes(view["season_id"], view["venue_id"])


def _season_answer(view: dict[str, Any], _args: Mapping[str, str], _session: Any) -> Sequence[str]:
    return season_scopes(view["season_id"])


def _number(args: Mapping[str, str], name: str) -> int | None:
    value = args.get(name)
    # ASCII digits only: "²".isdigit() is true and int() refuses it (the view then names it).
    return int(value) if value is not None and value.isascii() and value.isdigit() else None


def _reports_answer(_view: dict[str, Any], args: Mapping[str, str], session: Any) -> Sequence[str] | None:
    """A page of reports reads only the reports its filters take: a season's (`season:S`), a
    venue's in a season (`venue:S:V`), or a venue's in every season; unfiltered (or filtered by
    something unreadable, which the view refuses), the data version."""
    season, venue = _number(args, "season_id"), _number(args, "venue_id")
    if ("season_id" in args and season is None) or ("venue_id" in args and venue is None):
        return None
    if venue is None:
        return None if season is None else season_scopes(season)
    if season is not None:
        return venue_scopes(season, venue)
    return ("league", *(f"venue:{season_id}:{venue}" for season_id in season_ids(session)))


# Answers keyed by the versions of the scopes they read (migration 0022), not the league's data
# version: a write retires them only when it changes one of those scopes. A venue's standings read
# only that venue's reports of the season (each venue is its own league: R1); the qualifier lists
# read every venue of the season (R14 links them); a page of reports those its filters take. Every
# other answer (and one of these whose scopes are None) is keyed by the data version.
SCOPED_ANSWERS: dict[str, Scopes] = {
    "standings.StandingsViews": _venue_answer,
    "standings.StandingsCsvViews": _venue_answer,
    "embed.StandingsPage": _venue_answer,
    "qualifiers.SeasonQualifiersViews": _season_answer,
    "qualifiers.SeasonQualifiersCsvViews": _season_answer,
    "qualifiers.VenueQualifiersViews": _season_answer,
    "qualifiers.VenueQualifiersCsvViews": _season_answer,
    "embed.QualifiersPage": _season_answer,
    "tournaments.TournamentsViews": _reports_answer,
}


def _league_answer(_view: dict[str, Any], _args: Mapping[str, str], _session: Any) -> Sequence[str]:
    return ("league",)


# R7: a chart's preview reads only the chart and the league's settings (the `league` scope).
SCOPED_ANSWERS["points_charts.ChartPreviewViews"] = _league_answer
SCOPED_ANSWERS["points_charts.DefaultChartPreviewViews"] = _league_answer

# Answers whose refusals (a 422: the same request is refused the same way until the data it read
# changes) are kept as their 200s are: a preview's refusal may have cost as much as its answer.
CACHED_REFUSALS = frozenset({"points_charts.ChartPreviewViews", "points_charts.DefaultChartPreviewViews"})


# Answers that name the host they were asked of (the games page's webcal:// link): keyed by it too,
# so a page asked of one host name is never served to a caller of another.
HOST_NAMED_ANSWERS = frozenset({"embed.GamesPage"})


def _versions(session: Any, epoch: str, version: int) -> list[Any]:
    """What the answer is keyed by: the versions of its scopes, or else the data version."""
    scopes = SCOPED_ANSWERS.get(request.endpoint or "")
    names = None if scopes is None else scopes(request.view_args or {}, request.args, session)
    if names is None:
        return [epoch, version]
    return [epoch, dict(zip(names, scope_versions(session, names), strict=True))]


def _cacheable() -> bool:
    return (
        request.method in ("GET", "HEAD")
        and request.path.startswith(("/api/", "/embed/"))
        and bool(request.endpoint)
        # A GET that writes (a player's data export, audited each time: R21) is never cached.
        and request.endpoint not in db.WRITING_GETS
    )


def answer_from_cache() -> Response | None:
    """Before the view: a 304 or a stored answer, or None (the view runs; `store_answer` keeps it)."""
    if not _cacheable():
        return None
    session = db.session()
    epoch, version = data_version(session)
    versions = _versions(session, epoch, version)
    query = sorted(request.args.items(multi=True))
    # R2a: the local date in every zone in use, so no answer outlives a venue's midnight.
    days = wall_clock.day_key(session)
    parts = [*versions, days, scope(current_actor()), request.path, query]
    parts.append(request.headers.get("Accept", ""))
    if request.endpoint in HOST_NAMED_ANSWERS:
        parts.append(request.host)
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
        return None
    head, _, body = stored.partition(b"\n")
    kept = json.loads(head)
    if isinstance(kept, dict):  # a refusal (CACHED_REFUSALS): its status and its own request id
        problem = json.loads(body)
        problem["request_id"] = g.get("request_id")
        response = Response(json.dumps(problem), status=kept["status"], headers=kept["headers"])
        g.answered_from_cache = True
        return response
    response = Response(body, status=200, headers=kept)
    if response.get_etag()[0] is None:
        response.set_etag(etag)
    else:
        # The view's own ETag (a report's version): answered conditionally on it.
        response.make_conditional(request)
    g.answered_from_cache = True
    return response


def store_refusal(response: Response) -> None:
    """After the view: file a fresh 422 of a CACHED_REFUSALS endpoint under the request's key,
    with its status (and served without an ETag: a refusal is not revalidated)."""
    key: str | None = g.get("cache_key")
    if key is None or request.endpoint not in CACHED_REFUSALS or g.get("answered_from_cache"):
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
    if response.get_etag()[0] is None:
        response.set_etag(key[:32])
    # Against the view's own ETag (a report's version) or the key's: If-None-Match `*`, or a tag
    # that matches only now, makes the 200 a 304.
    response.make_conditional(request)
    return True
