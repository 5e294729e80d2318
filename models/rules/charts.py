"""R7: placement points from a season's points chart."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from models.errors import Problem
from models.rules.numbers import round_half_up


class ChartKind(StrEnum):
    """R7: a chart scores the top fraction of the field (fraction, step), or by bands of entrant
    counts, each with its points."""

    TOP_FRACTION = "top_fraction"
    BANDS = "bands"


DEFAULT_FRACTION = Decimal("0.30")
DEFAULT_STEP = 10


class NoBandForEntrants(ValueError):
    """R7: a bands chart has no band for this number of entrants."""

    def __init__(self, entrants: int) -> None:
        super().__init__(f"the points chart has no band for {entrants} entrants")
        self.entrants = entrants


@dataclass(frozen=True)
class Band:
    """A band of entrant counts with its points; no max_entrants: every field from min_entrants."""

    min_entrants: int
    max_entrants: int | None
    points: tuple[int, ...]

    @property
    def top(self) -> float:
        """The band's largest field (infinite for an open band)."""
        return float("inf") if self.max_entrants is None else self.max_entrants

    def covers(self, entrants: int) -> bool:
        return self.min_entrants <= entrants <= self.top


@dataclass(frozen=True)
class Chart:
    """Either kind of chart. `top_fraction` uses fraction and step; `bands` uses bands."""

    kind: str = ChartKind.TOP_FRACTION
    fraction: Decimal = DEFAULT_FRACTION
    step: int = DEFAULT_STEP
    bands: tuple[Band, ...] = field(default_factory=tuple)

    def points_for(self, entrants: int) -> list[int]:
        """Points of places 1..k in a field of `entrants`, k being the scoring places.

        Raises NoBandForEntrants for a bands chart with no band covering `entrants`.
        """
        if entrants < 1:
            raise ValueError("a field has at least one entrant")
        if self.kind == ChartKind.TOP_FRACTION:
            k = scoring_places(self.fraction, entrants)
            return [self.step * (k - p + 1) for p in range(1, k + 1)]
        band = self.band_for(entrants)
        points = list(band.points[:entrants])
        while points and points[-1] == 0:
            points.pop()
        return points

    def band_for(self, entrants: int) -> Band:
        for band in self.bands:
            if band.covers(entrants):
                return band
        raise NoBandForEntrants(entrants)

    def place_points(self, place: int, entrants: int) -> int:
        points = self.points_for(entrants)
        return points[place - 1] if 1 <= place <= len(points) else 0


DEFAULT_CHART = Chart()


def scoring_places(fraction: Decimal, entrants: int) -> int:
    """R7 top_fraction: k = max(1, round_half_up(fraction x n))."""
    return max(1, round_half_up(fraction * entrants))


def band_for_entrants(chart: Chart, entrants: int) -> list[Problem]:
    """R7: a report's chart (a bands chart) must have a band for its number of entrants."""
    try:
        chart.points_for(entrants)
    except NoBandForEntrants as exc:
        return [Problem("results", f"{str(exc).capitalize()}.", "R7")]
    return []


def band_problems(bands: Sequence[Band]) -> list[Problem]:
    """R7 bands: what is wrong with a table of bands, at field paths indexed as given
    (`bands.2.min_entrants`). Bands may come in any order; by entrant count, each must start
    right after the one before ends, so the table has neither overlaps nor gaps. Only the top
    band may be open-ended (no max_entrants)."""
    if not bands:
        return [Problem("bands", "A bands chart needs at least one band.", "R7")]
    problems: list[Problem] = []
    previous: tuple[int, Band] | None = None
    for index, band in sorted(enumerate(bands), key=lambda pair: pair[1].min_entrants):
        at = f"bands.{index}"
        if band.top < band.min_entrants:
            problems.append(Problem(f"{at}.max_entrants", "Must be at least min_entrants.", "R7"))
        if len(band.points) > band.top:
            problems.append(
                Problem(
                    f"{at}.points",
                    f"Lists {len(band.points)} places but the band has at most {band.max_entrants} entrants.",
                    "R7",
                )
            )
        if any(a < b for a, b in zip(band.points, band.points[1:], strict=False)):
            problems.append(
                Problem(
                    f"{at}.points",
                    "Points rise from one place to the next: they may only stay or fall.",
                    "R7",
                )
            )
        if previous is not None:
            other_index, other = previous
            if other.max_entrants is None:
                problems.append(
                    Problem(
                        f"bands.{other_index}.max_entrants",
                        f"Only the top band may be open-ended; bands.{index} comes after it.",
                        "R7",
                    )
                )
            elif band.min_entrants <= other.top:
                problems.append(
                    Problem(
                        f"{at}.min_entrants",
                        f"Overlaps bands.{other_index} ({other.min_entrants}-{other.max_entrants}).",
                        "R7",
                    )
                )
            elif band.min_entrants > other.top + 1:
                problems.append(
                    Problem(
                        f"{at}.min_entrants",
                        f"Leaves a gap after bands.{other_index}, which ends at {other.max_entrants}: "
                        f"this band must start at {other.top + 1:.0f}.",
                        "R7",
                    )
                )
        if previous is None or band.top > previous[1].top:
            previous = (index, band)
    return problems


def sorted_bands(bands: Sequence[Band]) -> list[Band]:
    return sorted(bands, key=lambda band: band.min_entrants)
