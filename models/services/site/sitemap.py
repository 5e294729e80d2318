"""R24: what the league's site lists for search engines: every page a link away from the front
page (the front page, the ratings, each venue, season, live report and player with a live
result), each with when its data last changed (lastmod)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models.entities import Player, Season, Venue
from models.entities.tournaments import Result, Tournament


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
    venue_changed = dict(
        session.execute(
            select(Tournament.venue_id, func.max(Tournament.updated_at))
            .where(Tournament.live)
            .group_by(Tournament.venue_id)
        ).all()
    )
    for venue_id, updated in session.execute(select(Venue.id, Venue.updated_at).order_by(Venue.id)):
        yield Listed("venue", venue_id, max(filter(None, (updated, venue_changed.get(venue_id)))))
    season_changed = dict(
        session.execute(
            select(Tournament.season_id, func.max(Tournament.updated_at))
            .where(Tournament.live)
            .group_by(Tournament.season_id)
        ).all()
    )
    for season_id, updated in session.execute(select(Season.id, Season.updated_at).order_by(Season.id)):
        yield Listed("season", season_id, max(filter(None, (updated, season_changed.get(season_id)))))
    for report_id, updated in session.execute(
        select(Tournament.id, Tournament.updated_at).where(Tournament.live).order_by(Tournament.id)
    ):
        yield Listed("result", report_id, updated)
    players = (
        select(Result.player_id, func.max(Tournament.updated_at))
        .join(Tournament, Tournament.id == Result.tournament_id)
        .join(Player, Player.id == Result.player_id)
        .where(Tournament.live, Player.merged_into_id.is_(None))
        .group_by(Result.player_id)
        .order_by(Result.player_id)
    )
    for player_id, updated in session.execute(players):
        yield Listed("player", player_id, updated)
