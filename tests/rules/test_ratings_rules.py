"""R20 as pure rules: openskill's Plackett-Luce with its defaults, the ordinal shown (rounded half
up), provisional players, the table's ranks; property-tested where a rule has an invariant."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from models.rules.ratings import (
    NEW,
    START_MU,
    START_SIGMA,
    Skill,
    ordinal,
    provisional,
    rate,
    rated,
    table_ranks,
)

pytestmark = pytest.mark.rules


def test_r20_the_model_starts_at_openskills_defaults() -> None:
    model = PlackettLuce()
    assert (START_MU, START_SIGMA) == (model.mu, model.sigma) == (25.0, 25.0 / 3.0)
    assert Skill(25.0, 25.0 / 3.0, 0) == NEW


def test_r20_a_game_is_rated_as_openskill_rates_it() -> None:
    """R20: each entrant a team of one, ranked by place: the very floats openskill's rate() gives."""
    model = PlackettLuce()
    before = [Skill(27.0, 7.5, 3), NEW, Skill(20.0, 6.0, 9)]
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    want = model.rate(teams, ranks=[1, 2, 3])
    got = rate([(before[0], 1), (before[1], 2), (before[2], 3)])
    assert [(s.mu, s.sigma) for s in got] == [(team[0].mu, team[0].sigma) for team in want]
    assert [s.tournaments for s in got] == [4, 1, 10]


def openskill_rates(before: list[Skill], places: list[int]) -> list[tuple[float, float]]:
    model = PlackettLuce()
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=[float(p) for p in places])]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(min_value=-20, max_value=70), st.floats(min_value=0.05, max_value=12)),
        min_size=2,
        max_size=60,
    ),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_r20_the_fast_form_gives_openskills_very_floats(
    states: list[tuple[float, float]], with_ties: bool, rng: random.Random
) -> None:
    """R20: `rate` is openskill's PlackettLuce.rate for teams of one, float for float, for any
    field size and any states, in place order (shared places, which R4 refuses, included too)."""
    before = [Skill(mu, sigma, 3) for mu, sigma in states]
    places = list(range(1, len(before) + 1))
    if with_ties:
        places = sorted(rng.randint(1, len(before)) for _ in before)
    got = rate(list(zip(before, places, strict=True)))
    assert [(s.mu, s.sigma) for s in got] == openskill_rates(before, places)
    assert all(s.tournaments == 4 for s in got)


def test_r20_the_models_own_parameters_are_its_defaults() -> None:
    """R20: beta 25/6, tau 25/300, kappa 0.0001, the default gamma (sigma / c), no sigma limit and
    no balance: what the fast form assumes."""
    model = PlackettLuce()
    assert (model.beta, model.tau, model.kappa) == (25.0 / 6.0, 25.0 / 300.0, 0.0001)
    assert (model.limit_sigma, model.balance) == (False, False)
    assert model.gamma(10.0, 2, 25.0, 4.0, [], 1, None) == 2.0 / 10.0


def test_r20_entrants_out_of_place_order_are_refused() -> None:
    with pytest.raises(ValueError, match="place order"):
        rate([(NEW, 2), (NEW, 1)])


def test_r20_fewer_than_two_rated_entrants_change_nothing() -> None:
    assert rate([(NEW, 1)]) == [NEW]
    assert rate([]) == []


def test_r20_a_no_show_is_not_rated_every_other_status_is() -> None:
    assert [rated(s) for s in ("played", "declared_withdrawal", "absent", "no_show")] == [
        True,
        True,
        True,
        False,
    ]


@pytest.mark.parametrize(
    "mu, sigma, shown",
    [
        (25.0, 25.0 / 3.0, Decimal("0.00")),
        (30.0, 5.0, Decimal("15.00")),
        (10.0, 5.0, Decimal("-5.00")),
        (0.125, 0.0, Decimal("0.13")),  # exactly half: up
        (-0.125, 0.0, Decimal("-0.13")),  # half away from zero, as R20's rounding of the value
        (1.005, 0.0, Decimal("1.00")),  # 1.005 is stored a little under: not a half
    ],
)
def test_r20_the_rating_shown_is_mu_minus_three_sigma_rounded_half_up(
    mu: float, sigma: float, shown: Decimal
) -> None:
    assert ordinal(mu, sigma) == shown


def test_r20_fewer_than_five_rated_tournaments_is_provisional() -> None:
    assert [provisional(n) for n in (0, 1, 4, 5, 6)] == [True, True, True, False, False]


def test_r20_equal_ratings_share_a_rank_as_r11s_1_2_2_4() -> None:
    assert table_ranks([Decimal("9.1"), Decimal("8"), Decimal("8"), Decimal("7")]) == [1, 2, 2, 4]
    assert table_ranks([]) == []


@given(st.lists(st.decimals(min_value=-50, max_value=50, places=2), max_size=30))
def test_r20_ranks_start_at_one_and_count_the_rows_above(values: list[Decimal]) -> None:
    ordered = sorted(values, reverse=True)
    ranks = table_ranks(ordered)
    for index, rank in enumerate(ranks):
        assert rank == 1 + sum(1 for other in ordered if other > ordered[index])


@given(
    st.lists(
        st.tuples(st.floats(min_value=0, max_value=50), st.floats(min_value=0.5, max_value=9)),
        min_size=2,
        max_size=12,
    )
)
def test_r20_the_winner_gains_and_the_last_loses_and_every_sigma_stays_positive(
    states: list[tuple[float, float]],
) -> None:
    before = [Skill(mu, sigma, 0) for mu, sigma in states]
    after = rate([(skill, place) for place, skill in enumerate(before, start=1)])
    assert after[0].mu > before[0].mu and after[-1].mu < before[-1].mu
    assert all(skill.sigma > 0 and skill.tournaments == 1 for skill in after)
