"""R5: a row may give only a full name, as a host's sign-in sheet does. It names the one player of
that name (ignoring case and accents) who has already played at the venue in the season; with
none or several the row is refused, listing the candidates."""

from __future__ import annotations

from typing import Any

from tests.builders import TOURNAMENTS, Scene, by_place, days_ago, iso, unique_email
from tests.support.league import assert_problem


def regular(scene: Scene, full_name: str, **fields: Any) -> int:
    """A player of this name who has played at the scene's venue this season."""
    player = scene.league.player(full_name, **fields)
    filler = scene.add_players(1)
    scene.report([player["id"], *filler])
    return int(player["id"])


def name_body(scene: Scene, rows: list[dict[str, Any]], day_ago: int = 1) -> dict[str, Any]:
    return {"venue_id": scene.venue_id, "date": iso(days_ago(day_ago)), "results": rows}


def test_r5_a_name_alone_names_the_regular_of_that_name(scene: Scene) -> None:
    """R5: "josé ÁLVAREZ" on the sheet is the José Alvarez who played here this season."""
    jose = regular(scene, "José Alvarez")
    other = scene.add_players(1)[0]
    report = scene.posted(
        name_body(scene, [{"place": 1, "full_name": "jose  ÁLVAREZ"}, {"place": 2, "player_id": other}])
    )
    assert by_place(report)[1]["player"]["id"] == jose
    assert report["warnings"] == []


def test_r5_a_name_nobody_here_has_is_refused(scene: Scene) -> None:
    """R5: no such player at the venue this season: the row is refused, nothing stored."""
    before = scene.counts()
    body = name_body(scene, [{"place": 1, "full_name": "Nobody Atall"}])
    problem = assert_problem(scene.post(body), 422, "results.0", rule="R5")
    assert "new_player" in problem["errors"]["results.0"][0]
    assert scene.counts() == before


def test_r5_a_name_only_played_at_another_venue_lists_the_candidate(scene: Scene, make_scene: Any) -> None:
    """R5: the one Kit Marlowe played elsewhere, not here: refused, with that player listed."""
    elsewhere = make_scene()
    kit = regular(elsewhere, "Kit Marlowe")
    problem = assert_problem(
        scene.post(name_body(scene, [{"place": 1, "full_name": "Kit Marlowe"}])), 422, rule="R5"
    )
    assert f"{kit} (" in problem["errors"]["results.0"][0]


def test_r5_two_regulars_of_one_name_are_refused_listing_both(scene: Scene) -> None:
    """R5: two Sam Okafors have played here this season: the host must say which."""
    first = regular(scene, "Sam Okafor")
    second = regular(scene, "Sam Okafor")
    body = name_body(
        scene, [{"place": 1, "full_name": "Sam Okafor"}, {"place": 2, "player_id": scene.add_players(1)[0]}]
    )
    message = assert_problem(scene.post(body), 422, "results.0", rule="R5")["errors"]["results.0"][0]
    assert str(first) in message and str(second) in message


def test_r5_only_this_seasons_play_counts(scene: Scene, league: Any) -> None:
    """R5: a player who played here in an earlier season only is not matched by name."""
    past = league.season(region_ids=[scene.region["id"]], starts_on="2025-01-06", ends_on="2025-03-30")
    player = league.player("Old Timer")
    filler = scene.add_players(1)[0]
    stored = scene.office.post(
        TOURNAMENTS,
        json={
            "venue_id": scene.venue_id,
            "date": "2025-02-01",
            "results": [{"place": 1, "player_id": player["id"]}, {"place": 2, "player_id": filler}],
        },
    )
    assert stored.status_code == 201 and stored.get_json()["season_id"] == past["id"]
    assert_problem(
        scene.post(name_body(scene, [{"place": 1, "full_name": "Old Timer"}])), 422, "results.0", rule="R5"
    )


def test_r5_a_sign_in_sheet_as_csv(scene: Scene) -> None:
    """R5: the CSV a host exports from a sign-in sheet: place and full_name only."""
    ann = regular(scene, "Ann Lee")
    bob = regular(scene, "Bob Stone")
    response = scene.host.post(
        f"{TOURNAMENTS}?venue_id={scene.venue_id}&date={iso(days_ago(1))}",
        data="place,full_name\n1,Bob Stone\n2,ann lee\n",
        content_type="text/csv",
    )
    assert response.status_code == 201, response.get_json()
    assert [r["player"]["id"] for r in response.get_json()["results"]] == [bob, ann]


def test_r4_a_name_and_an_id_of_the_same_player(scene: Scene) -> None:
    """R4: the same player once by id, once by name: named at the second row."""
    ann = regular(scene, "Ann Lee")
    body = name_body(scene, [{"place": 1, "player_id": ann}, {"place": 2, "full_name": "Ann Lee"}])
    assert_problem(scene.post(body), 422, "results.1.full_name", rule="R4")


def test_r5_a_new_player_still_needs_an_email(scene: Scene) -> None:
    """R5: with an email the name registers a new player, as before."""
    report = scene.posted(name_body(scene, [{"place": 1, "email": unique_email(), "full_name": "Brand New"}]))
    assert report["results"][0]["player"]["display_name"] == "Brand N."
