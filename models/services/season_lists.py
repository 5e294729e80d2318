"""Computing a season's qualifier lists (R12-R14) from the stored standing lines: each venue's
table ranked only as deep as the lists need (the pure rules decide: rules/qualification.py),
kept per process by data version for read-only sessions."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities.league import Season, Venue
from models.entities.qualification import Disqualification
from models.rules.qualification import (
    DoubleQualifierPolicy,
    Entrant,
    PlayerFacts,
    VenueOutcome,
    VenueTable,
    age_day,
    decided_on,
    entrant_of,
    qualify,
    quota,
    venue_table,
)
from models.rules.qualifier_lists import (
    VenueList,
    venue_list,
)
from models.rules.standings import Line, leading_rows
from models.services import wall_clock
from models.services.player_queries import player_facts
from models.services.sanction_queries import suspended_on
from models.services.season_queries import venues_of
from models.services.standing_line_queries import (
    counted_results,
    leading_lines,
    season_tiers,
    stored_lines,
    summed_lines,
)
from models.services.standings import NO_TOURNAMENTS, VenueStandings, venue_totals
from models.services.versioning import MEMO, data_version, scope_versions, season_scopes

# The office's draws settling ties at the cut, by venue: the players it named, in order.
Draws = Mapping[int, Sequence[int]]


def season_venues(session: Session, season: Season) -> list[Venue]:
    """The venues a season covers (R2), by region, then name."""
    return list(session.scalars(venues_of(season).order_by(Venue.region_id, Venue.name, Venue.id)))


def _skipping(session: Session, season: Season) -> tuple[set[int], set[int]]:
    """R13: the players disqualified for the season, and those suspended on the day that counts
    (both few: read whole)."""
    disqualified = set(
        session.scalars(
            select(Disqualification.player_id).where(
                Disqualification.season_id == season.id, Disqualification.withdrawn_at.is_(None)
            )
        )
    )
    return disqualified, suspended_on(session, decided_on(season.ends_on, wall_clock.in_league(session)))


def _table(season: Season, standings: VenueStandings, draw: Sequence[int]) -> VenueTable:
    share = quota(season.cut_fraction, standings.entrants, standings.tournaments)
    return venue_table(standings.venue.id, share, standings.rows, draw)


# R12 needs the top of each venue's table (under best_rank): this many players beyond the quota
# are ranked at first; a venue that cannot fill its quota from them gets its whole table
# (see _compute_lists). A speed setting only: the lists are the same at any depth. In the
# national benchmark no venue needed its whole table even at 3, and 5 ranked a third fewer
# rows than 10 (a national season's lists from scratch: about 160 ms instead of 230).
DEPTH_BEYOND_QUOTA = 5


def compute_lists(session: Session, season: Season, draws: Draws | None = None) -> list[VenueList]:
    """R12-R14: every venue's list as the stored results stand now, as plain data (the shape a
    publication freezes). `draws` applies the office's settled ties. A reader's lists may be
    shared with other readers of the same data version: read them, never change them."""
    draws = draws or {}
    memo: MutableMapping[Any, Any] | None = session.info.get(MEMO)
    if memo is None:
        return _compute_lists(session, season, draws)
    # Kept by (epoch, the season's scope versions, season, day, draws): after a write in the
    # season, a process computes its lists once, not once per venue page or player profile; a
    # write elsewhere (another season) leaves them kept.
    settled = tuple(sorted((venue, tuple(players)) for venue, players in draws.items()))
    version = data_version(session)
    scoped = scope_versions(session, season_scopes(season.id))
    key = ("qualifier lists", version[0], *scoped, season.id, wall_clock.day_key(session, version), settled)
    found: list[VenueList] | None = memo.get(key)
    if found is None:
        found = memo[key] = _compute_lists(session, season, draws)
    return found


def _compute_lists(session: Session, season: Season, draws: Draws) -> list[VenueList]:
    """The lists, computed from the stored results.

    Under the best_rank policy only the top of each table is ranked (leading_rows). There,
    players want the venue where they rank best and venues want the players ranked best, one
    score for both sides, so there is one stable assignment (R14) and the lists drawn from the
    tops are it whenever every venue fills its quota from its top (a venue full of players
    ranked above everyone left out turns each of them away). A venue that does not fill it is
    ranked whole, and the lists drawn again, until none is short. Under most_played and
    home_venue, players may want a venue that ranks them low, several stable assignments exist,
    and a player left out of a full venue can belong there in the player-optimal one: every
    table is ranked whole."""
    return _Lists(session, season, draws).computed()


class _Lists:
    """One computation of a season's lists: the venues' tables, ranked as deep as needed."""

    def __init__(self, session: Session, season: Season, draws: Draws) -> None:
        self.session, self.season, self.draws = session, season, draws
        self.venues = season_venues(session, season)
        self.by_id = {venue.id: venue for venue in self.venues}
        self.totals = venue_totals(session, season, None, season.ends_on)
        # The stored lines are the whole season's: exact unless a report is dated after its end.
        self.stored = not any(total.later for total in self.totals.values())
        self.tiers = season_tiers(season)
        self.tables: dict[int, VenueStandings] = {}
        self.complete: set[int] = set()  # venues whose every player is ranked
        self.facts: dict[int, PlayerFacts] = {}

    def depth(self, venue_id: int) -> int:
        count, entered, _later = self.totals.get(venue_id, NO_TOURNAMENTS)
        return quota(self.season.cut_fraction, entered, count) + DEPTH_BEYOND_QUOTA

    def table(self, venue_id: int, lines: list[Line], whole: bool, all_read: bool = True) -> None:
        count, entered, _later = self.totals.get(venue_id, NO_TOURNAMENTS)
        rows = leading_rows(lines, self.tiers, len(lines) if whole else self.depth(venue_id))
        self.tables[venue_id] = VenueStandings(
            self.season, self.by_id[venue_id], self.season.ends_on, count, entered, rows
        )
        if all_read and len(rows) == len(lines):
            self.complete.add(venue_id)

    def whole_lines(self, venue_ids: list[int] | None) -> Iterator[tuple[int, list[Line]]]:
        if self.stored:
            return stored_lines(self.session, self.season, venue_ids, stream=True)
        where = counted_results(self.season, venue_ids, self.season.ends_on)
        return summed_lines(self.session, self.season, where, stream=True)

    def first_tables(self) -> None:
        """Each venue's table: its top only under best_rank (from the stored lines), else whole."""
        whole = self.season.double_qualifier_policy != DoubleQualifierPolicy.BEST_RANK
        if not whole and self.stored:
            deepest = max((self.depth(venue.id) for venue in self.venues), default=0)
            tops = [top for top in leading_lines(self.session, self.season, deepest) if top[0] in self.by_id]
            # The lines come without names: the players' facts, read for R13 anyway, carry them.
            ids = {line.player_id for _v, lines, _a in tops for line in lines}
            self.facts.update(player_facts(self.session, ids))
            for venue_id, lines, all_read in tops:
                named = [
                    line._replace(display_name=self.facts[line.player_id].display_name) for line in lines
                ]
                self.table(venue_id, named, whole=False, all_read=all_read)
        else:
            for venue_id, lines in self.whole_lines(None):
                if venue_id in self.by_id:
                    self.table(venue_id, lines, whole)
        for venue in self.venues:
            if venue.id not in self.tables:
                self.table(venue.id, [], whole=True)

    def computed(self) -> list[VenueList]:
        self.first_tables()
        season = self.season
        disqualified, suspended = _skipping(self.session, season)
        age_day_ = age_day(season.ends_on, season.championship_date)
        entrants: dict[int, Entrant] = {}
        deepen = self.venues
        while True:
            unknown = {row.player_id for v in deepen for row in self.tables[v.id].rows} - entrants.keys()
            self.facts.update(player_facts(self.session, unknown - self.facts.keys()))
            entrants.update(
                {
                    p: entrant_of(p, self.facts[p], season.min_age, age_day_, disqualified, suspended)
                    for p in unknown
                }
            )
            outcomes = qualify(
                [_table(season, self.tables[v.id], self.draws.get(v.id, ())) for v in self.venues],
                entrants,
                season.double_qualifier_policy,
                season.min_events_to_qualify,
            )
            deepen = [
                v
                for v in self.venues
                if len(outcomes[v.id].qualifiers) < outcomes[v.id].quota and v.id not in self.complete
            ]
            if not deepen:
                return [_venue_list(self.tables[v.id], outcomes[v.id]) for v in self.venues]
            # Ranked whole: those venues' lines again (the rest were never kept).
            for venue_id, lines in self.whole_lines([v.id for v in deepen]):
                self.table(venue_id, lines, whole=True)


def _venue_list(standings: VenueStandings, outcome: VenueOutcome) -> VenueList:
    venue = standings.venue
    names = {row.player_id: row.display_name for row in standings.rows}
    return venue_list(
        venue.id,
        venue.name,
        venue.region_id,
        standings.tournaments,
        standings.average_attendance,
        names,
        outcome,
    )
