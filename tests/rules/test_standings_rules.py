"""R9-R11 as pure rules: attendance bonus, best results only, a player's row, and the ranking
(hand-worked examples, then properties with hypothesis)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.rules.standings import (
    LAST,
    Entry,
    Key,
    Row,
    Tier,
    attendance_bonus,
    counted_total,
    deciding_step,
    line_of,
    rank_rows,
    row_of,
    standings,
    tie_break_key,
)

pytestmark = pytest.mark.rules

_ids = itertools.count(1)


def e(place: int, placement: int = 0, participation: int = 0, status: str = "played") -> Entry:
    """One result; each call is another tournament."""
    return Entry(next(_ids), place, status, placement, participation)


def table(rows: Sequence[Row]) -> list[tuple[str, int, bool, int]]:
    """(display name, rank, tied, points) of each row, in standings order."""
    return [(row.display_name, row.rank, row.tied, row.points) for row in rows]


# R9 attendance bonus ---------------------------------------------------------------------------


@pytest.mark.parametrize(("played", "bonus"), [(0, 0), (2, 0), (3, 10), (4, 10), (5, 25), (6, 25), (40, 25)])
def test_r9_highest_tier_reached_once(played, bonus):
    """R9: the points of the highest tier reached, once (tiers given in any order)."""
    tiers = [Tier(events=5, points=25), Tier(events=3, points=10)]
    assert attendance_bonus(played, tiers) == bonus


def test_r9_no_tiers_no_bonus():
    """R9: default none."""
    assert attendance_bonus(12, []) == 0


def test_r9_highest_tier_even_if_it_pays_less():
    """R9: 'the points of the highest tier reached' - the tier with most events, not the most
    points."""
    assert attendance_bonus(6, [Tier(3, 40), Tier(6, 15)]) == 15


# R10 best results only ------------------------------------------------------------------------


@pytest.mark.parametrize(("count_best", "total"), [(None, 75), (1, 35), (2, 60), (3, 75), (4, 75), (10, 75)])
def test_r10_only_the_n_highest_totals_count(count_best, total):
    """R10: the N highest tournament totals count; all when no N is set."""
    assert counted_total([15, 0, 35, 25, 0], count_best) == total


# A player's row (R6, R9-R11) ------------------------------------------------------------------


def player_row(
    player_id: int, name: str, entries: Sequence[Entry], count_best: int | None, tiers: Sequence[Tier]
) -> Row:
    """One player's row, as the service builds it: the entries summed into a line, then scored."""
    return row_of(line_of(player_id, name, entries, count_best), tiers)


def test_r11_player_row_hand_worked():
    """R6, R9, R10, R11: one player's row from four results with every kind of status.

    Totals 35 (1st, played), 5 (4th, absent), 25 (2nd, withdrew), 0 (7th, no-show);
    count_best 2 -> 35 + 25; played 3 (a no-show is not played) reaches the 3-event tier -> +10.
    """
    entries = [
        e(1, 30, 5),
        e(4, 0, 5, "absent"),
        e(2, 20, 5, "declared_withdrawal"),
        e(7, 0, 0, "no_show"),
    ]
    row = player_row(7, "Ann L.", entries, count_best=2, tiers=[Tier(3, 10), Tier(4, 20)])
    assert (
        row.player_id,
        row.display_name,
        row.points,
        row.placement_points,
        row.participation_points,
        row.bonus_points,
        row.played,
        row.wins,
        row.points_finishes,
        row.best_finish,
        row.average_finish,
        row.best_single,
        row.place_counts,
    ) == (7, "Ann L.", 70, 50, 15, 10, 3, 1, 2, 1, Decimal("3.50"), 35, {1: 1, 4: 1, 2: 1, 7: 1})


def test_r11_placement_and_participation_are_summed_over_all_tournaments_r10():
    """R10, R11: with count_best the total can be less than placement + participation + bonus."""
    row = player_row(1, "P", [e(1, 30, 2), e(2, 20, 2), e(3, 10, 2)], count_best=1, tiers=[])
    assert (row.points, row.placement_points, row.participation_points) == (32, 60, 6)


def test_r11_average_finish_rounds_half_up_exactly():
    """R11 average finishing place, exact: 9 / 8 = 1.125 -> 1.13 (banker's rounding gives 1.12)."""
    row = player_row(1, "P", [e(1)] * 7 + [e(2)], count_best=None, tiers=[])
    assert row.average_finish == Decimal("1.13")
    assert player_row(1, "P", [e(1), e(2), e(2)], None, []).average_finish == Decimal("1.67")


def test_r11_no_show_only_player_still_has_a_row():
    """R6, R11: a no-show is a result (the player is listed) but not a tournament played."""
    rows = standings({5: ("Nia", [e(4, status="no_show")])})
    assert len(rows) == 1
    row = rows[0]
    assert (row.points, row.played, row.wins, row.best_finish, row.rank, row.tied) == (
        0,
        0,
        0,
        4,
        1,
        False,
    )


def test_r11_player_without_results_is_not_listed():
    """R11: only players with at least one result."""
    rows = standings({1: ("A", [e(1, 30)]), 2: ("B", [])})
    assert [row.player_id for row in rows] == [1]


# Ranking (R11) ---------------------------------------------------------------------------------


def test_r11_shared_ranks_are_numbered_1_2_2_4():
    """R11: players level after every step share the rank (T2) and the next rank skips."""
    rows = standings(
        {
            1: ("Ann", [e(1, 30), e(1, 30)]),
            2: ("Cara", [e(1, 30)]),
            3: ("Bea", [e(1, 30)]),
            4: ("Dot", [e(2, 20)]),
        }
    )
    assert table(rows) == [
        ("Ann", 1, False, 60),
        ("Bea", 2, True, 30),
        ("Cara", 2, True, 30),
        ("Dot", 4, False, 20),
    ]


def test_r11_three_way_tie_then_rank_5():
    """R11: 1, 2, 2, 2, 5."""
    rows = standings(
        {
            1: ("A", [e(1, 50)]),
            2: ("B", [e(2, 20)]),
            3: ("C", [e(2, 20)]),
            4: ("D", [e(2, 20)]),
            5: ("E", [e(3, 10)]),
        }
    )
    assert [(row.rank, row.tied) for row in rows] == [
        (1, False),
        (2, True),
        (2, True),
        (2, True),
        (5, False),
    ]


def test_r11_step1_total_points():
    """R11 step 1: more points ranks higher, whatever the later steps say."""
    rows = standings({1: ("Few", [e(1, 30), e(1, 30)]), 2: ("Many", [e(5, 0), e(2, 61)])})
    assert table(rows) == [("Many", 1, False, 61), ("Few", 2, False, 60)]


def test_r11_step2_wins_decide_before_countback():
    """R11 step 2: level on points, more wins ranks higher, though countback favours the other."""
    rows = standings(
        {
            1: ("Bo", [e(2, 20), e(3, 10)]),  # 0 wins, one 2nd
            2: ("Al", [e(1, 30), e(4, 0)]),  # 1 win
        }
    )
    assert [(row.player_id, row.rank, row.tied) for row in rows] == [(2, 1, False), (1, 2, False)]


def test_r11_step3_countback_second_places():
    """R11 step 3: level on points and wins, more 2nd places ranks higher, though the best
    single total favours the other."""
    rows = standings(
        {
            1: ("Al", [e(3, 30), e(3, 10)]),  # no 2nd, best single 30
            2: ("Bo", [e(2, 20), e(2, 20)]),  # two 2nds, best single 20
        }
    )
    assert [(row.player_id, row.rank) for row in rows] == [(2, 1), (1, 2)]


def test_r11_step3_countback_third_places_when_seconds_level():
    """R11 step 3: 2nds level, then most 3rd places decides."""
    rows = standings(
        {
            1: ("Al", [e(2, 40), e(5, 10)]),  # one 2nd, no 3rd, best single 40
            2: ("Bo", [e(2, 20), e(3, 30)]),  # one 2nd, one 3rd
        }
    )
    assert [(row.player_id, row.rank) for row in rows] == [(2, 1), (1, 2)]


def test_r11_step3_countback_goes_through_every_place():
    """R11 step 3: 'and so on through every place', past the places that score."""
    rows = standings(
        {
            1: ("Al", [e(9), e(9)]),
            2: ("Bo", [e(8), e(12)]),  # an 8th beats two 9ths
            3: ("Cy", [e(9), e(12)]),  # level with Al to the 9ths: one 9th against two
        }
    )
    assert [(row.display_name, row.rank, row.tied) for row in rows] == [
        ("Bo", 1, False),
        ("Al", 2, False),
        ("Cy", 3, False),
    ]


def test_r11_step4_best_single_tournament_total():
    """R11 step 4: the same places (one win, one 3rd) and points; the best single total decides,
    though the other played more tournaments."""
    rows = standings(
        {
            1: ("Al", [e(1, 30), e(3, 30), e(9, 0, status="played")]),  # best single 30, played 3
            2: ("Bo", [e(1, 50), e(3, 10), e(9, 0, status="no_show")]),  # best single 50, played 2
        }
    )
    assert [(row.player_id, row.rank, row.best_single, row.played) for row in rows] == [
        (2, 1, 50, 2),
        (1, 2, 30, 3),
    ]


def test_r11_step5_most_tournaments_played():
    """R11 step 5: everything else level, the player with more tournaments played (no-shows
    excluded) ranks higher."""
    rows = standings(
        {
            1: ("Al", [e(1, 30), e(4, 0, status="no_show")]),
            2: ("Bo", [e(1, 30), e(4, 0)]),
        }
    )
    assert [(row.player_id, row.rank, row.tied, row.played) for row in rows] == [
        (2, 1, False, 2),
        (1, 2, False, 1),
    ]


def test_r11_still_level_listed_by_display_name_then_player_id():
    """R11: players level after all five steps share the rank, listed by display name, then id."""
    rows = standings(
        {
            9: ("Sam K.", [e(1, 30)]),
            4: ("Sam K.", [e(1, 30)]),
            2: ("Zoe", [e(1, 30)]),
            7: ("Abe", [e(1, 30)]),
        }
    )
    assert [(row.player_id, row.rank, row.tied) for row in rows] == [
        (7, 1, True),
        (4, 1, True),
        (9, 1, True),
        (2, 1, True),
    ]


def test_r9_bonus_counts_in_step1():
    """R9, R11: the bonus is part of the total points that step 1 compares."""
    tiers = [Tier(3, 15)]
    rows = standings(
        {
            1: ("Al", [e(1, 30), e(4), e(5)]),  # 30 + 15
            2: ("Bo", [e(1, 40)]),
        },
        tiers=tiers,
    )
    assert [(row.player_id, row.points, row.bonus_points) for row in rows] == [(1, 45, 15), (2, 40, 0)]


def test_r10_count_best_applies_before_ranking():
    """R10, R11: with count_best 1 only each player's best total counts toward the order."""
    rows = standings({1: ("Al", [e(2, 20), e(2, 20), e(2, 20)]), 2: ("Bo", [e(1, 30)])}, count_best=1)
    assert [(row.player_id, row.points, row.placement_points) for row in rows] == [
        (2, 30, 30),
        (1, 20, 60),
    ]


# Properties (hypothesis) ------------------------------------------------------------------------

STATUSES = ("played", "declared_withdrawal", "absent", "no_show")


@st.composite
def entries(draw: st.DrawFn) -> Entry:
    status = draw(st.sampled_from(STATUSES))
    place = draw(st.integers(1, 12))
    if status == "no_show":
        placement, participation = 0, 0
    else:
        placement = draw(st.sampled_from([0, 0, 10, 20, 30, 40, 50]))
        participation = draw(st.sampled_from([0, 5]))
    return Entry(draw(st.integers(1, 10_000)), place, status, placement, participation)


players_strategy = st.dictionaries(
    st.integers(1, 60),
    st.tuples(st.sampled_from(["Al", "Bo", "Cy", "al"]), st.lists(entries(), min_size=1, max_size=6)),
    min_size=1,
    max_size=9,
)
count_best_strategy = st.one_of(st.none(), st.integers(1, 4))
tiers_strategy = st.lists(
    st.tuples(st.integers(1, 6), st.integers(0, 30)), max_size=3, unique_by=lambda t: t[0]
).map(lambda pairs: [Tier(events, points) for events, points in pairs])


def r11_key(results: Sequence[Entry], points: int, deepest: int) -> tuple[int, ...]:
    """R11's five steps written out again from a player's results: bigger is better at each step
    (1 total points, 2 wins, 3 countback from 2nd places on, 4 best single total, 5 played)."""
    places = [r.place for r in results]
    return (
        points,
        places.count(1),
        *(places.count(place) for place in range(2, deepest + 1)),
        max(r.placement_points + r.participation_points for r in results),
        sum(1 for r in results if r.status != "no_show"),
    )


@settings(max_examples=300, deadline=None)
@given(players_strategy, count_best_strategy, tiers_strategy)
def test_r11_ranks_and_order_property(players, count_best, tiers):
    """R11: ranks run 1, 2, 2, 4: a row's rank is 1 + the number of rows strictly ahead of it;
    rows are in R11 order; tied exactly when another row shares the rank; players level are
    listed by display name, then player id."""
    rows = standings(players, count_best, tiers)
    assert sorted(row.player_id for row in rows) == sorted(players)
    deepest = max(r.place for _name, results in players.values() for r in results)
    keys = [r11_key(players[row.player_id][1], row.points, deepest) for row in rows]
    assert rows[0].rank == 1
    for index, row in enumerate(rows):
        ahead = sum(1 for key in keys if key > keys[index])
        assert row.rank == ahead + 1
        assert row.rank in (index + 1, rows[index - 1].rank if index else 1)
        sharing = sum(1 for other in rows if other.rank == row.rank)
        assert row.tied == (sharing > 1)
    for (key_a, a), (key_b, b) in itertools.pairwise(zip(keys, rows, strict=True)):
        assert key_a >= key_b
        if key_a == key_b:
            assert (a.display_name.casefold(), a.player_id) < (b.display_name.casefold(), b.player_id)


@settings(max_examples=300, deadline=None)
@given(players_strategy, count_best_strategy, tiers_strategy)
def test_r9_r10_totals_property(players, count_best, tiers):
    """R9, R10: total = the sum of the counted (best N) tournament totals + the bonus, the bonus
    being the highest tier's points reached by tournaments played (no-shows excluded)."""
    for row in standings(players, count_best, tiers):
        _name, results = players[row.player_id]
        totals = sorted((r.placement_points + r.participation_points for r in results), reverse=True)
        counted = totals if count_best is None else totals[:count_best]
        played = sum(1 for r in results if r.status != "no_show")
        reached = [t for t in tiers if t.events <= played]
        bonus = max(reached, key=lambda t: t.events).points if reached else 0
        assert row.bonus_points == bonus
        assert row.points == sum(counted) + bonus
        assert row.placement_points == sum(r.placement_points for r in results)
        assert row.participation_points == sum(r.participation_points for r in results)
        assert row.points <= row.placement_points + row.participation_points + row.bonus_points
        assert row.played == played
        assert row.wins == sum(1 for r in results if r.place == 1)
        assert row.best_finish == min(r.place for r in results)


def rising(tiers: list[Tier]) -> list[Tier]:
    """A tier table whose points do not fall as events rise (R9 pays the highest tier reached,
    so a table that pays less for more events would lower a bonus by design)."""
    points = sorted(t.points for t in tiers)
    return [Tier(t.events, p) for t, p in zip(sorted(tiers, key=lambda t: t.events), points, strict=True)]


@settings(max_examples=300, deadline=None)
@given(players_strategy, count_best_strategy, tiers_strategy.map(rising), entries(), st.data())
def test_r10_adding_a_tournament_never_lowers_points_property(players, count_best, tiers, extra, data):
    """R10, R11: a player who plays one more tournament never loses placement points, nor total
    points (best N of more results; with rising tiers, a bonus that only grows); nobody else's
    row changes."""
    player_id = data.draw(st.sampled_from(sorted(players)))
    before = {row.player_id: row for row in standings(players, count_best, tiers)}
    name, results = players[player_id]
    grown = {**players, player_id: (name, [*results, extra])}
    after = {row.player_id: row for row in standings(grown, count_best, tiers)}
    assert after[player_id].placement_points >= before[player_id].placement_points
    assert after[player_id].points >= before[player_id].points
    for other, row in before.items():
        if other != player_id:
            assert (after[other].points, after[other].played) == (row.points, row.played)


@settings(max_examples=200, deadline=None)
@given(players_strategy, count_best_strategy, tiers_strategy, st.randoms(use_true_random=False))
def test_r11_order_does_not_depend_on_input_order_property(players, count_best, tiers, rnd: random.Random):
    """R11: the standings are the same whatever order players (and their results) come in."""
    items = list(players.items())
    rnd.shuffle(items)
    shuffled = {pid: (name, rnd.sample(results, len(results))) for pid, (name, results) in items}
    first = [(r.player_id, r.rank, r.tied, r.points) for r in standings(players, count_best, tiers)]
    second = [(r.player_id, r.rank, r.tied, r.points) for r in standings(shuffled, count_best, tiers)]
    assert first == second


# R11 explained: which step put a row below the one above --------------------------------------


def ranked_row(player_id: int, name: str, points: int, places: dict[int, int]) -> Row:
    """A row with these points and finishes (wins are its 1st places; 30 its best single)."""
    played = sum(places.values())
    return Row(
        player_id,
        name,
        points,
        points,
        0,
        0,
        played,
        places.get(1, 0),
        played,
        min(places),
        sum(place * count for place, count in places.items()),
        played,
        30,
        places,
    )


def key(points: int, wins: int, counts: dict[int, int], best_single: int, played: int) -> Key:
    """R11's tie-break key of a player with these finishes (counts: place -> finishes there)."""
    countback = tuple((place, -counts[place]) for place in sorted(counts) if counts[place])
    return (-points, -wins, (*countback, LAST), -best_single, -played)


def test_r11_deciding_step_names_each_step() -> None:
    above = key(80, 2, {2: 1, 3: 1}, 30, 6)
    assert deciding_step(above, key(70, 2, {2: 1, 3: 1}, 30, 6)) == ("points", None)
    assert deciding_step(above, key(80, 1, {2: 1, 3: 1}, 30, 6)) == ("wins", None)
    assert deciding_step(above, key(80, 2, {3: 3}, 30, 6)) == ("countback", 2)
    assert deciding_step(above, key(80, 2, {2: 1}, 30, 6)) == ("countback", 3)
    assert deciding_step(above, key(80, 2, {2: 1, 3: 1, 9: 1}, 30, 6)) == ("countback", 9)
    assert deciding_step(above, key(80, 2, {2: 1, 3: 1}, 20, 6)) == ("best_single", None)
    assert deciding_step(above, key(80, 2, {2: 1, 3: 1}, 30, 5)) == ("played", None)
    assert deciding_step(above, above) == ("tied", None)


def test_r11_countback_key_is_as_long_as_the_places_finished_not_the_deepest_place() -> None:
    """R11: a finish in 9,000th place does not make every key 9,000 long (cost stays linear)."""
    deep = ranked_row(1, "Ann", 10, {2: 1, 9000: 1})
    assert len(tie_break_key(deep)[2]) == 3


@given(
    st.lists(
        st.dictionaries(st.integers(2, 12), st.integers(1, 3), min_size=1, max_size=5),
        min_size=2,
        max_size=6,
    )
)
def test_r11_countback_orders_as_counting_each_place_in_turn(finishes: list[dict[int, int]]) -> None:
    """R11: the sparse countback key orders players exactly as comparing the number of 2nd
    places, then 3rd places, … through every place."""
    rows = [ranked_row(i, f"P{i}", 50, {1: 1, **counts}) for i, counts in enumerate(finishes, start=1)]
    dense = {r.player_id: tuple(-r.place_counts.get(p, 0) for p in range(2, 13)) for r in rows}
    by_sparse = sorted(rows, key=lambda r: (tie_break_key(r)[2], r.player_id))
    by_dense = sorted(rows, key=lambda r: (dense[r.player_id], r.player_id))
    assert [r.player_id for r in by_sparse] == [r.player_id for r in by_dense]


def test_r11_rank_rows_explains_every_row_but_the_first() -> None:
    rows = rank_rows(
        [
            ranked_row(1, "Ann", 80, {1: 2, 2: 1}),
            ranked_row(2, "Ben", 80, {1: 2, 3: 1}),
            ranked_row(3, "Cal", 70, {1: 1}),
            ranked_row(4, "Dee", 70, {1: 1}),
        ]
    )
    assert [(r.player_id, r.decided_by, r.decided_at_place) for r in rows] == [
        (1, None, None),
        (2, "countback", 2),
        (3, "points", None),
        (4, "tied", None),
    ]
