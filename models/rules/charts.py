"""R7: placement points from a season's points chart."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from models.errors import Problem
from models.rules.numbers import round_half_up

DEFAULT_FRACTION = Decimal("0.30")
DEFAULT_STEP = 10


class NoBandForEntrants(ValueError):
    """R7: a bands chart has no band for this number of entrants."""

    def __init__(self, entrants: int) -> None:
        super().__init__(f"the points chart has no band for {entrants} entrants")
        self.entrants = entrants


@dataclass(frozen=True)
class Band:
    min_entrants: int
    max_entrants: int
    points: tuple[int, ...]


@dataclass(frozen=True)
class Chart:
    """Either kind of chart. `top_fraction` uses fraction and step; `bands` uses bands."""

    kind: str = "top_fraction"
    fraction: Decimal = DEFAULT_FRACTION
    step: int = DEFAULT_STEP
    bands: tuple[Band, ...] = field(default_factory=tuple)

    def points_for(self, entrants: int) -> list[int]:
        """Points of places 1..k in a field of `entrants`, k being the scoring places.

        Raises NoBandForEntrants for a bands chart with no band covering `entrants`.
        """
        if entrants < 1:
            raise ValueError("a field has at least one entrant")
        if self.kind == "top_fraction":
            k = scoring_places(self.fraction, entrants)
            return [self.step * (k - p + 1) for p in range(1, k + 1)]
        band = self.band_for(entrants)
        points = list(band.points[:entrants])
        while points and points[-1] == 0:
            points.pop()
        return points

    def band_for(self, entrants: int) -> Band:
        for band in self.bands:
            if band.min_entrants <= entrants <= band.max_entrants:
                return band
        raise NoBandForEntrants(entrants)

    def place_points(self, place: int, entrants: int) -> int:
        points = self.points_for(entrants)
        return points[place - 1] if 1 <= place <= len(points) else 0


DEFAULT_CHART = Chart()


def scoring_places(fraction: Decimal, entrants: int) -> int:
    """R7 top_fraction: k = max(1, round_half_up(fraction x n))."""
    return max(1, round_half_up(fraction * entrants))


def band_problems(bands: Sequence[Band]) -> list[Problem]:
    """R7 bands: what is wrong with a table of bands, at field paths indexed as given
    (`bands.2.min_entrants`). Bands may come in any order; by entrant count, each must start
    right after the one before ends, so the table has neither overlaps nor gaps."""
    if not bands:
        return [Problem("bands", "A bands chart needs at least one band.", "R7")]
    problems: list[Problem] = []
    previous: tuple[int, Band] | None = None
    for index, band in sorted(enumerate(bands), key=lambda pair: pair[1].min_entrants):
        at = f"bands.{index}"
        if band.max_entrants < band.min_entrants:
            problems.append(Problem(f"{at}.max_entrants", "Must be at least min_entrants.", "R7"))
        if len(band.points) > band.max_entrants:
            problems.append(
                Problem(
                    f"{at}.points",
                    f"Lists {len(band.points)} places but the band has at most {band.max_entrants} entrants.",
                    "R7",
                )
            )
        if any(a < b for a, b in zip(band.points, band.points[1:], strict=False)):
            problems.append(
                Problem(f"{at}.points", "Points must not increase from one place to the next.", "R7")
            )
        if previous is not None:
            other_index, other = previous
            if band.min_entrants <= other.max_entrants:
                problems.append(
                    Problem(
                        f"{at}.min_entrants",
                        f"Overlaps bands.{other_index} ({other.min_entrants}-{other.max_entrants}).",
                        "R7",
                    )
                )
            elif band.min_entrants > other.max_entrants + 1:
                problems.append(
                    Problem(
                        f"{at}.min_entrants",
                        f"Leaves a gap after bands.{other_index}, which ends at {other.max_entrants}: "
                        f"this band must start at {other.max_entrants + 1}.",
                        "R7",
                    )
                )
        if previous is None or band.max_entrants > previous[1].max_entrants:
            previous = (index, band)
    return problems


def sorted_bands(bands: Sequence[Band]) -> list[Band]:
    return sorted(bands, key=lambda band: band.min_entrants)
