"""R22 and R4, pure: a blind structure checked when saved, the clock after so many seconds of
play, late registration's close, the seat draw and the moves that keep tables within one
player of each other, and places counted from the bottom."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from models.errors import Problem
from models.rules.nights import (
    Out,
    ReEntry,
    balance,
    counts,
    draw,
    hand_order,
    open_seat,
    places,
    re_entry_problem,
    said_break,
    said_re_entry,
)
from models.rules.structures import (
    LEAGUE_DEFAULT,
    Break,
    LateRegistration,
    Level,
    Structure,
    adjusted,
    clock_at,
    closing_second,
    late_registration_open,
    seconds_played,
    skipped,
    stepped_back,
    structure_problems,
)


def test_r22_the_league_default_is_001s_structure_and_holds_its_own_checks() -> None:
    assert LEAGUE_DEFAULT.starting_chips == 2000
    assert [(lv.small_blind, lv.big_blind) for lv in LEAGUE_DEFAULT.levels[:5]] == [
        (25, 25),
        (25, 50),
        (50, 100),
        (75, 150),
        (100, 200),
    ]
    assert {lv.minutes for lv in LEAGUE_DEFAULT.levels} == {20}
    assert [b.after_level for b in LEAGUE_DEFAULT.breaks] == [4, 8]
    assert LEAGUE_DEFAULT.levels[-1] == Level(6000, 12000, 20)
    assert structure_problems(LEAGUE_DEFAULT) == []


def test_r22_a_structure_is_refused_by_field_where_blinds_fall_or_minutes_are_out_of_range() -> None:
    wrong = Structure(
        0,
        (Level(50, 100, 20), Level(25, 50, 20), Level(100, 50, 0), Level(100, 200, 121)),
        (Break(4, 10), Break(1, 0), Break(1, 10)),
    )
    found = {(p.path, p.rule) for p in structure_problems(wrong)}
    assert found == {
        ("starting_chips", "R22"),
        ("levels.1.big_blind", "R22"),
        ("levels.2.small_blind", "R22"),
        ("levels.2.minutes", "R22"),
        ("levels.3.minutes", "R22"),
        ("breaks.0.after_level", "R22"),
        ("breaks.1.minutes", "R22"),
        ("breaks.2.after_level", "R22"),
    }
    assert [p.path for p in structure_problems(Structure(2000, ()))] == ["levels"]


def test_r22_the_clock_walks_levels_and_breaks_and_the_last_level_goes_on() -> None:
    start = clock_at(LEAGUE_DEFAULT, 0)
    assert (start.period.level, start.period.is_break, start.seconds_left) == (1, False, 1200)
    assert start.next is not None and (start.next.small_blind, start.next.big_blind) == (25, 50)
    fourth = clock_at(LEAGUE_DEFAULT, 3 * 1200 + 5)
    assert (fourth.period.level, fourth.into, fourth.seconds_left) == (4, 5, 1195)
    pause = clock_at(LEAGUE_DEFAULT, 4 * 1200 + 60)
    assert (pause.period.is_break, pause.period.level, pause.seconds_left) == (True, 4, 540)
    assert pause.period.note == "Chip-up: 25s" and pause.next is not None and pause.next.level == 5
    fifth = clock_at(LEAGUE_DEFAULT, 4 * 1200 + 600)
    assert (fifth.period.level, fifth.period.big_blind, fifth.into) == (5, 200, 0)
    end = clock_at(LEAGUE_DEFAULT, 10**7)
    assert (end.period.level, end.seconds_left, end.next) == (15, None, None)


def test_r22_seconds_of_play_leave_out_the_pauses_and_stand_still_while_paused() -> None:
    start = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
    now = start + timedelta(minutes=30)
    assert seconds_played(None, None, 0, now) == 0
    assert seconds_played(start, None, 120, now) == 1680
    paused = start + timedelta(minutes=25)
    assert seconds_played(start, paused, 120, now) == seconds_played(
        start, paused, 120, now + timedelta(hours=1)
    )


def test_r22_late_registration_closes_after_the_first_break_or_a_venues_level_or_minutes() -> None:
    default = LateRegistration()
    assert closing_second(LEAGUE_DEFAULT, default) == 4 * 1200 + 600  # when level 5 starts
    assert late_registration_open(LEAGUE_DEFAULT, default, 4 * 1200 + 599)  # during the break
    assert not late_registration_open(LEAGUE_DEFAULT, default, 4 * 1200 + 600)
    assert closing_second(LEAGUE_DEFAULT, LateRegistration(after_level=2)) == 2 * 1200
    assert closing_second(LEAGUE_DEFAULT, LateRegistration(minutes=30)) == 1800  # 000
    plain = Structure(2000, (Level(25, 50, 20), Level(50, 100, 20)))
    assert closing_second(plain, default) == 1200
    assert closing_second(plain, LateRegistration(after_level=5)) is None  # never closes


def test_r22_the_draw_seats_everyone_once_at_tables_within_one_of_each_other() -> None:
    rng = random.Random(7)
    seats = draw(list(range(1, 24)), 10, rng)
    assert len(seats) == 23 and len(set(seats.values())) == 23
    assert sorted(counts(seats).values()) == [7, 8, 8]
    assert all(1 <= seat <= 10 for _table, seat in seats.values())
    assert draw([], 10, rng) == {}


@given(
    st.integers(min_value=2, max_value=60),
    st.integers(min_value=2, max_value=10),
    st.lists(st.integers(min_value=0, max_value=59), max_size=60),
    st.integers(),
)
def test_r22_as_players_go_out_tables_stay_within_one_and_break_when_the_rest_fit(
    players: int, size: int, gone: list[int], seed: int
) -> None:
    rng = random.Random(seed)
    seated = draw(list(range(players)), size, rng)
    for player in gone:
        if player not in seated or len(seated) <= 1:
            continue
        del seated[player]
        before = dict(seated)
        for move in balance(seated, size, rng):
            assert seated[move.player_id] == move.source
            seated[move.player_id] = move.to
        assert set(seated) == set(before)
        assert len(set(seated.values())) == len(seated)  # no seat twice
        by_table = counts(seated)
        assert max(by_table.values()) - min(by_table.values()) <= 1
        assert len(by_table) == -(-len(seated) // size)  # as few tables as hold them
        assert all(1 <= seat <= size for _t, seat in seated.values())


def test_r22_a_late_entrant_draws_an_open_seat_at_a_table_with_the_fewest() -> None:
    rng = random.Random(3)
    seated = {1: (1, 1), 2: (1, 2), 3: (2, 5)}
    for _ in range(20):
        table, seat = open_seat(seated, 3, rng)
        assert table == 2 and seat in (1, 2, 3)
    full = {n: (1, n) for n in range(1, 4)}
    assert open_seat(full, 3, rng)[0] == 2


def test_r4_r22_places_count_from_the_bottom_and_one_hand_orders_by_chips() -> None:
    # Six entrants: 6 out first; then 4 and 5 on one hand (5 had more chips); then 3; 1 and 2 left.
    assert hand_order([(4, 800), (5, 1500)]) == [5, 4]
    assert hand_order([(4, 800), (5, 800), (7, None)]) == [4, 5, 7]  # equal: the host's order
    out = [Out(6, 1, 0), Out(5, 2, 0), Out(4, 2, 1), Out(3, 3, 0)]
    assert places(6, out, [2, 1]) == {2: 1, 1: 2, 3: 3, 5: 4, 4: 5, 6: 6}
    assert places(6, out[:2]) == {6: 6, 5: 5}  # those out so far, before the night ends


def test_r22_the_host_moves_the_clock_a_level_on_or_back_or_by_minutes_never_past_its_ends() -> None:
    """A skip stands the clock at the next period's start, a step back at the one before's;
    minutes change the length of the period being played; none goes past the first or the last
    level, nor takes off more than is left."""
    five_in = 5 * 60
    assert skipped(LEAGUE_DEFAULT, five_in) == 15 * 60
    assert stepped_back(LEAGUE_DEFAULT, 20 * 60 + five_in) == -(20 * 60 + five_in)
    first = stepped_back(LEAGUE_DEFAULT, five_in)
    assert isinstance(first, Problem) and first.rule == "R22" and "the first" in first.message
    at_the_break = 80 * 60 + 60  # a minute into the first break
    assert skipped(LEAGUE_DEFAULT, at_the_break) == 9 * 60
    assert stepped_back(LEAGUE_DEFAULT, at_the_break) == 60 * 60 - at_the_break  # level 4 from its start
    longer = adjusted(LEAGUE_DEFAULT, five_in, 5)
    assert isinstance(longer, Structure) and longer.levels[0].minutes == 25 and longer.levels[1].minutes == 20
    assert clock_at(longer, five_in).seconds_left == 20 * 60
    shorter_break = adjusted(LEAGUE_DEFAULT, at_the_break, -4)
    assert isinstance(shorter_break, Structure) and shorter_break.breaks[0].minutes == 6
    past_zero = adjusted(LEAGUE_DEFAULT, five_in, -16)
    assert (
        isinstance(past_zero, Problem)
        and past_zero.path == "adjust_minutes"
        and "past zero" in past_zero.message
    )
    assert adjusted(LEAGUE_DEFAULT, five_in, -15) != past_zero  # exactly what is left: the level ends now
    last = sum(level.minutes for level in LEAGUE_DEFAULT.levels[:-1]) * 60 + 20 * 60 + 60
    at_last = clock_at(LEAGUE_DEFAULT, last)
    assert at_last.next is None
    assert isinstance(skipped(LEAGUE_DEFAULT, last), Problem)
    assert isinstance(adjusted(LEAGUE_DEFAULT, last, 5), Problem)
    too_long = adjusted(LEAGUE_DEFAULT, five_in, 101)
    assert isinstance(too_long, Problem) and "at most 120 minutes" in too_long.message


def test_r22_re_entry_is_once_at_a_break_until_the_venues_break_or_not_at_all() -> None:
    first_break, second_break = 81 * 60, 171 * 60
    until_first = ReEntry(True, 1)
    assert said_re_entry(until_first) == "Re-entry: allowed once, until the first break"
    assert said_re_entry(ReEntry()) == "Re-entry: allowed once, at any break"
    assert said_re_entry(ReEntry(False)) == "Re-entry: not tonight"
    assert re_entry_problem(LEAGUE_DEFAULT, until_first, first_break, True) is None
    level = re_entry_problem(LEAGUE_DEFAULT, until_first, 60, True)
    assert level == "A player re-enters at a break: the next is the break after level 4."
    closed = re_entry_problem(LEAGUE_DEFAULT, until_first, second_break, True)
    assert closed is not None and closed.startswith("Re-entry closed at the end of the first break")
    assert re_entry_problem(LEAGUE_DEFAULT, ReEntry(True, None), second_break, True) is None
    assert re_entry_problem(LEAGUE_DEFAULT, ReEntry(True, 2), second_break, True) is None
    refused = re_entry_problem(LEAGUE_DEFAULT, ReEntry(False), first_break, True)
    assert refused == "Re-entry is not allowed tonight: the venue's nights have none."
    assert re_entry_problem(LEAGUE_DEFAULT, ReEntry(True, 9), second_break, True) is None  # fewer breaks
    assert said_break(3) == "the third break" and said_break(12) == "break 12"


@given(
    st.integers(min_value=0, max_value=999_999),
    st.lists(st.integers(min_value=0, max_value=600_000_000), min_size=1, max_size=6),
)
def test_r22_a_skip_or_a_step_back_stands_the_clock_at_a_levels_start_whatever_the_microseconds(
    started_us: int, gaps_us: list[int]
) -> None:
    """Counted in float seconds from instants with microseconds, a skip lands exactly on the next
    level's (or break's) start, and a step back on the one before's: never a float's dust short
    of it, which the clock's whole seconds would read as the level before with 0:01 left."""
    start = datetime(2026, 12, 1, 19, 0, 0, started_us)
    now, moved = start, 0.0
    for n, gap in enumerate(gaps_us):
        now += timedelta(microseconds=gap)
        played = seconds_played(start, None, 0.0, now, moved)
        move = skipped(LEAGUE_DEFAULT, played) if n % 3 != 2 else stepped_back(LEAGUE_DEFAULT, played)
        if isinstance(move, Problem):
            continue
        moved += move
        at = clock_at(LEAGUE_DEFAULT, seconds_played(start, None, 0.0, now, moved))
        assert at.into == 0 and at.seconds_left == at.period.minutes * 60, (at, moved)
