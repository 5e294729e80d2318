"""R4 and R6: a complete finishing order, and what each entrant status earns (R7, R8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from models.rules.charts import Chart

SCORING_STATUSES = ("played", "declared_withdrawal")


def place_problems(places: Sequence[int]) -> dict[int, list[str]]:
    """R4: places must be exactly 1..N (N = len(places)); problems by the index of the entry."""
    n = len(places)
    problems: dict[int, list[str]] = {}
    first_at: dict[int, int] = {}
    for index, place in enumerate(places):
        if place < 1 or place > n:
            problems.setdefault(index, []).append(
                f"Place {place} is outside 1..{n}: a report of {n} entrants has places 1 to {n}."
            )
        elif place in first_at:
            problems.setdefault(index, []).append(
                f"Place {place} is also given at results.{first_at[place]}; places do not tie (R4)."
            )
        else:
            first_at[place] = index
    return problems


def missing_places(places: Sequence[int]) -> list[int]:
    present = set(places)
    return [p for p in range(1, len(places) + 1) if p not in present]


@dataclass(frozen=True)
class Earned:
    placement_points: int
    participation_points: int

    @property
    def points(self) -> int:
        return self.placement_points + self.participation_points


def earned(
    chart_points: Sequence[int],
    place: int,
    status: str,
    participation_points: int,
    absent_keeps_place_points: bool,
) -> Earned:
    """R6-R8: what one entrant earns. `chart_points` are the points of places 1..k (R7).

    - played, declared_withdrawal: the place's points (a withdrawal keeps the points of the
      place at which it happened) and participation points;
    - absent: participation points, and the place's points only if the season says so;
    - no_show: nothing at all.
    """
    place_points = chart_points[place - 1] if 1 <= place <= len(chart_points) else 0
    if status == "no_show":
        return Earned(0, 0)
    if status == "absent" and not absent_keeps_place_points:
        place_points = 0
    return Earned(place_points, participation_points)


def score_report(
    chart: Chart,
    entrants: Sequence[tuple[int, str]],
    participation_points: int,
    absent_keeps_place_points: bool,
) -> list[Earned]:
    """Points of each (place, status) of a complete report; raises NoBandForEntrants (R7)."""
    points = chart.points_for(len(entrants))
    return [
        earned(points, place, status, participation_points, absent_keeps_place_points)
        for place, status in entrants
    ]
