"""Reading qualification (R3, R12-R14): every venue's qualifier list of a season, computed from the
stored results (the pure rules decide), or as the office published it; what changed since; where
a player qualified or why not; and who may play a playoff or the championship."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sqlalchemy import ARRAY, ColumnElement, Integer, any_, bindparam, select
from sqlalchemy.orm import Session

from models.entities.discipline import Sanction
from models.entities.league import Season, Venue
from models.entities.players import Player
from models.entities.qualification import Disqualification, QualifierPublication
from models.entities.tournaments import Result, Tournament
from models.errors import NotFound
from models.infra.clock import today
from models.rules.discipline import SanctionKind
from models.rules.qualification import (
    DoubleQualifierPolicy,
    Entrant,
    Standing,
    VenueOutcome,
    VenueTable,
    player_skip,
    qualify,
    quota,
)
from models.rules.reports import TournamentKind
from models.rules.standings import Line, leading_rows
from models.services.discipline_queries import runs_on
from models.services.lookup import get_or_raise
from models.services.paging import Page, PageRequest, paginate
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


def provisional(season: Season, on: date | None = None) -> bool:
    """R12: while the season runs its lists are provisional."""
    return (on or today()) <= season.ends_on


def decided_on(season: Season) -> date:
    """R13: suspensions count on the season's last day, or today for a provisional list."""
    return today() if provisional(season) else season.ends_on


def age_day(season: Season) -> date:
    """R13: age is reckoned on the championship date (the season's last day when none is set)."""
    return season.championship_date or season.ends_on


@dataclass(frozen=True)
class _Facts:
    """What qualification reads of a player: the name (ranking's order among equals), and for
    R13 and R14 the date of birth and home venue."""

    display_name: str
    born: date | None
    home_venue_id: int | None


def _player_facts(session: Session, player_ids: Collection[int]) -> dict[int, _Facts]:
    """These players' _Facts, in one query."""
    if not player_ids:
        return {}
    rows = session.execute(
        select(Player.id, Player.display_name, Player.date_of_birth, Player.home_venue_id).where(
            _among(session, Player.id, sorted(player_ids))
        )
    )
    return {player_id: _Facts(name, born, home) for player_id, name, born, home in rows}


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
    suspended = set(
        session.scalars(
            select(Sanction.player_id).where(
                Sanction.kind == SanctionKind.SUSPENSION,
                Sanction.lifted_at.is_(None),
                runs_on(decided_on(season)),
            )
        )
    )
    return disqualified, suspended


def _entrant(season: Season, player_id: int, facts: _Facts, skipping: tuple[set[int], set[int]]) -> Entrant:
    """R13: what skips the player everywhere."""
    disqualified, suspended = skipping
    skip, unverified = player_skip(
        facts.born, season.min_age, age_day(season), player_id in disqualified, player_id in suspended
    )
    return Entrant(player_id, skip, unverified, facts.home_venue_id)


def _among(session: Session, column: Any, ids: list[int]) -> ColumnElement[bool]:
    """`column IN ids`, as one array parameter on PostgreSQL (thousands of parameters are slow
    to bind there), as a plain IN list elsewhere."""
    if session.get_bind().dialect.name == "postgresql":
        return column == any_(bindparam("ids", ids, type_=ARRAY(Integer)))
    return column.in_(ids)


def _table(season: Season, standings: VenueStandings, draw: Sequence[int]) -> VenueTable:
    return VenueTable(
        venue_id=standings.venue.id,
        quota=quota(season.cut_fraction, standings.entrants, standings.tournaments),
        standings=tuple(Standing(r.player_id, r.rank, r.points, r.played, r.key) for r in standings.rows),
        draw=tuple(draw),
    )


# R12 needs the top of each venue's table (under best_rank): this many players beyond the quota
# are ranked at first; a venue that cannot fill its quota from them gets its whole table
# (see _compute_lists). A speed setting only: the lists are the same at any depth. In the
# national benchmark no venue needed its whole table even at 3, and 5 ranked a third fewer
# rows than 10 (a national season's lists from scratch: about 160 ms instead of 230).
DEPTH_BEYOND_QUOTA = 5


def compute_lists(session: Session, season: Season, draws: Draws | None = None) -> list[dict[str, Any]]:
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
    found = memo.get(key)
    if found is None:
        found = memo[key] = _compute_lists(session, season, draws)
    return found


def _compute_lists(session: Session, season: Season, draws: Draws) -> list[dict[str, Any]]:
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
    facts: dict[int, _Facts] = {}

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
        facts.update(_player_facts(session, {line.player_id for _v, lines, _a in tops for line in lines}))
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
    skipping = _skipping(session, season)
    entrants: dict[int, Entrant] = {}
    deepen = venues
    while True:
        unknown = {row.player_id for v in deepen for row in tables[v.id].rows} - entrants.keys()
        facts.update(_player_facts(session, unknown - facts.keys()))
        entrants.update({p: _entrant(season, p, facts[p], skipping) for p in unknown})
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


def _venue_list(standings: VenueStandings, outcome: VenueOutcome) -> dict[str, Any]:
    names = {row.player_id: row.display_name for row in standings.rows}

    def player(player_id: int) -> dict[str, Any]:
        return {"id": player_id, "display_name": names[player_id]}

    return {
        "venue_id": standings.venue.id,
        "venue_name": standings.venue.name,
        "region_id": standings.venue.region_id,
        "quota": outcome.quota,
        "tournaments": standings.tournaments,
        "average_attendance": str(standings.average_attendance.quantize(Decimal("0.01"), ROUND_HALF_UP)),
        "qualifiers": [
            {
                "player": player(q.player_id),
                "rank": q.rank,
                "points": q.points,
                "flags": q.flags,
                "moved_up_past": q.moved_up_past,
            }
            for q in outcome.qualifiers
        ],
        "skipped": [
            {
                "player": player(s.player_id),
                "rank": s.rank,
                "points": s.points,
                "reason": s.reason,
                "venue_id": s.venue_id,
            }
            for s in outcome.skipped
        ],
        "tied_out": [
            {"player": player(t.player_id), "rank": t.rank, "points": t.points, "flags": t.flags}
            for t in outcome.tied_out
        ],
    }


def latest_publication(session: Session, season_id: int) -> QualifierPublication | None:
    return session.scalar(
        select(QualifierPublication)
        .where(QualifierPublication.season_id == season_id)
        .order_by(QualifierPublication.id.desc())
        .limit(1)
    )


def draws_of(publication: QualifierPublication | None) -> dict[int, list[int]]:
    """The draws a publication settled, by venue, in the order the office named the players."""
    draws: dict[int, list[int]] = {}
    for item in publication.settlements if publication else []:
        draws.setdefault(int(item["venue_id"]), []).append(int(item["player_id"]))
    return draws


def qualified(lists: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Who qualified where: player id -> venue id."""
    return {q["player"]["id"]: venue["venue_id"] for venue in lists for q in venue["qualifiers"]}


def differences(
    published: Sequence[Mapping[str, Any]], current: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """R12: how the lists would change if published again now: who would come in, who drop out
    (a player moving venue does both)."""
    before, after = qualified(published), qualified(current)
    names = {
        q["player"]["id"]: q["player"]
        for lists in (published, current)
        for venue in lists
        for q in venue["qualifiers"]
    }
    come_in = sorted((p, v) for p, v in after.items() if before.get(p) != v)
    drop_out = sorted((p, v) for p, v in before.items() if after.get(p) != v)
    return {
        "changed": bool(come_in or drop_out),
        "would_come_in": [{"player": names[p], "venue_id": v} for p, v in come_in],
        "would_drop_out": [{"player": names[p], "venue_id": v} for p, v in drop_out],
    }


@dataclass(frozen=True)
class Qualification:
    """A season's qualifier lists as a caller reads them: the published ones once there are
    some (with what changed since), else the current computation."""

    season: Season
    lists: list[dict[str, Any]]
    publication: QualifierPublication | None
    changes: dict[str, Any] | None

    @property
    def provisional(self) -> bool:
        return provisional(self.season)

    def venue(self, venue_id: int) -> dict[str, Any]:
        found = next((v for v in self.lists if v["venue_id"] == venue_id), None)
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
    live = compute_lists(session, season, draws_of(publication))
    if publication is None or current:
        return Qualification(season, live, None if current else publication, None)
    return Qualification(season, publication.lists, publication, differences(publication.lists, live))


def qualification_of(session: Session, season_id: int, current: bool = False) -> Qualification:
    return season_qualification(session, get_or_raise(session, Season, season_id, "season"), current)


def regions_of(lists: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The playoff lists by region (R3): each region's qualifiers, venue by venue."""
    regions: dict[int, list[dict[str, Any]]] = {}
    for venue in lists:
        regions.setdefault(venue["region_id"], []).extend(
            {**q, "venue_id": venue["venue_id"]} for q in venue["qualifiers"]
        )
    return [{"region_id": region_id, "qualifiers": items} for region_id, items in regions.items()]


def player_qualification(session: Session, player: Player) -> list[dict[str, Any]]:
    """Where a player qualified in each season they played, or why not, venue by venue."""
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
    answer = []
    for season_id, venue_ids in venues_by_season.items():
        season = get_or_raise(session, Season, season_id, "season")
        found = season_qualification(session, season, changes=False)
        answer.append(
            {
                "season_id": season_id,
                "qualified_at": qualified(found.lists).get(player.id),
                "provisional": found.provisional,
                "published": found.publication is not None,
                "venues": [_standing_of(found, venue_id, player.id) for venue_id in venue_ids],
            }
        )
    return answer


def _standing_of(found: Qualification, venue_id: int, player_id: int) -> dict[str, Any]:
    """Why a player is, or is not, on one venue's list."""
    venue = next((v for v in found.lists if v["venue_id"] == venue_id), None)
    status: dict[str, Any] = {
        "venue_id": venue_id,
        "status": "below_the_cut",
        "reason": None,
        "elsewhere_venue_id": None,
    }
    if venue is None:
        return status
    if any(q["player"]["id"] == player_id for q in venue["qualifiers"]):
        return {**status, "status": "qualified"}
    for skipped in venue["skipped"]:
        if skipped["player"]["id"] == player_id:
            return {
                **status,
                "status": "skipped",
                "reason": skipped["reason"],
                "elsewhere_venue_id": skipped["venue_id"],
            }
    if any(t["player"]["id"] == player_id for t in venue["tied_out"]):
        return {**status, "status": "tied_at_cut"}
    return status


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
