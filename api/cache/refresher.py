"""The refresher: after a write commits, the answers it retired that the website read lately are
computed again once, by one process, for every worker, before (or while) readers ask for them.
The delivery worker (`flask --app app deliver`) runs it on a thread of its own, every
REFRESH_EVERY_SECONDS.

It follows the scopes, and nothing else: no table of URLs, no event of the outbox.
1. Each bump of a scope is recorded with a number where the triggers write `scope_versions`
   (migration 0037). A pass asks for the scopes bumped since its mark
   (models/freshness/bumps.py, which misses none when PostgreSQL commits out of order), and
   `DATA` when the league's data version moved.
2. When an answer is cached, the store files its request under every scope its key read
   (hooks.store_answer, filings.py), for READ_LATELY. The pass takes what is filed under each
   bumped scope, the narrowest first, and of that what a reader asked for lately (READ_LATELY:
   a night's page nobody follows, or a venue's standings nobody opened tonight, is computed when,
   if ever, read).
3. It asks the service for each (Flask's test client), as the website asks, so the answer is
   filed under the key a reader's request makes, in the store every worker reads (Redis or the
   embedded store's directory). A reader that arrives meanwhile waits for it (single flight
   across workers); one that arrives after reads it.
4. Then it keeps its new mark in that store (filings.py): a restart resumes from it, and a pass
   cut short is done again. A rolled-back write bumps nothing, so nothing is refreshed for it.

So a new cached view is refreshed once it declares its scopes (`@cached_by`): nothing else names
what the refresher computes. A live night's actions move its venue's `night:V` scope, which its
live page declares."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Flask
from sqlalchemy import Connection

from api.cache.filings import Reread
from api.cache.stores import LayeredStore, Store
from models.freshness.bumps import DATA, Mark, bumped_since

log = logging.getLogger(__name__)

# What a browser framing an embed sends (its pages are keyed by what Accept asks for).
PAGE_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
ENVIRON_FLAG = "league.refresher"
# The narrowest scopes' answers first: a venue's standings before the league's every page.
NARROWEST_FIRST = ("night", "venue", "report", "season", "league", "outbox", DATA)


@dataclass(frozen=True, order=True)
class Read:
    """One answer to compute: the rank of the scope it was filed under, and its request."""

    order: int
    path: str
    accept: str = ""


def _store(app: Flask) -> Store:
    answers: Store = app.extensions["league_cache"]
    return answers


def shared(app: Flask) -> bool:
    """Whether the answers computed here are read by the workers: a store they share."""
    return isinstance(app.extensions["league_cache"], LayeredStore)


def bumped(app: Flask, connection: Connection) -> tuple[list[str], Mark]:
    """The scopes bumped since the mark the store keeps, and the mark to keep after them."""
    return bumped_since(connection, kept(app))


def kept(app: Flask) -> Mark:
    return Mark.loads(_store(app).mark())


def keep(app: Flask, mark: Mark) -> None:
    """The mark kept, once the answers of the scopes bumped before it are computed."""
    if mark != kept(app):
        _store(app).keep_mark(mark.dumps())


def _rank(scope: str) -> int:
    kind = scope.split(":", 1)[0]
    return NARROWEST_FIRST.index(kind) if kind in NARROWEST_FIRST else len(NARROWEST_FIRST)


def rereads(app: Flask, scopes: Iterable[str]) -> list[Read]:
    """What is filed under the scopes and was read lately, each once, the narrowest scope's first."""
    answers = _store(app)
    first: dict[Reread, int] = {}
    for scope in scopes:
        rank = _rank(scope)
        for entry in answers.filed(scope):
            try:
                reread = Reread.loads(entry)
            except (ValueError, TypeError):
                continue
            first[reread] = min(rank, first.get(reread, rank))
    return sorted(
        Read(rank, reread.path, reread.accept) for reread, rank in first.items() if answers.noted(reread.path)
    )


def refresh(app: Flask, reads: Iterable[Read]) -> int:
    """Ask the service for each answer, as the public website does: how many were computed here
    (the others were cached already, by a reader or an earlier pass)."""
    public = urlsplit(app.config.get("PUBLIC_URL") or "http://localhost")
    client = app.test_client()
    computed = 0
    for read in reads:
        headers = {"Accept": read.accept} if read.accept else {}
        try:
            # Each request in an application context of its own, as a served request is: it
            # would otherwise share the caller's `g` (its session, its cache key) with the others.
            with app.app_context():
                answer = client.get(
                    read.path,
                    headers=headers,
                    base_url=f"{public.scheme or 'http'}://{public.netloc or 'localhost'}",
                    environ_overrides={ENVIRON_FLAG: True},
                )
        except Exception:  # a refresh that fails is computed when read: never a reason to stop
            log.exception("refresher: %s failed", read.path)
            continue
        if answer.headers.get("X-Cache") == "miss":
            computed += 1
        elif answer.status_code >= 500:
            log.warning("refresher: %s answered %s", read.path, answer.status_code)
    return computed
