"""What a change of a season's settings would do to its standings, before it is saved (R7-R11):
the change applied inside a savepoint by the very writes that save it, every venue's standings
read before and after by the standings services, then rolled back. Nothing is stored and
nothing audited; a refusal of the change (R2, R7, R9) is raised as saving would raise it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import Season, Venue
from models.rules.players import player_labels
from models.rules.standings import Row
from models.services import wall_clock
from models.services.access import may_set_up_league
from models.services.seasons.writes import SCORING_SETTINGS, change_season
from models.services.standings.lines import LINE_SETTINGS
from models.services.standings.queries import VenueStandings, season_standings


@dataclass(frozen=True)
class Place:
    """A player's place in a venue's standings: rank (tied: level with another), points."""

    rank: int
    tied: bool
    points: int

    @property
    def shown(self) -> str:
        """The rank as the standings show it: "T2" when level."""
        return f"T{self.rank}" if self.tied else str(self.rank)


@dataclass(frozen=True)
class Move:
    """A player whose rank or points the change moves; None: not in the table then."""

    player_id: int
    label: str  # R19: numbered where two players of the venue share a display name
    before: Place | None
    after: Place | None


@dataclass(frozen=True)
class VenueMoves:
    venue: Venue
    moves: list[Move]


@dataclass(frozen=True)
class SeasonPreview:
    """The change's effect: how many stored results it rescores (R7, R8), and, venue by venue,
    who moves in the standings (R9-R11), best placed after the change first."""

    rescored_results: int
    venues: list[VenueMoves]

    @property
    def moves_anyone(self) -> bool:
        return any(venue.moves for venue in self.venues)

    @property
    def changes_anything(self) -> bool:
        return bool(self.rescored_results) or self.moves_anyone


def may_move_standings(changes: Mapping[str, Any]) -> bool:
    """Whether the change names a setting that scores results (R7, R8) or sums them into
    standings (R9, R10): only such a change can move anyone, and so needs a preview."""
    return any(name in changes for name in (*SCORING_SETTINGS, *LINE_SETTINGS))


def preview_season_change(
    session: Session, actor: Actor, season: Season, changes: dict[str, Any]
) -> SeasonPreview:
    """The change (a PATCH's fields, without its reason) as `update_season` would make it, rolled
    back: how many results it rescores and who moves at each venue. The reason is the save's to
    ask for; every other refusal is raised here as the save would raise it."""
    may_set_up_league(actor)
    savepoint = session.begin_nested()
    try:
        as_of = _as_of(session, season)
        before = season_standings(session, season, as_of)
        season, _snapshot, rescored = change_season(session, season, dict(changes))
        after = season_standings(session, season, as_of)
    finally:
        savepoint.rollback()
    return SeasonPreview(rescored, _by_venue(before, after))


def _as_of(session: Session, season: Season) -> date:
    """Standings with every result of the season: to its last day, or today while it runs (no
    result is dated in the future, R2)."""
    return max(season.ends_on, wall_clock.in_league(session))


def _by_venue(before: Mapping[int, VenueStandings], after: Mapping[int, VenueStandings]) -> list[VenueMoves]:
    """Each venue's moves, in the order of the venues' names; venues where no one moves left out."""
    found = []
    for venue_id, table in after.items():
        moves = moves_between(before[venue_id].rows if venue_id in before else [], table.rows)
        if moves:
            found.append(VenueMoves(table.venue, moves))
    return found


def moves_between(before: Sequence[Row], after: Sequence[Row]) -> list[Move]:
    """The players whose rank, tie or points differ between two rankings of one venue, in the
    order of the second (those only in the first last)."""
    old = {row.player_id: row for row in before}
    new = {row.player_id: row for row in after}
    labels = player_labels((row.player_id, row.display_name) for row in [*after, *before])
    moves = []
    for player_id in [*new, *(p for p in old if p not in new)]:
        was, now = _place(old.get(player_id)), _place(new.get(player_id))
        if was != now:
            moves.append(Move(player_id, labels[player_id], was, now))
    return moves


def _place(row: Row | None) -> Place | None:
    return None if row is None else Place(row.rank, row.tied, row.points)
