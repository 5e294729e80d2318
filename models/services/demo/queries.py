"""What the demo league holds, and so what `demo remove` would delete: read, never written. The
demo is marked by its region's and its players' `demo` flags (set by models/services/demo/writes.py's
loader; migration 0016 filled them for a demo loaded before)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Select, and_, exists, not_, or_, select
from sqlalchemy.orm import Session

from models.entities.api_keys import ApiKey, ApiKeyVenue
from models.entities.league import Region, Season, Venue
from models.entities.merges import PlayerMerge
from models.entities.nights import Night
from models.entities.players import Player
from models.entities.reports import Report, Result
from models.entities.sanctions import Sanction
from models.services.seasons.queries import demo_seasons


@dataclass(frozen=True)
class DemoRemoval:
    """Everything `demo remove` deletes (ids, sorted), and the demo's players it keeps: those
    who played outside the demo since (they become the league's own)."""

    regions: tuple[int, ...]
    venues: tuple[int, ...]
    seasons: tuple[int, ...]
    reports: tuple[int, ...]
    players: tuple[int, ...]
    kept_players: tuple[int, ...]
    sanctions: tuple[int, ...]
    # Host keys bound to the demo's venues only (deleted), and keys that keep other venues.
    keys: tuple[int, ...]
    keys_keeping_venues: tuple[int, ...]

    def counts(self) -> dict[str, int]:
        """What the command lists before it asks."""
        return {
            name: len(getattr(self, name))
            for name in ("venues", "players", "reports", "sanctions", "keys", "seasons")
        }


def _ids(session: Session, query: Select[int]) -> tuple[int, ...]:
    return tuple(sorted(session.scalars(query)))


def removal_plan(session: Session) -> DemoRemoval | None:
    """What removing the demo would delete now; None when there is no demo."""
    regions = _ids(session, select(Region.id).where(Region.demo.is_(True)))
    if not regions:
        return None
    venues = _ids(session, select(Venue.id).where(Venue.region_id.in_(regions)))
    seasons = demo_seasons(session, regions)
    reports = _ids(
        session,
        select(Report.id).where(or_(Report.venue_id.in_(venues), Report.season_id.in_(seasons))),
    )
    elsewhere = select(Result.player_id).where(Result.tournament_id.not_in(reports))
    demo_players = select(Player.id).where(Player.demo.is_(True))
    players = _ids(session, demo_players.where(Player.id.not_in(elsewhere)))
    kept = _ids(session, demo_players.where(Player.id.in_(elsewhere)))
    sanctions = _ids(
        session,
        select(Sanction.id).where(or_(Sanction.player_id.in_(players), Sanction.venue_id.in_(venues))),
    )
    bound = select(ApiKeyVenue.api_key_id).where(ApiKeyVenue.venue_id.in_(venues))
    elsewhere_too = exists().where(ApiKeyVenue.api_key_id == ApiKey.id, ApiKeyVenue.venue_id.not_in(venues))
    keys = _ids(session, select(ApiKey.id).where(ApiKey.id.in_(bound), not_(elsewhere_too)))
    keeping = _ids(session, select(ApiKey.id).where(ApiKey.id.in_(bound), elsewhere_too))
    return DemoRemoval(regions, venues, seasons, reports, players, kept, sanctions, keys, keeping)


def merges_across(session: Session, plan: DemoRemoval) -> list[PlayerMerge]:
    """The merges in force that join a player the removal deletes with one it keeps (a league
    player, or a demo player who played elsewhere): removing the demo would undo them."""
    leaving = plan.players
    query = select(PlayerMerge).where(
        PlayerMerge.undone_at.is_(None),
        or_(
            and_(PlayerMerge.survivor_id.in_(leaving), PlayerMerge.duplicate_id.not_in(leaving)),
            and_(PlayerMerge.duplicate_id.in_(leaving), PlayerMerge.survivor_id.not_in(leaving)),
        ),
    )
    return list(session.scalars(query.order_by(PlayerMerge.id)))


@dataclass(frozen=True)
class DemoExample:
    """Ids of the demo's records that the embeddable pages can show (the front door links them)."""

    season_id: int
    region_id: int
    venue_id: int


def demo_example(session: Session) -> DemoExample | None:
    """The demo's newest season, its region and its first venue by name; None without a demo."""
    regions = tuple(sorted(session.scalars(select(Region.id).where(Region.demo.is_(True)))))
    seasons = demo_seasons(session, regions)
    if not seasons:
        return None
    season = session.get_one(Season, seasons[-1])
    venue = session.scalar(
        select(Venue).where(Venue.region_id.in_(season.region_ids)).order_by(Venue.name, Venue.id).limit(1)
    )
    return None if venue is None else DemoExample(season.id, venue.region_id, venue.id)


def demo_night_venue(session: Session) -> int | None:
    """The demo's venue with a night (R22: its night in progress), if any."""
    return session.scalar(
        select(Night.venue_id)
        .join(Venue, Venue.id == Night.venue_id)
        .where(Venue.in_demo)
        .order_by(Night.id)
        .limit(1)
    )
