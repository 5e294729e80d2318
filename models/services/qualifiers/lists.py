"""Computing a season's qualifier lists (R12-R14) from the stored standing lines: each venue's
table ranked only as deep as the lists need (the pure rules decide: rules/qualifiers.py),
cached per process by the versions of the scopes they read, for read-only sessions
(models/freshness/memos.py).

A computation leaves its parts for the next one (`Parts`): each venue's table as of that venue's
scope version (`venue:S:V`, migration 0022), and the list drawn from it with what it was drawn
from. After a report at one venue the next computation reads and ranks that venue's table alone,
assigns the season's players to venues again (R14 links every venue: cheap, from the tables'
tops), and draws again only the lists whose players' assignment changed."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities.league import Season, Venue
from models.entities.qualifiers import Disqualification
from models.freshness.memos import recomputed_by_scopes
from models.freshness.scopes import Scope, season_scopes
from models.freshness.versions import scope_versions, venue_versions
from models.infra.collection import collection_paused
from models.rules.qualifier_lists import (
    VenueList,
    venue_list,
)
from models.rules.qualifiers import (
    DoubleQualifierPolicy,
    Entrant,
    PlayerFacts,
    Standing,
    VenueOutcome,
    VenueTable,
    age_day,
    assign,
    decided_on,
    entrant_of,
    explain,
    positions,
    quota,
    venue_table,
)
from models.rules.standings import Line, Row, leading_rows
from models.rules.venue_groups import Linking, linking, relink
from models.services import wall_clock
from models.services.players.queries import player_facts
from models.services.sanctions.queries import suspended_on
from models.services.seasons.queries import venues_of
from models.services.standings.line_queries import (
    counted_results,
    leading_lines,
    season_tiers,
    stored_lines,
    summed_lines,
)
from models.services.standings.queries import NO_TOURNAMENTS, Totals, average_attendance, venue_totals

# The office's draws settling ties at the cut, by venue: the players it named, in order.
Draws = Mapping[int, Sequence[int]]


class _Place(NamedTuple):
    """A venue as a list names it."""

    id: int
    name: str
    region_id: int


def _places(session: Session, season: Season) -> list[_Place]:
    """The venues a season covers (R2), by region, then name: plain values, cached between reads."""
    ordered = venues_of(season).order_by(Venue.region_id, Venue.name, Venue.id).subquery()
    return [
        _Place(*row) for row in session.execute(select(ordered.c.id, ordered.c.name, ordered.c.region_id))
    ]


def _skipping(session: Session, season: Season) -> tuple[frozenset[int], frozenset[int]]:
    """R13: the players disqualified for the season, and those suspended on the day that counts
    (both few: read whole)."""
    disqualified = frozenset(
        session.scalars(
            select(Disqualification.player_id).where(
                Disqualification.season_id == season.id, Disqualification.withdrawn_at.is_(None)
            )
        )
    )
    suspended = suspended_on(session, decided_on(season.ends_on, wall_clock.in_league(session)))
    return disqualified, frozenset(suspended)


# R12 needs the top of each venue's table (under best_rank): this many players beyond the quota
# are ranked at first; a venue that cannot fill its quota from them gets its whole table
# (see _compute_lists). A speed setting only: the lists are the same at any depth. In the
# national benchmark no venue needed its whole table even at 3, and 5 ranked a third fewer
# rows than 10 (a national season's lists from scratch: about 160 ms instead of 230).
DEPTH_BEYOND_QUOTA = 5


class VenuePart(NamedTuple):
    """One venue's share of a season's lists, as of the venue's scope version: its totals, its
    table (the top only, or whole: `complete` when every player of the venue is in it), that
    table as qualification reads it (with the quota and the office's draw) in R12's order, and
    the list last drawn from it with what it was drawn from (`Drawn`)."""

    version: int
    totals: Totals
    rows: list[Row]
    complete: bool
    table: VenueTable
    order: list[Standing]
    place: dict[int, int]  # each player's position in the order
    drawn: Drawn | None = None


class DrawnAt(NamedTuple):
    """What a list is known by: what was asked of the computation that drew it (the season, the
    day, the office's draws; or a publication) and the versions of the scopes it read then. The
    same again, the same list: a memo of what is made from a list keys it by this."""

    asked: Hashable
    versions: tuple[tuple[str, int], ...]


class Drawn(NamedTuple):
    """A venue's list and what decided it beyond its own table: where each player of the table
    was assigned (R14) and whom the venue turned away. The same again, the same list, known by
    the versions it was first drawn at (`at`)."""

    assigned: tuple[int | None, ...]
    rejected: frozenset[int]
    outcome: VenueOutcome
    list: VenueList
    at: DrawnAt | None = None


class Assigned(NamedTuple):
    """R14's outcome in one group of linked venues (`linking`), and the tables it was drawn
    from: the same tables again, the same outcome."""

    tables: tuple[VenueTable, ...]
    assignment: dict[int, int]
    rejected: dict[int, set[int]]


@dataclass(frozen=True)
class Parts:
    """What a computation of a season's lists leaves for the next, under the same league version,
    day and draws: the venues' parts and the players' facts and R13 standing. Never changed once
    made (readers on other threads may hold it): the next computation makes new ones."""

    places: Sequence[_Place]  # the venues the season covers: the league's scope, as the key's
    venues: Mapping[int, VenuePart]
    facts: Mapping[int, PlayerFacts]
    entrants: Mapping[int, Entrant]
    skipping: tuple[frozenset[int], frozenset[int]]
    groups: Mapping[tuple[int, ...], Assigned]  # by the group's venues
    linked: Linking  # the venues' orders' groups (R14), as `linking` finds them


class Computed(NamedTuple):
    """A season's lists as a process caches them, with the parts they were drawn from."""

    lists: list[VenueList]
    parts: Parts


def compute_lists(session: Session, season: Season, draws: Draws | None = None) -> list[VenueList]:
    """R12-R14: every venue's list as the stored results stand now, as plain data (the shape a
    publication freezes). `draws` applies the office's settled ties. A reader's lists may be
    shared with other readers of the same data version: read them, never change them."""
    return drawn_lists(session, season, draws)[0]


def drawn_lists(
    session: Session, season: Season, draws: Draws | None = None
) -> tuple[list[VenueList], list[DrawnAt | None]]:
    """`compute_lists`, with what each list is known by (`DrawnAt`)."""
    draws = draws or {}
    # Cached by (season, day, draws) under the versions of the season's scopes: after a write in
    # the season, a process computes its lists once, not once per venue page or player profile,
    # from the parts the last computation left under the same league version (each venue's names
    # the version of the venue it was read at); a write elsewhere (another season) leaves them
    # cached. One entry a season: the lists of a version a newer one replaced serve no one.
    settled = tuple(sorted((venue, tuple(players)) for venue, players in draws.items()))
    asked = ("qualifier lists", season.id, wall_clock.day_key(session), settled)
    scopes = season_scopes(season.id)
    at = DrawnAt(asked, tuple(zip(scopes, scope_versions(session, scopes), strict=True)))

    def compute(older: Computed | None) -> Computed:
        base = older.parts if older is not None else None
        with collection_paused():  # nearly all it makes is kept: collecting meanwhile frees nothing
            versions = venue_versions(session, season.id)
            return Computed(*_compute_lists(session, season, draws, base, versions, at=at))

    found = recomputed_by_scopes(session, asked, scopes, compute, moving=Scope.season(season.id))
    drawn = [found.parts.venues[place.id].drawn for place in found.parts.places]
    return found.lists, [None if part is None else part.at for part in drawn]


def _compute_lists(
    session: Session,
    season: Season,
    draws: Draws,
    base: Parts | None = None,
    versions: Mapping[int, int] | None = None,
    at: DrawnAt | None = None,
) -> tuple[list[VenueList], Parts]:
    """The lists, computed from the stored results, and the parts they were drawn from: from
    `base`'s parts for every venue whose version (in `versions`) is the one a part was read at.

    Under the best_rank policy only the top of each table is ranked (leading_rows). There,
    players want the venue where they rank best and venues want the players ranked best, one
    score for both sides, so there is one stable assignment (R14) and the lists drawn from the
    tops are it whenever every venue fills its quota from its top (a venue full of players
    ranked above everyone left out turns each of them away). A venue that does not fill it is
    ranked whole, and the lists drawn again, until none is short. Under most_played and
    home_venue, players may want a venue that ranks them low, several stable assignments exist,
    and a player left out of a full venue can belong there in the player-optimal one: every
    table is ranked whole."""
    return _Lists(session, season, draws, base, versions or {}, at).computed()


class _Lists:
    """One computation of a season's lists: the venues' tables, ranked as deep as needed."""

    def __init__(
        self,
        session: Session,
        season: Season,
        draws: Draws,
        base: Parts | None,
        versions: Mapping[int, int],
        at: DrawnAt | None = None,
    ) -> None:
        self.session, self.season, self.draws, self.versions = session, season, draws, versions
        self.at = at  # what the lists drawn now are known by
        self.places = base.places if base is not None else _places(session, season)
        self.by_id = {place.id: place for place in self.places}
        self.tiers = season_tiers(season)
        self.whole = season.double_qualifier_policy != DoubleQualifierPolicy.BEST_RANK
        kept = base.venues if base is not None else {}
        self.parts: dict[int, VenuePart] = {
            place.id: kept[place.id]
            for place in self.places
            if place.id in kept and kept[place.id].version == versions.get(place.id, 0)
        }
        self.facts: dict[int, PlayerFacts] = dict(base.facts) if base is not None else {}
        self.entrants: dict[int, Entrant] = dict(base.entrants) if base is not None else {}
        self.skipping = base.skipping if base is not None else _skipping(session, season)
        self.kept_groups: Mapping[tuple[int, ...], Assigned] = base.groups if base is not None else {}
        self.groups: dict[tuple[int, ...], Assigned] = {}
        # The groups of linked venues as last found, and the venues made since (read again, or
        # ranked deeper): only their groups are linked again. Every venue without a cached part is
        # made, so with no base everything is linked afresh.
        self.linked: Linking | None = base.linked if base is not None else None
        self.unlinked: set[int] = set()
        # The venues made whose players' R13 standing is still to be read.
        self.unscanned: set[int] = set()
        # Every venue made in this computation: a group of none of them keeps its outcome unasked.
        self.made: set[int] = set()
        # The venues of every group assigned afresh in this computation: the rest keep the
        # outcome, so the lists, they had.
        self.reassigned: set[int] = set()

    def depth(self, totals: Totals) -> int:
        return quota(self.season.cut_fraction, totals.entrants, totals.tournaments) + DEPTH_BEYOND_QUOTA

    def part(
        self, venue_id: int, totals: Totals, lines: list[Line], whole: bool, all_read: bool = True
    ) -> None:
        """A venue's table from its lines: its top only unless `whole`."""
        rows = leading_rows(lines, self.tiers, len(lines) if whole else self.depth(totals))
        share = quota(self.season.cut_fraction, totals.entrants, totals.tournaments)
        table = venue_table(venue_id, share, rows, self.draws.get(venue_id, ()))
        complete = all_read and len(rows) == len(lines)
        version = self.versions.get(venue_id, 0)
        order = table.ordered()
        self.parts[venue_id] = VenuePart(version, totals, rows, complete, table, order, positions(order))
        self.unlinked.add(venue_id)
        self.unscanned.add(venue_id)
        self.made.add(venue_id)

    def whole_lines(
        self, venue_ids: Sequence[int], totals: Mapping[int, Totals]
    ) -> Iterable[tuple[int, list[Line]]]:
        """These venues' lines, whole: as stored, or (a venue with a report dated after the season's
        end) summed to the season's last day."""
        stored = [v for v in venue_ids if not totals[v].later]
        summed = [v for v in venue_ids if totals[v].later]
        if stored:
            yield from stored_lines(self.session, self.season, stored, stream=True)
        if summed:
            where = counted_results(self.season, summed, self.season.ends_on)
            yield from summed_lines(self.session, self.season, where, stream=True)

    def read_tables(self, venue_ids: list[int]) -> None:
        """The tables of these venues (those without a cached part): the top only under best_rank
        (from the stored lines, when they are the whole season's), else whole."""
        if not venue_ids:
            return
        everywhere = len(venue_ids) == len(self.places)
        found = venue_totals(
            self.session, self.season, None if everywhere else venue_ids, self.season.ends_on
        )
        totals = {v: found.get(v, NO_TOURNAMENTS) for v in venue_ids}
        tops = [] if self.whole else [v for v in venue_ids if not totals[v].later]
        if tops:
            deepest = max(self.depth(totals[v]) for v in tops)
            read = leading_lines(self.session, self.season, deepest, None if everywhere else tops)
            top_lines = [top for top in read if top[0] in totals]
            # The lines come without names: the players' facts, read for R13 anyway, carry them.
            self.read_facts({line.player_id for _v, lines, _a in top_lines for line in lines})
            facts = self.facts
            for venue_id, lines, all_read in top_lines:
                # Line(id, name, *the rest): tens of thousands of lines, `_replace` twice as slow.
                named = [Line(line[0], facts[line[0]].display_name, *line[2:]) for line in lines]
                self.part(venue_id, totals[venue_id], named, whole=False, all_read=all_read)
        rest = [v for v in venue_ids if v not in tops]
        for venue_id, lines in self.whole_lines(rest, totals):
            self.part(venue_id, totals[venue_id], lines, whole=True)
        for venue_id in venue_ids:
            if venue_id not in self.parts:  # no lines: no results yet
                self.part(venue_id, totals[venue_id], [], whole=True)

    def read_facts(self, players: set[int]) -> None:
        self.facts.update(player_facts(self.session, players - self.facts.keys()))

    def read_entrants(self) -> None:
        """R13: what skips each ranked player, for those not known yet."""
        season = self.season
        parts = self.parts
        players = {row.player_id for v in self.unscanned for row in parts[v].rows} - self.entrants.keys()
        self.unscanned = set()
        if not players:
            return
        self.read_facts(players)
        disqualified, suspended = self.skipping
        day = age_day(season.ends_on, season.championship_date)
        for player in players:
            self.entrants[player] = entrant_of(
                player, self.facts[player], season.min_age, day, disqualified, suspended
            )

    def computed(self) -> tuple[list[VenueList], Parts]:
        self.read_tables([place.id for place in self.places if place.id not in self.parts])
        while True:
            self.read_entrants()
            parts = self.parts
            assignment, rejected = self.assigned()
            # Only a venue of a group assigned afresh can be short: every other group's outcome
            # is the one it had when no venue was (the last computation's, or this one's last round).
            short = [
                place.id
                for place in self.places
                if place.id in self.reassigned
                and not parts[place.id].complete
                and sum(1 for s in parts[place.id].order if assignment.get(s.player_id) == place.id)
                < parts[place.id].table.quota
            ]
            if not short:
                break
            # Ranked whole: those venues' lines again (the rest were never cached).
            totals = {v: parts[v].totals for v in short}
            for venue_id, lines in self.whole_lines(short, totals):
                self.part(venue_id, totals[venue_id], lines, whole=True)
        lists = [self.drawn(place, assignment, rejected) for place in self.places]
        assert self.linked is not None  # linked by the first assignment
        return lists, Parts(
            self.places, dict(self.parts), self.facts, self.entrants, self.skipping, self.groups, self.linked
        )

    def assigned(self) -> tuple[dict[int, int], dict[int, set[int]]]:
        """R14 over the season, group of linked venues by group: a group whose every table is the
        one it was last assigned from keeps that outcome (after a report, all but the report's).
        The groups are linked again only where a venue was made since they were last found. Only
        the groups assigned afresh (`reassigned`) are in the outcome returned: every other
        group's lists are the ones drawn last time."""
        season, parts, made = self.season, self.parts, self.made
        assignment: dict[int, int] = {}
        rejected: dict[int, set[int]] = {}
        orders = {place.id: parts[place.id].order for place in self.places}
        if self.linked is None:
            self.linked = linking(orders)
        elif self.unlinked:
            self.linked = relink(orders, self.unlinked, self.linked)
        self.unlinked = set()
        # Those of the last computation, and of this one's last round (before a venue was deepened).
        kept, self.groups = {**self.kept_groups, **self.groups}, {}
        for group in self.linked.groups:
            found = kept.get(group)
            if found is None or any(v in made for v in group):
                tables = tuple(parts[v].table for v in group)
                if found is None or any(a is not b for a, b in zip(found.tables, tables, strict=True)):
                    done = assign(
                        {v: parts[v].table for v in group},
                        {v: parts[v].order for v in group},
                        self.entrants,
                        season.double_qualifier_policy,
                        season.min_events_to_qualify,
                        {v: parts[v].place for v in group},
                    )
                    found = Assigned(tables, *done)
                    self.reassigned.update(group)
            if group[0] in self.reassigned:  # assigned afresh, in this round or an earlier one
                assignment.update(found.assignment)
                rejected.update(found.rejected)
            self.groups[group] = found
        return assignment, rejected

    def drawn(
        self, place: _Place, assignment: Mapping[int, int], rejected: Mapping[int, set[int]]
    ) -> VenueList:
        """A venue's list: the one drawn last time when nothing it depends on changed."""
        part = self.parts[place.id]
        if part.drawn is not None and place.id not in self.reassigned:
            return part.drawn.list  # its group's outcome is the one it was drawn from
        assigned = tuple(assignment.get(s.player_id) for s in part.order)
        turned_away = frozenset(rejected[place.id])
        if part.drawn is not None and part.drawn.assigned == assigned and part.drawn.rejected == turned_away:
            return part.drawn.list
        season = self.season
        outcome = explain(
            part.table, part.order, assignment, turned_away, self.entrants, season.min_events_to_qualify
        )
        made = _venue_list(place, part, outcome)
        self.parts[place.id] = part._replace(drawn=Drawn(assigned, turned_away, outcome, made, self.at))
        return made


def _venue_list(place: _Place, part: VenuePart, outcome: VenueOutcome) -> VenueList:
    totals = part.totals
    names = {row.player_id: row.display_name for row in part.rows}
    average = average_attendance(totals.entrants, totals.tournaments)
    return venue_list(place.id, place.name, place.region_id, totals.tournaments, average, names, outcome)
