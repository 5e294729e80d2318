"""R5: a row may give only a full name, as a host's sign-in sheet does. It names the one player of
that name (ignoring case and accents) who has already played at the venue, in any season; with
none or several the row is refused, listing the candidates among the venue's players (and for a
near miss "did you mean …"). R19: a host's refusal says nothing of other venues' players; the
office's lists them."""

from __future__ import annotations

from typing import Any

from tests.builders import OFFICE_LATE, TOURNAMENTS, Scene, by_place, days_ago, iso, unique_email
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
    """R5: no such player at the venue: the row is refused, nothing stored."""
    body = name_body(scene, [{"place": 1, "full_name": "Nobody Atall"}, *filler_rows(scene, 2)])
    before = scene.counts()
    problem = assert_problem(scene.post(body), 422, "results.0", rule="R5")
    assert "new_player" in problem["errors"]["results.0"][0]
    assert scene.counts() == before


def filler_rows(scene: Scene, first_place: int, count: int = 1) -> list[dict[str, Any]]:
    """Rows naming fresh players by id, from `first_place` on."""
    ids = scene.add_players(count)
    return [{"place": first_place + i, "player_id": player} for i, player in enumerate(ids)]


def test_r19_a_host_learns_nothing_of_a_name_at_another_venue(scene: Scene, make_scene: Any) -> None:
    """R19, R5: the one Kit Marlowe played at another venue, not here. The host's report and dry
    run are refused alike whether or not that name exists in the league: no id, no name, no
    "elsewhere". The office's refusal still lists the candidate."""
    elsewhere = make_scene()
    kit = regular(elsewhere, "Kit Marlowe")
    known = name_body(scene, [{"place": 1, "full_name": "Kit Marlowe"}, *filler_rows(scene, 2)])
    unknown = name_body(scene, [{"place": 1, "full_name": "Kit Marlowx"}, *filler_rows(scene, 2)])
    said = []
    for body in (known, unknown):
        for path in (TOURNAMENTS, f"{TOURNAMENTS}?dry_run=1"):
            problem = assert_problem(scene.host.post(path, json=body), 422, "results.0", rule="R5")
            message = problem["errors"]["results.0"][0]
            assert str(kit) not in message and "elsewhere" not in message and "other venue" not in message
            said.append(message.replace("Kit Marlowx", "Kit Marlowe"))
    assert len(set(said)) == 1, said
    office = assert_problem(scene.office.post(TOURNAMENTS, json=known), 422, "results.0", rule="R5")
    assert f"{kit} (" in office["errors"]["results.0"][0]


def test_r5_a_near_miss_asks_did_you_mean_among_the_venues_players(scene: Scene, make_scene: Any) -> None:
    """R5: "Pete Murphey" is a typo of the venue's Pete Murphy: "did you mean Pete Murphy (#N)?".
    A Pete Murphy of another venue only is never offered to the host (R19)."""
    pete = regular(scene, "Pete Murphy")
    other = make_scene()
    stranger = regular(other, "Pete Murphie")
    body = name_body(scene, [{"place": 1, "full_name": "Pete Murphey"}, *filler_rows(scene, 2)])
    message = assert_problem(scene.post(body), 422, "results.0", rule="R5")["errors"]["results.0"][0]
    assert f"did you mean Pete Murphy (#{pete})?" in message
    assert str(stranger) not in message


def test_r5_two_regulars_of_one_name_are_refused_listing_both(scene: Scene) -> None:
    """R5: two Sam Okafors have played here this season: the host must say which."""
    first = regular(scene, "Sam Okafor")
    second = regular(scene, "Sam Okafor")
    body = name_body(
        scene, [{"place": 1, "full_name": "Sam Okafor"}, {"place": 2, "player_id": scene.add_players(1)[0]}]
    )
    message = assert_problem(scene.post(body), 422, "results.0", rule="R5")["errors"]["results.0"][0]
    assert str(first) in message and str(second) in message


def test_r5_a_regular_of_an_earlier_season_is_known_by_name_on_the_first_night(
    scene: Scene, league: Any
) -> None:
    """R5: a player who played here in an earlier season only is named by a sheet of names on
    the new season's first night (a regular is not "elsewhere")."""
    past = league.season(region_ids=[scene.region["id"]], starts_on="2025-01-06", ends_on="2025-03-30")
    player = league.player("Old Timer")
    filler = scene.add_players(1)[0]
    stored = scene.office.post(
        TOURNAMENTS,
        json={
            "venue_id": scene.venue_id,
            "date": "2025-02-01",
            "results": [{"place": 1, "player_id": player["id"]}, {"place": 2, "player_id": filler}],
            "reason": OFFICE_LATE,
        },
    )
    assert stored.status_code == 201 and stored.get_json()["season_id"] == past["id"]
    body = name_body(scene, [{"place": 1, "full_name": "old timer"}, {"place": 2, "full_name": "Old Timer"}])
    body["results"][1] = {"place": 2, "player_id": filler}
    report = scene.posted(body)
    assert by_place(report)[1]["player"]["id"] == player["id"]
    assert report["season_id"] == scene.season_id


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
    rows = [{"place": 1, "email": unique_email(), "full_name": "Brand New"}, *filler_rows(scene, 2)]
    report = scene.posted(name_body(scene, rows))
    assert report["results"][0]["player"]["display_name"] == "Brand N."
