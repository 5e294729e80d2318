"""A venue's schedule (R2, R2a): the games it gives in a range of local dates, with exceptions,
which of them are missing, and their starts across the DST changes of America/Chicago."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime

import pytest

from models.rules.schedules import (
    ExceptionKind,
    RegularGame,
    ScheduleChange,
    ScheduledGame,
    day_problems,
    exception_problems,
    is_missing,
    played_games,
    schedule_problems,
    scheduled_games,
    starts,
    wall_clock_problems,
    week_missing,
)

pytestmark = pytest.mark.rules

TUESDAY = RegularGame(2, "19:00")
FRIDAY = RegularGame(5, "20:30", 2)


def test_r2a_a_weekly_schedule_gives_its_weekdays_in_order() -> None:
    games = scheduled_games([FRIDAY, TUESDAY], [], date(2026, 11, 30), date(2026, 12, 13))
    assert [(n.date, n.starts_at, n.sessions) for n in games] == [
        (date(2026, 12, 1), "19:00", 1),
        (date(2026, 12, 4), "20:30", 2),
        (date(2026, 12, 8), "19:00", 1),
        (date(2026, 12, 11), "20:30", 2),
    ]
    assert all(n.weekday in (2, 5) for n in games)


def test_r2a_exceptions_cancel_move_and_add_nights() -> None:
    changes = [
        ScheduleChange("cancelled", date(2026, 12, 1), note="Closed for a wedding"),
        ScheduleChange("moved", date(2026, 12, 4), date(2026, 12, 5), "18:00", note="Darts final"),
        ScheduleChange("added", date(2026, 12, 6), None, "15:00", 1, "Make-up"),
    ]
    games = scheduled_games([TUESDAY, FRIDAY], changes, date(2026, 11, 30), date(2026, 12, 6))
    assert games == [
        ScheduledGame(date(2026, 12, 1), "19:00", 1, cancelled=True, note="Closed for a wedding"),
        ScheduledGame(date(2026, 12, 5), "18:00", 2, moved_from=date(2026, 12, 4), note="Darts final"),
        ScheduledGame(date(2026, 12, 6), "15:00", 1, make_up=True, note="Make-up"),
    ]


def test_r2a_a_night_moved_into_the_range_from_outside_it_is_listed() -> None:
    changes = [ScheduleChange("moved", date(2026, 12, 8), date(2026, 12, 6))]
    games = scheduled_games([TUESDAY], changes, date(2026, 11, 30), date(2026, 12, 6))
    assert [(n.date, n.moved_from) for n in games] == [
        (date(2026, 12, 1), None),
        (date(2026, 12, 6), date(2026, 12, 8)),
    ]


def test_r2_bad_nights_are_named_by_field() -> None:
    bad = [RegularGame(0, "19:00"), RegularGame(2, "24:00"), RegularGame(3, "7:00", 21), TUESDAY, TUESDAY]
    paths = [p.path for p in schedule_problems(bad)]
    assert paths == [
        "schedule.0.weekday",
        "schedule.1.starts_at",
        "schedule.2.starts_at",
        "schedule.2.sessions",
        "schedule.4.weekday",
    ]
    assert schedule_problems([TUESDAY, FRIDAY, RegularGame(7, "00:00"), RegularGame(1, "23:59")]) == []


def test_r2a_a_night_is_missing_only_once_its_local_date_has_passed_unreported() -> None:
    """On a Wednesday, Tuesday's game without a report is missing; Friday's is not yet."""
    week = scheduled_games([TUESDAY, FRIDAY], [], date(2026, 11, 30), date(2026, 12, 6))
    wednesday = date(2026, 12, 2)
    assert [n.date for n in week if is_missing(n, wednesday, False)] == [date(2026, 12, 1)]
    assert week_missing(week, wednesday, set())
    assert not week_missing(week, wednesday, {date(2026, 12, 1)})
    assert not is_missing(ScheduledGame(date(2026, 12, 1), "19:00", 1, cancelled=True), wednesday, False)
    assert not is_missing(week[0], date(2026, 12, 1), False)  # the game itself: not yet


def test_r2_r17_no_night_before_the_venues_first_day_is_missing() -> None:
    """A venue added on Wednesday 2 December misses no Tuesday 1 December; the next Tuesday it does."""
    weeks = scheduled_games([TUESDAY], [], date(2026, 11, 30), date(2026, 12, 13))
    added, later = date(2026, 12, 2), date(2026, 12, 9)
    assert [n.date for n in weeks if is_missing(n, later, False, added)] == [date(2026, 12, 8)]
    assert not week_missing(weeks[:1], later, set(), added)


def test_r2_a_night_played_but_not_scheduled_is_a_night_of_its_own() -> None:
    """A date with reports and no game held there (none given, or only a cancelled one) is an
    unscheduled game of as many sessions, with no start; a date the schedule gave is not."""
    cancelled = ScheduleChange(ExceptionKind.CANCELLED, date(2026, 12, 8))
    given = scheduled_games([TUESDAY], [cancelled], date(2026, 11, 30), date(2026, 12, 13))
    played = {date(2026, 11, 30): 2, date(2026, 12, 1): 1, date(2026, 12, 8): 1}
    assert [(n.date, n.sessions, n.starts_at, n.unscheduled) for n in played_games(given, played)] == [
        (date(2026, 11, 30), 2, "", True),
        (date(2026, 12, 8), 1, "", True),
    ]


@pytest.mark.parametrize(
    ("day", "utc"),
    [
        (date(2026, 10, 27), datetime(2026, 10, 28, 0, 0, tzinfo=UTC)),  # CDT, -05:00
        (date(2026, 11, 3), datetime(2026, 11, 4, 1, 0, tzinfo=UTC)),  # CST, -06:00
        (date(2027, 3, 9), datetime(2027, 3, 10, 1, 0, tzinfo=UTC)),  # CST, -06:00
        (date(2027, 3, 16), datetime(2027, 3, 17, 0, 0, tzinfo=UTC)),  # CDT, -05:00
    ],
)
def test_r2a_a_night_starts_at_its_local_time_on_both_sides_of_a_dst_change(day: date, utc: datetime) -> None:
    start = starts(ScheduledGame(day, "19:00", 1), "America/Chicago")
    assert (start.hour, start.minute) == (19, 0)
    assert start.astimezone(UTC) == utc


def test_r2_only_a_regular_night_is_cancelled_or_moved() -> None:
    tuesdays = [RegularGame(2, "19:00", 1)]
    wednesday = date(2026, 12, 9)
    for kind, to in ((ExceptionKind.CANCELLED, None), (ExceptionKind.MOVED, date(2026, 12, 10))):
        change = ScheduleChange(kind, wednesday, to_date=to)
        assert [p.path for p in exception_problems(change, tuesdays)] == ["date"]
        assert exception_problems(ScheduleChange(kind, date(2026, 12, 8), to_date=to), tuesdays) == []
    added = ScheduleChange(ExceptionKind.ADDED, wednesday, starts_at="19:00", sessions=1)
    assert exception_problems(added, tuesdays) == []


def test_r2_a_report_off_the_schedule_is_said_and_one_on_it_or_with_no_schedule_is_not() -> None:
    """R2: a Tuesday venue: a Tuesday is a game; a cancelled Tuesday says the cancellation and its
    note; a Wednesday says the schedule; a Wednesday with a make-up is a game; a venue with no
    schedule says nothing."""
    from models.rules.schedules import RegularGame, ScheduleChange, off_schedule

    tuesdays = [RegularGame(2, "19:00")]
    tuesday, wednesday = date(2026, 12, 1), date(2026, 12, 2)
    assert off_schedule(tuesdays, [], tuesday) is None
    cancelled = [ScheduleChange("cancelled", tuesday, note="Burst pipe")]
    said = off_schedule(tuesdays, cancelled, tuesday)
    assert said is not None and "cancelled the night of Tue 1 Dec 2026 (Burst pipe)" in said
    said = off_schedule(tuesdays, [], wednesday)
    assert said is not None and "Wed 2 Dec 2026 is not a night" in said and "Tuesdays at 19:00" in said
    assert off_schedule(tuesdays, [ScheduleChange("added", wednesday, starts_at="18:00")], wednesday) is None
    assert off_schedule([], [], wednesday) is None


def test_r2_at_most_three_nights_on_one_weekday() -> None:
    """R2: a fourth game on one weekday is refused, each game past the third named at its start
    with the rule; three on every weekday, and a normal league (two sessions on three games),
    are a schedule."""
    tuesdays = [RegularGame(2, "15:00"), RegularGame(2, "19:00"), RegularGame(2, "21:30")]
    assert schedule_problems(tuesdays) == []
    problems = schedule_problems([*tuesdays, FRIDAY, RegularGame(2, "23:00"), RegularGame(2, "12:00")])
    # Named once a weekday, at its fourth game: the probe's 1,440 Tuesdays are one problem.
    assert [(p.path, p.rule) for p in problems] == [("schedule.4.starts_at", "R2")]
    assert problems[0].message.startswith("Tuesdays have 5 nights here")
    assert "at most 3 nights on one weekday" in problems[0].message
    every_minute = [RegularGame(2, f"{m // 60:02d}:{m % 60:02d}") for m in range(24 * 60)]
    assert [p.path for p in schedule_problems(every_minute)] == ["schedule.3.starts_at"]
    every_day = [RegularGame(day, start) for day in range(1, 8) for start in ("15:00", "19:00", "21:30")]
    assert schedule_problems(every_day) == []
    assert schedule_problems([RegularGame(day, "19:30", 2) for day in (2, 4, 5)]) == []


def test_r2_a_date_holds_at_most_three_nights_once_changed() -> None:
    """R2: a make-up game, or a game moved in, on a date that already holds 3 games (changes
    applied; a cancelled game does not count) is refused, naming the date it would fill."""
    tuesday = [TUESDAY]
    wednesday = date(2026, 12, 9)
    moves = [ScheduleChange("moved", date(2026, 12, day), wednesday) for day in (1, 8, 15)]
    assert [p.path for p in day_problems(tuesday, moves[:2], moves[2])] == []
    fourth = ScheduleChange("moved", date(2026, 12, 22), wednesday)
    problems = day_problems(tuesday, moves, fourth)
    assert [(p.path, p.rule) for p in problems] == [("to", "R2")]
    assert "at most 3 nights" in problems[0].message
    added = ScheduleChange("added", wednesday, starts_at="15:00")
    assert [(p.path, p.rule) for p in day_problems(tuesday, moves, added)] == [("date", "R2")]
    # A cancelled game leaves room for its make-up.
    full = [RegularGame(2, start) for start in ("15:00", "19:00", "21:30")]
    cancelled = ScheduleChange("cancelled", date(2026, 12, 8))
    make_up = ScheduleChange("added", date(2026, 12, 8), starts_at="17:00")
    assert [p.path for p in day_problems(full, [], make_up)] == ["date"]
    assert day_problems(full, [cancelled], make_up) == []


def test_r2a_a_night_moved_from_far_away_is_listed_on_its_new_date() -> None:
    """A game moved a season away lands on its new date, and the games between are as they were."""
    changes = [ScheduleChange("moved", date(2027, 11, 30), date(2026, 12, 2))]
    games = scheduled_games([TUESDAY], changes, date(2026, 11, 30), date(2026, 12, 6))
    assert [(n.date, n.moved_from) for n in games] == [
        (date(2026, 12, 1), None),
        (date(2026, 12, 2), date(2027, 11, 30)),
    ]
    later = scheduled_games([TUESDAY], changes, date(2027, 11, 29), date(2027, 12, 5))
    assert later == []


@pytest.mark.parametrize(
    ("day", "start", "local", "utc"),
    [
        # 14 March 2027: Chicago's clocks go from 02:00 CST to 03:00 CDT; 02:30 is never shown.
        (date(2027, 3, 7), "02:30", (2, 30), datetime(2027, 3, 7, 8, 30, tzinfo=UTC)),
        (date(2027, 3, 14), "02:30", (3, 30), datetime(2027, 3, 14, 8, 30, tzinfo=UTC)),
        (date(2027, 3, 14), "02:00", (3, 0), datetime(2027, 3, 14, 8, 0, tzinfo=UTC)),
        (date(2027, 3, 14), "03:00", (3, 0), datetime(2027, 3, 14, 8, 0, tzinfo=UTC)),
        (date(2027, 3, 21), "02:30", (2, 30), datetime(2027, 3, 21, 7, 30, tzinfo=UTC)),
        # 1 November 2026: 02:00 CDT goes back to 01:00 CST; 01:30 is shown twice: the first.
        (date(2026, 11, 1), "01:30", (1, 30), datetime(2026, 11, 1, 6, 30, tzinfo=UTC)),
        (date(2026, 11, 1), "02:00", (2, 0), datetime(2026, 11, 1, 8, 0, tzinfo=UTC)),
    ],
)
def test_r2a_a_start_the_clocks_skip_is_moved_forward_and_one_they_show_twice_is_the_first(
    day: date, start: str, local: tuple[int, int], utc: datetime
) -> None:
    """R2a: a game's start that does not exist on its date (the hour the clocks go forward)
    starts as much later as the clocks jump (02:30 is 03:30); a start shown twice (the hour they go
    back) is the first of the two. The instant is named by a time the wall clock shows."""
    begins = starts(ScheduledGame(day, start, 1), "America/Chicago")
    assert ((begins.hour, begins.minute), begins.astimezone(UTC)) == (local, utc)
    assert begins.astimezone(UTC).astimezone(begins.tzinfo) == begins
    assert begins.fold == 0


def test_r2a_a_changed_night_at_a_start_the_clocks_skip_is_refused() -> None:
    """R2a: a make-up game, or a moved one, at a start that does not exist on its date is refused
    (naming `starts_at`, or `to` when it keeps its regular start); one at a start shown twice is
    accepted (it is the first)."""
    sundays = [RegularGame(7, "02:30")]
    spring, fall = date(2027, 3, 14), date(2026, 11, 1)
    added = ScheduleChange("added", spring, starts_at="02:30")
    problems = wall_clock_problems(added, sundays, "America/Chicago")
    assert [(p.path, p.rule) for p in problems] == [("starts_at", "R2a")]
    assert "02:30 does not exist on Sunday 14 March 2027" in problems[0].message
    moved = ScheduleChange("moved", date(2027, 3, 7), spring)
    assert [(p.path, p.rule) for p in wall_clock_problems(moved, sundays, "America/Chicago")] == [
        ("to", "R2a")
    ]
    later = ScheduleChange("moved", date(2027, 3, 7), spring, starts_at="04:00")
    assert wall_clock_problems(later, sundays, "America/Chicago") == []
    assert wall_clock_problems(added, sundays, "Europe/London") == []  # not London's day
    london = date(2027, 3, 28)  # London's clocks go from 01:00 GMT to 02:00 BST
    skipped = ScheduleChange("added", london, starts_at="01:30")
    assert [p.path for p in wall_clock_problems(skipped, [], "Europe/London")] == ["starts_at"]
    assert wall_clock_problems(replace(skipped, starts_at="02:30"), [], "Europe/London") == []
    assert wall_clock_problems(ScheduleChange("added", fall, starts_at="01:30"), [], "America/Chicago") == []
