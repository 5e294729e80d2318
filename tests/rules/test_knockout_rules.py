"""R8a as pure rules: a knocker is another entrant who finished higher, the winner has none;
knockout and bounty points per knocker; the venue leaders (ties all carry the bounty); and
knockout points as part of a tournament's total, so best-N (R10) sees them."""

from __future__ import annotations

from models.rules.charts import DEFAULT_CHART
from models.rules.knockouts import (
    NO_SHOW,
    OFF,
    Bounty,
    Earned,
    Knockouts,
    knockout_problems,
    knockouts_earned,
    leaders,
)
from models.rules.reports import EntrantStatus, score_report
from models.rules.standings import Entry, line_of, line_points

TEN_AND_BOUNTY = Knockouts(10, Bounty.VENUE_LEADER, 25)


def test_r8a_a_knocker_finished_higher_and_the_winner_has_none() -> None:
    # (place, knocker's row): rows 0..3 placed 1..4.
    rows = [(1, 2), (2, 1), (3, 3), (4, 0)]
    problems = {p.path: p.message for p in knockout_problems(rows)}
    assert set(problems) == {
        "results.0.knocked_out_by",
        "results.1.knocked_out_by",
        "results.2.knocked_out_by",
    }
    assert "winner" in problems["results.0.knocked_out_by"]
    assert "themselves" in problems["results.1.knocked_out_by"]
    assert "finished 4th, not higher than 3rd" in problems["results.2.knocked_out_by"]
    assert knockout_problems([(1, None), (2, 0), (3, 1), (4, 0)]) == []


def test_r8a_r6_a_no_show_knocks_no_one_out() -> None:
    """R8a: a no_show (who never played a hand, R6) is named by no row as its knocker; a knocker
    of any other status is one."""
    rows = [(1, None), (2, 0), (3, 1), (4, 1)]
    statuses = ["played", "absent", "played", "no_show"]
    assert knockout_problems(rows, statuses) == []
    problems = knockout_problems(rows, ["played", "no_show", "played", "played"])
    assert [p.path for p in problems] == ["results.2.knocked_out_by", "results.3.knocked_out_by"]
    assert {p.rule for p in problems} == {"R8a"}
    assert "finished 2nd, is a no_show" in problems[0].message
    assert "never played a hand" in problems[0].message
    every = knockout_problems([(1, None), (2, 2), (3, None)], ["played", "played", "no_show"])
    assert [p.path for p in every] == ["results.1.knocked_out_by"]
    # Without statuses (a caller that knows none): places only, as before.
    assert knockout_problems([(1, None), (2, 0)]) == []
    assert NO_SHOW == EntrantStatus.NO_SHOW


def test_r8a_each_knockout_earns_the_seasons_points_and_a_bounty_once() -> None:
    made = knockouts_earned([(2, 1), (3, 1), (4, 2), (1, None)], TEN_AND_BOUNTY, bounties={3})
    assert made == {1: Earned(2, 10 + 10 + 25), 2: Earned(1, 10)}
    # Off: counted, worth nothing; a bounty of 0 points pays nothing.
    assert knockouts_earned([(2, 1)], OFF, bounties={2}) == {1: Earned(1, 0)}
    assert knockouts_earned([(2, 1)], Knockouts(0, Bounty.LAST_WINNER, 0), {2}) == {1: Earned(1, 0)}
    assert not OFF.scores and TEN_AND_BOUNTY.scores and Knockouts(0, Bounty.VENUE_LEADER, 25).has_bounty


def test_r8a_every_player_tied_at_the_top_carries_the_bounty() -> None:
    assert leaders({1: 1, 2: 1, 3: 3}) == {1, 2}
    assert leaders({}) == set()


def test_r8a_r6_knockout_points_are_part_of_the_result_whatever_the_status() -> None:
    # 10 entrants (30, 20, 10 for the top 3, 5 for taking part): the 2nd, absent (no placement
    # points, R6), knocked out the 6th before leaving, and keeps the 10 it earned.
    entrants = [(1, "played"), (2, "absent")] + [(place, "played") for place in range(3, 11)]
    knocked_by = [None, 0, None, None, None, 1, 0, None, None, None]
    earned = score_report(DEFAULT_CHART, entrants, 5, False, knocked_by, Knockouts(10), ())
    first, absent = earned[0], earned[1]
    assert (first.placement_points, first.participation_points, first.knockout_points, first.knockouts) == (
        30,
        5,
        20,
        2,
    )
    assert (absent.placement_points, absent.knockout_points, absent.knockouts, absent.points) == (
        0,
        10,
        1,
        15,
    )


def test_r8a_r10_best_nights_count_with_their_knockout_points() -> None:
    # Two nights: 30 placement, or 10 placement + 40 for knockouts. Best one: the second (50).
    nights = [Entry(1, 1, "played", 30, 0), Entry(2, 3, "played", 10, 0, 40, 4)]
    line = line_of(7, "Ann A.", nights, count_best=1)
    assert (line.counted, line.knockout_points, line.knockouts, line.best_single) == (50, 40, 4, 50)
    assert line_points(line, []) == 50
