"""The website's player pages and search (R5, R11, R19): a profile per (season, venue) with rank,
points, bonus, tournaments, wins and best finish; a search that ignores case and accents."""

from __future__ import annotations

from typing import Any

from tests.builders import MakeScene, Scene, days_ago, unique_email
from tests.support.league import League

PLAYERS = "/api/v1/players"


def found_ids(caller: Any, query: str) -> set[int]:
    answer = caller.get(f"{PLAYERS}?q={query}&per_page=100")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return {int(p["id"]) for p in answer.get_json()["items"]}


def test_r5_search_ignores_case_and_accents(scene: Scene, league: League) -> None:
    """R5, R19: "jose" finds "José Á." for the public, by display name only."""
    jose = league.player("José Álvarez", email=unique_email())
    for query in ("jose", "JOSÉ", "jose a", "Jose Á"):
        found = scene.public.get(f"/api/v1/players?q={query}").get_json()
        assert [p["id"] for p in found["items"]] == [jose["id"]], query
    assert scene.public.get("/api/v1/players?q=alvarez").get_json()["total"] == 0  # not in the display name
    assert scene.public.get("/api/v1/players?q=!!!").get_json()["total"] == 0


def test_r5_the_same_name_typed_two_ways_is_flagged(league: League) -> None:
    """R5: "Jose Alvarez" after "José Álvarez" is registered with a possible-duplicate warning."""
    first = league.player("José Álvarez", email=unique_email())
    second = league.office.post(
        "/api/v1/players", json={"full_name": "Jose Alvarez", "email": unique_email()}
    )
    assert second.status_code == 201
    (warning,) = second.get_json()["warnings"]
    assert warning["code"] == "possible_duplicate" and warning["player_ids"] == [first["id"]]


def test_r11_profile_has_each_venues_figures(make_scene: MakeScene) -> None:
    """R11: a player's page gives, per season and venue, rank, points, bonus, played, wins and
    best finish, and results that add up to the points."""
    scene = make_scene(attendance_bonus=[{"events": 2, "points": 7}])
    ace, bee = scene.players("Ace", "Bee")
    fillers = scene.fillers(8)
    scene.report([ace, bee, *fillers], day=days_ago(20))
    scene.report([bee, *fillers[:3], ace, *fillers[3:]], day=days_ago(13))
    (record,) = scene.public.get(f"/api/v1/players/{ace}").get_json()["seasons"]
    # Ace: 30 (1st of 10) + 0 (5th) + 7 bonus = 37; Bee: 20 + 30 + 7 = 57 ranks first.
    assert (record["rank"], record["played"], record["wins"], record["best_finish"]) == (2, 2, 1, 1)
    assert (record["points"], record["bonus_points"]) == (37, 7)
    assert record["points"] == sum(r["points"] for r in record["results"]) + record["bonus_points"]


def test_r19_search_matches_full_names_only_among_the_players_the_caller_may_see(
    make_scene: MakeScene,
) -> None:
    """R19: a host's search matches full names of their own venues' players only (a live result
    there, or their home), never of another venue's; the office matches every full name; the
    public display names only."""
    crown, other = make_scene(), make_scene()
    ours = crown.league.player("Ottoline Quillfeather", display_name="Otto Q.")
    theirs = crown.league.player("Octavia Quillfeather", display_name="Tavi Q.")
    homely = crown.league.player("Olwen Quillfeather", display_name="Wen Q.", home_venue_id=crown.venue_id)
    crown.report([ours["id"], *crown.fillers(2)])
    other.report([theirs["id"], *other.fillers(2)])
    assert found_ids(crown.host, "quillfeather") == {ours["id"], homely["id"]}
    assert found_ids(other.host, "quillfeather") == {theirs["id"]}
    assert found_ids(crown.host, "octavia") == set()
    assert found_ids(crown.host, "tavi") == {theirs["id"]}  # the display name is public
    assert found_ids(crown.office, "quillfeather") == {ours["id"], theirs["id"], homely["id"]}
    assert found_ids(crown.public, "quillfeather") == set()
