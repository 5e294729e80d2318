"""R7: points charts as pure rules: top_fraction, bands, and band table validation."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.errors import problem_map
from models.rules.charts import (
    DEFAULT_CHART,
    Band,
    Chart,
    NoBandForEntrants,
    band_for_entrants,
    band_problems,
    scoring_places,
)
from models.rules.numbers import round_half_up

pytestmark = pytest.mark.rules


# top_fraction -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entrants", "points"),
    [
        (10, [30, 20, 10]),
        (15, [50, 40, 30, 20, 10]),
        (24, [70, 60, 50, 40, 30, 20, 10]),
        (1, [10]),
        (5, [20, 10]),
        (3, [10]),
    ],
)
def test_r7_default_chart_examples(entrants, points):
    """R7: n=10 -> k=3 -> 30, 20, 10; n=15 -> k=5 -> 50 ... 10; n=24 -> k=7 -> 70 ... 10."""
    assert DEFAULT_CHART.points_for(entrants) == points
    assert DEFAULT_CHART.kind == "top_fraction"
    assert (DEFAULT_CHART.fraction, DEFAULT_CHART.step) == (Decimal("0.30"), 10)


def test_r7_place_points():
    assert [DEFAULT_CHART.place_points(p, 10) for p in range(1, 11)] == [30, 20, 10] + [0] * 7
    assert DEFAULT_CHART.place_points(0, 10) == 0


def test_r7_rounds_half_up_not_to_even():
    chart = Chart(fraction=Decimal("0.25"), step=10)
    assert scoring_places(Decimal("0.25"), 10) == 3  # 2.5 -> 3
    assert chart.points_for(10) == [30, 20, 10]
    assert scoring_places(Decimal("0.25"), 18) == 5  # 4.5 -> 5


def test_r7_a_field_has_at_least_one_entrant():
    with pytest.raises(ValueError):
        DEFAULT_CHART.points_for(0)


fractions = st.decimals(min_value=Decimal("0.0001"), max_value=1, places=4)


@given(fractions, st.integers(min_value=1, max_value=1000), st.integers(min_value=1, max_value=2000))
def test_r7_top_fraction_properties(fraction, step, entrants):
    """R7: 1 <= k <= n; points strictly decrease by step, from step x k down to step."""
    chart = Chart(kind="top_fraction", fraction=fraction, step=step)
    points = chart.points_for(entrants)
    k = len(points)
    assert 1 <= k <= entrants
    assert k == max(1, round_half_up(fraction * entrants))
    assert points[0] == step * k and points[-1] == step
    assert all(a - b == step for a, b in zip(points, points[1:], strict=False))
    assert sum(points) == step * k * (k + 1) // 2
    assert chart.place_points(k + 1, entrants) == 0


@given(fractions, st.integers(min_value=1, max_value=500))
def test_r7_more_entrants_never_fewer_scoring_places(fraction, entrants):
    assert scoring_places(fraction, entrants + 1) >= scoring_places(fraction, entrants)


# bands ------------------------------------------------------------------------------------------


BINDER = Chart(
    kind="bands",
    bands=(
        Band(2, 8, (30, 20, 10)),
        Band(9, 20, (60, 45, 30, 20, 10, 0)),
        Band(21, 40, (100, 80, 60)),
    ),
)


@pytest.mark.parametrize(
    ("entrants", "points"),
    [
        (2, [30, 20]),
        (8, [30, 20, 10]),
        (9, [60, 45, 30, 20, 10]),  # a trailing 0 is not a scoring place
        (40, [100, 80, 60]),
    ],
)
def test_r7_bands_points(entrants, points):
    assert BINDER.points_for(entrants) == points
    assert BINDER.place_points(len(points) + 1, entrants) == 0


@pytest.mark.parametrize("entrants", [1, 41, 1000])
def test_r7_bands_refuse_n_outside_every_band(entrants):
    with pytest.raises(NoBandForEntrants) as caught:
        BINDER.points_for(entrants)
    assert caught.value.entrants == entrants
    assert str(entrants) in str(caught.value)


def test_r7_band_problems_examples():
    assert problem_map(band_problems([Band(1, 10, (30, 20)), Band(11, 20, (50, 30))])) == {}
    assert set(problem_map(band_problems([Band(1, 10, (30,)), Band(10, 20, (30,))]))) == {
        "bands.1.min_entrants"
    }
    gap = problem_map(band_problems([Band(1, 10, (30,)), Band(12, 20, (30,))]))
    assert set(gap) == {"bands.1.min_entrants"} and "gap" in gap["bands.1.min_entrants"][0]
    assert set(problem_map(band_problems([Band(10, 5, (30,))]))) == {"bands.0.max_entrants"}
    assert set(problem_map(band_problems([Band(1, 10, (10, 20))]))) == {"bands.0.points"}
    assert set(problem_map(band_problems([Band(1, 2, (30, 20, 10))]))) == {"bands.0.points"}
    assert set(problem_map(band_problems([]))) == {"bands"}
    # Each problem names R7, the rule it breaks.
    assert {p.rule for p in band_problems([Band(1, 2, (10, 20, 30))])} == {"R7"}
    # Every problem of a band is listed, not just the first.
    assert len(problem_map(band_problems([Band(1, 2, (10, 20, 30))]))["bands.0.points"]) == 2


@st.composite
def band_tables(draw: st.DrawFn) -> list[Band]:
    """Consecutive bands (each starts right after the one before ends), non-increasing points."""
    start = draw(st.integers(min_value=1, max_value=50))
    bands = []
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        end = start + draw(st.integers(min_value=0, max_value=30))
        length = draw(st.integers(min_value=1, max_value=min(end, 12)))
        points = sorted(
            draw(st.lists(st.integers(min_value=0, max_value=500), min_size=length, max_size=length)),
            reverse=True,
        )
        bands.append(Band(start, end, tuple(points)))
        start = end + 1
    return bands


@given(band_tables())
def test_r7_band_problems_accepts_any_consecutive_table(bands):
    assert problem_map(band_problems(bands)) == {}


@given(band_tables(), st.data())
def test_r7_bands_chart_covers_exactly_its_range(bands, data):
    chart = Chart(kind="bands", bands=tuple(bands))
    entrants = data.draw(st.integers(min_value=bands[0].min_entrants, max_value=bands[-1].max_entrants))
    points = chart.points_for(entrants)
    assert len(points) <= entrants
    assert all(a >= b for a, b in zip(points, points[1:], strict=False))
    assert not points or points[-1] > 0
    with pytest.raises(NoBandForEntrants):
        chart.points_for(bands[-1].max_entrants + 1)


@given(band_tables(), st.integers(min_value=0, max_value=5))
def test_r7_band_problems_finds_a_moved_start(bands, shift):
    """Moving a later band's start by any amount leaves an overlap or a gap, and it is named."""
    if len(bands) < 2 or shift == 0:
        return
    second = bands[1]
    moved = Band(
        second.min_entrants + shift, max(second.max_entrants, second.min_entrants + shift), second.points[:1]
    )
    problems = problem_map(band_problems([bands[0], moved, *bands[2:]]))
    # Bands are judged in entrant order, so the later of two clashing bands is named: which
    # one depends on where the moved band now falls.
    assert any(key.endswith(".min_entrants") for key in problems), problems


def test_r7_a_report_needs_a_band_for_its_entrants() -> None:
    chart = Chart(kind="bands", bands=(Band(4, 8, (50, 30, 10)),))
    assert band_for_entrants(chart, 4) == [] and band_for_entrants(DEFAULT_CHART, 1000) == []
    (problem,) = band_for_entrants(chart, 9)
    assert (problem.path, problem.rule) == ("results", "R7")
    assert problem.message == "The points chart has no band for 9 entrants."
