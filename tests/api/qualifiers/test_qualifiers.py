"""Qualifier lists through the HTTP API (R12-R14): the quota from the average attendance, who is
skipped and why (R13, in its order of reasons), ties at the cut, one qualifying venue per player
under each double-qualifier policy (R14), the regions' lists, CSV, ETags, and a player's
qualification on their profile."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import UTC, datetime, time
from decimal import Decimal
from typing import Any

import pytest
import time_machine

from tests.builders import (
    MakeScene,
    Scene,
    ago,
    born,
    day_after,
    days_ago,
    ended_season,
    ids_of,
    person,
    qualifiers_path,
    read_qualifiers,
    sanctioned,
)
from tests.support.league import Caller, League, assert_problem

# A season that ended 10 days ago, its championship 5 days ago.

CSV_HEADER = [
    "venue_id",
    "venue_name",
    "region_id",
    "status",
    "rank",
    "player_id",
    "display_name",
    "points",
    "flags",
    "reason",
    "elsewhere_venue_id",
]


def venue_list(scene: Scene, venue_id: int | None = None, query: str = "") -> dict[str, Any]:
    """The office's qualifier list of the scene's venue (or `venue_id`): every skip reason and
    flag as R13 gives it (what the public reads of them: the R13, R19 tests at the end)."""
    return read_qualifiers(scene.office, scene.season_id, venue_id or scene.venue_id, query)


def adults(scene: Scene, *names: str) -> list[int]:
    """Players born in 1990 (their age is known: no age_unverified flag)."""
    return [person(scene, name, date_of_birth="1990-01-01") for name in names]


def skipped(listing: dict[str, Any]) -> list[tuple[int, str]]:
    """(player id, reason) of each skipped entry, in order."""
    return [(int(s["player"]["id"]), s["reason"]) for s in listing["skipped"]]


def by_id(items: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {int(item["player"]["id"]): item for item in items}


def disqualify(scene: Scene, player_id: int, reason: str = "Collusion at the final table.") -> dict[str, Any]:
    response = scene.office.post(
        f"/api/v1/seasons/{scene.season_id}/disqualifications",
        json={"player_id": player_id, "reason": reason},
    )
    assert response.status_code == 201, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return data


def suspend(scene: Scene, player_id: int, first: int, last: int) -> dict[str, Any]:
    """A league-wide suspension from `first` to `last` days ago (both days count)."""
    return sanctioned(
        scene.office, player_id, "suspension", "fighting", first_day=ago(first), last_day=ago(last)
    )


def profile_qualification(caller: Caller, player_id: int) -> list[dict[str, Any]]:
    response = caller.get(f"/api/v1/players/{player_id}")
    assert response.status_code == 200, response.get_data(as_text=True)
    items: list[dict[str, Any]] = response.get_json()["qualification"]
    return items


def csv_rows(response: Any) -> tuple[list[str], list[dict[str, str]]]:
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "text/csv"
    text = response.get_data(as_text=True).lstrip("\ufeff")
    header = next(csv.reader(io.StringIO(text)))
    return header, list(csv.DictReader(io.StringIO(text)))


# R12: the quota -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cut_fraction", "fields", "quota", "average"),
    [
        (0.2, [12, 13], 3, "12.5"),  # 2.5 rounds half up to 3 (not to the even 2)
        (0.2, [7, 8], 2, "7.5"),  # 1.5 -> 2
        (0.2, [2], 1, "2"),  # 0.4 rounds to 0: the floor of 1
        (0.1, [14], 1, "14"),  # 1.4 -> 1
        (0.1, [15], 2, "15"),  # 1.5 -> 2
        (0.3, [10, 10, 11], 3, "10.3333"),  # 3.1 -> 3
    ],
)
def test_quota_is_cut_fraction_of_average_attendance_half_up_at_least_one_r12(
    make_scene: MakeScene, cut_fraction: float, fields: list[int], quota: int, average: str
) -> None:
    """R12: q = max(1, round_half_up(cut_fraction x entrants / tournaments)); the first q eligible
    players in standings order qualify."""
    scene = make_scene(**ended_season(), cut_fraction=cut_fraction)
    leaders = scene.players("Ace", "Bee", "Cat")
    for n in fields:
        scene.padded(leaders[: min(3, n)], n)
    listing = venue_list(scene)
    assert listing["quota"] == quota
    assert listing["tournaments"] == len(fields)
    assert abs(Decimal(str(listing["average_attendance"])) - Decimal(average)) < Decimal("0.01")
    standings_order = [row["player"]["id"] for row in scene.rows()]
    assert ids_of(listing["qualifiers"]) == standings_order[:quota]
    assert [q["rank"] for q in listing["qualifiers"]] == list(range(1, quota + 1))
    assert listing["skipped"] == [] and listing["tied_out"] == []


def test_venue_list_shape_and_the_cut_default_of_20_percent_r12(make_scene: MakeScene) -> None:
    """R12: the default cut_fraction is 0.20 (10 entrants -> 2 qualifiers); points and ranks are
    the standings' own."""
    scene = make_scene(**ended_season())
    ace, bee, cat = adults(scene, "Ace", "Bee", "Cat")
    scene.padded([ace, bee, cat], 10)
    listing = venue_list(scene)
    assert (listing["venue_id"], listing["venue_name"]) == (scene.venue_id, scene.venue["name"])
    assert listing["region_id"] == scene.region["id"]
    assert listing["season_id"] == scene.season_id
    assert listing["quota"] == 2
    assert listing["qualifiers"] == [
        {
            "player": {"id": ace, "display_name": "Ace", "label": "Ace"},
            "rank": 1,
            "points": 30,
            "flags": [],
            "moved_up_past": [],
        },
        {
            "player": {"id": bee, "display_name": "Bee", "label": "Bee"},
            "rank": 2,
            "points": 20,
            "flags": [],
            "moved_up_past": [],
        },
    ]


def test_regular_tournaments_of_other_venues_do_not_count_in_the_average_r12(
    make_scene: MakeScene, league: League
) -> None:
    """R12: the average is of the venue's own regular tournaments."""
    scene = make_scene(**ended_season())
    other = league.venue(scene.region["id"])
    scene.padded(scene.players("Ace"), 10)
    scene.report(scene.add_players(20), venue_id=other["id"])
    assert (venue_list(scene)["quota"], venue_list(scene)["tournaments"]) == (2, 1)
    assert venue_list(scene, other["id"])["quota"] == 4


def test_a_voided_tournament_leaves_the_average_r12(make_scene: MakeScene) -> None:
    """R12: 10 and 20 entrants: average 15, quota 3; voided, the 20 no longer count: quota 2."""
    scene = make_scene(**ended_season())
    scene.padded(scene.players("Ace"), 10)
    big = scene.padded(scene.players("Bee"), 20)
    assert (venue_list(scene)["quota"], venue_list(scene)["tournaments"]) == (3, 2)
    voided = scene.office.post(f"/api/v1/tournaments/{big['id']}/void", json={"reason": "Wrong venue."})
    assert voided.status_code == 200, voided.get_data(as_text=True)
    listing = venue_list(scene)
    assert (listing["quota"], listing["tournaments"]) == (2, 1)
    assert Decimal(str(listing["average_attendance"])) == 10


# R12: provisional while the season runs ----------------------------------------------------


def test_lists_are_provisional_while_the_season_runs_and_not_after_r12(make_scene: MakeScene) -> None:
    """R12: through the season's last day the lists say provisional; the day after they do not."""
    scene = make_scene(starts_on=ago(60), ends_on=ago(0))
    scene.padded(scene.players("Ace", "Bee"), 10)
    season = read_qualifiers(scene.public, scene.season_id)
    assert season["provisional"] is True
    assert (season["published"], season["published_at"], season["note"], season["changes"]) == (
        False,
        None,
        None,
        None,
    )
    assert venue_list(scene)["provisional"] is True
    tomorrow = datetime.combine(days_ago(-1), time(12), tzinfo=UTC)
    with time_machine.travel(tomorrow, tick=False):
        assert read_qualifiers(scene.public, scene.season_id)["provisional"] is False
        assert venue_list(scene)["provisional"] is False


def test_an_ended_seasons_lists_are_not_provisional_r12(make_scene: MakeScene) -> None:
    scene = make_scene(**ended_season())
    scene.padded(scene.players("Ace"), 10)
    assert read_qualifiers(scene.public, scene.season_id)["provisional"] is False
    assert venue_list(scene)["provisional"] is False
    assert venue_list(scene)["published"] is False
    assert venue_list(scene)["changes"] is None


# R12: min_events_to_qualify ----------------------------------------------------------------


def test_too_few_events_skips_the_player_and_the_next_moves_up_r12_r13(make_scene: MakeScene) -> None:
    """R12/R13: with min_events_to_qualify 2, a player with one tournament there is skipped
    (too_few_events); with the default of 1 they qualify."""
    scene = make_scene(**ended_season(), min_events_to_qualify=2)
    ace, bee, cat, dan = scene.players("Ace", "Bee", "Cat", "Dan")
    scene.padded([ace, bee, cat, dan], 10)  # Ace 30, Bee 20, Cat 10
    scene.padded([bee, dan, cat], 10)  # Bee 30, Dan 20, Cat 10
    # Standings: Bee 50, Ace 30, Dan 20 (a 2nd place), Cat 20.
    before = scene.rows()
    assert [r["player"]["id"] for r in before[:4]] == [bee, ace, dan, cat]
    listing = venue_list(scene)
    assert listing["quota"] == 2
    assert ids_of(listing["qualifiers"]) == [bee, dan]
    assert by_id(listing["qualifiers"])[dan]["moved_up_past"] == [ace]
    assert by_id(listing["qualifiers"])[bee]["moved_up_past"] == []
    assert skipped(listing) == [(ace, "too_few_events")]
    assert (listing["skipped"][0]["rank"], listing["skipped"][0]["points"]) == (2, 30)
    assert scene.rows() == before
    assert scene.patch(min_events_to_qualify=1).status_code == 200
    assert ids_of(venue_list(scene)["qualifiers"]) == [bee, ace]


# R13: each reason a player is skipped ------------------------------------------------------


def test_underage_on_the_championship_date_is_skipped_and_unknown_age_is_flagged_r13(
    make_scene: MakeScene,
) -> None:
    """R13: age is reckoned on the championship date (5 days ago): one who turns 21 the day after
    it is skipped (though 21 today); one who turns 21 on it qualifies (though 20 on the season's
    last day); one without a date of birth qualifies flagged age_unverified."""
    scene = make_scene(**ended_season())
    on_the_day = born(21, days_ago(5))
    young = person(scene, "Young", date_of_birth=day_after(on_the_day))
    just = person(scene, "Just", date_of_birth=on_the_day)
    unknown = scene.player("Unknown")
    adult = person(scene, "Adult", date_of_birth="1980-06-15")
    scene.padded([young, just, unknown, adult], 10)
    before = scene.rows()
    listing = venue_list(scene)
    assert listing["quota"] == 2
    assert ids_of(listing["qualifiers"]) == [just, unknown]
    quals = by_id(listing["qualifiers"])
    assert quals[just]["flags"] == []
    assert quals[unknown]["flags"] == ["age_unverified"]
    assert quals[just]["moved_up_past"] == [young]
    assert quals[unknown]["moved_up_past"] == [young]
    assert skipped(listing) == [(young, "underage")]
    assert listing["skipped"][0]["venue_id"] is None
    assert scene.rows() == before
    # The season's min_age decides: at 18 the young player qualifies.
    assert scene.patch(min_age=18).status_code == 200
    assert ids_of(venue_list(scene)["qualifiers"]) == [young, just]


def test_disqualified_player_is_skipped_and_their_standings_stay_r13(make_scene: MakeScene) -> None:
    """R13: the office's disqualification skips the player; the next one moves up."""
    scene = make_scene(**ended_season())
    ace, bee, cat = scene.players("Ace", "Bee", "Cat")
    scene.padded([ace, bee, cat], 10)
    before = scene.rows()
    assert ids_of(venue_list(scene)["qualifiers"]) == [ace, bee]
    disqualify(scene, ace)
    listing = venue_list(scene)
    assert ids_of(listing["qualifiers"]) == [bee, cat]
    assert [q["moved_up_past"] for q in listing["qualifiers"]] == [[ace], [ace]]
    assert listing["skipped"] == [
        {
            "player": {"id": ace, "display_name": "Ace", "label": "Ace"},
            "rank": 1,
            "points": 30,
            "reason": "disqualified",
            "venue_id": None,
        }
    ]
    assert scene.rows() == before
    assert scene.row(ace)["rank"] == 1


def test_suspended_on_the_seasons_last_day_is_skipped_r13(make_scene: MakeScene) -> None:
    """R13: after the season, a suspension counts if it runs on the season's last day (10 days
    ago); one that starts after it does not."""
    scene = make_scene(**ended_season())
    ace, bee, cat, dan = scene.players("Ace", "Bee", "Cat", "Dan")
    scene.padded([ace, bee, cat, dan], 10)
    before = scene.rows()
    suspend(scene, ace, 20, 0)  # runs on the last day
    suspend(scene, bee, 9, -20)  # runs today, not on the last day
    listing = venue_list(scene)
    assert ids_of(listing["qualifiers"]) == [bee, cat]
    assert skipped(listing) == [(ace, "suspended")]
    assert by_id(listing["qualifiers"])[cat]["moved_up_past"] == [ace]
    assert scene.rows() == before


def test_a_provisional_list_skips_whoever_is_suspended_today_r13(make_scene: MakeScene) -> None:
    """R13: while the season runs, a suspension counts if it runs today."""
    scene = make_scene()
    ace, bee, cat, dan = scene.players("Ace", "Bee", "Cat", "Dan")
    scene.padded([ace, bee, cat, dan], 10)
    suspend(scene, ace, 0, -20)  # from today
    suspend(scene, bee, 30, 1)  # ended yesterday
    listing = venue_list(scene)
    assert listing["provisional"] is True
    assert ids_of(listing["qualifiers"]) == [bee, cat]
    assert skipped(listing) == [(ace, "suspended")]


def test_a_lifted_suspension_skips_no_one_r13(make_scene: MakeScene) -> None:
    scene = make_scene(**ended_season())
    ace, bee, cat = scene.players("Ace", "Bee", "Cat")
    scene.padded([ace, bee, cat], 10)
    sanction = suspend(scene, ace, 20, 0)
    assert ids_of(venue_list(scene)["qualifiers"]) == [bee, cat]
    lifted = scene.office.post(f"/api/v1/sanctions/{sanction['id']}/lift", json={"reason": "Appeal upheld."})
    assert lifted.status_code == 200, lifted.get_data(as_text=True)
    assert ids_of(venue_list(scene)["qualifiers"]) == [ace, bee]


def test_a_permanent_suspension_skips_and_a_venue_ban_does_not_r13(make_scene: MakeScene) -> None:
    """R13: a permanent league-wide suspension running on the last day skips the player; a venue
    ban is no league-wide suspension."""
    scene = make_scene(**ended_season())
    ace, bee, cat, dan = adults(scene, "Ace", "Bee", "Cat", "Dan")
    scene.padded([ace, bee, cat, dan], 10)
    sanctioned(scene.office, ace, "suspension", "fighting", first_day=ago(30))
    sanctioned(scene.office, bee, "venue_ban", "fighting", venue_id=scene.venue_id, first_day=ago(30))
    listing = venue_list(scene)
    assert ids_of(listing["qualifiers"]) == [bee, cat]
    assert skipped(listing) == [(ace, "suspended")]


def test_the_first_reason_in_r13s_order_is_given(make_scene: MakeScene, league: League) -> None:
    """R13: underage before disqualified before suspended before too_few_events before
    qualified_elsewhere; every skipped player above the last qualifier is listed, in order."""
    scene = make_scene(**ended_season(), cut_fraction=0.1, min_events_to_qualify=2)
    other = league.venue(scene.region["id"])["id"]
    young = person(scene, "Young", date_of_birth="2015-01-01")  # also disqualified and suspended
    dis = scene.player("Dis")  # also suspended
    sus = scene.player("Sus")
    far = scene.player("Far")  # qualifies at the other venue
    quinn = scene.player("Quinn")
    # 20 entrants: 60 50 40 30 20 10; 5 entrants: 20 10. Quinn: 20 points, a win, two tournaments.
    scene.report([young, dis, sus, far, *scene.add_players(2), quinn, *scene.add_players(13)])
    scene.report([quinn, *scene.add_players(4)])
    scene.report([far, *scene.add_players(9)], venue_id=other)
    scene.report([far, *scene.add_players(9)], venue_id=other)
    for player_id in (young, dis):
        disqualify(scene, player_id)
    for player_id in (young, dis, sus):
        suspend(scene, player_id, 20, 0)
    listing = venue_list(scene)
    assert listing["quota"] == 1  # 0.1 x 12.5
    assert ids_of(listing["qualifiers"]) == [quinn]
    assert listing["qualifiers"][0]["rank"] == 5
    assert listing["qualifiers"][0]["moved_up_past"] == [young, dis, sus, far]
    assert skipped(listing) == [
        (young, "underage"),
        (dis, "disqualified"),
        (sus, "suspended"),
        (far, "too_few_events"),
    ]
    assert [s["rank"] for s in listing["skipped"]] == [1, 2, 3, 4]
    assert ids_of(venue_list(scene, other)["qualifiers"]) == [far]


def test_qualified_elsewhere_names_the_venue_and_the_next_moves_up_r13_r14(
    make_scene: MakeScene, league: League
) -> None:
    """R13/R14: a player who qualifies at another venue is skipped here as qualified_elsewhere,
    with that venue's id."""
    scene = make_scene(**ended_season())
    other = league.venue(scene.region["id"])["id"]
    star, bee, cat = scene.players("Star", "Bee", "Cat")
    scene.report([star, bee, cat, *scene.add_players(7)])  # Star rank 1 here, 30
    scene.report([star, *scene.add_players(9)], venue_id=other)
    scene.report([star, *scene.add_players(9)], venue_id=other)  # rank 1 there too, 60
    before = scene.rows()
    listing = venue_list(scene)
    assert ids_of(listing["qualifiers"]) == [bee, cat]
    assert listing["skipped"] == [
        {
            "player": {"id": star, "display_name": "Star", "label": "Star"},
            "rank": 1,
            "points": 30,
            "reason": "qualified_elsewhere",
            "venue_id": other,
        }
    ]
    assert by_id(listing["qualifiers"])[bee]["moved_up_past"] == [star]
    assert ids_of(venue_list(scene, other)["qualifiers"])[0] == star
    assert scene.rows() == before
    _header, rows = csv_rows(
        scene.public.get(qualifiers_path(scene.season_id, scene.venue_id) + "?format=csv")
    )
    (star_row,) = [r for r in rows if r["player_id"] == str(star)]
    assert (star_row["status"], star_row["reason"], star_row["elsewhere_venue_id"]) == (
        "skipped",
        "qualified_elsewhere",
        str(other),
    )


def test_skipped_lists_all_skipped_players_when_the_quota_is_not_filled_r12(make_scene: MakeScene) -> None:
    """R12: when too few are eligible to fill the quota, every skipped player is listed."""
    scene = make_scene(**ended_season(), min_events_to_qualify=2)
    ace, bee = scene.players("Ace", "Bee")
    scene.padded([ace, bee], 10)
    listing = venue_list(scene)
    assert listing["quota"] == 2
    assert listing["qualifiers"] == []
    assert [pid for pid, _ in skipped(listing)][:2] == [ace, bee]
    assert {reason for _pid, reason in skipped(listing)} == {"too_few_events"}
    assert len(listing["skipped"]) == 10


# R12: ties at the cut ------------------------------------------------------------------------


def tied_pair(scene: Scene) -> tuple[int, int]:
    """Bee (created first: the lower id) and Ace, level after every R11 tie-break: each won one
    10-entrant tournament and was 2nd in the other (50 points)."""
    bee, ace = adults(scene, "Bee", "Ace")
    scene.padded([bee, ace], 10)
    scene.padded([ace, bee], 10)
    return bee, ace


def test_players_level_at_the_cut_go_by_lower_id_and_are_flagged_tie_at_cut_r12(
    make_scene: MakeScene,
) -> None:
    """R12: quota 1 and two players level after every tie-break: the lower id qualifies (though
    the standings list Ace first, by name), both flagged tie_at_cut, Ace in tied_out."""
    scene = make_scene(**ended_season(), cut_fraction=0.1)
    bee, ace = tied_pair(scene)
    assert bee < ace
    rows = scene.rows()
    assert [(r["player"]["id"], r["rank"], r["points"]) for r in rows[:2]] == [(ace, 1, 50), (bee, 1, 50)]
    listing = venue_list(scene)
    assert listing["quota"] == 1
    assert ids_of(listing["qualifiers"]) == [bee]
    assert "tie_at_cut" in listing["qualifiers"][0]["flags"]
    assert listing["qualifiers"][0]["moved_up_past"] == []
    assert ids_of(listing["tied_out"]) == [ace]
    assert "tie_at_cut" in listing["tied_out"][0]["flags"]
    assert (listing["tied_out"][0]["rank"], listing["tied_out"][0]["points"]) == (1, 50)
    assert listing["skipped"] == []


def test_a_tie_above_the_cut_is_not_flagged_r12(make_scene: MakeScene) -> None:
    """R12: with quota 2 both level players go; the lower id separates no one from the list."""
    scene = make_scene(**ended_season())
    bee, ace = tied_pair(scene)
    listing = venue_list(scene)
    assert listing["quota"] == 2
    assert ids_of(listing["qualifiers"]) == [bee, ace]
    assert [q["flags"] for q in listing["qualifiers"]] == [[], []]
    assert listing["tied_out"] == []


def test_a_tie_broken_by_r11_is_no_tie_at_the_cut_r12(make_scene: MakeScene) -> None:
    """R12: level on points but apart on wins: no flag, nobody tied out."""
    scene = make_scene(**ended_season(), cut_fraction=0.1)
    bee, ace = adults(scene, "Bee", "Ace")
    scene.padded([ace, bee], 10)  # Ace 30, Bee 20
    scene.padded([bee], 10)  # Bee 30: 50
    scene.padded([ace], 5)  # Ace 20: 50, two wins
    listing = venue_list(scene)
    assert ids_of(listing["qualifiers"]) == [ace]
    assert listing["qualifiers"][0]["flags"] == []
    assert listing["tied_out"] == []


# R14: one qualifying venue ------------------------------------------------------------------


def two_venue_world(scene: Scene, league: League) -> dict[str, int]:
    """Pat plays once at the first venue and wins (rank 1, 30); twice at the second, 2nd behind
    Rex both times (rank 2, 40). 10 entrants everywhere: quota 2 at both."""
    second = league.venue(scene.region["id"])["id"]
    pat, ann, abe, rex, bob = scene.players("Pat", "Ann", "Abe", "Rex", "Bob")
    scene.report([pat, ann, abe, *scene.add_players(7)])
    extra = scene.add_players(7)
    scene.report([rex, pat, bob, *extra], venue_id=second)
    scene.report([rex, pat, bob, *extra], venue_id=second)
    return {
        "first": scene.venue_id,
        "second": second,
        "pat": pat,
        "ann": ann,
        "abe": abe,
        "rex": rex,
        "bob": bob,
    }


@pytest.mark.parametrize("policy", ["best_rank", "most_played"])
def test_a_player_qualifying_at_two_venues_qualifies_at_one_by_policy_r14(
    make_scene: MakeScene, league: League, policy: str
) -> None:
    """R14: best_rank takes Pat's rank 1 at the first venue; most_played the second, where Pat
    played twice. The other venue's next player moves up, Pat skipped there as qualified_elsewhere."""
    scene = make_scene(**ended_season(), double_qualifier_policy=policy)
    w = two_venue_world(scene, league)
    first, second = venue_list(scene, w["first"]), venue_list(scene, w["second"])
    if policy == "best_rank":
        assert ids_of(first["qualifiers"]) == [w["pat"], w["ann"]]
        assert ids_of(second["qualifiers"]) == [w["rex"], w["bob"]]
        assert second["skipped"][0]["player"]["id"] == w["pat"]
        assert (second["skipped"][0]["reason"], second["skipped"][0]["venue_id"]) == (
            "qualified_elsewhere",
            w["first"],
        )
        assert by_id(second["qualifiers"])[w["bob"]]["moved_up_past"] == [w["pat"]]
        assert first["skipped"] == []
    else:
        assert ids_of(first["qualifiers"]) == [w["ann"], w["abe"]]
        assert ids_of(second["qualifiers"]) == [w["rex"], w["pat"]]
        assert skipped(first) == [(w["pat"], "qualified_elsewhere")]
        assert first["skipped"][0]["venue_id"] == w["second"]
        assert [q["moved_up_past"] for q in first["qualifiers"]] == [[w["pat"]], [w["pat"]]]
        assert second["skipped"] == []
    everyone = [
        p for v in read_qualifiers(scene.public, scene.season_id)["venues"] for p in ids_of(v["qualifiers"])
    ]
    assert everyone.count(w["pat"]) == 1


def test_home_venue_policy_takes_the_recorded_home_then_best_rank_r14(
    make_scene: MakeScene, league: League
) -> None:
    """R14 home_venue: without a home venue on record, best_rank decides (the first venue); once
    the office records the second as Pat's home, Pat qualifies there."""
    scene = make_scene(**ended_season(), double_qualifier_policy="home_venue")
    w = two_venue_world(scene, league)
    assert w["pat"] in ids_of(venue_list(scene, w["first"])["qualifiers"])
    patched = scene.office.patch(f"/api/v1/players/{w['pat']}", json={"home_venue_id": w["second"]})
    assert patched.status_code == 200, patched.get_data(as_text=True)
    assert patched.get_json()["home_venue_id"] == w["second"]
    first, second = venue_list(scene, w["first"]), venue_list(scene, w["second"])
    assert ids_of(second["qualifiers"]) == [w["rex"], w["pat"]]
    assert ids_of(first["qualifiers"]) == [w["ann"], w["abe"]]
    assert skipped(first) == [(w["pat"], "qualified_elsewhere")]
    assert first["skipped"][0]["venue_id"] == w["second"]


def test_home_venue_is_ignored_by_the_other_policies_r14(make_scene: MakeScene, league: League) -> None:
    scene = make_scene(**ended_season())  # best_rank
    w = two_venue_world(scene, league)
    assert (
        scene.office.patch(f"/api/v1/players/{w['pat']}", json={"home_venue_id": w["second"]}).status_code
        == 200
    )
    assert ids_of(venue_list(scene, w["first"])["qualifiers"]) == [w["pat"], w["ann"]]


def test_best_rank_level_ranks_go_by_more_points_r14(make_scene: MakeScene, league: League) -> None:
    """R14 best_rank: rank 1 at both venues; the more points at the second venue decide."""
    scene = make_scene(**ended_season())
    second = league.venue(scene.region["id"])["id"]
    assert scene.venue_id < second
    pat = scene.player("Pat")
    scene.report([pat, *scene.add_players(9)])  # 30 at the first
    scene.report([pat, *scene.add_players(9)], venue_id=second)
    scene.report([pat, *scene.add_players(4)], venue_id=second)  # 30 + 20 at the second
    first_list, second_list = venue_list(scene), venue_list(scene, second)
    assert ids_of(second_list["qualifiers"])[0] == pat
    assert pat not in ids_of(first_list["qualifiers"])
    assert skipped(first_list) == [(pat, "qualified_elsewhere")]
    assert first_list["skipped"][0]["venue_id"] == second


def test_best_rank_level_rank_and_points_go_to_the_lower_venue_id_r14(
    make_scene: MakeScene, league: League
) -> None:
    """R14 best_rank: rank 1 and 30 points at both venues: the venue with the lower id."""
    scene = make_scene(**ended_season())
    second = league.venue(scene.region["id"])["id"]
    assert scene.venue_id < second
    kim = scene.player("Kim")
    scene.report([kim, *scene.add_players(9)], venue_id=second)
    scene.report([kim, *scene.add_players(9)])
    first_list, second_list = venue_list(scene), venue_list(scene, second)
    assert ids_of(first_list["qualifiers"])[0] == kim
    assert kim not in ids_of(second_list["qualifiers"])
    assert skipped(second_list) == [(kim, "qualified_elsewhere")]
    assert second_list["skipped"][0]["venue_id"] == scene.venue_id


def test_a_player_turned_away_by_their_first_choice_qualifies_at_the_next_r14(
    make_scene: MakeScene, league: League
) -> None:
    """R14 (deferred acceptance): Pat prefers the first venue (rank 2 there, rank 3 at the
    second), but its one place goes to Top; Pat qualifies at the second venue (quota 3)."""
    scene = make_scene(**ended_season(), cut_fraction=0.1)
    second = league.venue(scene.region["id"])["id"]
    top, pat, one, two = scene.players("Top", "Pat", "One", "Two")
    scene.report([top, pat, *scene.add_players(8)])  # quota 1
    scene.report([one, two, pat, *scene.add_players(27)], venue_id=second)  # quota 3
    first_list, second_list = venue_list(scene), venue_list(scene, second)
    assert ids_of(first_list["qualifiers"]) == [top]
    assert first_list["skipped"] == []
    assert ids_of(second_list["qualifiers"]) == [one, two, pat]
    assert by_id(second_list["qualifiers"])[pat]["rank"] == 3


# The season's lists: venues and regions ---------------------------------------------------


def test_season_lists_every_venue_and_groups_qualifiers_by_region_r3_r12(
    make_scene: MakeScene, league: League
) -> None:
    """R3: each region's playoff list holds the qualifiers of its venues, each with its venue."""
    scene = make_scene(**ended_season())
    near = league.venue(scene.region["id"])["id"]
    far_region = league.region()["id"]
    far = league.venue(far_region)["id"]
    assert scene.patch(region_ids=[scene.region["id"], far_region]).status_code == 200
    league.venue(league.region()["id"])  # a region the season does not cover
    scene.report(scene.add_players(10))
    scene.report(scene.add_players(10), venue_id=near)
    scene.report(scene.add_players(15), venue_id=far)
    season = read_qualifiers(scene.office, scene.season_id)
    assert season["season_id"] == scene.season_id
    venues = {v["venue_id"]: v for v in season["venues"]}
    assert set(venues) == {scene.venue_id, near, far}
    for venue_id, listing in venues.items():
        alone = venue_list(scene, venue_id)
        assert listing["qualifiers"] == alone["qualifiers"]
        assert listing["quota"] == alone["quota"]
    regions = {r["region_id"]: r["qualifiers"] for r in season["regions"]}
    assert set(regions) == {scene.region["id"], far_region}

    def entries(venue_id: int) -> list[dict[str, Any]]:
        return [{**q, "venue_id": venue_id} for q in venues[venue_id]["qualifiers"]]

    near_region = regions[scene.region["id"]]
    assert sorted(near_region, key=lambda q: q["player"]["id"]) == sorted(
        entries(scene.venue_id) + entries(near), key=lambda q: q["player"]["id"]
    )
    assert len(near_region) == 4
    assert regions[far_region] == entries(far)
    assert len(regions[far_region]) == 3


# CSV, ETags, 404s -----------------------------------------------------------------------------


def test_csv_lists_qualifiers_skipped_and_tied_out_r12(make_scene: MakeScene) -> None:
    """R12: Accept: text/csv or ?format=csv: one row per qualifier, skipped and tied-out player."""
    scene = make_scene(**ended_season(), cut_fraction=0.1)
    xan = scene.player("Xan")
    bee, ace = scene.players("Bee", "Ace")
    scene.padded([xan, bee, ace], 10)
    scene.padded([xan, ace, bee], 10)
    disqualify(scene, xan)
    venue_path = qualifiers_path(scene.season_id, scene.venue_id)
    for response in (
        scene.office.get(venue_path, headers={"Accept": "text/csv"}),
        scene.office.get(venue_path + "?format=csv"),
        scene.office.get(qualifiers_path(scene.season_id) + "?format=csv"),
    ):
        header, rows = csv_rows(response)
        assert header == CSV_HEADER
        assert sorted((r["player_id"], r["status"]) for r in rows) == sorted(
            [(str(bee), "qualifier"), (str(xan), "skipped"), (str(ace), "tied_out")]
        )
        found = {r["status"]: r for r in rows}
        qualifier, skip, tied = found["qualifier"], found["skipped"], found["tied_out"]
        assert qualifier["venue_id"] == str(scene.venue_id)
        assert qualifier["region_id"] == str(scene.region["id"])
        assert qualifier["venue_name"] == scene.venue["name"]
        assert (qualifier["display_name"], qualifier["rank"], qualifier["points"]) == ("Bee", "2", "30")
        assert "tie_at_cut" in qualifier["flags"].split()
        assert (skip["reason"], skip["rank"], skip["points"], skip["elsewhere_venue_id"]) == (
            "disqualified",
            "1",
            "60",
            "",
        )
        assert "tie_at_cut" in tied["flags"].split()
        assert tied["reason"] == ""
    json_answer = scene.public.get(venue_path, headers={"Accept": "application/json"})
    assert json_answer.mimetype == "application/json"


def test_etag_and_if_none_match_304_r12(make_scene: MakeScene) -> None:
    """An ETag on both lists; If-None-Match with it -> 304; a new report changes it."""
    scene = make_scene(**ended_season())
    scene.padded(scene.players("Ace", "Bee"), 10)
    for path in (qualifiers_path(scene.season_id), qualifiers_path(scene.season_id, scene.venue_id)):
        first = scene.public.get(path)
        etag = first.headers.get("ETag")
        assert first.status_code == 200 and etag
        again = scene.public.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304
        assert again.get_data() == b""
    before = {p: scene.public.get(p).headers["ETag"] for p in (qualifiers_path(scene.season_id),)}
    scene.padded(scene.players("Cat"), 20)
    for path, etag in before.items():
        fresh = scene.public.get(path, headers={"If-None-Match": etag})
        assert fresh.status_code == 200
        assert fresh.headers["ETag"] != etag


def test_unknown_season_or_venue_is_404(make_scene: MakeScene) -> None:
    scene = make_scene(**ended_season())
    scene.padded(scene.players("Ace"), 10)
    assert_problem(scene.public.get(qualifiers_path(999_999)), 404)
    assert_problem(scene.public.get(qualifiers_path(999_999, scene.venue_id)), 404)
    assert_problem(scene.public.get(qualifiers_path(scene.season_id, 999_999)), 404)
    assert_problem(scene.public.get(qualifiers_path(999_999) + "?format=csv"), 404)


# The player's profile ------------------------------------------------------------------------


def test_player_profile_says_where_the_player_qualified_or_why_not_r12_r14(
    make_scene: MakeScene, league: League
) -> None:
    """A profile's `qualification`: per season played, the qualifying venue (or null) and each
    venue's status: qualified, skipped (with reason and elsewhere venue) or below_the_cut."""
    scene = make_scene(**ended_season())
    w = two_venue_world(scene, league)
    (pat,) = profile_qualification(scene.public, w["pat"])
    assert pat == {
        "season_id": scene.season_id,
        "qualified_at": w["first"],
        "provisional": False,
        "published": False,
        "venues": [
            {"venue_id": w["first"], "status": "qualified", "reason": None, "elsewhere_venue_id": None},
            {
                "venue_id": w["second"],
                "status": "skipped",
                "reason": "qualified_elsewhere",
                "elsewhere_venue_id": w["first"],
            },
        ],
    }
    (abe,) = profile_qualification(scene.public, w["abe"])
    assert abe["qualified_at"] is None
    assert abe["venues"] == [
        {"venue_id": w["first"], "status": "below_the_cut", "reason": None, "elsewhere_venue_id": None}
    ]
    disqualify(scene, w["rex"])
    (rex,) = profile_qualification(scene.office, w["rex"])
    assert rex["qualified_at"] is None
    assert (rex["venues"][0]["status"], rex["venues"][0]["reason"]) == ("skipped", "disqualified")


def test_player_profile_shows_a_tie_at_the_cut_and_a_provisional_season_r12(make_scene: MakeScene) -> None:
    scene = make_scene(cut_fraction=0.1)  # running
    bee, ace = tied_pair(scene)
    (ace_q,) = profile_qualification(scene.public, ace)
    assert ace_q["provisional"] is True
    assert ace_q["qualified_at"] is None
    assert ace_q["venues"][0]["status"] == "tied_at_cut"
    (bee_q,) = profile_qualification(scene.public, bee)
    assert (bee_q["qualified_at"], bee_q["venues"][0]["status"]) == (scene.venue_id, "qualified")


def test_player_profile_has_no_qualification_for_seasons_not_played(make_scene: MakeScene) -> None:
    scene = make_scene(**ended_season())
    idle = scene.player("Idle")
    scene.padded(scene.players("Ace"), 10)
    assert profile_qualification(scene.public, idle) == []


# R13, R19: what each caller reads of why a player is skipped ---------------------------------


@dataclass(frozen=True)
class Skips:
    """A venue's ended season whose list skips one player for each reason drawn from personal or
    discipline records (underage, suspended, disqualified) and lets one without a date of birth
    qualify (age_unverified); another venue of the region, with its own host."""

    scene: Scene
    young: int
    suspended: int
    disqualified: int
    unknown: int
    adult: int
    other_venue: int
    elsewhere: Caller  # a host of the other venue

    @property
    def reasons(self) -> list[tuple[int, str]]:
        """The list's skipped players with the reasons themselves (R13)."""
        return [(self.young, "underage"), (self.suspended, "suspended"), (self.disqualified, "disqualified")]

    @property
    def public_reasons(self) -> list[tuple[int, str]]:
        return [(player, "ineligible") for player, _reason in self.reasons]


@pytest.fixture()
def skips(make_scene: MakeScene) -> Skips:
    scene = make_scene(**ended_season())
    young = person(scene, "Yara", date_of_birth=born(18, days_ago(5)))
    suspended, disqualified, adult = adults(scene, "Sam", "Dee", "Al")
    unknown = scene.player("Uma")
    scene.padded([young, suspended, disqualified, unknown, adult], 10)
    suspend(scene, suspended, 15, 1)
    disqualify(scene, disqualified)
    other = scene.league.venue(scene.region["id"])
    host = scene.host_for(other["id"])
    return Skips(scene, young, suspended, disqualified, unknown, adult, int(other["id"]), host)


def flags_of(listing: dict[str, Any]) -> dict[int, list[str]]:
    return {int(q["player"]["id"]): q["flags"] for q in listing["qualifiers"]}


PERSONAL_WORDS = ("underage", "suspended", "disqualified", "age_unverified")


def test_r13_r19_the_public_reads_record_reasons_as_ineligible_and_no_age_flag(skips: Skips) -> None:
    """R13, R19: in a venue's list and the season's (venues and regions), the public reads a skip
    drawn from personal or discipline records (underage, suspended, disqualified) as ineligible,
    and never age_unverified; the office and the venue's hosts read the reasons and the flag; a
    host of another venue reads this venue's list as the public does."""
    scene = skips.scene
    season, venue = scene.season_id, scene.venue_id
    for caller in (scene.public, skips.elsewhere):
        listing = read_qualifiers(caller, season, venue)
        assert skipped(listing) == skips.public_reasons
        assert flags_of(listing) == {skips.unknown: [], skips.adult: []}
        whole = caller.get(qualifiers_path(season))
        assert not [word for word in PERSONAL_WORDS if word in whole.get_data(as_text=True)]
        (ours,) = [v for v in whole.get_json()["venues"] if v["venue_id"] == venue]
        assert skipped(ours) == skips.public_reasons
        regional = [q for r in whole.get_json()["regions"] for q in r["qualifiers"] if q["venue_id"] == venue]
        assert {q["player"]["id"]: q["flags"] for q in regional} == {skips.unknown: [], skips.adult: []}
    for caller in (scene.office, scene.host):
        listing = read_qualifiers(caller, season, venue)
        assert skipped(listing) == skips.reasons
        assert flags_of(listing) == {skips.unknown: ["age_unverified"], skips.adult: []}
        whole = read_qualifiers(caller, season)
        (ours,) = [v for v in whole["venues"] if v["venue_id"] == venue]
        assert skipped(ours) == skips.reasons


def test_r13_r19_csv_lists_say_ineligible_to_the_public(skips: Skips) -> None:
    """R13, R19: the CSV lists (a venue's and the season's, by Accept, ?format=csv and .csv) say
    ineligible with no age_unverified flag to the public and to another venue's host; the reason
    and the flag to the office and the venue's host."""
    scene = skips.scene
    venue_path = qualifiers_path(scene.season_id, scene.venue_id)
    season_path = qualifiers_path(scene.season_id)
    ways = [
        (venue_path, {"Accept": "text/csv"}),
        (venue_path + "?format=csv", {}),
        (venue_path + ".csv", {}),
        (season_path + "?format=csv", {}),
        (season_path + ".csv", {}),
    ]
    for caller, reasons, flag in (
        (scene.public, skips.public_reasons, ""),
        (skips.elsewhere, skips.public_reasons, ""),
        (scene.office, skips.reasons, "age_unverified"),
        (scene.host, skips.reasons, "age_unverified"),
    ):
        for path, headers in ways:
            _header, rows = csv_rows(caller.get(path, headers=headers))
            ours = [r for r in rows if r["venue_id"] == str(scene.venue_id)]
            assert [(int(r["player_id"]), r["reason"]) for r in ours if r["status"] == "skipped"] == reasons
            assert {r["flags"] for r in ours if r["player_id"] == str(skips.unknown)} == {flag}, path


def test_r13_r19_a_profile_says_ineligible_to_the_public(skips: Skips) -> None:
    """R13, R19: a player's profile says why they were skipped at a venue as the lists do: the
    reason to the office and the venue's host, ineligible to the public and other hosts."""
    scene = skips.scene
    for player, reason in skips.reasons:
        for caller, expected in (
            (scene.public, "ineligible"),
            (skips.elsewhere, "ineligible"),
            (scene.office, reason),
            (scene.host, reason),
        ):
            (season,) = profile_qualification(caller, player)
            assert [(v["venue_id"], v["status"], v["reason"]) for v in season["venues"]] == [
                (scene.venue_id, "skipped", expected)
            ]


def test_r13_r19_the_embedded_qualifiers_page_shows_no_age_flag(skips: Skips) -> None:
    """R13, R19: the page other sites frame reads as the public: the player without a date of
    birth qualifies with no word of it, whatever key is sent."""
    scene = skips.scene
    path = f"/embed/seasons/{scene.season_id}/regions/{scene.region['id']}/qualifiers"
    for caller in (scene.public, scene.office, scene.host):
        page = caller.get(path)
        assert page.status_code == 200 and "Uma" in page.get_data(as_text=True)
        assert "Age not verified" not in page.get_data(as_text=True)


def test_r13_r19_published_lists_are_read_as_each_caller_sees_them(skips: Skips) -> None:
    """R13, R19: once published, the official lists (frozen with the reasons) are still read as
    the caller may see them."""
    scene = skips.scene
    published = scene.office.post(f"{qualifiers_path(scene.season_id)}/publish", json={})
    assert published.status_code == 201, published.get_data(as_text=True)
    for caller, reasons in ((scene.public, skips.public_reasons), (scene.host, skips.reasons)):
        listing = read_qualifiers(caller, scene.season_id, scene.venue_id)
        assert listing["published"] is True and skipped(listing) == reasons


def test_r13_r19_hosts_of_other_venues_never_share_a_cached_list(skips: Skips) -> None:
    """R13, R19, api/cache.py: the venue's host, another venue's host, a host of both and the
    public read the same lists in turns, twice each (the second from the cache, with its own
    ETag): each reads what they may see, never another's answer."""
    scene = skips.scene
    both = scene.host_for(scene.venue_id, skips.other_venue)
    readers = [
        (scene.host, skips.reasons),
        (skips.elsewhere, skips.public_reasons),
        (both, skips.reasons),
        (scene.public, skips.public_reasons),
    ]
    etags: dict[str, set[str]] = {}
    for path in (qualifiers_path(scene.season_id, scene.venue_id), qualifiers_path(scene.season_id)):
        for _round in range(2):
            for caller, reasons in readers:
                answer = caller.get(path)
                assert answer.status_code == 200
                body = answer.get_json()
                listing = (
                    body
                    if "skipped" in body
                    else next(v for v in body["venues"] if v["venue_id"] == scene.venue_id)
                )
                assert skipped(listing) == reasons
                etags.setdefault(f"{path} {caller.key}", set()).add(answer.headers["ETag"])
    assert all(len(tags) == 1 for tags in etags.values())
    assert len({tag for tags in etags.values() for tag in tags}) == len(etags)
