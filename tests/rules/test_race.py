"""The points race as a pure rule (R9, R10): a player's figure after each tournament day is their
standings points that evening."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.rules.race import points_race
from models.rules.standings import Tier, attendance_bonus, counted_total

pytestmark = pytest.mark.rules

START = date(2026, 1, 5)
days = st.integers(min_value=0, max_value=30).map(lambda n: START + timedelta(days=n))
results = st.lists(st.tuples(days, st.integers(min_value=0, max_value=100), st.booleans()), max_size=8)
tiers = st.lists(
    st.builds(Tier, st.integers(min_value=1, max_value=6), st.integers(min_value=1, max_value=50)), max_size=3
)


@given(
    st.dictionaries(st.integers(min_value=1, max_value=50), results, max_size=5),
    st.lists(days, max_size=5),
    st.one_of(st.none(), st.integers(min_value=1, max_value=4)),
    tiers,
)
def test_r9_r10_each_days_figure_is_that_evenings_standings_points(
    totals, extra_days, count_best, bonus_tiers
):
    every_day = [day for player in totals.values() for day, _, _ in player] + extra_days
    race = points_race(every_day, totals, count_best, bonus_tiers)
    assert race.dates == sorted(set(every_day))
    for player_id, line in race.points.items():
        assert len(line) == len(race.dates)
        for day, figure in zip(race.dates, line, strict=True):
            so_far = [(total, played) for when, total, played in totals[player_id] if when <= day]
            expected = (
                counted_total([total for total, _ in so_far], count_best)
                + attendance_bonus(sum(played for _, played in so_far), bonus_tiers)
                if so_far
                else 0
            )
            assert figure == expected
        # A result never takes points away (R10 keeps the best), nor does a higher tier when
        # the tiers pay more for more events (R9): then the line never falls.
        by_events = [tier.points for tier in sorted(bonus_tiers, key=lambda tier: tier.events)]
        if by_events == sorted(by_events):
            assert line == sorted(line)


def test_r10_example_best_two_of_three():
    day = [START, START + timedelta(days=7), START + timedelta(days=14)]
    race = points_race(
        day, {1: [(day[0], 30, True), (day[1], 10, True), (day[2], 20, True)]}, 2, [Tier(3, 5)]
    )
    # 30; 30+10; best two of 30, 10, 20 is 50, plus the 3-event bonus of 5.
    assert race.points == {1: [30, 40, 55]}
