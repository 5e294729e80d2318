"""Exact arithmetic: round_half_up rounds a half up, never banker's rounding."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.rules.numbers import round_half_up, to_decimal

pytestmark = pytest.mark.rules


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1.5", 2),
        ("4.5", 5),  # Python's round() gives 4
        ("2.5", 3),  # and 2 here
        ("0.5", 1),
        ("1.4999", 1),
        ("7.2", 7),
        ("0", 0),
        ("-1.5", -2),  # a half away from zero
        ("-1.4", -1),
    ],
)
def test_round_half_up_examples(value, expected):
    assert round_half_up(Decimal(value)) == expected


def test_r7_r12_products_are_exact():
    """0.3 x 5 is exactly 1.5 in decimals (R7: n=5 -> 2 places), whatever binary floats say."""
    assert round_half_up(Decimal("0.30") * 5) == 2
    assert round_half_up(Decimal("0.20") * Decimal("12.5")) == 3  # R12: 2.5 -> 3
    assert round_half_up(to_decimal(0.35) * 30) == 11  # 10.5, not 10.499999...


decimals = st.decimals(min_value=-(10**6), max_value=10**6, allow_nan=False, allow_infinity=False, places=4)


@given(decimals)
def test_round_half_up_matches_decimal_round_half_up(value):
    assert round_half_up(value) == int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@given(decimals)
def test_round_half_up_is_floor_of_a_half_more_for_non_negatives(value):
    """An independent definition: for x >= 0, round_half_up(x) = floor(x + 1/2)."""
    magnitude = abs(value)
    expected = math.floor(magnitude + Decimal("0.5"))
    assert round_half_up(magnitude) == expected
    assert abs(round_half_up(magnitude) - magnitude) <= Decimal("0.5")


@given(st.integers(min_value=-(10**6), max_value=10**6))
def test_round_half_up_keeps_integers_and_rounds_halves_up(n):
    assert round_half_up(Decimal(n)) == n
    if n >= 0:
        assert round_half_up(Decimal(n) + Decimal("0.5")) == n + 1


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0.3, Decimal("0.3")), ("0.30", Decimal("0.30")), (3, Decimal(3)), (Decimal("0.1"), Decimal("0.1"))],
)
def test_to_decimal_keeps_what_was_written(value, expected):
    result = to_decimal(value)
    assert result == expected and isinstance(result, Decimal)
    assert str(to_decimal(0.1)) == "0.1"  # not 0.1000000000000000055511151231257827
