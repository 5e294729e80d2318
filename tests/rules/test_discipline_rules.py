"""The pure rules of discipline (R15, R16): minimum lengths, the days a sanction runs, who it bars.
No database."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.errors import problem_map
from models.rules.sanctions import (
    DoorGroup,
    Minimums,
    Terms,
    add_months,
    barred_problem,
    barred_rows,
    day_month,
    door_group,
    door_order,
    earliest_last_day,
    last_of_days,
    last_of_months,
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


def test_r15_a_suspension_lasts_at_least_14_days_counting_both_ends() -> None:
    assert problem_map(terms_problems(suspension(last=JAN1 + timedelta(days=13)), DEFAULTS)) == {}
    problems = terms_problems(suspension(last=JAN1 + timedelta(days=12)), DEFAULTS)
    assert [(p.path, p.rule) for p in problems] == [("last_day", "R15")]
    assert "at least 14 days, counting the first and the last: from 1 January, 14 January or later" in (
        problems[0].message
    )


def test_r15_permanent_has_no_minimum() -> None:
    assert terms_problems(suspension(last=None), DEFAULTS) == []


def test_r15_outside_alcohol_lasts_six_months() -> None:
    assert earliest_last_day(suspension(category="outside_alcohol"), DEFAULTS) == date(2026, 6, 30)
    assert terms_problems(suspension(last=date(2026, 6, 30), category="outside_alcohol"), DEFAULTS) == []
    short = terms_problems(suspension(last=date(2026, 6, 29), category="outside_alcohol"), DEFAULTS)
    assert [p.path for p in short] == ["last_day"]
    assert "at least 6 months, counting the first and the last: from 1 January, 30 June or later" in (
        short[0].message
    )


def test_r15_minimums_are_settings() -> None:
    strict = Minimums(suspension_days=30, outside_alcohol_months=12)
    assert earliest_last_day(suspension(), strict) == JAN1 + timedelta(days=29)
    assert earliest_last_day(suspension(category="outside_alcohol"), strict) == date(2026, 12, 31)
    lenient = Minimums(suspension_days=0, outside_alcohol_months=0)
    assert terms_problems(suspension(last=JAN1), lenient) == []
    assert terms_problems(suspension(last=JAN1, category="outside_alcohol"), lenient) == []


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


# R15: a suspension's length counts its first and its last day --------------------------------


@pytest.mark.parametrize(
    ("first", "days", "last"),
    [
        (date(2026, 12, 1), 14, date(2026, 12, 14)),  # Tuesday to Monday: two Tuesday nights missed
        (date(2026, 12, 25), 14, date(2027, 1, 7)),  # over the year's end
        (date(2028, 2, 20), 14, date(2028, 3, 4)),  # through 29 February
        (date(2027, 2, 20), 14, date(2027, 3, 5)),  # no 29 February that year
        (date(2028, 2, 29), 1, date(2028, 2, 29)),
        (date(2026, 12, 1), 1, date(2026, 12, 1)),  # one day: the first is the last
        (date(2026, 12, 1), 0, date(2026, 12, 1)),  # no minimum: the first day may be the last
        (date(2026, 12, 1), 2, date(2026, 12, 2)),
        (date(2026, 1, 31), 30, date(2026, 3, 1)),
    ],
)
def test_r15_n_days_end_n_minus_1_days_after_the_first(first: date, days: int, last: date) -> None:
    """R15: with a minimum of N days the earliest last day is the first day + (N - 1) days."""
    assert last_of_days(first, days) == last
    terms = suspension(first=first, last=last)
    assert earliest_last_day(terms, Minimums(suspension_days=days)) == last
    assert terms_problems(terms, Minimums(suspension_days=days)) == []
    if last > first:
        early = suspension(first=first, last=last - timedelta(days=1))
        assert [p.path for p in terms_problems(early, Minimums(suspension_days=days))] == ["last_day"]


@pytest.mark.parametrize(
    ("first", "months", "last"),
    [
        (date(2026, 12, 1), 6, date(2027, 5, 31)),  # the league's example, over the year's end
        (date(2026, 3, 1), 6, date(2026, 8, 31)),
        (date(2026, 8, 31), 6, date(2027, 2, 28)),  # no 31 February: to the month's end
        (date(2027, 8, 31), 6, date(2028, 2, 29)),  # ... in a leap year, its 29th
        (date(2027, 8, 30), 6, date(2028, 2, 29)),
        (date(2027, 8, 29), 6, date(2028, 2, 28)),  # 29 February 2028 exists: the day before
        (date(2026, 8, 29), 6, date(2027, 2, 28)),  # no 29 February 2027: the month's end
        (date(2028, 2, 29), 6, date(2028, 8, 28)),
        (date(2028, 2, 29), 12, date(2029, 2, 28)),
        (date(2026, 1, 31), 1, date(2026, 2, 28)),
        (date(2026, 1, 30), 1, date(2026, 2, 28)),
        (date(2026, 1, 28), 1, date(2026, 2, 27)),
        (date(2026, 7, 15), 6, date(2027, 1, 14)),
        (date(2026, 1, 1), 12, date(2026, 12, 31)),
        (date(2026, 5, 31), 1, date(2026, 6, 30)),  # no 31 June: to the month's end
        (date(2026, 12, 1), 0, date(2026, 12, 1)),  # no minimum: the first day may be the last
    ],
)
def test_r15_m_months_end_the_day_before_the_same_day_m_months_later(
    first: date, months: int, last: date
) -> None:
    """R15: with a minimum of M months the earliest last day is the day before the same day of
    the month M months later, or that month's last day when it has no such day."""
    assert last_of_months(first, months) == last
    minimums = Minimums(suspension_days=0, outside_alcohol_months=months)
    terms = suspension(first=first, last=last, category="outside_alcohol")
    assert earliest_last_day(terms, minimums) == last
    assert terms_problems(terms, minimums) == []


@given(st.dates(min_value=date(1950, 1, 1), max_value=date(2100, 1, 1)), st.integers(1, 240))
def test_r15_m_months_are_never_shorter_than_the_calendar_says(first: date, months: int) -> None:
    """R15: the period of M months ends before the same day M months later (or on that month's
    last day when it has no such day: add_months' day), in that month or the one before; and
    where the day exists, the next period starts the day after it (periods tile the calendar)."""
    last = last_of_months(first, months)
    assert first <= last <= add_months(first, months)
    assert (last.year * 12 + last.month) - (first.year * 12 + first.month) in (months - 1, months)
    if first.day <= 28:
        assert last + timedelta(days=1) == add_months(first, months)


@given(st.dates(min_value=date(1950, 1, 1), max_value=date(2100, 1, 1)), st.integers(1, 3650))
def test_r15_n_days_hold_exactly_n_days(first: date, days: int) -> None:
    """R15: from the first to the earliest last day, both counted, are exactly N days."""
    assert (last_of_days(first, days) - first).days + 1 == days


def test_r15_the_longer_minimum_binds_outside_alcohol() -> None:
    """R15: an outside_alcohol suspension lasts the longer of the league's minimum days and
    minimum months; the message names the one that binds."""
    first = date(2026, 12, 1)
    days_bind = Minimums(suspension_days=200, outside_alcohol_months=6)
    terms = suspension(first=first, last=date(2027, 6, 1), category="outside_alcohol")
    assert earliest_last_day(terms, days_bind) == first + timedelta(days=199)
    (problem,) = terms_problems(terms, days_bind)
    assert "at least 200 days, counting the first and the last: from 1 December 2026, 18 June 2027" in (
        problem.message
    )
    months_bind = Minimums(suspension_days=14, outside_alcohol_months=6)
    assert earliest_last_day(terms, months_bind) == date(2027, 5, 31)


@pytest.mark.parametrize(
    ("first", "last", "minimums", "said"),
    [
        (
            date(2026, 12, 1),
            date(2026, 12, 13),
            DEFAULTS,
            "A suspension lasts at least 14 days, counting the first and the last: from 1 December, "
            "14 December or later",
        ),
        (
            date(2026, 12, 25),
            date(2027, 1, 6),
            DEFAULTS,
            "at least 14 days, counting the first and the last: from 25 December 2026, 7 January 2027 "
            "or later",
        ),
        (
            date(2026, 3, 1),
            date(2026, 3, 1),
            Minimums(suspension_days=2),
            "at least 2 days, counting the first and the last: from 1 March, 2 March or later",
        ),
    ],
)
def test_r15_the_refusal_says_the_earliest_last_day_in_words(
    first: date, last: date, minimums: Minimums, said: str
) -> None:
    """R15: the refusal says the minimum counting both days, and the earliest last day as day and
    month (with the years when they differ)."""
    (problem,) = terms_problems(suspension(first=first, last=last), minimums)
    assert (problem.path, problem.rule) == ("last_day", "R15")
    assert said in problem.message
    assert "permanent" in problem.message


def test_r15_outside_alcohol_refusal_in_words() -> None:
    """R15: "at least 6 months, counting the first and the last: from 1 December 2026, 31 May 2027
    or later"; one month is said in the singular."""
    terms = suspension(first=date(2026, 12, 1), last=date(2027, 5, 30), category="outside_alcohol")
    (problem,) = terms_problems(terms, DEFAULTS)
    assert (
        "at least 6 months, counting the first and the last: from 1 December 2026, 31 May 2027 or later"
        in problem.message
    )
    one = suspension(first=date(2026, 3, 1), last=date(2026, 3, 30), category="outside_alcohol")
    (problem,) = terms_problems(one, Minimums(suspension_days=1, outside_alcohol_months=1))
    assert "at least 1 month, counting the first and the last: from 1 March, 31 March or later" in (
        problem.message
    )


def test_r15_days_are_written_day_month() -> None:
    assert day_month(date(2026, 12, 1)) == "1 December"
    assert day_month(date(2028, 2, 29), with_year=True) == "29 February 2028"


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


# The door list's groups (R16) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("played_here", "played_in_region", "group"),
    [
        (True, True, DoorGroup.VENUE),
        (True, False, DoorGroup.VENUE),  # the venue is in its own region: here counts first
        (False, True, DoorGroup.REGION),
        (False, False, DoorGroup.LEAGUE),
    ],
)
def test_r16_a_barred_players_group_on_the_door_list(played_here, played_in_region, group):
    assert door_group(played_here, played_in_region) == group


def test_r16_the_door_list_is_by_group_then_display_name_then_number():
    lines = [
        (DoorGroup.LEAGUE, "Abe", 1),
        (DoorGroup.VENUE, "zara", 9),
        (DoorGroup.REGION, "Mona", 4),
        (DoorGroup.VENUE, "Crystal K.", 49),
        (DoorGroup.VENUE, "crystal k.", 48),
        (DoorGroup.LEAGUE, "Abe", 0),
    ]
    ordered = sorted(lines, key=lambda line: door_order(*line))
    assert ordered == [
        (DoorGroup.VENUE, "crystal k.", 48),
        (DoorGroup.VENUE, "Crystal K.", 49),
        (DoorGroup.VENUE, "zara", 9),
        (DoorGroup.REGION, "Mona", 4),
        (DoorGroup.LEAGUE, "Abe", 0),
        (DoorGroup.LEAGUE, "Abe", 1),
    ]


@given(
    st.lists(
        st.tuples(st.sampled_from(list(DoorGroup)), st.text(max_size=5), st.integers(1, 99)), max_size=12
    )
)
def test_r16_no_player_of_a_later_group_comes_before_an_earlier_ones(lines):
    ordered = [line[0] for line in sorted(lines, key=lambda line: door_order(*line))]
    ranks = [list(DoorGroup).index(group) for group in ordered]
    assert ranks == sorted(ranks)
