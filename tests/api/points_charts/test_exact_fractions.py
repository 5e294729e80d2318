"""Fractions as given (issue 44): a chart's `fraction` (R7) and a season's `cut_fraction` (R12) are
stored exactly as sent, or refused with a 422 naming the field and saying how many places are
kept; never rounded on the way in (a JSON number is read as written, not through a binary float),
and a string must spell a number as JSON does ("5." is refused)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.support.league import League, assert_problem

CHARTS = "/api/v1/points-charts"
SEASONS = "/api/v1/seasons"
JSON = {"Content-Type": "application/json"}


NAMES = iter(range(1, 1_000_000))


def chart_with(league: League, written: str) -> Any:
    """POST a top_fraction chart whose `fraction` is `written`, byte for byte, in the JSON body."""
    body = f'{{"name": "Chart {next(NAMES)}", "kind": "top_fraction", "fraction": {written}}}'
    return league.office.post(CHARTS, data=body, headers=JSON)


def season_with(league: League, written: str) -> Any:
    """POST a season (in a region of its own, so seasons never overlap) with this `cut_fraction`."""
    region = league.region()["id"]
    body = (
        f'{{"name": "Season {next(NAMES)}", "starts_on": "2026-01-05", "ends_on": "2026-03-29", '
        f'"region_ids": [{region}], "cut_fraction": {written}}}'
    )
    return league.office.post(SEASONS, data=body, headers=JSON)


def counts(league: League) -> tuple[int, int]:
    return (
        league.office.get(CHARTS).get_json()["total"],
        league.office.get(SEASONS).get_json()["total"],
    )


# Numbers a binary float would have rounded to 4 places or fewer: 0.30000000000000001 is the float
# 0.3, and 0.12349999999999999999 the float 0.1235.
ROUNDED_BY_A_FLOAT = ["0.30000000000000001", "0.12349999999999999999", "0.99999999999999999999"]


@pytest.mark.parametrize("written", [*ROUNDED_BY_A_FLOAT, "0.33333333333", "0.00001", "3.3333E-5"])
def test_r7_r12_a_fraction_with_more_places_than_kept_is_refused_naming_the_field(
    league: League, written: str
) -> None:
    """R7, R12: a fraction with more than 4 decimal places is refused, whatever a float would make
    of it, naming the field and saying how many are kept; nothing is stored."""
    before = counts(league)
    for response, field in (
        (chart_with(league, written), "fraction"),
        (season_with(league, written), "cut_fraction"),
    ):
        problem = assert_problem(response, 422, field)
        (message,) = problem["errors"][field]
        assert message.startswith("At most 4 decimal places are kept; "), message
        places = -Decimal(written).normalize().as_tuple().exponent  # type: ignore[operator]
        assert f"{Decimal(written)} has {places}: give it rounded as it should be stored." in message
    assert counts(league) == before


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        ("0.3", 0.3),
        ("0.3000", 0.3),
        ("0.1235", 0.1235),
        ("1", 1),
        ("1.0", 1),
        ("3E-1", 0.3),
        ('"0.25"', 0.25),
    ],
)
def test_r7_r12_a_fraction_of_4_places_or_fewer_is_stored_as_given(
    league: League, written: str, stored: float
) -> None:
    """R7, R12: a fraction of at most 4 places (trailing zeros and exponents change nothing) is
    stored exactly and reads back as given."""
    chart = chart_with(league, written)
    assert chart.status_code == 201, chart.get_json()
    assert league.office.get(f"{CHARTS}/{chart.get_json()['id']}").get_json()["fraction"] == stored
    season = season_with(league, written)
    assert season.status_code == 201, season.get_json()
    assert league.office.get(f"{SEASONS}/{season.get_json()['id']}").get_json()["cut_fraction"] == stored


@pytest.mark.parametrize("written", ['"5."', '"1."', '".5"', '" 0.3"', '"0,3"', '"+0.3"', '"0x1"'])
def test_r7_r12_a_fraction_as_a_string_must_spell_a_json_number(league: League, written: str) -> None:
    """R7, R12 (issue 44: "1." was taken as 1): a string must spell a number as JSON does; "5.",
    ".5" and " 0.3" are refused naming the field; nothing is stored."""
    before = counts(league)
    for response, field in (
        (chart_with(league, written), "fraction"),
        (season_with(league, written), "cut_fraction"),
    ):
        problem = assert_problem(response, 422, field)
        assert problem["errors"][field] == ["Not a number as JSON writes one (e.g. 0.3; not 5., .5 or 0,3)."]
    assert counts(league) == before


def test_r7_a_changed_fraction_is_refused_as_a_new_one_is(league: League) -> None:
    """R7: a PATCH of a chart's fraction reads it the same way: 0.30000000000000001 is refused."""
    chart = league.chart(fraction=0.3)
    body = '{"fraction": 0.30000000000000001, "reason": "A finer cut."}'
    patched = league.office.patch(f"{CHARTS}/{chart['id']}", data=body, headers=JSON)
    assert_problem(patched, 422, "fraction")
    assert league.office.get(f"{CHARTS}/{chart['id']}").get_json()["fraction"] == 0.3
