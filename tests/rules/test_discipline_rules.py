"""The pure rules of discipline (R15, R16): minimum lengths, the days a sanction runs, who it bars.
No database."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.errors import problem_map
from models.rules.discipline import (
    Minimums,
    Terms,
    add_months,
    barred_problem,
    barred_rows,
    earliest_last_day,
    sanction_override,
    terms_problems,
)

pytestmark = pytest.mark.rules

JAN1 = date(2026, 1, 1)
DEFAULTS = Minimums()


def suspension(
    first: date = JAN1, last: date | None = None, category: str = "fighting", lifted_on: date | None = None
) -> Terms:
    return Terms("suspension", category, first, last, lifted_on=lifted_on)


# R15: minimum lengths --------------------------------------------------------------------------


def test_r15_a_suspension_ends_at_least_14_days_after_it_starts() -> None:
    assert problem_map(terms_problems(suspension(last=JAN1 + timedelta(days=14)), DEFAULTS)) == {}
    problems = terms_problems(suspension(last=JAN1 + timedelta(days=13)), DEFAULTS)
    assert [(p.path, p.rule) for p in problems] == [("last_day", "R15")]
    assert "2026-01-15" in problems[0].message


def test_r15_permanent_has_no_minimum() -> None:
    assert terms_problems(suspension(last=None), DEFAULTS) == []


def test_r15_outside_alcohol_lasts_six_months() -> None:
    assert earliest_last_day(suspension(category="outside_alcohol"), DEFAULTS) == date(2026, 7, 1)
    assert terms_problems(suspension(last=date(2026, 7, 1), category="outside_alcohol"), DEFAULTS) == []
    short = terms_problems(suspension(last=date(2026, 6, 30), category="outside_alcohol"), DEFAULTS)
    assert [p.path for p in short] == ["last_day"] and "6 months" in short[0].message


def test_r15_minimums_are_settings() -> None:
    strict = Minimums(suspension_days=30, outside_alcohol_months=12)
    assert earliest_last_day(suspension(), strict) == JAN1 + timedelta(days=30)
    assert earliest_last_day(suspension(category="outside_alcohol"), strict) == date(2027, 1, 1)
    lenient = Minimums(suspension_days=0, outside_alcohol_months=0)
    assert terms_problems(suspension(last=JAN1), lenient) == []


def test_r15_no_minimum_for_bans_warnings_and_reminders() -> None:
    for kind, venue in (("venue_ban", 3), ("warning", None), ("reminder", None)):
        terms = Terms(kind, "other", JAN1, JAN1, venue_id=venue)
        assert earliest_last_day(terms, DEFAULTS) is None
        assert terms_problems(terms, DEFAULTS) == []


def test_r15_where_a_sanction_applies() -> None:
    no_venue = terms_problems(Terms("venue_ban", "other", JAN1), DEFAULTS)
    assert [(p.path, p.rule) for p in no_venue] == [("venue_id", "R15")]
    for kind in ("reminder", "warning", "suspension"):
        with_venue = terms_problems(Terms(kind, "other", JAN1, venue_id=2), DEFAULTS)
        assert [p.path for p in with_venue] == ["venue_id"]


def test_r15_last_day_before_first_day() -> None:
    problems = terms_problems(suspension(last=JAN1 - timedelta(days=1)), DEFAULTS)
    assert [(p.path, p.rule) for p in problems] == [("last_day", "R15")]
    assert "before the first day" in problems[0].message


@pytest.mark.parametrize(
    ("start", "months", "expected"),
    [
        (date(2026, 1, 31), 1, date(2026, 2, 28)),
        (date(2027, 8, 31), 6, date(2028, 2, 29)),
        (date(2026, 11, 15), 2, date(2027, 1, 15)),
        (date(2026, 3, 31), -1, date(2026, 2, 28)),
        (date(2026, 11, 30), -12, date(2025, 11, 30)),
    ],
)
def test_add_months(start: date, months: int, expected: date) -> None:
    assert add_months(start, months) == expected


@given(st.dates(min_value=date(1950, 1, 1), max_value=date(2100, 1, 1)), st.integers(0, 240))
def test_add_months_lands_in_the_right_month_and_never_before_the_start(start: date, months: int) -> None:
    later = add_months(start, months)
    assert (later.year * 12 + later.month) - (start.year * 12 + start.month) == months
    assert later >= start
    assert later.day == start.day or later.day < start.day


# R15: the days a sanction runs; R16: whom it bars -------------------------------------------


def test_r15_both_the_first_and_the_last_day_count() -> None:
    terms = suspension(last=JAN1 + timedelta(days=14))
    assert not terms.runs_on(JAN1 - timedelta(days=1))
    assert terms.runs_on(JAN1)
    assert terms.runs_on(JAN1 + timedelta(days=14))
    assert not terms.runs_on(JAN1 + timedelta(days=15))


def test_r15_permanent_runs_forever_from_its_first_day() -> None:
    terms = suspension(last=None)
    assert not terms.runs_on(JAN1 - timedelta(days=1))
    assert terms.runs_on(date(2099, 12, 31))


def test_r15_a_lifted_sanction_stops_on_the_day_it_was_lifted() -> None:
    terms = suspension(last=None, lifted_on=date(2026, 2, 1))
    assert terms.runs_on(date(2026, 1, 31))
    assert not terms.runs_on(date(2026, 2, 1))


def test_r16_a_suspension_bars_everywhere_a_ban_only_at_its_venue() -> None:
    day = JAN1 + timedelta(days=3)
    assert suspension(last=None).bars(7, day)
    ban = Terms("venue_ban", "berating", JAN1, None, venue_id=7)
    assert ban.bars(7, day)
    assert not ban.bars(8, day)
    for kind in ("warning", "reminder"):
        assert not Terms(kind, "other", JAN1).bars(7, day)


def test_r16_a_lifted_sanction_bars_no_one_even_on_days_it_ran() -> None:
    lifted = suspension(last=None, lifted_on=date(2026, 3, 1))
    assert lifted.runs_on(date(2026, 2, 1))
    assert not lifted.bars(1, date(2026, 2, 1))


def test_r16_barred_rows_names_each_row_and_sanction() -> None:
    day = JAN1 + timedelta(days=2)
    sanctions = [
        (11, 101, suspension(last=None)),
        (12, 102, Terms("venue_ban", "fighting", JAN1, None, venue_id=5)),
        (13, 103, Terms("venue_ban", "fighting", JAN1, None, venue_id=6)),  # another venue
        (14, 104, suspension(first=day + timedelta(days=1), last=None)),  # not begun
        (15, 101, Terms("venue_ban", "other", JAN1, None, venue_id=5)),  # a second one of 101
    ]
    barred = barred_rows([100, 101, None, 102, 103, 104], sanctions, venue_id=5, day=day)
    assert [(b.row, b.player_id, b.sanction_id) for b in barred] == [(1, 101, 11), (1, 101, 15), (3, 102, 12)]
    problem = barred_problem(barred[2])
    assert problem.path == "results.3.player_id" and problem.rule == "R16"
    assert "sanction 12" in problem.message and "banned from this venue" in problem.message


def test_r16_barred_players_refuse_the_report_unless_the_office_overrides_with_a_reason() -> None:
    day = JAN1 + timedelta(days=2)
    barred = barred_rows([101, 102], [(11, 101, suspension(last=None))], venue_id=5, day=day)
    overridden, problems = sanction_override(False, barred, None)
    assert overridden == [] and [(p.path, p.rule) for p in problems] == [("results.0.player_id", "R16")]
    assert sanction_override(True, barred, None) == ([], problems)
    assert sanction_override(True, barred, "Cleared by the office.") == (barred, [])
    overridden, problems = sanction_override(False, barred, "A host tries.")
    assert overridden == []
    assert [(p.path, p.rule) for p in problems] == [
        ("override_reason", "R16"),
        ("results.0.player_id", "R16"),
    ]
    assert sanction_override(False, [], None) == ([], [])
