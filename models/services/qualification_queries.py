"""Reading qualification (R3, R12-R14): every venue's qualifier list of a season, computed from the
stored results (the pure rules decide: rules/qualification.py), or as the office published it;
what changed since; where a player qualified or why not. The lists' shape, and what is read
from them, are rules/qualifier_lists.py's."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import Season, Venue
from models.entities.players import Player
from models.entities.qualification import Disqualification, QualifierPublication
from models.entities.tournaments import Result, Tournament
from models.errors import NotFound
from models.infra.clock import today
from models.rules.qualification import (
    DoubleQualifierPolicy,
    Entrant,
    PlayerFacts,
    VenueOutcome,
    VenueTable,
    age_day,
    decided_on,
    entrant_of,
    provisional,
    qualify,
    quota,
    venue_table,
)
from models.rules.qualifier_lists import (
    Changes,
    SeasonOfPlayer,
    VenueList,
    differences,
    draws_of,
    public_list,
    season_of_player,
    venue_list,
    venue_of,
)
from models.rules.reports import TournamentKind
from models.rules.standings import Line, leading_rows
from models.services.discipline_queries import suspended_on
from models.services.lookup import get_or_raise
from models.services.paging import Page, PageRequest, paginate
from models.services.player_queries import player_facts
from models.services.season_queries import venues_of
from models.services.standing_line_queries import (
    counted_results,
    leading_lines,
    season_tiers,
    stored_lines,
    summed_lines,
)
from models.services.standings import NO_TOURNAMENTS, VenueStandings, venue_totals
from models.services.versioning import MEMO, data_version

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
    return disqualified, suspended_on(session, decided_on(season.ends_on, today()))


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
    # Kept by (epoch, data version, season, day, draws): after a write, a process computes a
    # season's lists once, not once per venue page or player profile.
    settled = tuple(sorted((venue, tuple(players)) for venue, players in draws.items()))
    key = ("qualifier lists", *data_version(session), season.id, today(), settled)
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
    venues = season_venues(session, season)
    by_id = {venue.id: venue for venue in venues}
    totals = venue_totals(session, season, None, season.ends_on)
    # The stored lines are the whole season's: exact unless a report is dated after its end.
    stored = not any(total.later for total in totals.values())
    tiers = season_tiers(season)
    tables: dict[int, VenueStandings] = {}
    complete: set[int] = set()  # venues whose every player is ranked
    facts: dict[int, PlayerFacts] = {}

    def depth(venue_id: int) -> int:
        count, entered, _later = totals.get(venue_id, NO_TOURNAMENTS)
        return quota(season.cut_fraction, entered, count) + DEPTH_BEYOND_QUOTA

    def table(venue_id: int, lines: list[Line], whole: bool, all_read: bool = True) -> None:
        count, entered, _later = totals.get(venue_id, NO_TOURNAMENTS)
        rows = leading_rows(lines, tiers, len(lines) if whole else depth(venue_id))
        tables[venue_id] = VenueStandings(season, by_id[venue_id], season.ends_on, count, entered, rows)
        if all_read and len(rows) == len(lines):
            complete.add(venue_id)

    def whole_lines(venue_ids: list[int] | None) -> Iterator[tuple[int, list[Line]]]:
        if stored:
            return stored_lines(session, season, venue_ids, stream=True)
        where = counted_results(season, venue_ids, season.ends_on)
        return summed_lines(session, season, where, stream=True)

    whole = season.double_qualifier_policy != DoubleQualifierPolicy.BEST_RANK
    if not whole and stored:
        deepest = max((depth(venue.id) for venue in venues), default=0)
        tops = [top for top in leading_lines(session, season, deepest) if top[0] in by_id]
        # The lines come without names: the players' facts, read for R13 anyway, carry them.
        facts.update(player_facts(session, {line.player_id for _v, lines, _a in tops for line in lines}))
        for venue_id, lines, all_read in tops:
            named = [line._replace(display_name=facts[line.player_id].display_name) for line in lines]
            table(venue_id, named, whole=False, all_read=all_read)
    else:
        for venue_id, lines in whole_lines(None):
            if venue_id in by_id:
                table(venue_id, lines, whole)
    for venue in venues:
        if venue.id not in tables:
            table(venue.id, [], whole=True)
    disqualified, suspended = _skipping(session, season)
    age_day_ = age_day(season.ends_on, season.championship_date)
    entrants: dict[int, Entrant] = {}
    deepen = venues
    while True:
        unknown = {row.player_id for v in deepen for row in tables[v.id].rows} - entrants.keys()
        facts.update(player_facts(session, unknown - facts.keys()))
        entrants.update(
            {p: entrant_of(p, facts[p], season.min_age, age_day_, disqualified, suspended) for p in unknown}
        )
        outcomes = qualify(
            [_table(season, tables[v.id], draws.get(v.id, ())) for v in venues],
            entrants,
            season.double_qualifier_policy,
            season.min_events_to_qualify,
        )
        deepen = [
            v
            for v in venues
            if len(outcomes[v.id].qualifiers) < outcomes[v.id].quota and v.id not in complete
        ]
        if not deepen:
            break
        # Ranked whole: those venues' lines again (the rest were never kept).
        for venue_id, lines in whole_lines([v.id for v in deepen]):
            table(venue_id, lines, whole=True)
    return [_venue_list(tables[v.id], outcomes[v.id]) for v in venues]


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


def latest_publication(session: Session, season_id: int) -> QualifierPublication | None:
    return session.scalar(
        select(QualifierPublication)
        .where(QualifierPublication.season_id == season_id)
        .order_by(QualifierPublication.id.desc())
        .limit(1)
    )


@dataclass(frozen=True)
class Qualification:
    """A season's qualifier lists as a caller reads them: the published ones once there are
    some (with what changed since), else the current computation."""

    season: Season
    lists: list[VenueList]
    publication: QualifierPublication | None
    changes: Changes | None

    @property
    def provisional(self) -> bool:
        return provisional(self.season.ends_on, today())

    def venue(self, venue_id: int) -> VenueList:
        found = venue_of(self.lists, venue_id)
        if found is None:
            raise NotFound(f"Season {self.season.id} has no qualifier list for venue {venue_id}.")
        return found


def season_qualification(
    session: Session, season: Season, current: bool = False, changes: bool = True
) -> Qualification:
    """R12: the official lists (the newest publication) with the changes since, or, before any
    publication or when `current` is asked, the lists as the results stand now. Without
    `changes`, published lists are answered as they are, computing nothing."""
    publication = latest_publication(session, season.id)
    if publication is not None and not current and not changes:
        return Qualification(season, publication.lists, publication, None)
    live = compute_lists(session, season, draws_of(publication.settlements if publication else []))
    if publication is None or current:
        return Qualification(season, live, None if current else publication, None)
    return Qualification(season, publication.lists, publication, differences(publication.lists, live))


def lists_as_seen_by(actor: Actor, lists: Sequence[VenueList]) -> list[VenueList]:
    """R13, R19: the one place that decides who reads why a player is skipped, for every answer
    (a venue's list, the season's, their CSV, a profile, the embedded page): the office and a
    venue's hosts read that venue's list as it is; everyone else reads it as the public does
    (`public_list`: `ineligible` for a reason drawn from personal or discipline records, no
    `age_unverified`). Answers are cached by the caller's scope (the public, the office, a host's
    set of venues), which decides this whole."""
    return [venue if actor.acts_for(venue["venue_id"]) else public_list(venue) for venue in lists]


def qualification_seen_by(actor: Actor, found: Qualification) -> Qualification:
    """A season's lists as this caller may read them (`lists_as_seen_by`)."""
    return replace(found, lists=lists_as_seen_by(actor, found.lists))


def qualification_of(session: Session, actor: Actor, season_id: int, current: bool = False) -> Qualification:
    """A season's lists (`season_qualification`) as this caller may read them."""
    season = get_or_raise(session, Season, season_id, "season")
    return qualification_seen_by(actor, season_qualification(session, season, current))


def player_qualification(session: Session, actor: Actor, player: Player) -> list[SeasonOfPlayer]:
    """Where a player qualified in each season they played, or why not, venue by venue, as this
    caller may read the lists (`lists_as_seen_by`)."""
    played = session.execute(
        select(Tournament.season_id, Tournament.venue_id)
        .join(Result, Result.tournament_id == Tournament.id)
        .where(Result.player_id == player.id, Tournament.kind == TournamentKind.REGULAR, Tournament.live)
        .distinct()
        .order_by(Tournament.season_id.desc(), Tournament.venue_id)
    ).all()
    venues_by_season: dict[int, list[int]] = {}
    for season_id, venue_id in played:
        venues_by_season.setdefault(season_id, []).append(venue_id)
    answer: list[SeasonOfPlayer] = []
    for season_id, venue_ids in venues_by_season.items():
        season = get_or_raise(session, Season, season_id, "season")
        found = qualification_seen_by(actor, season_qualification(session, season, changes=False))
        published = found.publication is not None
        answer.append(
            season_of_player(season_id, found.lists, found.provisional, published, player.id, venue_ids)
        )
    return answer


def disqualifications_of(session: Session, season: Season, page: PageRequest) -> Page[Disqualification]:
    """R13: a season's disqualifications, withdrawn ones too, oldest first."""
    query = (
        select(Disqualification).where(Disqualification.season_id == season.id).order_by(Disqualification.id)
    )
    return paginate(session, query, page)


def get_disqualification(session: Session, season_id: int, disqualification_id: int) -> Disqualification:
    found = session.get(Disqualification, disqualification_id)
    if found is None or found.season_id != season_id:
        raise NotFound(f"Season {season_id} has no disqualification with id {disqualification_id}.")
    return found
