"""R9-R11: a venue's standings for a season, from each player's results there."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from models.rules.reports import played as counts_as_played

# R11's countback as (place, -count) for each place from 2nd down where the player has finishes,
# ended by LAST: compared in order, more finishes at the first differing place is better, and
# a player with a finish where the other has none is better (the other reaches LAST first).
LAST = (sys.maxsize, 0)
Countback = tuple[tuple[int, int], ...]
# R11's tie-break key (lower is better): -points, -wins, countback, -best single, -played.
Key = tuple[int, int, Countback, int, int]


class Entry(NamedTuple):
    """One result of a player in a regular tournament of the venue and season."""

    tournament_id: int
    place: int
    status: str
    placement_points: int
    participation_points: int
    knockout_points: int = 0  # R8a: part of the tournament's total
    knockouts: int = 0

    @property
    def total(self) -> int:
        return self.placement_points + self.participation_points + self.knockout_points


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
    place_total: int
    finishes: int
    best_single: int
    place_counts: dict[int, int] = field(default_factory=dict)
    knockout_points: int = 0  # R8a
    knockouts: int = 0
    rank: int = 0
    tied: bool = False
    # R11's tie-break key (lower is better): equal keys are level after every step.
    key: Key = (0, 0, (), 0, 0)
    # Which R11 step put this row below the one above (None for the first row), and for
    # countback the place whose count decided.
    decided_by: str | None = None
    decided_at_place: int | None = None

    @property
    def average_finish(self) -> Decimal:
        return (Decimal(self.place_total) / self.finishes).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def attendance_bonus(played: int, tiers: Iterable[Tier]) -> int:
    """R9: the points of the highest tier whose events the player reached, once."""
    reached = [tier for tier in tiers if played >= tier.events]
    return max(reached, key=lambda tier: tier.events).points if reached else 0


def counted_total(totals: Sequence[int], count_best: int | None) -> int:
    """R10: only the N highest tournament totals count (all when N is None)."""
    best = sorted(totals, reverse=True)
    return sum(best if count_best is None else best[:count_best])


class Line(NamedTuple):
    """A player's results at a venue in a season, summed: all R9-R11 need. The database sums them
    for the service (models/services/standings/queries.py); `line_of` is the same sum, in Python."""

    player_id: int
    display_name: str
    finishes: int  # results, no-shows included
    played: int  # results that are not no-shows (R9)
    placement_points: int
    participation_points: int
    counted: int  # R10: the totals of the tournaments that count (every one unless count_best)
    wins: int
    points_finishes: int
    best_finish: int
    place_total: int
    best_single: int
    places: str  # every place, comma-separated: the countback's counts (R11)
    knockout_points: int = 0  # R8a: part of each tournament's total, summed
    knockouts: int = 0  # R8a: players knocked out


def line_of(player_id: int, display_name: str, entries: Sequence[Entry], count_best: int | None) -> Line:
    """A player's entries summed into a Line (R10 applied)."""
    totals = [entry.total for entry in entries]
    places = [entry.place for entry in entries]
    return Line(
        player_id=player_id,
        display_name=display_name,
        finishes=len(entries),
        played=sum(1 for entry in entries if counts_as_played(entry.status)),
        placement_points=sum(entry.placement_points for entry in entries),
        participation_points=sum(entry.participation_points for entry in entries),
        counted=counted_total(totals, count_best),
        wins=places.count(1),
        points_finishes=sum(1 for entry in entries if entry.placement_points > 0),
        best_finish=min(places),
        place_total=sum(places),
        best_single=max(totals),
        places=",".join(map(str, places)),
        knockout_points=sum(entry.knockout_points for entry in entries),
        knockouts=sum(entry.knockouts for entry in entries),
    )


def line_points(line: Line, tiers: Sequence[Tier]) -> int:
    """R9-R10: a line's standings points: the counted totals plus the attendance bonus."""
    return line.counted + attendance_bonus(line.played, tiers)


def place_counts(places: str) -> dict[int, int]:
    """How many finishes a line has at each place (`Line.places`)."""
    counts: dict[int, int] = {}
    for place in map(int, places.split(",")):
        counts[place] = counts.get(place, 0) + 1
    return counts


def row_of(line: Line, tiers: Sequence[Tier]) -> Row:
    counts = place_counts(line.places)
    bonus = attendance_bonus(line.played, tiers)
    return Row(
        player_id=line.player_id,
        display_name=line.display_name,
        points=line.counted + bonus,
        placement_points=line.placement_points,
        participation_points=line.participation_points,
        bonus_points=bonus,
        played=line.played,
        wins=line.wins,
        points_finishes=line.points_finishes,
        best_finish=line.best_finish,
        place_total=line.place_total,
        finishes=line.finishes,
        best_single=line.best_single,
        place_counts=counts,
        knockout_points=line.knockout_points,
        knockouts=line.knockouts,
    )


def tie_break_key(row: Row) -> Key:
    """R11's five steps, as a key to sort ascending: total points, wins, countback (2nd places,
    then 3rd, … through every place), best single-tournament total, tournaments played. Its
    length does not grow with the deepest place: only places the player finished in are in it."""
    return _key(row.points, row.wins, row.place_counts, row.best_single, row.played)


def line_key(line: Line, tiers: Sequence[Tier]) -> Key:
    """`tie_break_key` of the line's row, without making the row."""
    points = line.counted + attendance_bonus(line.played, tiers)
    return _key(points, line.wins, place_counts(line.places), line.best_single, line.played)


def _key(points: int, wins: int, counts: Mapping[int, int], best_single: int, played: int) -> Key:
    countback = sorted([(place, -count) for place, count in counts.items() if place >= 2])  # by place
    countback.append(LAST)
    return (-points, -wins, tuple(countback), -best_single, -played)


# R11's steps, in order, as `decided_by` names them.
STEPS = ("points", "wins", "countback", "best_single", "played", "tied")


def deciding_step(above: Key, below: Key) -> tuple[str, int | None]:
    """R11: the first step where two tie-break keys differ, and for countback the place that
    decided (the first place where their counts differ)."""
    if above[0] != below[0]:
        return "points", None
    if above[1] != below[1]:
        return "wins", None
    if above[2] != below[2]:
        for (place_above, count_above), (place_below, count_below) in zip(above[2], below[2], strict=False):
            if place_above != place_below or count_above != count_below:
                return "countback", min(place_above, place_below)
    if above[3] != below[3]:
        return "best_single", None
    if above[4] != below[4]:
        return "played", None
    return "tied", None


def rank_rows(rows: Iterable[Row]) -> list[Row]:
    """R11: order and rank; players level after every step share the rank (1, 2, 2, 4) and are
    listed by display name, then player id."""
    keyed = sorted(
        ((tie_break_key(row), row) for row in rows),
        key=lambda pair: (pair[0], pair[1].display_name.casefold(), pair[1].player_id),
    )
    previous: Key | None = None
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
    for above, row in zip(ordered, ordered[1:], strict=False):
        if above.rank == row.rank:
            above.tied = row.tied = True
    return ordered


def standings(
    entries_by_player: Mapping[int, tuple[str, Sequence[Entry]]],
    count_best: int | None = None,
    tiers: Sequence[Tier] = (),
) -> list[Row]:
    """R11: every player with at least one result, ranked."""
    return ranked_lines(
        [
            line_of(player_id, name, entries, count_best)
            for player_id, (name, entries) in entries_by_player.items()
            if entries
        ],
        tiers,
    )


def ranked_lines(lines: Iterable[Line], tiers: Sequence[Tier] = ()) -> list[Row]:
    """R11: the players of these lines, ranked."""
    return rank_rows(row_of(line, tiers) for line in lines)


def leading_rows(lines: Sequence[Line], tiers: Sequence[Tier], depth: int) -> list[Row]:
    """R11: the top of a table: the best `depth` players by points and everyone level on points
    with the last of them, ranked exactly as in the whole table (everyone left out has fewer
    points, so ranks, ties and tie-breaks above them are the same)."""
    if len(lines) <= depth:
        return ranked_lines(lines, tiers)
    points = [line_points(line, tiers) for line in lines]
    floor = sorted(points, reverse=True)[depth - 1]
    return ranked_lines([line for line, p in zip(lines, points, strict=True) if p >= floor], tiers)
