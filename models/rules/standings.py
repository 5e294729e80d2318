"""R9-R11: a venue's standings for a season, from each player's results there."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal


@dataclass(frozen=True)
class Entry:
    """One result of a player in a regular tournament of the venue and season."""

    tournament_id: int
    place: int
    status: str
    placement_points: int
    participation_points: int

    @property
    def total(self) -> int:
        return self.placement_points + self.participation_points


@dataclass(frozen=True)
class Tier:
    events: int
    points: int


@dataclass
class Row:
    player_id: int
    display_name: str
    points: int
    placement_points: int
    participation_points: int
    bonus_points: int
    played: int
    wins: int
    points_finishes: int
    best_finish: int
    average_finish: Decimal
    best_single: int
    place_counts: dict[int, int] = field(default_factory=dict)
    rank: int = 0
    tied: bool = False
    # R11's tie-break key (lower is better): equal keys are level after every step.
    key: tuple[int, ...] = ()
    # Which R11 step put this row below the one above (None for the first row), and for
    # countback the place whose count decided.
    decided_by: str | None = None
    decided_at_place: int | None = None


def attendance_bonus(played: int, tiers: Iterable[Tier]) -> int:
    """R9: the points of the highest tier whose events the player reached, once."""
    reached = [tier for tier in tiers if played >= tier.events]
    return max(reached, key=lambda tier: tier.events).points if reached else 0


def counted_total(totals: Sequence[int], count_best: int | None) -> int:
    """R10: only the N highest tournament totals count (all when N is None)."""
    best = sorted(totals, reverse=True)
    return sum(best if count_best is None else best[:count_best])


def player_row(
    player_id: int,
    display_name: str,
    entries: Sequence[Entry],
    count_best: int | None,
    tiers: Sequence[Tier],
) -> Row:
    totals = [entry.total for entry in entries]
    played = sum(1 for entry in entries if entry.status != "no_show")
    bonus = attendance_bonus(played, tiers)
    places = [entry.place for entry in entries]
    counts: dict[int, int] = {}
    for place in places:
        counts[place] = counts.get(place, 0) + 1
    return Row(
        player_id=player_id,
        display_name=display_name,
        points=counted_total(totals, count_best) + bonus,
        placement_points=sum(entry.placement_points for entry in entries),
        participation_points=sum(entry.participation_points for entry in entries),
        bonus_points=bonus,
        played=played,
        wins=counts.get(1, 0),
        points_finishes=sum(1 for entry in entries if entry.placement_points > 0),
        best_finish=min(places),
        average_finish=(Decimal(sum(places)) / len(places)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP),
        best_single=max(totals),
        place_counts=counts,
    )


def tie_break_key(row: Row, deepest_place: int) -> tuple[int, ...]:
    """R11's five steps, as a key to sort ascending: total points, wins, countback (2nd places,
    then 3rd, … through every place), best single-tournament total, tournaments played."""
    countback = [0] * max(0, deepest_place - 1)
    for place, count in row.place_counts.items():
        if place >= 2:
            countback[place - 2] = -count
    return (-row.points, -row.wins, *countback, -row.best_single, -row.played)


# R11's steps, in order, as `decided_by` names them.
STEPS = ("points", "wins", "countback", "best_single", "played", "tied")


def deciding_step(above: Sequence[int], below: Sequence[int]) -> tuple[str, int | None]:
    """R11: the first step where two tie-break keys differ, and for countback the place that
    decided (keys as tie_break_key builds them: points, wins, 2nd, 3rd, …, best single, played)."""
    for index, (a, b) in enumerate(zip(above, below, strict=True)):
        if a != b:
            if index == 0:
                return "points", None
            if index == 1:
                return "wins", None
            if index == len(above) - 2:
                return "best_single", None
            if index == len(above) - 1:
                return "played", None
            return "countback", index
    return "tied", None


def rank_rows(rows: Iterable[Row]) -> list[Row]:
    """R11: order and rank; players level after every step share the rank (1, 2, 2, 4) and are
    listed by display name, then player id."""
    rows = list(rows)
    deepest = max((max(row.place_counts) for row in rows if row.place_counts), default=1)
    keyed = sorted(
        ((tie_break_key(row, deepest), row) for row in rows),
        key=lambda pair: (pair[0], pair[1].display_name.casefold(), pair[1].player_id),
    )
    previous: tuple[int, ...] | None = None
    rank = 0
    for position, (key, row) in enumerate(keyed, start=1):
        if key != previous:
            rank = position
            previous = key
        row.rank = rank
        row.key = key
    ordered = [row for _key, row in keyed]
    for above, row in zip(ordered, ordered[1:], strict=False):
        row.decided_by, row.decided_at_place = deciding_step(above.key, row.key)
    for index, row in enumerate(ordered):
        row.tied = any(
            0 <= other < len(ordered) and ordered[other].rank == row.rank for other in (index - 1, index + 1)
        )
    return ordered


def standings(
    entries_by_player: Mapping[int, tuple[str, Sequence[Entry]]],
    count_best: int | None = None,
    tiers: Sequence[Tier] = (),
) -> list[Row]:
    """R11: every player with at least one result, ranked."""
    rows = [
        player_row(player_id, name, entries, count_best, tiers)
        for player_id, (name, entries) in entries_by_player.items()
        if entries
    ]
    return rank_rows(rows)
