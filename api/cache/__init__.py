"""Cached answers, and how they stay fresh: the HTTP adapter of freshness (models/freshness/ is
the rest, without Flask: the scopes, which table bumps which, the versions and the memos).

How one report retires one venue's standings:
1. The report's rows are written; the database's triggers bump the data version and the scopes
   of the rows it changed, `venue:S:V` among them, in the report's own transaction
   (models/freshness/tables.py maps tables to scopes; `Scope` names them).
2. The next GET of that venue's standings reads the versions first (`hooks.answer_from_cache`):
   its view declares `@cached_by(a_venue)` (views.py), so its key holds the versions of
   `league` and `venue:S:V`, the caller's audience, the local day and the request.
3. The bumped version makes a new key: the answer cached under the old one is never served
   again (retired); the view runs and `hooks.store_answer` caches its answer under the new key.

So no worker can serve a stale answer: a key names the versions the data was read at, and every
request reads the versions anew. Of the reads that miss one key at once, one computes the answer
and the others wait for it (flights.py: single flight, across workers). Answers are cached where
every worker reads them: Redis when `CACHE_URL` is set, else the embedded store's directory
(stores.py). After a write commits, the refresher computes the answers it retired that the
website read lately, once for every worker (refresher.py: what the store filed under each scope
the write bumped, filings.py); what services
compute for reads (a season's qualifier lists, …) is cached by the memos
(models/freshness/memos.py) under the versions of the scopes it read, as are the JSON fragments
answers are written from (fragments.py). A GET under /api/ or /embed/ may thus depend on
nothing but the league's data, the caller's audience, the day and the request (path, query,
Accept), and the release of the service that made it (release.py: a new release never serves an
earlier one's answers)."""

from __future__ import annotations

from flask import Flask, current_app

from api import db
from api.cache import hooks
from api.cache.flights import make_flights
from api.cache.stores import DiskStore, LayeredStore, make_store
from models.freshness.memos import FRAGMENTS, MEMO, SMALL_MEMO, Memo

# What services compute for reads: few (a national season's lists are a hundred thousand
# objects, which every full collection of the garbage collector walks; older versions only serve
# readers still on them: 16 cached made each computation after a write up to 100 ms slower).
MEMO_SIZE = 16
# Small values services compute for reads (a venue's standings before tonight's night, R22): one
# per live night of a national league, and more.
SMALL_MEMO_SIZE = 2048
# JSON fragments: a few national pages' worth (a report's is about thirty objects).
FRAGMENTS_SIZE = 8192


def init_app(app: Flask) -> None:
    answers = make_store(app.config)
    app.extensions["league_cache"] = answers
    shared = answers.shared if isinstance(answers, LayeredStore) else None
    app.extensions["league_flights"] = make_flights(
        app.config.get("CACHE_URL") or "",
        float(app.config.get("CACHE_FLIGHT_WAIT_SECONDS", 10)),
        disk=shared.cache if isinstance(shared, DiskStore) else None,
    )
    app.teardown_request(lambda _error: hooks.land())
    app.extensions["league_memo"] = Memo(MEMO_SIZE)
    app.extensions["league_small_memo"] = Memo(SMALL_MEMO_SIZE)
    app.extensions["league_fragments"] = Memo(FRAGMENTS_SIZE)
    # A reading session carries the memos (api/db.py), and an erasure's commit drops everything.
    app.extensions[db.MEMOS].update(memos(app))
    app.extensions[db.PURGES].append(clear)


def memos(app: Flask) -> dict[str, Memo]:
    """The memos a reading session carries (models/freshness/versions.py names them)."""
    extensions = app.extensions
    return {
        MEMO: extensions["league_memo"],
        SMALL_MEMO: extensions["league_small_memo"],
        FRAGMENTS: extensions["league_fragments"],
    }


def clear() -> None:
    """Drop everything cached (from Redis too): after an erasure (R21), so that no copy of a value
    that is gone is kept, and between tests."""
    for name in ("league_cache", "league_memo", "league_small_memo", "league_fragments"):
        current_app.extensions[name].clear()
