"""R7: placement points from a season's points chart."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache

from models.errors import Problem
from models.rules.formulas import (
    FormulaError,
    Run,
    TooMuchWork,
    Work,
    field_points,
    parse,
)
from models.rules.numbers import round_half_up


class ChartKind(StrEnum):
    """R7: a chart scores the top fraction of the field (fraction, step), by bands of entrant
    counts, each with its points, or by a formula of n, p and k (models/rules/formulas/)."""

    TOP_FRACTION = "top_fraction"
    BANDS = "bands"
    FORMULA = "formula"


DEFAULT_FRACTION = Decimal("0.30")
DEFAULT_STEP = 10


class Preset(StrEnum):
    """R7: the usual formulas by name."""

    LINEAR = "linear"
    SQUARE_ROOT = "square_root"
    LOGARITHMIC = "logarithmic"


PRESET_NAMES = tuple(preset.value for preset in Preset)

# R7: each preset's formula and fraction (linear scores every place).
PRESETS: dict[str, tuple[str, Decimal]] = {
    Preset.LINEAR.value: ("n - p + 1", Decimal(1)),
    Preset.SQUARE_ROOT.value: ("sqrt(n) / sqrt(p) * 100", DEFAULT_FRACTION),
    Preset.LOGARITHMIC.value: ("(ln(n + 1) - ln(p)) * 100", DEFAULT_FRACTION),
}


class Unscorable(ValueError):
    """R7: the chart gives no points for a field of this many entrants."""

    entrants: int


class NoBandForEntrants(Unscorable):
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
    formula: str | None = None

    def points_for(self, entrants: int) -> list[int]:
        """Points of places 1..k in a field of `entrants`, k being the scoring places.

        Raises NoBandForEntrants for a bands chart with no band covering `entrants`, and
        FormulaFailure for a formula with no value there.
        """
        if entrants < 1:
            raise ValueError("a field has at least one entrant")
        if self.kind == ChartKind.FORMULA:
            assert self.formula is not None
            return list(formula_points(self.formula, self.fraction, entrants))
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


class FormulaFailure(Unscorable):
    """R7: a formula has no value, or too large a value, for place p of n entrants, or gives a
    better place fewer points than the place after it."""

    def __init__(self, entrants: int, place: int, reason: str) -> None:
        super().__init__(f"the formula fails for n = {entrants}, p = {place}: {reason}")
        self.entrants = entrants
        self.place = place
        self.reason = reason


# R7: the most work (formulas.WORK's units) a formula's check when saved may take, for every
# field from 2 to max_entrants: about a second (bench/formula_charts.py). Past it the formula is
# refused, never half checked. A check of more places than the simplest formula (n - p + 1, 20
# units a place) could compute with it is refused before it starts.
MOST_WORK_CHECKED = 8_000_000
MOST_PLACES_CHECKED = 400_000


# Fields of up to this many entrants have their points memoised (4,096 fields at most, so the
# memory stays bounded whatever the previews ask for).
MOST_ENTRANTS_REMEMBERED = 1000


def formula_points(formula: str, fraction: Decimal, entrants: int) -> tuple[int, ...]:
    """R7: the points of places 1..k of a formula chart for n = `entrants` (see _formula_points);
    memoised for fields of up to MOST_ENTRANTS_REMEMBERED."""
    if entrants <= MOST_ENTRANTS_REMEMBERED:
        return _remembered_points(formula, fraction, entrants)
    return _formula_points(formula, fraction, entrants)


@lru_cache(maxsize=4096)
def _remembered_points(formula: str, fraction: Decimal, entrants: int) -> tuple[int, ...]:
    return _formula_points(formula, fraction, entrants)


def _formula_points(
    formula: str, fraction: Decimal, entrants: int, run: Run | None = None
) -> tuple[int, ...]:
    """R7: the points of places 1..k of a formula chart for n = `entrants`. Memoised by the
    formula's text, fraction and n: a chart that changes is a new text or fraction, so nothing
    stale is ever served. Raises FormulaFailure (the first failing place), FormulaError (a text
    that is not a formula), TooMuchWork (the `run`'s work used up)."""
    k = scoring_places(fraction, entrants)
    points, failure = field_points(formula, entrants, k, run)
    rise = next((index for index in range(1, len(points)) if points[index] > points[index - 1]), None)
    if rise is not None:
        place = rise + 1
        raise FormulaFailure(
            entrants,
            place,
            f"place {place} would earn {points[rise]}, more than place {place - 1}'s {points[rise - 1]}",
        )
    if failure is not None:
        raise FormulaFailure(entrants, len(points) + 1, str(failure))
    return tuple(points)


def formula_problems(
    formula: str, fraction: Decimal, first: int, last: int, work: Work | None = None
) -> list[Problem]:
    """R7: what is wrong with a formula chart for the fields of `first` to `last` entrants: the
    text's first error with its character, or the first n (then p) where it fails, or a check
    that would do more than MOST_WORK_CHECKED (`work`, if given, counts what it did); places
    beyond k earn 0 and are never computed."""
    try:
        parse(formula)
    except FormulaError as exc:
        return [Problem("formula", f"Not a formula of the allowed pieces: {exc}.", "R7")]
    places = sum(scoring_places(fraction, entrants) for entrants in range(first, last + 1))
    if places > MOST_PLACES_CHECKED:
        message = (
            f"Checking every field of {first} to {last} entrants would compute {places:,} places, more "
            f"than the {MOST_PLACES_CHECKED:,} a chart is checked for: lower its fraction or the "
            "league's max_entrants, or use a preset."
        )
        return [Problem("formula", message, "R7")]
    run = Run(formula, work or Work(MOST_WORK_CHECKED))
    for entrants in range(first, last + 1):
        try:
            _formula_points(formula, fraction, entrants, run)
        except FormulaFailure as exc:
            return [Problem("formula", sentence(exc), "R7")]
        except TooMuchWork:
            return [Problem("formula", too_much_work(first, last, entrants), "R7")]
    return []


def too_much_work(first: int, last: int, reached: int) -> str:
    """R7: why a formula that takes too much work to check is refused, and what to do instead."""
    return (
        f"Checking the formula for every field of {first} to {last} entrants takes more work than a "
        f"chart is checked with (about a second); it stopped at n = {reached}. A part of n alone is "
        "computed once per field and a part of p alone once per place, but a part of both at every "
        "place of every field, and there ln, log10 and powers to fractional exponents cost the most "
        "(ln(n) - ln(p) is cheaper than ln(n / p)). Lower the fraction or the league's max_entrants, "
        "simplify the formula, or use a preset."
    )


def sentence(exc: Exception) -> str:
    """An error's text as a sentence (its first letter raised, nothing else changed)."""
    text = str(exc)
    return f"{text[:1].upper()}{text[1:]}."


def band_for_entrants(chart: Chart, entrants: int) -> list[Problem]:
    """R7: a report's chart must give points for its number of entrants (a bands chart has a band
    for it; a formula has a value for every scoring place)."""
    try:
        chart.points_for(entrants)
    except Unscorable as exc:
        return [Problem("results", sentence(exc), "R7")]
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
