"""R12-R14: who qualifies for the playoffs from each venue. The quota of each venue, who is skipped
and why, and the one qualifying venue of each player: the player-optimal stable assignment found
by deferred acceptance, which does not depend on the order venues or players come in."""

from __future__ import annotations

import bisect
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from enum import StrEnum
from typing import NamedTuple

from models.rules.numbers import round_half_up
from models.rules.players import age_on
from models.rules.standings import Key, Row


class SkipReason(StrEnum):
    """R13: why a player ranked above a venue's last qualifier does not go from there. Where
    several apply, the first of these (in this order) is given. `ineligible` is never given by
    the rule: it is what the public reads for the first three, drawn from personal or
    discipline records (R13, R19: rules/qualifier_lists.public_list)."""

    UNDERAGE = "underage"
    DISQUALIFIED = "disqualified"
    SUSPENDED = "suspended"
    TOO_FEW_EVENTS = "too_few_events"
    QUALIFIED_ELSEWHERE = "qualified_elsewhere"
    INELIGIBLE = "ineligible"


class DoubleQualifierPolicy(StrEnum):
    """R14: which venue a player who qualifies at several wants most (a season setting)."""

    BEST_RANK = "best_rank"
    MOST_PLAYED = "most_played"
    HOME_VENUE = "home_venue"


class Flag(StrEnum):
    """What a qualifier list flags on a player (R12, R13)."""

    TIE_AT_CUT = "tie_at_cut"
    TIE_SETTLED = "tie_settled"
    AGE_UNVERIFIED = "age_unverified"


SKIP_REASONS = tuple(reason.value for reason in SkipReason)
POLICIES = tuple(policy.value for policy in DoubleQualifierPolicy)
FLAGS = tuple(flag.value for flag in Flag)


def provisional(ends_on: date, today: date) -> bool:
    """R12: while the season runs (through its last day) its lists are provisional."""
    return today <= ends_on


class SeasonState(StrEnum):
    """Where a season stands (R2, R12): before its first day, through its last, after it, and
    after it with its qualifier lists published."""

    COMING = "coming"
    RUNNING = "running"
    ENDED = "ended"
    PUBLISHED = "published"


def season_state(starts_on: date, ends_on: date, today: date, published: bool) -> SeasonState:
    """R2, R12: a season is coming before its first day, running through its last (its lists
    provisional), then ended, or published once the office published its lists (which it may
    only after the last day)."""
    if today < starts_on:
        return SeasonState.COMING
    if provisional(ends_on, today):
        return SeasonState.RUNNING
    return SeasonState.PUBLISHED if published else SeasonState.ENDED


def decided_on(ends_on: date, today: date) -> date:
    """R13: suspensions count on the season's last day, or today for a provisional list."""
    return today if provisional(ends_on, today) else ends_on


def age_day(ends_on: date, championship_date: date | None) -> date:
    """R13: age is reckoned on the championship date (the season's last day when none is set)."""
    return championship_date or ends_on


def quota(cut_fraction: Decimal, entrants: int, tournaments: int) -> int:
    """R12: q = max(1, round_half_up(cut_fraction x average attendance)), the average being the
    entrants of the venue's regular tournaments divided by their number (exact, no floats)."""
    if tournaments == 0:
        return 1
    return max(1, round_half_up(cut_fraction * Decimal(entrants) / Decimal(tournaments)))


def player_skip(
    date_of_birth: date | None,
    min_age: int,
    age_day: date,
    disqualified: bool,
    suspended: bool,
) -> tuple[SkipReason | None, bool]:
    """R13, the reasons that skip a player at every venue, in their order: (the reason or None,
    whether the age is unverified because the date of birth is unknown)."""
    if date_of_birth is not None and age_on(date_of_birth, age_day) < min_age:
        return SkipReason.UNDERAGE, False
    if disqualified:
        return SkipReason.DISQUALIFIED, date_of_birth is None
    if suspended:
        return SkipReason.SUSPENDED, date_of_birth is None
    return None, date_of_birth is None


class Standing(NamedTuple):
    """A player's line in a venue's standings (R11): `key` is R11's tie-break key (lower is better),
    so two players with equal keys are level after every tie-break."""

    player_id: int
    rank: int
    points: int
    played: int
    key: Key


@dataclass(frozen=True)
class VenueTable:
    """One venue's standings and quota. `draw` lists players the office's draw put first among
    those level with them (R12: a settled tie at the cut)."""

    venue_id: int
    quota: int
    standings: tuple[Standing, ...]
    draw: tuple[int, ...] = ()

    def ordered(self) -> list[Standing]:
        """R12's order: standings order; players still level by the office's draw, then lower id."""
        drawn = {player_id: index for index, player_id in enumerate(self.draw)}
        return sorted(
            self.standings,
            key=lambda s: (s.key, drawn.get(s.player_id, len(drawn)), s.player_id),
        )


def venue_table(venue_id: int, quota: int, rows: Iterable[Row], draw: Sequence[int] = ()) -> VenueTable:
    """A venue's standings (R11) as qualification reads them, with its quota and the office's
    draw."""
    standings = tuple(Standing(r.player_id, r.rank, r.points, r.played, r.key) for r in rows)
    return VenueTable(venue_id, quota, standings, tuple(draw))


class Entrant(NamedTuple):
    """What qualification needs to know of a player beyond the standings."""

    player_id: int
    skip: SkipReason | None = None  # underage, disqualified or suspended (player_skip)
    age_unverified: bool = False
    home_venue_id: int | None = None


@dataclass(frozen=True)
class PlayerFacts:
    """What qualification reads of a player: the name (ranking's order among equals), and for
    R13 and R14 the date of birth and home venue."""

    display_name: str
    born: date | None
    home_venue_id: int | None


def entrant_of(
    player_id: int,
    facts: PlayerFacts,
    min_age: int,
    age_day: date,
    disqualified: Collection[int],
    suspended: Collection[int],
) -> Entrant:
    """R13: what skips the player everywhere (player_skip); R14: their home venue."""
    skip, unverified = player_skip(
        facts.born, min_age, age_day, player_id in disqualified, player_id in suspended
    )
    return Entrant(player_id, skip, unverified, facts.home_venue_id)


def preferences(policy: str, entrant: Entrant, options: Sequence[tuple[int, Standing]]) -> list[int]:
    """R14: the venues where a player may qualify, most wanted first, by the season's policy:
    best_rank (best rank, then more points, then the lower venue id), most_played (most
    tournaments there, then best_rank) or home_venue (the recorded home venue, then best_rank)."""

    def best_rank(option: tuple[int, Standing]) -> tuple[int, int, int]:
        venue_id, standing = option
        return (standing.rank, -standing.points, venue_id)

    if policy == DoubleQualifierPolicy.MOST_PLAYED:
        ranked = sorted(options, key=lambda o: (-o[1].played, *best_rank(o)))
    elif policy == DoubleQualifierPolicy.HOME_VENUE:
        ranked = sorted(options, key=lambda o: (o[0] != entrant.home_venue_id, *best_rank(o)))
    else:
        ranked = sorted(options, key=best_rank)
    return [venue_id for venue_id, _standing in ranked]


def deferred_acceptance(
    proposals: Mapping[int, Sequence[int]],
    capacity: Mapping[int, int],
    venue_order: Mapping[int, Mapping[int, int]],
) -> tuple[dict[int, int], dict[int, set[int]]]:
    """R14: the player-optimal stable assignment (Gale-Shapley, players proposing).

    `proposals` gives each player's venues, most wanted first; `capacity` each venue's quota;
    `venue_order[v][p]` the position of player p in venue v's order (lower is better). Each venue
    holds its best `capacity` proposers and rejects the rest, who propose further down their list.
    Returns (player -> venue, venue -> the players it rejected). The outcome is the same whatever
    order the players come in (a theorem of deferred acceptance)."""
    next_choice = {player: 0 for player in proposals}
    held: dict[int, list[int]] = {venue: [] for venue in capacity}
    rejected: dict[int, set[int]] = {venue: set() for venue in capacity}
    free = sorted(proposals)
    while free:
        player = free.pop()
        choices = proposals[player]
        if next_choice[player] >= len(choices):
            continue
        venue = choices[next_choice[player]]
        next_choice[player] += 1
        holding = held[venue]
        order = venue_order[venue]
        bisect.insort(holding, player, key=order.__getitem__)
        if len(holding) > capacity[venue]:
            out = holding.pop()
            rejected[venue].add(out)
            free.append(out)
    assignment = {player: venue for venue, players in held.items() for player in players}
    return assignment, rejected


@dataclass
class Qualifier:
    player_id: int
    rank: int
    points: int
    flags: list[str] = field(default_factory=list)  # Flag's
    # Skipped players ranked above this one: they are why this player moved up.
    moved_up_past: list[int] = field(default_factory=list)


@dataclass
class Skipped:
    player_id: int
    rank: int
    points: int
    reason: SkipReason
    venue_id: int | None = None  # for qualified_elsewhere: where the player qualified


@dataclass
class VenueOutcome:
    venue_id: int
    quota: int
    qualifiers: list[Qualifier]
    skipped: list[Skipped]
    # Players level at the cut with the last qualifier who do not go here (R12: tie_at_cut).
    tied_out: list[Qualifier] = field(default_factory=list)


def qualify(
    tables: Iterable[VenueTable],
    entrants: Mapping[int, Entrant],
    policy: str,
    min_events: int,
) -> dict[int, VenueOutcome]:
    """R12-R14 for a whole season: each venue's qualifiers in R12's order, with flags, and every
    skipped player above the last qualifier with the first reason that applies."""
    by_venue = {table.venue_id: table for table in tables}
    orders = {venue_id: table.ordered() for venue_id, table in by_venue.items()}
    assignment, rejected = assign(by_venue, orders, entrants, policy, min_events)
    return {
        venue_id: explain(
            by_venue[venue_id], orders[venue_id], assignment, rejected[venue_id], entrants, min_events
        )
        for venue_id in by_venue
    }


def skip_at(standing: Standing, entrants: Mapping[int, Entrant], min_events: int) -> SkipReason | None:
    """R13: what skips this player at this venue (player_skip first, then too few events)."""
    entrant = entrants.get(standing.player_id)
    if entrant is not None and entrant.skip is not None:
        return entrant.skip
    return SkipReason.TOO_FEW_EVENTS if standing.played < min_events else None


def positions(order: Sequence[Standing]) -> dict[int, int]:
    """Each player's position in a venue's order (`VenueTable.ordered`): lower is better."""
    return {s.player_id: i for i, s in enumerate(order)}


def assign(
    tables: Mapping[int, VenueTable],
    orders: Mapping[int, Sequence[Standing]],
    entrants: Mapping[int, Entrant],
    policy: str,
    min_events: int,
    places: Mapping[int, Mapping[int, int]] | None = None,
) -> tuple[dict[int, int], dict[int, set[int]]]:
    """R14: which venue each eligible player qualifies at (player -> venue), and whom each venue
    turned away (venue -> players), from every venue's table in R12's order (`VenueTable.ordered`;
    `places` its `positions`, when the caller keeps them)."""
    position = places if places is not None else {v: positions(order) for v, order in orders.items()}
    options: dict[int, list[tuple[int, Standing]]] = {}
    for venue_id, order in orders.items():
        for standing in order:
            if skip_at(standing, entrants, min_events) is None:
                options.setdefault(standing.player_id, []).append((venue_id, standing))
    proposals = {
        # One venue: nothing to prefer.
        player_id: [opts[0][0]]
        if len(opts) == 1
        else preferences(policy, entrants.get(player_id, Entrant(player_id)), opts)
        for player_id, opts in options.items()
    }
    capacity = {venue_id: table.quota for venue_id, table in tables.items()}
    return deferred_acceptance(proposals, capacity, position)


def explain(
    table: VenueTable,
    order: Sequence[Standing],
    assignment: Mapping[int, int],
    rejected: Collection[int],
    entrants: Mapping[int, Entrant],
    min_events: int,
) -> VenueOutcome:
    """One venue's answer: qualifiers in order with their flags, who was skipped above the last
    of them and why, and the ties at the cut."""
    qualifiers: list[Qualifier] = []
    skipped: list[Skipped] = []
    skipped_since: list[int] = []
    for standing in order:
        here = assignment.get(standing.player_id) == table.venue_id
        if here:
            entrant = entrants.get(standing.player_id, Entrant(standing.player_id))
            flags: list[str] = [Flag.AGE_UNVERIFIED] if entrant.age_unverified else []
            qualifiers.append(
                Qualifier(standing.player_id, standing.rank, standing.points, flags, list(skipped_since))
            )
            continue
        reason = skip_at(standing, entrants, min_events)
        elsewhere = assignment.get(standing.player_id)
        if reason is None and elsewhere is not None:
            reason = SkipReason.QUALIFIED_ELSEWHERE
        if reason is not None:
            where = elsewhere if reason == SkipReason.QUALIFIED_ELSEWHERE else None
            skipped.append(Skipped(standing.player_id, standing.rank, standing.points, reason, where))
            skipped_since.append(standing.player_id)
    if qualifiers and len(qualifiers) >= table.quota:
        # A full list is explained by those above its last qualifier; below it nobody moved up.
        last = next(i for i, s in enumerate(order) if s.player_id == qualifiers[-1].player_id)
        above = {s.player_id for s in order[:last]}
        skipped = [s for s in skipped if s.player_id in above]
    tied_out = _ties_at_cut(table, order, qualifiers, rejected)
    for tied in tied_out:
        if entrants.get(tied.player_id, Entrant(tied.player_id)).age_unverified:
            tied.flags.insert(0, Flag.AGE_UNVERIFIED)
    return VenueOutcome(table.venue_id, table.quota, qualifiers, skipped, tied_out)


def _ties_at_cut(
    table: VenueTable, order: Sequence[Standing], qualifiers: list[Qualifier], rejected: Collection[int]
) -> list[Qualifier]:
    """R12: where only the lower player id (or the office's draw) separates the last qualifier
    from the next eligible player (one this venue turned away), everyone level with them at the
    cut is flagged: `tie_at_cut` for the office to settle, or `tie_settled` once its draw did."""
    if not qualifiers or not rejected:
        return []
    by_id = {s.player_id: s for s in order}
    last_key = by_id[qualifiers[-1].player_id].key
    out = [by_id[p] for p in rejected if by_id[p].key == last_key]
    if not out:
        return []
    group = {q.player_id for q in qualifiers if by_id[q.player_id].key == last_key} | {
        s.player_id for s in out
    }
    # Settled when the draw, not the lower id, is what put the last qualifier before the next one.
    place = {s.player_id: i for i, s in enumerate(order)}
    next_one = min(out, key=lambda s: place[s.player_id]).player_id
    settled = {qualifiers[-1].player_id, next_one} & set(table.draw)
    flag = Flag.TIE_SETTLED if settled else Flag.TIE_AT_CUT
    for qualifier in qualifiers:
        if qualifier.player_id in group:
            qualifier.flags.append(flag)
    return [
        Qualifier(s.player_id, s.rank, s.points, [flag])
        for s in sorted(out, key=lambda s: place[s.player_id])
    ]


# R19: a reason drawn from personal or discipline records reads "not eligible" in public.
PUBLIC_REASON_WORDS = {
    SkipReason.INELIGIBLE: "not eligible",
    SkipReason.UNDERAGE: "not eligible",
    SkipReason.DISQUALIFIED: "not eligible",
    SkipReason.SUSPENDED: "not eligible",
}


def public_reason(reason: str, elsewhere: str | None, played: int | None, least: int) -> str:
    """Why a player above the cut is not on a qualifier list, in public words (R13, R14, R19):
    where they qualified instead, how few nights they played of how many, or "not eligible" for a
    reason drawn from personal or discipline records."""
    if reason == "qualified_elsewhere":
        return f"qualified at {elsewhere or 'another venue'}"
    if reason == "too_few_events":
        return (
            f"too few nights: {played} of {least}"
            if played is not None
            else f"too few nights (at least {least})"
        )
    return (
        PUBLIC_REASON_WORDS.get(SkipReason(reason), "not eligible")
        if reason in SKIP_REASONS
        else "not eligible"
    )
