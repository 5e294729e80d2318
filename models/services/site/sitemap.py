"""R24: what the league's site lists for search engines: every page a link away from the front
page (the front page, the ratings, each venue, season, live report and player with a live
result), each with when its data last changed (lastmod)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models.entities import Player, Season, Venue
from models.entities.reports import Report, Result


@dataclass(frozen=True)
class Listed:
    """A page of the site: its kind ("venue", "season", "result", "player") and id, and when
    what it shows last changed (None: unknown)."""

    kind: str
    id: int
    changed: datetime | None


def site_pages(session: Session) -> Iterator[Listed]:
    """Every venue, season, live report and player with a live result (merged records left out:
    their page is their survivor's), in that order, each by id."""
    yield from _with_their_reports(session, "venue", Venue, Report.venue_id)
    yield from _with_their_reports(session, "season", Season, Report.season_id)
    for report_id, updated in session.execute(
        select(Report.id, Report.updated_at).where(Report.live).order_by(Report.id)
    ):
        yield Listed("result", report_id, updated)
    players = (
        select(Result.player_id, func.max(Report.updated_at))
        .join(Report, Report.id == Result.tournament_id)
        .join(Player, Player.id == Result.player_id)
        .where(Report.live, Player.merged_into_id.is_(None))
        .group_by(Result.player_id)
        .order_by(Result.player_id)
    )
    for player_id, updated in session.execute(players):
        yield Listed("player", player_id, updated)


def _with_their_reports(session: Session, kind: str, entity: Any, holder: Any) -> Iterator[Listed]:
    """Each venue (or season), changed when it or its latest live report last changed."""
    reported: dict[int, datetime] = dict(
        session.execute(select(holder, func.max(Report.updated_at)).where(Report.live).group_by(holder)).all()
    )
    for record_id, updated in session.execute(select(entity.id, entity.updated_at).order_by(entity.id)):
        yield Listed(kind, record_id, max(filter(None, (updated, reported.get(record_id)))))
