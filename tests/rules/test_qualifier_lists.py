"""R3, R12-R14 as pure rules over the qualifier lists as data: a venue's outcome as its list, who
qualified where, what changed since a publication, the lists by region, why a player is or is
not on a list, who may play a playoff or the championship; and the days R12 and R13 count on.
No database."""

from __future__ import annotations

import copy
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.rules.qualifier_lists import (
    LIST_STATUSES,
    ListStatus,
    VenueList,
    differences,
    draws_of,
    list_place,
    playoff_eligibility,
    public_list,
    qualified,
    regions_of,
    season_of_player,
    tied_at_cut,
    venue_list,
)
from models.rules.qualifiers import (
    Entrant,
    PlayerFacts,
    Qualifier,
    Skipped,
    SkipReason,
    VenueOutcome,
    age_day,
    decided_on,
    entrant_of,
    provisional,
    venue_table,
)
from models.rules.standings import Row

pytestmark = pytest.mark.rules

ENDS = date(2026, 6, 30)


def a_list(venue_id: int, region_id: int, *qualifiers: int, tied: tuple[int, ...] = ()) -> VenueList:
    return {
        "venue_id": venue_id,
        "venue_name": f"Venue {venue_id}",
        "region_id": region_id,
        "quota": len(qualifiers),
        "tournaments": 4,
        "average_attendance": "10.00",
        "qualifiers": [
            {
                "player": {"id": p, "display_name": f"P{p}"},
                "rank": rank,
                "points": 100 - rank,
                "flags": ["tie_at_cut"] if p in tied else [],
                "moved_up_past": [],
            }
            for rank, p in enumerate(qualifiers, start=1)
        ],
        "skipped": [],
        "tied_out": [],
    }


# R12, R13: the days that count -----------------------------------------------------------------


def test_r12_lists_are_provisional_through_the_seasons_last_day() -> None:
    assert provisional(ENDS, date(2026, 6, 29))
    assert provisional(ENDS, ENDS)
    assert not provisional(ENDS, date(2026, 7, 1))


def test_r13_suspensions_count_today_while_provisional_then_on_the_last_day() -> None:
    assert decided_on(ENDS, date(2026, 5, 1)) == date(2026, 5, 1)
    assert decided_on(ENDS, date(2026, 9, 1)) == ENDS


def test_r13_age_is_reckoned_on_the_championship_date_else_the_last_day() -> None:
    assert age_day(ENDS, date(2026, 7, 20)) == date(2026, 7, 20)
    assert age_day(ENDS, None) == ENDS


def test_r13_an_entrant_is_skipped_everywhere_for_age_a_disqualification_or_a_suspension() -> None:
    adult = PlayerFacts("Ann L.", date(1990, 1, 1), 4)
    assert entrant_of(1, adult, 21, ENDS, set(), set()) == Entrant(1, None, False, 4)
    assert entrant_of(1, adult, 21, ENDS, {1}, {1}).skip == SkipReason.DISQUALIFIED
    assert entrant_of(1, adult, 21, ENDS, set(), {1}).skip == SkipReason.SUSPENDED
    young = PlayerFacts("Cy D.", date(2010, 1, 1), None)
    assert entrant_of(2, young, 21, ENDS, {2}, set()).skip == SkipReason.UNDERAGE
    unknown = entrant_of(3, PlayerFacts("Di E.", None, None), 21, ENDS, set(), set())
    assert unknown.skip is None and unknown.age_unverified


def test_r12_a_venues_standings_become_its_table_with_quota_and_draw() -> None:
    row = Row(7, "G", 30, 30, 0, 0, 3, 1, 1, 1, 6, 3, 20, rank=1, key=(-30, -1, (), -20, -3))
    table = venue_table(5, 2, [row], [7])
    assert (table.venue_id, table.quota, table.draw) == (5, 2, (7,))
    assert [(s.player_id, s.rank, s.points, s.played, s.key) for s in table.standings] == [
        (7, 1, 30, 3, (-30, -1, (), -20, -3))
    ]


# A venue's list ---------------------------------------------------------------------------------


def test_r12_an_outcome_becomes_the_list_a_publication_freezes() -> None:
    outcome = VenueOutcome(
        venue_id=3,
        quota=1,
        qualifiers=[Qualifier(2, 2, 40, ["age_unverified"], [1])],
        skipped=[Skipped(1, 1, 50, SkipReason.QUALIFIED_ELSEWHERE, 9)],
        tied_out=[Qualifier(4, 3, 40, ["tie_at_cut"])],
    )
    names = {1: "Ann L.", 2: "Ben K.", 4: "Di E."}
    made = venue_list(3, "The Crown", 8, 6, Decimal(125) / Decimal(10), names, outcome)
    assert made == {
        "venue_id": 3,
        "venue_name": "The Crown",
        "region_id": 8,
        "quota": 1,
        "tournaments": 6,
        "average_attendance": "12.50",
        "qualifiers": [
            {
                "player": {"id": 2, "display_name": "Ben K."},
                "rank": 2,
                "points": 40,
                "flags": ["age_unverified"],
                "moved_up_past": [1],
            }
        ],
        "skipped": [
            {
                "player": {"id": 1, "display_name": "Ann L."},
                "rank": 1,
                "points": 50,
                "reason": "qualified_elsewhere",
                "venue_id": 9,
            }
        ],
        "tied_out": [
            {"player": {"id": 4, "display_name": "Di E."}, "rank": 3, "points": 40, "flags": ["tie_at_cut"]}
        ],
    }


def test_r13_r19_the_public_list_says_ineligible_and_no_age_flag_and_changes_nothing() -> None:
    """R13, R19: the public's list says `ineligible` for a skip drawn from personal or discipline
    records and drops `age_unverified`; too_few_events, qualified_elsewhere and the tie flags
    stay. The list given (maybe shared by readers) is unchanged; one with nothing to hide is
    answered as it is."""
    reasons = [SkipReason.UNDERAGE, SkipReason.DISQUALIFIED, SkipReason.SUSPENDED]
    outcome = VenueOutcome(
        venue_id=3,
        quota=1,
        qualifiers=[Qualifier(9, 6, 10, ["age_unverified", "tie_at_cut"], [1, 2, 3, 4, 5])],
        skipped=[
            *(Skipped(i, i, 60 - i, reason) for i, reason in enumerate(reasons, start=1)),
            Skipped(4, 4, 50, SkipReason.TOO_FEW_EVENTS),
            Skipped(5, 5, 40, SkipReason.QUALIFIED_ELSEWHERE, 8),
        ],
        tied_out=[Qualifier(10, 6, 10, ["age_unverified", "tie_at_cut"])],
    )
    made = venue_list(3, "The Crown", 8, 6, Decimal(10), {i: f"P{i}" for i in range(1, 11)}, outcome)
    kept = copy.deepcopy(made)
    public = public_list(made)
    assert [s["reason"] for s in public["skipped"]] == [
        "ineligible",
        "ineligible",
        "ineligible",
        "too_few_events",
        "qualified_elsewhere",
    ]
    assert public["qualifiers"][0]["flags"] == public["tied_out"][0]["flags"] == ["tie_at_cut"]
    assert {k: v for k, v in public.items() if k not in ("qualifiers", "skipped", "tied_out")} == {
        k: v for k, v in made.items() if k not in ("qualifiers", "skipped", "tied_out")
    }
    assert made == kept
    plain = venue_list(
        3, "V", 8, 1, Decimal(10), {4: "P4"}, VenueOutcome(3, 1, [], [Skipped(4, 1, 5, "too_few_events")])
    )
    assert public_list(plain) is plain


def test_r12_average_attendance_is_rounded_half_up_to_the_cent() -> None:
    empty = VenueOutcome(1, 1, [], [])
    assert venue_list(1, "V", 1, 3, Decimal(1) / Decimal(8) * 10, {}, empty)["average_attendance"] == "1.25"
    assert venue_list(1, "V", 1, 3, Decimal("2.345"), {}, empty)["average_attendance"] == "2.35"


# Reading the lists ------------------------------------------------------------------------------


def test_r14_each_qualifier_has_one_venue() -> None:
    assert qualified([a_list(1, 10, 11, 12), a_list(2, 10, 21)]) == {11: 1, 12: 1, 21: 2}


def test_r12_differences_since_a_publication() -> None:
    published = [a_list(1, 10, 11, 12), a_list(2, 10, 21)]
    assert differences(published, published) == {"changed": False, "would_come_in": [], "would_drop_out": []}
    current = [a_list(1, 10, 11, 13), a_list(2, 10, 12)]
    changes = differences(published, current)
    assert changes["changed"]
    assert [(m["player"]["id"], m["venue_id"]) for m in changes["would_come_in"]] == [(12, 2), (13, 1)]
    assert [(m["player"]["id"], m["venue_id"]) for m in changes["would_drop_out"]] == [(12, 1), (21, 2)]
    assert changes["would_come_in"][0]["player"] == {"id": 12, "display_name": "P12"}


@given(st.lists(st.integers(1, 30), unique=True), st.lists(st.integers(1, 30), unique=True))
def test_r12_a_player_comes_in_or_drops_out_exactly_where_the_lists_differ(
    before: list[int], after: list[int]
) -> None:
    changes = differences([a_list(1, 1, *before)], [a_list(1, 1, *after)])
    assert {m["player"]["id"] for m in changes["would_come_in"]} == set(after) - set(before)
    assert {m["player"]["id"] for m in changes["would_drop_out"]} == set(before) - set(after)
    assert changes["changed"] == (set(before) != set(after))


def test_r3_the_playoff_lists_by_region_venue_by_venue() -> None:
    regions = regions_of([a_list(1, 10, 11), a_list(2, 20, 21), a_list(3, 10, 31, 32)])
    assert [
        (r["region_id"], [(q["player"]["id"], q["venue_id"]) for q in r["qualifiers"]]) for r in regions
    ] == [
        (10, [(11, 1), (31, 3), (32, 3)]),
        (20, [(21, 2)]),
    ]


def test_r12_who_is_in_a_tie_at_the_cut() -> None:
    lists = [a_list(1, 10, 11, 12, tied=(12,))]
    lists[0]["tied_out"] = [
        {"player": {"id": 13, "display_name": "P13"}, "rank": 2, "points": 98, "flags": []}
    ]
    assert tied_at_cut(lists, 1) == {12, 13}
    assert tied_at_cut(lists, 2) is None
    assert tied_at_cut([a_list(1, 10, 11)], 1) == set()


def test_r12_the_draws_a_publication_settled_by_venue_in_order() -> None:
    settled = [
        {"venue_id": 2, "player_id": 5},
        {"venue_id": 1, "player_id": 9},
        {"venue_id": 2, "player_id": 3},
    ]
    assert draws_of(settled) == {2: [5, 3], 1: [9]}
    assert draws_of([]) == {}


def test_r13_why_a_player_is_or_is_not_on_a_venues_list() -> None:
    venue = a_list(1, 10, 11)
    venue["skipped"] = [
        {
            "player": {"id": 12, "display_name": "P12"},
            "rank": 1,
            "points": 99,
            "reason": "suspended",
            "venue_id": None,
        }
    ]
    venue["tied_out"] = [{"player": {"id": 13, "display_name": "P13"}, "rank": 2, "points": 98, "flags": []}]
    lists = [venue]

    def status(venue_id: int, player_id: int) -> tuple[str, str | None]:
        place = list_place(lists, venue_id, player_id)
        return place["status"], place["reason"]

    assert status(1, 11) == ("qualified", None)
    assert status(1, 12) == ("skipped", "suspended")
    assert status(1, 13) == ("tied_at_cut", None)
    assert status(1, 14) == ("below_the_cut", None)
    assert status(2, 11) == ("below_the_cut", None)
    assert LIST_STATUSES == tuple(ListStatus) == ("qualified", "skipped", "tied_at_cut", "below_the_cut")


def test_r14_a_players_season_where_they_qualified_and_why_not_elsewhere() -> None:
    lists = [a_list(1, 10, 11), a_list(2, 10, 21)]
    season = season_of_player(4, lists, True, False, 11, [1, 2])
    assert season["season_id"] == 4 and season["qualified_at"] == 1
    assert (season["provisional"], season["published"]) == (True, False)
    assert [(v["venue_id"], v["status"]) for v in season["venues"]] == [
        (1, "qualified"),
        (2, "below_the_cut"),
    ]
    assert season_of_player(4, lists, False, True, 99, [])["qualified_at"] is None
    # Published lists are read whole: one frozen before a void may name a venue no longer played.
    assert season_of_player(4, lists, False, True, 11, [2])["qualified_at"] == 1


# R3: who may play a playoff or the championship -------------------------------------------------


LISTS = [a_list(1, 10, 11), a_list(2, 20, 21)]


def eligibility(
    kind: str, *entrants: tuple[int, date | None] | None, unreadable: tuple[int, ...] = ()
) -> tuple[list[tuple[str, str | None]], list[str]]:
    problems, notices = playoff_eligibility(
        kind, date(2026, 7, 20), 10, 4, 21, LISTS, list(entrants), unreadable
    )
    return [(p.path, p.rule) for p in problems], [n.code for n in notices]


def test_r3_a_playoff_takes_only_qualifiers_of_its_region() -> None:
    assert eligibility("playoff", (11, None)) == ([], [])
    assert eligibility("playoff", (11, None), (21, None)) == ([("results.1.player_id", "R3")], [])
    assert eligibility("playoff", (99, None), None) == (
        [("results.0.player_id", "R3"), ("results.1.player_id", "R3")],
        [],
    )


def test_r3_a_championship_takes_qualifiers_of_age_and_notes_an_unknown_age() -> None:
    assert eligibility("championship", (11, date(1990, 1, 1)), (21, date(1990, 1, 1))) == ([], [])
    assert eligibility("championship", (11, date(2006, 1, 1))) == ([("results.0.player_id", "R3")], [])
    assert eligibility("championship", (21, None)) == ([], ["age_unverified"])


def test_r3_unreadable_rows_are_left_out() -> None:
    assert eligibility("playoff", (99, None), (11, None), unreadable=(0,)) == ([], [])
