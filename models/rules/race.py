"""The points race: a venue's standings points of some players after each of its tournaments
(R9-R11 as the standings count them), for a chart of how the season went."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from models.rules.standings import Tier, attendance_bonus, counted_total


@dataclass(frozen=True)
class Race:
    """Each tournament day (in order) and, per player, their standings points after that day."""

    dates: list[date]
    points: dict[int, list[int]]


def points_race(
    dates: Sequence[date],
    totals: Mapping[int, Sequence[tuple[date, int, bool]]],
    count_best: int | None,
    tiers: Sequence[Tier],
) -> Race:
    """A player's points after a day are what the standings would say that evening: the counted
    totals of their results so far (R10: the best `count_best` only) plus the attendance bonus
    of the tiers they reached (R9). `totals` holds each player's results as (day, total points,
    played: not a no-show), in any order; a player's line is flat on days they did not play."""
    days = sorted(set(dates))
    race: dict[int, list[int]] = {}
    for player_id, results in totals.items():
        by_day = sorted(results)
        so_far: list[int] = []
        played = 0
        next_result = 0
        line = []
        for day in days:
            while next_result < len(by_day) and by_day[next_result][0] <= day:
                _day, total, counts_as_played = by_day[next_result]
                so_far.append(total)
                played += counts_as_played
                next_result += 1
            line.append(counted_total(so_far, count_best) + attendance_bonus(played, tiers) if so_far else 0)
        race[player_id] = line
    return Race(days, race)
