"""The refresher: after a write commits, the answers it retired that the website reads are computed
again once, by one process, for every worker, before (or while) readers ask for them.

It is driven by the outbox (R23's events, written in the transaction of the change they tell
of, and `night.changed` for each action of a live night): a rolled-back write leaves no event,
so nothing is refreshed for it, and an event stays waiting (`refreshed_at` NULL) until its
answers were computed, so a refresh interrupted by a restart is done at the next start. The
delivery worker (`flask --app app deliver`) runs it between its passes, every
REFRESH_EVERY_SECONDS.

Each answer is computed by asking the service itself (Flask's test client) for it, as the public
website asks: the answer is filed under the key a reader's request makes (the versions of what
it read, the day, the audience, the request), in the store every worker reads (Redis or the
embedded store's directory). A reader that arrives while it is being computed waits for it
(single flight across workers); one that arrives after reads it. What is refreshed, per event:

- standings.changed (a season, a venue): the venue's standings and their embed, the season's and
  the venue's qualifier lists and the embed of the venue's region, the first page of the reports
  lists of the season, the venue and both, and the venue's live page (its night's standings if
  it ended now);
- report.posted, .corrected, .voided: the report, the first page of all reports, the profiles of
  its players, the first page of the rating table (the league's and each region's);
- qualifiers.published: the season's qualifier lists;
- night.opened, .ended, .changed: its venue's live page.

Only first pages at the default page size and with no other parameters are computed: what the
website and the embeds ask for; and of those, only the ones someone read in the last ten minutes
(READ_LATELY: each worker notes what it is asked for in the shared store): a night's page that
nobody follows, or a venue's standings nobody opened tonight, is computed when (if ever) read.
Any other answer is computed when first read, as before."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

from flask import Flask
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from api.cache.stores import LayeredStore, Store, read_name
from models.entities import OutboxEvent, Region, Venue
from models.entities.tournaments import Result
from models.infra.clock import utcnow
from models.rules.webhooks import INTERNAL_KINDS

log = logging.getLogger(__name__)

# What a browser framing an embed sends (its pages are keyed by what Accept asks for).
PAGE_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
# Events taken at once: a pass refreshes each answer they retired once, however many retired it.
BATCH = 500
ENVIRON_FLAG = "league.refresher"


@dataclass(frozen=True, order=True)
class Read:
    """One answer to compute: its path (with query) and whether it is a page (an embed)."""

    order: int  # the most read first
    path: str
    page: bool = False


def _venue_region(session: Session, venue_id: int) -> int | None:
    return session.scalar(select(Venue.region_id).where(Venue.id == venue_id))


def _standings(session: Session, season: int, venue: int) -> Iterator[Read]:
    yield Read(0, f"/api/v1/seasons/{season}/venues/{venue}/standings")
    yield Read(1, f"/embed/seasons/{season}/venues/{venue}/standings", page=True)
    yield Read(2, f"/api/v1/seasons/{season}/qualifiers")
    yield Read(3, f"/api/v1/seasons/{season}/venues/{venue}/qualifiers")
    region = _venue_region(session, venue)
    if region is not None:
        yield Read(4, f"/embed/seasons/{season}/regions/{region}/qualifiers", page=True)
    yield Read(6, f"/api/v1/tournaments?season_id={season}")
    yield Read(6, f"/api/v1/tournaments?venue_id={venue}")
    yield Read(6, f"/api/v1/tournaments?season_id={season}&venue_id={venue}")
    # A night open there shows the standings if it ended now (R22): they moved too.
    yield from _night(venue)


def _report(session: Session, tournament: int) -> Iterator[Read]:
    yield Read(2, f"/api/v1/tournaments/{tournament}")
    players = session.scalars(select(Result.player_id).where(Result.tournament_id == tournament))
    for player in sorted(set(players)):
        yield Read(5, f"/api/v1/players/{player}")
    yield Read(6, "/api/v1/tournaments")
    yield Read(7, "/api/v1/ratings")
    for region in session.scalars(select(Region.id).order_by(Region.id)):
        yield Read(7, f"/api/v1/ratings?region_id={region}")


def _night(venue: int) -> Iterator[Read]:
    """The live page its followers poll (the night's own JSON is the host's phone's, read with
    the host's key: an answer of its own that the phone's action computes)."""
    yield Read(0, f"/embed/venues/{venue}/night", page=True)


def reads_of(session: Session, events: Iterable[OutboxEvent]) -> list[Read]:
    """The answers the events' changes retired that the website reads, each once, the most read
    first."""
    reads: set[Read] = set()
    for event in events:
        data = event.data or {}
        if event.kind == "standings.changed":
            reads.update(_standings(session, int(data["season_id"]), int(data["venue_id"])))
        elif event.kind.startswith("report."):
            reads.update(_report(session, int(data["tournament_id"])))
        elif event.kind == "qualifiers.published":
            reads.add(Read(2, f"/api/v1/seasons/{int(data['season_id'])}/qualifiers"))
        elif event.kind.startswith("night."):
            reads.update(_night(int(data["venue_id"])))
    # One path asked once, as the lowest order it was given.
    first: dict[tuple[str, bool], Read] = {}
    for read in sorted(reads):
        first.setdefault((read.path, read.page), read)
    return sorted(first.values())


def waiting(session: Session) -> list[OutboxEvent]:
    return list(
        session.scalars(
            select(OutboxEvent)
            .where(OutboxEvent.refreshed_at.is_(None))
            .order_by(OutboxEvent.id)
            .limit(BATCH)
        )
    )


def read_lately(app: Flask, reads: Iterable[Read]) -> list[Read]:
    """Those of the reads someone asked for lately (READ_LATELY): the others are computed when
    (if ever) read, rather than after every write (a night's page nobody follows, a venue's
    standings nobody opened this evening)."""
    answers: Store = app.extensions["league_cache"]
    kept = []
    for read in reads:
        path, _, query = read.path.partition("?")
        if answers.noted(read_name(path, sorted(parse_qsl(query, keep_blank_values=True)))):
            kept.append(read)
    return kept


def shared(app: Flask) -> bool:
    """Whether the answers computed here are read by the workers: a store they share."""
    return isinstance(app.extensions["league_cache"], LayeredStore)


def refresh(app: Flask, reads: Iterable[Read]) -> int:
    """Ask the service for each answer, as the public website does: how many were computed here
    (the others were cached already, by a reader or an earlier pass)."""
    public = urlsplit(app.config.get("PUBLIC_URL") or "http://localhost")
    client = app.test_client()
    computed = 0
    for read in reads:
        headers = {"Accept": PAGE_ACCEPT} if read.page else {}
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


def mark(session: Session, events: list[OutboxEvent]) -> None:
    """The events are done: public ones kept (for their deliveries' log), marked refreshed;
    the refresher's own deleted."""
    internal = [event.id for event in events if event.kind in INTERNAL_KINDS]
    public = [event.id for event in events if event.kind not in INTERNAL_KINDS]
    if internal:
        session.execute(delete(OutboxEvent).where(OutboxEvent.id.in_(internal)))
    if public:
        session.execute(
            update(OutboxEvent)
            .where(OutboxEvent.id.in_(public), OutboxEvent.refreshed_at.is_(None))
            .values(refreshed_at=utcnow())
        )
