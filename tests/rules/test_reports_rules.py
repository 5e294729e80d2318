"""The pure rules of a report: a complete finishing order (R4) and what each entrant earns
(R6, R7, R8). No database."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.rules.charts import Band, Chart, NoBandForEntrants
from models.rules.reports import (
    Earned,
    EntrantStatus,
    earned,
    missing_places,
    place_problems,
    played,
    score_report,
)

pytestmark = pytest.mark.rules

DEFAULT = Chart()
BANDS = Chart(kind="bands", bands=(Band(4, 8, (50, 30, 10)), Band(9, 12, (60, 40, 20, 10))))


# R4 ---------------------------------------------------------------------------------------


def test_complete_order_has_no_problems_r4() -> None:
    assert place_problems([1]) == {}
    assert place_problems([3, 1, 2]) == {}


def test_repeated_place_is_named_at_its_second_entry_r4() -> None:
    problems = place_problems([1, 2, 2])
    assert list(problems) == [2]
    assert "results.1" in problems[2][0]
    assert missing_places([1, 2, 2]) == [3]


def test_gap_and_out_of_range_places_r4() -> None:
    assert list(place_problems([1, 2, 4])) == [2]
    assert "outside 1..3" in place_problems([1, 2, 4])[2][0]
    assert list(place_problems([0, 1])) == [0]
    assert list(place_problems([-1, 1])) == [0]
    assert list(place_problems([1, 10**12])) == [1]
    assert missing_places([1, 2, 4]) == [3]


def test_every_problem_is_named_r4() -> None:
    assert sorted(place_problems([2, 2, 9, 1, 1, 7])) == [1, 2, 4, 5]
    assert missing_places([2, 2, 9, 1, 1, 7]) == [3, 4, 5, 6]


@given(st.integers(min_value=1, max_value=60).flatmap(lambda n: st.permutations(list(range(1, n + 1)))))
def test_any_permutation_of_1_to_n_is_accepted_r4(places: list[int]) -> None:
    """R4: places exactly 1..N in any order: no problems, nothing missing."""
    assert place_problems(places) == {}
    assert missing_places(places) == []


@given(st.lists(st.integers(min_value=-5, max_value=70), min_size=1, max_size=60))
def test_anything_but_a_permutation_is_refused_r4(places: list[int]) -> None:
    """R4: a list that is not a permutation of 1..N has at least one problem, and the indexes
    flagged are exactly the entries that are out of range or repeat an earlier place."""
    n = len(places)
    is_permutation = sorted(places) == list(range(1, n + 1))
    problems = place_problems(places)
    assert (problems == {}) == is_permutation
    seen: set[int] = set()
    expected = set()
    for index, place in enumerate(places):
        if not 1 <= place <= n or place in seen:
            expected.add(index)
        seen.add(place)
    assert set(problems) == expected
    assert (missing_places(places) == []) == is_permutation


@st.composite
def broken_permutations(draw: st.DrawFn) -> tuple[list[int], int]:
    """A permutation of 1..N with one entry changed to another value (a tie, gap or stray)."""
    n = draw(st.integers(min_value=1, max_value=40))
    places = draw(st.permutations(list(range(1, n + 1))))
    index = draw(st.integers(min_value=0, max_value=n - 1))
    value = draw(st.integers(min_value=-3, max_value=n + 3).filter(lambda v: v != places[index]))
    places[index] = value
    return places, index


@given(broken_permutations())
def test_one_wrong_place_is_always_refused_r4(case: tuple[list[int], int]) -> None:
    """R4: changing any one place of a complete order is refused, and a place goes missing."""
    places, index = case
    problems = place_problems(places)
    assert problems != {}
    assert len(missing_places(places)) == 1
    # The changed entry is flagged, or (a tie with a later entry) the later one is.
    if not 1 <= places[index] <= len(places) or places[index] in places[:index]:
        assert index in problems
    else:
        assert places.index(places[index], index + 1) in problems


# R6-R8: what one entrant earns ------------------------------------------------------------

TEN = [30, 20, 10]  # R7: the default chart's points for 10 entrants


@pytest.mark.parametrize(
    ("place", "status", "keeps", "expected"),
    [
        (1, "played", False, Earned(30, 5)),
        (3, "played", False, Earned(10, 5)),
        (4, "played", False, Earned(0, 5)),
        (2, "declared_withdrawal", False, Earned(20, 5)),  # R6: keeps place 2's points
        (7, "declared_withdrawal", False, Earned(0, 5)),  # withdrew before the points round
        (1, "absent", False, Earned(0, 5)),  # R6: no placement points by default
        (1, "absent", True, Earned(30, 5)),  # R6: absent_keeps_place_points
        (1, "no_show", False, Earned(0, 0)),  # R6/R8: nothing of any kind
        (1, "no_show", True, Earned(0, 0)),
    ],
)
def test_earned_by_status_r6_r8(place: int, status: str, keeps: bool, expected: Earned) -> None:
    got = earned(TEN, place, status, 5, keeps)
    assert got == expected
    assert got.points == expected.placement_points + expected.participation_points


def test_score_report_default_chart_r7() -> None:
    """R7: n=10 -> 30, 20, 10; n=15 -> 50..10; n=24 -> 70..10."""
    ten = score_report(DEFAULT, [(p, "played") for p in range(1, 11)], 0, False)
    assert [e.placement_points for e in ten] == [30, 20, 10] + [0] * 7
    fifteen = score_report(DEFAULT, [(p, "played") for p in range(1, 16)], 0, False)
    assert [e.points for e in fifteen][:6] == [50, 40, 30, 20, 10, 0]
    twenty_four = score_report(DEFAULT, [(p, "played") for p in range(24, 0, -1)], 0, False)
    assert [e.points for e in twenty_four][-7:] == [10, 20, 30, 40, 50, 60, 70]


def test_score_report_keeps_the_order_given_and_adds_participation_r8() -> None:
    entrants = [(3, "absent"), (1, "declared_withdrawal"), (2, "no_show"), (4, "played")]
    got = score_report(Chart(fraction=Decimal("0.5"), step=25), entrants, 3, False)
    assert [(e.placement_points, e.participation_points, e.points) for e in got] == [
        (0, 3, 3),
        (50, 3, 53),
        (0, 0, 0),
        (0, 3, 3),
    ]


def test_score_report_bands_r7() -> None:
    five = score_report(BANDS, [(p, "played") for p in range(1, 6)], 0, False)
    assert [e.points for e in five] == [50, 30, 10, 0, 0]
    with pytest.raises(NoBandForEntrants):
        score_report(BANDS, [(p, "played") for p in range(1, 4)], 0, False)
    with pytest.raises(NoBandForEntrants):
        score_report(BANDS, [(p, "played") for p in range(1, 14)], 0, False)


@given(st.integers(min_value=1, max_value=200), st.integers(min_value=0, max_value=50))
def test_played_points_sum_to_the_chart_r7_r8(n: int, participation: int) -> None:
    """R7/R8: a field where everyone played hands out the chart's points plus n x participation,
    and no place earns more than a better one."""
    got = score_report(DEFAULT, [(p, "played") for p in range(1, n + 1)], participation, False)
    assert sum(e.points for e in got) == sum(DEFAULT.points_for(n)) + n * participation
    assert all(a.points >= b.points for a, b in zip(got, got[1:], strict=False))


# R9: played, not a no-show ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "counts"),
    [("played", True), ("declared_withdrawal", True), ("absent", True), ("no_show", False)],
)
def test_every_status_but_a_no_show_counts_as_played_r9(status: str, counts: bool) -> None:
    assert played(status) is counts
    assert played(EntrantStatus(status)) is counts


@given(st.integers(min_value=0, max_value=1))
def test_r4_a_report_of_fewer_than_two_entrants_is_refused(entrants: int) -> None:
    """R4: none or one row is refused at `results`, whatever its places."""
    from models.rules.reports import finishing_order_problems, too_few_entrants

    (problem,) = finishing_order_problems(list(range(1, entrants + 1)))
    assert (problem.path, problem.rule) == ("results", "R4") and "at least 2 entrants" in problem.message
    assert too_few_entrants(2) == [] and finishing_order_problems([2, 1]) == []


def test_r5_warnings_name_rows_by_place_not_by_path() -> None:
    """R5: "results.6: …" becomes "place 7: …" (and a dry run's "of results.2" "of place 3")."""
    from models.rules.notices import placed, possible_duplicate

    notice = possible_duplicate(90, "Quin H.", [71], 1, "results.2.new_player", names={71: "Quinn H."})
    said = placed(notice, [1, 2, 7]).message
    assert said.startswith("place 7: the new player Quin H. (#90) closely matches Quinn H. (#71)")
