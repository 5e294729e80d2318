"""R8a, R9-R11: the points race (GET …/points-race, and the charts drawn from it) says the same
numbers as the table: each player's last point is their standings points, knockout and bounty
points included (a table of 111 once drew a chart ending at 100)."""

from __future__ import annotations

from typing import Any

from tests.builders import SEASONS, Scene, days_ago

KO = {
    "knockout_points": 10,
    "bounty": "venue_leader",
    "bounty_points": 25,
    "attendance_bonus": [{"events": 2, "points": 7}],
}


def test_r8a_r11_the_race_ends_at_the_tables_points_knockouts_and_bounties_included(make_scene: Any) -> None:
    scene: Scene = make_scene(**KO)
    a, b, c, d = scene.players("Ann A.", "Bea B.", "Cal C.", "Dan D.")
    first = scene.body([a, b, c, d], days_ago(20), reason="Entered late")
    first["results"][1]["knocked_out_by"] = a
    first["results"][3]["knocked_out_by"] = c
    scene.posted(first, scene.office)
    second = scene.body([b, a, d, c], days_ago(13), reason="Entered late")
    second["results"][1]["knocked_out_by"] = b  # Ann led before the night: Bea takes the bounty
    second["results"][3]["knocked_out_by"] = d
    scene.posted(second, scene.office)
    table = scene.public.get(f"{SEASONS}/{scene.season_id}/venues/{scene.venue_id}/standings").get_json()
    race = scene.public.get(f"{SEASONS}/{scene.season_id}/venues/{scene.venue_id}/points-race?players=4")
    assert race.status_code == 200, race.get_json()
    body = race.get_json()
    assert len(body["dates"]) == 2
    ends = {racer["player"]["id"]: racer["points"][-1] for racer in body["players"]}
    assert ends == {row["player"]["id"]: row["points"] for row in table["standings"]}
    assert any(row["knockout_points"] > 10 for row in table["standings"])  # a bounty was paid
    assert [racer["player"]["id"] for racer in body["players"]] == [
        row["player"]["id"] for row in table["standings"]
    ]
