"""Refused reports (R2, R4, R5 and bad input): each problem is named in `errors`, the whole report
is refused, and nothing is stored: no report, no new player."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.builders import (
    TOURNAMENTS,
    Scene,
    days_ago,
    iso,
    unique_email,
    unique_name,
)
from tests.support.league import assert_problem


@pytest.fixture()
def three(scene: Scene) -> list[int]:
    return scene.add_players(3)


def with_new_player(body: dict[str, Any]) -> dict[str, Any]:
    """The same report plus a new player at the next place (to prove none is created)."""
    rows = body.setdefault("results", [])
    place = len(rows) + 1 if isinstance(rows, list) else 1
    if isinstance(rows, list):
        rows.append({"place": place, "new_player": {"full_name": unique_name(), "email": unique_email()}})
    return body


def refused(
    scene: Scene, body: Any, status: int, *fields: str, rule: str | None = None, **kwargs: Any
) -> dict[str, Any]:
    """Post as the host; the answer names the fields (and rule); nothing was stored."""
    before = scene.counts()
    listed = scene.listed_reports()
    response = (
        scene.host.post(TOURNAMENTS, json=body, **kwargs)
        if "data" not in kwargs
        else scene.host.post(TOURNAMENTS, **kwargs)
    )
    problem = assert_problem(response, status, *fields, rule=rule)
    assert scene.counts() == before
    assert scene.listed_reports() == listed
    return problem


# Bad shapes -------------------------------------------------------------------------------


def test_missing_results(scene: Scene) -> None:
    refused(scene, {"venue_id": scene.venue_id, "date": iso(days_ago(1))}, 422, "results")


def test_empty_results(scene: Scene) -> None:
    refused(scene, {"venue_id": scene.venue_id, "date": iso(days_ago(1)), "results": []}, 422, "results")


def test_results_not_a_list(scene: Scene) -> None:
    refused(
        scene, {"venue_id": scene.venue_id, "date": iso(days_ago(1)), "results": {"1": 2}}, 422, "results"
    )


@pytest.mark.parametrize("place", ["1", 1.5, True, None, "first", -1, 0, 10**12])
def test_place_must_be_a_positive_integer(scene: Scene, three: list[int], place: Any) -> None:
    """Non-integers, negatives, zero and 10^12 are named at results.0.place."""
    body = with_new_player(scene.body(three))
    body["results"][0]["place"] = place
    refused(scene, body, 422, "results.0.place")


def test_missing_place(scene: Scene, three: list[int]) -> None:
    body = scene.body(three)
    del body["results"][1]["place"]
    refused(scene, body, 422, "results.1.place")


def test_no_player_named_or_two_named(scene: Scene, three: list[int]) -> None:
    body = scene.body(three)
    del body["results"][0]["player_id"]
    body["results"][1]["email"] = "x@example.org"
    problem = refused(scene, body, 422, "results.0", "results.1")
    assert "none" in problem["errors"]["results.0"][0]
    assert "player_id, email" in problem["errors"]["results.1"][0]


def test_unknown_field_at_top_and_in_a_result(scene: Scene, three: list[int]) -> None:
    body = with_new_player(scene.body(three))
    body["colour"] = "red"
    body["results"][2]["chips"] = 12000
    refused(scene, body, 422, "colour", "results.2.chips")


def test_new_player_without_email(scene: Scene, three: list[int]) -> None:
    body = scene.body(three)
    body["results"].append({"place": 4, "new_player": {"full_name": "No Mail"}})
    refused(scene, body, 422, "results.3.new_player.email")


def test_body_not_json(scene: Scene) -> None:
    refused(scene, None, 400, data="{not json", content_type="application/json")


def test_body_not_an_object(scene: Scene) -> None:
    refused(scene, [1, 2], 422, "body")


def test_body_of_another_type_is_400(scene: Scene) -> None:
    refused(scene, None, 400, data="place=1", content_type="application/x-www-form-urlencoded")


# R4: a complete finishing order -----------------------------------------------------------


def test_duplicate_places_r4(scene: Scene, three: list[int]) -> None:
    """R4: places never tie; the second 1 is named."""
    body = with_new_player(scene.body(three))
    body["results"][1]["place"] = 1
    problem = refused(scene, body, 422, "results.1.place", "results", rule="R4")
    assert problem["detail"].startswith("R4")
    assert "results.0.place" not in problem["errors"]
    assert "missing: 2" in problem["errors"]["results"][0]


def test_gap_in_places_r4(scene: Scene, three: list[int]) -> None:
    """R4: 3 entrants have places 1..3; a 4 leaves 3 missing."""
    body = scene.body(three)
    body["results"][2]["place"] = 4
    problem = refused(scene, body, 422, "results.2.place", "results", rule="R4")
    assert set(problem["errors"]) == {"results.2.place", "results"}
    assert "exactly 1..3" in problem["errors"]["results"][0]


def test_every_place_problem_is_named_r4(scene: Scene) -> None:
    """R4: each violation is named, not only the first."""
    ids = scene.add_players(6)
    body = scene.body(ids)
    for index, place in enumerate([2, 2, 9, 1, 1, 7]):
        body["results"][index]["place"] = place
    problem = refused(scene, body, 422, rule="R4")
    assert {k for k in problem["errors"] if k.endswith(".place")} == {
        "results.1.place",
        "results.2.place",
        "results.4.place",
        "results.5.place",
    }


def test_same_player_twice_by_id_r4(scene: Scene, three: list[int]) -> None:
    body = with_new_player(scene.body(three))
    body["results"][2]["player_id"] = three[0]
    problem = refused(scene, body, 422, "results.2.player_id", rule="R4")
    assert "results.0" in problem["errors"]["results.2.player_id"][0]


def test_same_player_twice_by_id_and_by_email_r4(scene: Scene) -> None:
    player = scene.league.player(unique_name(), email="twice@example.org")
    body = with_new_player(
        {
            "venue_id": scene.venue_id,
            "date": iso(days_ago(1)),
            "results": [{"place": 1, "player_id": player["id"]}, {"place": 2, "email": "TWICE@example.org"}],
        }
    )
    refused(scene, body, 422, "results.1.email", rule="R4")


def test_same_new_player_twice_r4(scene: Scene) -> None:
    email = unique_email()
    rows = [{"place": p, "new_player": {"full_name": unique_name(), "email": email}} for p in (1, 2)]
    refused(
        scene,
        {"venue_id": scene.venue_id, "date": iso(days_ago(1)), "results": rows},
        422,
        "results.1.new_player",
        rule="R4",
    )


# R5: finding players ----------------------------------------------------------------------


def test_unknown_player_id_r5(scene: Scene, three: list[int]) -> None:
    body = with_new_player(scene.body(three))
    body["results"][1]["player_id"] = 999_999
    problem = refused(scene, body, 422, "results.1.player_id", rule="R5")
    assert "999999" in problem["errors"]["results.1.player_id"][0]


def test_player_id_out_of_range(scene: Scene, three: list[int]) -> None:
    body = scene.body(three)
    body["results"][1]["player_id"] = 2**40
    refused(scene, body, 422, "results.1.player_id")


def test_unknown_email_without_new_player_r5(scene: Scene, three: list[int]) -> None:
    body = with_new_player(scene.body(three))
    body["results"][1] = {"place": 2, "email": "nobody@example.org"}
    problem = refused(scene, body, 422, "results.1.email", rule="R5")
    assert "new_player" in problem["errors"]["results.1.email"][0]


def test_unknown_or_malformed_membership_number_r5(scene: Scene, three: list[int]) -> None:
    body = scene.body(three)
    body["results"][0] = {"place": 1, "membership_number": "199001019999"}
    body["results"][1] = {"place": 2, "membership_number": "19900231123"}
    refused(scene, body, 422, "results.0.membership_number", "results.1.membership_number", rule="R5")


def test_new_players_sharing_a_membership_number_r5(scene: Scene) -> None:
    """R5: two new players of one report cannot share a membership number; 422, nothing kept."""
    rows = [
        {
            "place": p,
            "new_player": {
                "full_name": unique_name(),
                "email": unique_email(),
                "membership_number": "199001011234",
            },
        }
        for p in (1, 2)
    ]
    refused(
        scene,
        {"venue_id": scene.venue_id, "date": iso(days_ago(1)), "results": rows},
        422,
        "results.1.new_player.membership_number",
        rule="R5",
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("date_of_birth", "2999-01-01"),
        ("membership_number", "29990101123"),
        ("membership_number", "299901011234"),
    ],
)
def test_new_player_born_in_the_future_r5(scene: Scene, field: str, value: str) -> None:
    rows = [
        {"place": 1, "new_player": {"full_name": unique_name(), "email": unique_email(), field: value}},
        {"place": 2, "player_id": scene.player()},  # a whole report (R4): only the new row is refused
    ]
    problem = refused(
        scene,
        {"venue_id": scene.venue_id, "date": iso(days_ago(1)), "results": rows},
        422,
        f"results.0.new_player.{field}",
    )
    assert set(problem["errors"]) == {f"results.0.new_player.{field}"}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("full_name", "Ann\x00Lee"),
        ("full_name", "Ann\x07Lee"),
        ("display_name", "A\x00"),
    ],
)
def test_new_player_name_with_control_characters(scene: Scene, field: str, value: str) -> None:
    """A NUL in a name is refused on every database (PostgreSQL answered 500, SQLite kept it)."""
    new = {"full_name": unique_name(), "email": unique_email(), field: value}
    rows = [{"place": 1, "new_player": new}, {"place": 2, "player_id": scene.player()}]  # two: R4
    problem = refused(
        scene,
        {"venue_id": scene.venue_id, "date": iso(days_ago(1)), "results": rows},
        422,
        f"results.0.new_player.{field}",
    )
    assert set(problem["errors"]) == {f"results.0.new_player.{field}"}


def test_new_player_with_a_taken_membership_number_r5(scene: Scene) -> None:
    scene.league.player(unique_name(), membership_number="198001011234")
    rows = [
        {
            "place": 1,
            "new_player": {
                "full_name": unique_name(),
                "email": unique_email(),
                "membership_number": "198001011234",
            },
        },
        {"place": 2, "player_id": scene.player()},  # a whole report (R4): only the new row is refused
    ]
    problem = refused(
        scene,
        {"venue_id": scene.venue_id, "date": iso(days_ago(1)), "results": rows},
        422,
        "results.0.new_player.membership_number",
    )
    assert set(problem["errors"]) == {"results.0.new_player.membership_number"}


def test_r4_and_r5_problems_are_named_together(scene: Scene, three: list[int]) -> None:
    body = with_new_player(scene.body(three))
    body["results"][0]["place"] = 2
    body["results"][2]["player_id"] = 999_999
    problem = refused(scene, body, 422, "results.1.place", "results", "results.2.player_id")
    assert problem["detail"].startswith("R4, R5")
    assert problem["rule"] == "R4"


# R2: dates and seasons --------------------------------------------------------------------


@pytest.mark.parametrize("day", ["2026-02-30", "04/03/2026", "2026-3-4x", "", 20260304, None])
def test_malformed_dates(scene: Scene, three: list[int], day: Any) -> None:
    body = with_new_player(scene.body(three))
    body["date"] = day
    refused(scene, body, 422, "date")


def test_missing_date(scene: Scene, three: list[int]) -> None:
    body = scene.body(three)
    del body["date"]
    refused(scene, body, 422, "date")


def test_a_date_next_week_is_refused_r2(scene: Scene, three: list[int]) -> None:
    """R2: a date in the future is refused, though the season covers it."""
    body = with_new_player(scene.body(three, days_ago(-7)))
    problem = refused(scene, body, 422, "date", rule="R2")
    assert "future" in problem["errors"]["date"][0]


def test_tomorrow_is_refused_r2(scene: Scene, three: list[int]) -> None:
    refused(scene, scene.body(three, days_ago(-1)), 422, "date", rule="R2")


def test_a_date_in_no_season_is_refused_r2(scene: Scene, three: list[int]) -> None:
    """R2: the season runs from 60 days ago; a date 61 days ago is in no season."""
    body = with_new_player(scene.body(three, days_ago(61)))
    refused(scene, body, 422, "date", rule="R2")


def test_a_season_of_another_region_does_not_cover_the_venue_r2(scene: Scene) -> None:
    """R2: a regular report's season covers its venue; another region's season does not."""
    other_region = scene.league.region()
    venue = scene.league.venue(other_region["id"])
    ids = scene.add_players(2)
    body = {**scene.body(ids), "venue_id": venue["id"]}
    before = scene.counts()
    response = scene.office.post(TOURNAMENTS, json=body)
    assert_problem(response, 422, "date", rule="R2")
    assert scene.counts() == before


def test_a_regular_report_naming_another_season_r2(scene: Scene, three: list[int]) -> None:
    other = scene.league.season(starts_on="2020-01-01", ends_on="2020-02-01")
    refused(scene, scene.body(three, season_id=other["id"]), 422, "season_id", rule="R2")


def test_a_venue_that_does_not_exist(scene: Scene, three: list[int]) -> None:
    body = with_new_player({**scene.body(three), "venue_id": 999_999})
    before = scene.counts()
    assert_problem(scene.office.post(TOURNAMENTS, json=body), 422, "venue_id")
    assert_problem(scene.host.post(TOURNAMENTS, json=body), 422, "venue_id")
    assert scene.counts() == before


@pytest.mark.parametrize(
    "mutate",
    [
        lambda b: b.update(session=0),
        lambda b: b.update(session="2"),
        lambda b: b.update(kind="friendly"),
        lambda b: b.update(venue_id="1"),
    ],
)
def test_bad_report_fields(scene: Scene, three: list[int], mutate: Callable[[dict[str, Any]], None]) -> None:
    body = with_new_player(scene.body(three))
    mutate(body)
    problem = refused(scene, body, 422)
    assert len(problem["errors"]) == 1


def test_every_problem_named_at_once_r2_r4_r5(scene: Scene, three: list[int]) -> None:
    """A date in the future, a repeated place and an unknown player are all named in one answer,
    so a host fixes the report in one go (R2, R4, R5)."""
    body = scene.body(three, day=days_ago(-7))
    body["results"][1]["place"] = 1
    body["results"][2] = {"place": 3, "email": "nobody-at-all@example.org"}
    problem = refused(scene, body, 422, "date", "results.1.place", "results.2.email")
    assert problem["detail"].startswith("R2, R4, R5:")


@pytest.mark.parametrize("content_type", [None, "application/json"])
def test_no_body_at_all_names_the_missing_fields(scene: Scene, content_type: Any) -> None:
    """A POST with no body is a 422 naming venue_id, date and results, never a 415."""
    kwargs = {"content_type": content_type} if content_type else {}
    refused(scene, None, 422, "venue_id", "date", "results", data=b"", **kwargs)


def test_format_and_rule_problems_come_in_one_answer_r4_r5_r16(scene: Scene) -> None:
    """A malformed email, an unknown player, a repeated place and a suspended player: all named
    in one answer, not a round for the format and another for the rules (R4, R5, R16)."""
    ids = scene.add_players(4)
    suspended = scene.office.post(
        "/api/v1/sanctions",
        json={
            "player_id": ids[3],
            "kind": "suspension",
            "category": "fighting",
            "first_day": iso(days_ago(20)),
            "reason": "Fight.",
        },
    )
    assert suspended.status_code == 201
    body = scene.body(ids)
    body["results"][0] = {"place": 1, "email": "not-an-email"}
    body["results"][1]["player_id"] = 999_999
    body["results"][2]["place"] = 2
    before = scene.counts()
    problem = refused(
        scene, body, 422, "results.0.email", "results.1.player_id", "results.2.place", "results.3.player_id"
    )
    assert problem["rule"] == "R4" and problem["detail"].startswith("R4, R5, R16:")
    assert scene.counts() == before


def test_a_report_has_at_most_the_leagues_max_entrants(scene: Scene) -> None:
    """A report of more entrants than the league's max_entrants (500 unless the office sets 50
    to 10,000) is refused whole (422 naming results and the maximum), storing nothing and
    registering no one; the office lowers or raises it, and reports follow."""
    settings_path = "/api/v1/league-settings"
    assert scene.public.get(settings_path).get_json()["max_entrants"] == 500
    players = scene.players(*[f"P{i}" for i in range(61)])
    assert scene.office.patch(settings_path, json={"max_entrants": 60}).status_code == 200
    over = scene.body(players, days_ago(2))
    newcomer = {"full_name": "Newt New", "email": "newt@example.org"}
    over["results"].append({"place": 62, "new_player": newcomer})
    before = scene.counts()
    message = assert_problem(scene.office.post(TOURNAMENTS, json=over), 422, "results")["errors"]["results"][
        0
    ]
    assert "At most 60 entrants" in message and "62" in message
    assert scene.counts() == before
    assert scene.posted(scene.body(players[:60], days_ago(2)))["entrants"] == 60
    for refused in (49, 10_001, 0):
        assert_problem(scene.office.patch(settings_path, json={"max_entrants": refused}), 422, "max_entrants")
    assert_problem(scene.host.patch(settings_path, json={"max_entrants": 5000}), 403)
    assert scene.office.patch(settings_path, json={"max_entrants": 61}).status_code == 200
    assert scene.posted(scene.body(players, days_ago(3)))["entrants"] == 61


def test_r4_a_report_of_one_entrant_is_refused_and_stores_nothing(scene: Scene) -> None:
    """R4: a report has at least two entrants; one row was stored as a 100-point win."""
    (ann,) = scene.add_players(1)
    before = scene.counts()
    body = {"venue_id": scene.venue_id, "date": iso(days_ago(1)), "results": [{"place": 1, "player_id": ann}]}
    for path in (TOURNAMENTS, f"{TOURNAMENTS}?dry_run=1"):
        problem = assert_problem(scene.host.post(path, json=body), 422, "results", rule="R4")
        assert "at least 2 entrants" in problem["errors"]["results"][0]
    sheet = scene.host.post(
        f"{TOURNAMENTS}?venue_id={scene.venue_id}&date={iso(days_ago(1))}",
        data=f"place,player_id\n1,{ann}\n",
        content_type="text/csv",
    )
    assert_problem(sheet, 422, rule="R4")
    assert scene.counts() == before


def test_r4_places_with_a_gap_are_refused_never_renumbered(scene: Scene) -> None:
    """R4: places 1, 2, 4, 5 (a blank row left out) are refused naming place 3 as missing."""
    ids = scene.add_players(4)
    rows = [{"place": place, "player_id": player} for place, player in zip((1, 2, 4, 5), ids, strict=True)]
    body = {"venue_id": scene.venue_id, "date": iso(days_ago(1)), "results": rows}
    problem = assert_problem(scene.host.post(TOURNAMENTS, json=body), 422, "results", rule="R4")
    assert "missing: 3" in " ".join(problem["errors"]["results"])
