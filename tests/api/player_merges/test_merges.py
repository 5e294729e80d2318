"""Merging duplicate players (R17, R18) through the HTTP API: what moves to the survivor, what the
survivor takes, refusals that change nothing, the office's list of merges, undoing a merge exactly
(or refusing, saying why), the audit trail, and standings, qualifiers, door list and profiles
following a merge and its undo at once."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tests.builders import (
    SANCTIONS,
    SEASONS,
    TOURNAMENTS,
    Scene,
    ago,
    audit_entries,
    ids_of,
    read_qualifiers,
    sanctioned,
    unique_email,
    unique_name,
)
from tests.support.league import Caller, assert_problem

PLAYERS = "/api/v1/players"
MERGES = "/api/v1/player-merges"
PERSONAL = {"full_name", "email", "date_of_birth", "membership_number", "pin"}
MERGE_KEYS = {
    "id",
    "survivor_id",
    "duplicate_id",
    "reason",
    "merged_at",
    "merged_by",
    "moved",
    "undone",
    "undone_at",
    "undone_by",
    "undo_reason",
}


# Helpers ---------------------------------------------------------------------------------------


def merge(caller: Caller, survivor: int, duplicate: Any, reason: str = "Same person, two sign-ups.") -> Any:
    """POST the merge of `duplicate` into `survivor` as the caller; the response."""
    return caller.post(f"{PLAYERS}/{survivor}/merge", json={"duplicate_id": duplicate, "reason": reason})


def merged(office: Caller, survivor: int, duplicate: int, reason: str = "Same person, two sign-ups.") -> Any:
    """The office merges; the answer (a 200)."""
    response = merge(office, survivor, duplicate, reason)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def undo(caller: Caller, merge_id: int, reason: str = "Two people after all.") -> Any:
    return caller.post(f"{MERGES}/{merge_id}/undo", json={"reason": reason})


def undone(office: Caller, merge_id: int, reason: str = "Two people after all.") -> dict[str, Any]:
    response = undo(office, merge_id, reason)
    assert response.status_code == 200, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return data


def read_merge(office: Caller, merge_id: int) -> dict[str, Any]:
    response = office.get(f"{MERGES}/{merge_id}")
    assert response.status_code == 200, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return data


def seen(caller: Caller, player_id: int) -> dict[str, Any]:
    """The player's profile as the caller sees it (a 200)."""
    response = caller.get(f"{PLAYERS}/{player_id}")
    assert response.status_code == 200, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return data


def record(office: Caller, player_id: int) -> dict[str, Any]:
    """The office's view of the player without updated_at (which a write may touch)."""
    return {k: v for k, v in seen(office, player_id).items() if k != "updated_at"}


def person(scene: Scene, display_name: str, **fields: Any) -> int:
    """A new player of the scene with this display name and these fields (email unless given)."""
    created = scene.league.player(unique_name(), display_name=display_name, **fields)
    scene.roster.append(created)
    return int(created["id"])


def standings_of(scene: Scene) -> dict[int, tuple[int, int]]:
    """{player id: (played, points)} of the scene's standings."""
    return {row["player"]["id"]: (row["played"], row["points"]) for row in scene.rows()}


def venue_qualifiers(scene: Scene) -> dict[str, Any]:
    """The venue's list as the office reads it (skip reasons as R13 gives them)."""
    return read_qualifiers(scene.office, scene.season_id, scene.venue_id)


def barred(office: Caller, venue_id: int) -> list[int]:
    response = office.get(f"/api/v1/venues/{venue_id}/barred")
    assert response.status_code == 200, response.get_data(as_text=True)
    return [row["player"]["id"] for row in response.get_json()["barred"]]


def disqualify(scene: Scene, player_id: int) -> dict[str, Any]:
    response = scene.office.post(
        f"{SEASONS}/{scene.season_id}/disqualifications",
        json={"player_id": player_id, "reason": "Collusion at the final table."},
    )
    assert response.status_code == 201, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return data


def disqualifications(scene: Scene) -> list[dict[str, Any]]:
    response = scene.office.get(f"{SEASONS}/{scene.season_id}/disqualifications")
    assert response.status_code == 200, response.get_data(as_text=True)
    data: list[dict[str, Any]] = response.get_json()["items"]
    return data


def merges_list(office: Caller, query: str = "") -> dict[str, Any]:
    response = office.get(f"{MERGES}{query}")
    assert response.status_code == 200, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return data


def state(scene: Scene, *player_ids: int) -> dict[str, Any]:
    """Everything a merge or an undo would change, as the office and the public read it."""
    return {
        "players": {pid: seen(scene.office, pid) for pid in player_ids},
        "public": {pid: seen(scene.public, pid) for pid in player_ids},
        "standings": scene.rows(),
        "qualifiers": venue_qualifiers(scene),
        "barred": barred(scene.office, scene.venue_id),
        "disqualifications": disqualifications(scene),
        "sanctions": scene.office.get(f"{SANCTIONS}?per_page=100").get_json(),
        "merges": merges_list(scene.office, "?per_page=100"),
        "audit": audit_entries(scene.office, "entity=player"),
    }


class Pair:
    """Sam (the survivor) won one report, Dup (the duplicate) won another, both of 5 entrants."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.survivor = person(scene, "Sam Survivor")
        self.duplicate = person(scene, "Dup Duplicate")
        self.fillers = scene.fillers(4)
        self.first = scene.report([self.survivor, *self.fillers])
        self.second = scene.report([self.duplicate, *self.fillers])


@pytest.fixture()
def pair(scene: Scene) -> Pair:
    return Pair(scene)


# Merging (R17) -----------------------------------------------------------------------------------


def test_merge_answers_the_survivor_and_moves_the_results_r17(pair: Pair) -> None:
    """R17: 200 with the survivor as the office sees it and the merge's id; one standings row with
    both results; the duplicate's record stays, pointing at the survivor, with no results."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    before = standings_of(scene)
    assert (before[s], before[d]) == ((1, 20), (1, 20))
    office_view = seen(scene.office, s)
    body = merged(scene.office, s, d)
    assert body["id"] == s and body["merged_into_id"] is None
    assert isinstance(body["merge_id"], int)
    assert set(body) >= PERSONAL
    assert (body["email"], body["full_name"]) == (office_view["email"], office_view["full_name"])
    after = standings_of(scene)
    assert d not in after
    assert after[s] == (2, 40)
    assert {pid: row for pid, row in after.items() if pid != s} == {
        pid: row for pid, row in before.items() if pid not in (s, d)
    }
    dup = seen(scene.public, d)
    assert dup["merged_into_id"] == s
    assert (dup["seasons"], dup["qualification"]) == ([], [])
    assert PERSONAL.isdisjoint(dup)
    profile = seen(scene.public, s)
    (season,) = profile["seasons"]
    assert (season["played"], season["points"]) == (2, 40)
    assert sorted(r["tournament_id"] for r in season["results"]) == sorted(
        [pair.first["id"], pair.second["id"]]
    )
    second = scene.public.get(f"{TOURNAMENTS}/{pair.second['id']}").get_json()
    assert [r["player"]["id"] for r in second["results"]][0] == s


def test_merge_is_listed_with_what_moved_r17(pair: Pair) -> None:
    """R17: the merge says who, when, why and which results moved; not undone."""
    scene = pair.scene
    body = merged(scene.office, pair.survivor, pair.duplicate, "Signed up twice at the Crown.")
    found = read_merge(scene.office, body["merge_id"])
    assert set(found) == MERGE_KEYS
    assert (found["id"], found["survivor_id"], found["duplicate_id"]) == (
        body["merge_id"],
        pair.survivor,
        pair.duplicate,
    )
    assert (found["reason"], found["merged_by"]) == ("Signed up twice at the Crown.", "Office: Test")
    assert found["merged_at"].endswith("Z")
    assert len(found["moved"]["results"]) == 1 and all(isinstance(i, int) for i in found["moved"]["results"])
    assert (found["moved"]["sanctions"], found["moved"]["disqualifications"], found["moved"]["fields"]) == (
        [],
        [],
        {},
    )
    assert (found["undone"], found["undone_at"], found["undone_by"], found["undo_reason"]) == (
        False,
        None,
        None,
        None,
    )
    listing = merges_list(scene.office)
    assert (listing["total"], [m["id"] for m in listing["items"]]) == (1, [body["merge_id"]])
    assert listing["items"][0] == found


def test_survivor_takes_the_fields_it_lacks_r17(scene: Scene) -> None:
    """R17: the survivor takes email, date of birth, membership number and home venue from the
    duplicate where it has none; `moved.fields` lists exactly what it took."""
    home = scene.venue_id
    survivor = person(scene, "Bare Record")
    assert scene.office.patch(f"{PLAYERS}/{survivor}", json={"email": None}).status_code == 200
    email = unique_email()
    duplicate = person(
        scene, "Full Record", email=email, membership_number="198507211234", home_venue_id=home
    )
    body = merged(scene.office, survivor, duplicate)
    assert (body["email"], body["date_of_birth"], body["membership_number"], body["pin"]) == (
        email,
        "1985-07-21",
        "198507211234",
        "1234",
    )
    assert body["home_venue_id"] == home
    assert read_merge(scene.office, body["merge_id"])["moved"]["fields"] == {
        "email": email,
        "date_of_birth": "1985-07-21",
        "membership_number": "198507211234",
        "home_venue_id": home,
    }
    # The unique ones are the survivor's now: the duplicate's record no longer holds them.
    dup = seen(scene.office, duplicate)
    assert (dup["email"], dup["membership_number"]) == (None, None)
    assert [p["id"] for p in scene.office.get(f"{PLAYERS}?q={email}").get_json()["items"]] == [survivor]


def test_survivor_keeps_its_own_fields_r17(scene: Scene) -> None:
    """R17: a field the survivor has stays; only the missing ones are taken."""
    elsewhere = int(scene.league.venue(scene.region["id"])["id"])
    own_email = unique_email()
    survivor = person(scene, "Own Record", email=own_email, home_venue_id=scene.venue_id)
    duplicate = person(
        scene,
        "Other Record",
        email=unique_email(),
        membership_number="199001021111",
        home_venue_id=elsewhere,
    )
    dup_email = seen(scene.office, duplicate)["email"]
    body = merged(scene.office, survivor, duplicate)
    assert (body["email"], body["home_venue_id"]) == (own_email, scene.venue_id)
    assert (body["date_of_birth"], body["membership_number"]) == ("1990-01-02", "199001021111")
    assert read_merge(scene.office, body["merge_id"])["moved"]["fields"] == {
        "date_of_birth": "1990-01-02",
        "membership_number": "199001021111",
    }
    assert seen(scene.office, duplicate)["email"] == dup_email  # not taken, so not given up


def test_sanctions_and_disqualifications_move_and_the_door_list_follows_r17(pair: Pair) -> None:
    """R17: the duplicate's sanctions and disqualifications are the survivor's now: the door list,
    the sanction, the season's disqualifications and the qualifiers say so at once."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    suspension = sanctioned(scene.office, d, "suspension", "fighting", first_day=ago(3), last_day=ago(-20))
    warning = sanctioned(scene.office, d, "warning", "berating", first_day=ago(1), last_day=ago(1))
    dq = disqualify(scene, d)
    assert d in barred(scene.office, scene.venue_id) and s not in barred(scene.office, scene.venue_id)
    body = merged(scene.office, s, d)
    moved = read_merge(scene.office, body["merge_id"])["moved"]
    assert sorted(moved["sanctions"]) == sorted([suspension["id"], warning["id"]])
    assert moved["disqualifications"] == [dq["id"]]
    assert s in barred(scene.office, scene.venue_id) and d not in barred(scene.office, scene.venue_id)
    assert scene.office.get(f"{SANCTIONS}/{suspension['id']}").get_json()["player_id"] == s
    assert [(x["id"], x["player_id"]) for x in disqualifications(scene)] == [(dq["id"], s)]
    listing = venue_qualifiers(scene)
    assert (s, "disqualified") in [(i["player"]["id"], i["reason"]) for i in listing["skipped"]]
    assert d not in ids_of(listing["qualifiers"]) + ids_of(listing["skipped"]) + ids_of(listing["tied_out"])
    history = scene.office.get(f"{PLAYERS}/{s}/sanctions").get_data(as_text=True)
    assert str(suspension["id"]) in history


def test_qualifiers_follow_the_merge_and_its_undo_r17(pair: Pair) -> None:
    """R17: level at the cut before (one qualifier, one tied out); after the merge the survivor
    qualifies alone with both wins; after the undo the tie is back."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    before = venue_qualifiers(scene)
    assert sorted(ids_of(before["qualifiers"]) + ids_of(before["tied_out"])) == sorted([s, d])
    body = merged(scene.office, s, d)
    after = venue_qualifiers(scene)
    assert ids_of(after["qualifiers"]) == [s]
    assert after["qualifiers"][0]["points"] == 40
    assert "tie_at_cut" not in after["qualifiers"][0]["flags"]
    assert after["tied_out"] == []
    undone(scene.office, body["merge_id"])
    assert venue_qualifiers(scene) == before


def test_reports_naming_the_duplicate_use_the_survivor_r17(pair: Pair) -> None:
    """R17: a later report naming the merged id stores the survivor, with a merged_player warning."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    merged(scene.office, s, d)
    response = scene.post(scene.body([d, *pair.fillers], date.fromisoformat(ago(3))))
    assert response.status_code == 201, response.get_data(as_text=True)
    report = response.get_json()
    assert [r["player"]["id"] for r in report["results"]][0] == s
    warnings = [w for w in report["warnings"] if w["code"] == "merged_player"]
    assert len(warnings) == 1
    assert warnings[0]["player_ids"] == [s]
    assert str(d) in warnings[0]["message"] and "R17" in warnings[0]["message"]
    assert standings_of(scene)[s] == (3, 60)
    assert d not in standings_of(scene)


def test_merged_player_is_left_out_of_the_search_but_readable_r17(pair: Pair) -> None:
    """R17: once merged, the duplicate is never listed by the search: its name finds the
    survivor its id now names; its own record stays readable, naming the survivor."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    assert d in [p["id"] for p in scene.public.get(f"{PLAYERS}?q=dup%20dup").get_json()["items"]]
    merged(scene.office, s, d)
    found = scene.public.get(f"{PLAYERS}?q=dup%20dup").get_json()
    assert (found["total"], [p["id"] for p in found["items"]]) == (1, [s])
    assert seen(scene.public, d)["merged_into_id"] == s


# Refusals (R17) ------------------------------------------------------------------------------------


def test_both_in_one_tournament_is_refused_and_changes_nothing_r17(pair: Pair) -> None:
    """R17: two players with results in one tournament are two people: 409 naming duplicate_id."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    scene.report([s, d, *pair.fillers])
    before = state(scene, s, d)
    problem = assert_problem(merge(scene.office, s, d), 409, "duplicate_id", rule="R17")
    assert "tournament" in problem["detail"]
    assert state(scene, s, d) == before


def test_both_in_one_voided_tournament_is_refused_too_r17(pair: Pair) -> None:
    """R17: voided tournaments count: both were there, so they are two people."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    shared = scene.report([d, s, *pair.fillers])
    voided = scene.office.post(f"{TOURNAMENTS}/{shared['id']}/void", json={"reason": "Wrong night."})
    assert voided.status_code == 200, voided.get_data(as_text=True)
    before = state(scene, s, d)
    problem = assert_problem(merge(scene.office, s, d), 409, "duplicate_id", rule="R17")
    assert str(shared["id"]) in problem["detail"]
    assert state(scene, s, d) == before


def test_both_disqualified_for_one_season_is_refused_r17(pair: Pair) -> None:
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    disqualify(scene, s)
    disqualify(scene, d)
    before = state(scene, s, d)
    assert_problem(merge(scene.office, s, d), 409, "duplicate_id", rule="R17")
    assert state(scene, s, d) == before


def test_unknown_duplicate_is_422_r17(pair: Pair) -> None:
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    before = state(scene, s, d)
    assert_problem(merge(scene.office, s, 987654321), 422, "duplicate_id")
    assert state(scene, s, d) == before


def test_merging_a_player_into_itself_is_422_r17(pair: Pair) -> None:
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    before = state(scene, s, d)
    assert_problem(merge(scene.office, s, s), 422, "duplicate_id", rule="R17")
    assert state(scene, s, d) == before


def test_a_duplicate_already_merged_is_409_r17(pair: Pair) -> None:
    """R17: a record merged away is not merged again until its merge is undone: a 409 (it
    changed since the office looked, as when two merge it at once) naming where it went."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    third = person(scene, "Third Record")
    merged(scene.office, s, d)
    before = state(scene, s, d, third)
    problem = assert_problem(merge(scene.office, third, d), 409, "duplicate_id", rule="R17")
    assert f"Player {d} was already merged into player {s}" in problem["detail"]
    assert_problem(merge(scene.office, s, d), 409, "duplicate_id", rule="R17")
    assert state(scene, s, d, third) == before


def test_a_survivor_merged_away_is_409_naming_where_it_went_r17(pair: Pair) -> None:
    """R17: a record merged away is no survivor: merging into it is a 409 naming the player it
    was merged into."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    third = person(scene, "Third Record")
    merged(scene.office, s, d)
    before = state(scene, s, d, third)
    problem = assert_problem(merge(scene.office, d, third), 409, "survivor", rule="R17")
    assert f"Player {d} was merged into player {s}" in problem["detail"]
    assert state(scene, s, d, third) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"reason": "Same person."}, "duplicate_id"),
        ({"duplicate_id": 1}, "reason"),
        ({"duplicate_id": "two", "reason": "Same person."}, "duplicate_id"),
        ({"duplicate_id": 1, "reason": "Same person.", "force": True}, "force"),
    ],
)
def test_a_malformed_merge_is_422(pair: Pair, body: dict[str, Any], field: str) -> None:
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    before = state(scene, s, d)
    assert_problem(scene.office.post(f"{PLAYERS}/{s}/merge", json=body), 422, field)
    assert state(scene, s, d) == before


def test_unknown_survivor_is_404(pair: Pair) -> None:
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    before = state(scene, s, d)
    assert_problem(merge(scene.office, 987654321, d), 404)
    assert state(scene, s, d) == before


def test_only_the_office_merges_r17(pair: Pair) -> None:
    """R17: hosts get 403, the public 401, on every merge operation; nothing changes."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    before = state(scene, s, d)
    assert_problem(merge(scene.host, s, d), 403)
    assert_problem(merge(scene.public, s, d), 401)
    assert state(scene, s, d) == before
    body = merged(scene.office, s, d)
    for caller, status in ((scene.host, 403), (scene.public, 401)):
        assert_problem(caller.get(MERGES), status)
        assert_problem(caller.get(f"{MERGES}/{body['merge_id']}"), status)
        assert_problem(undo(caller, body["merge_id"]), status)
    assert read_merge(scene.office, body["merge_id"])["undone"] is False
    assert seen(scene.public, d)["merged_into_id"] == s


# The list of merges -------------------------------------------------------------------------------


def test_merges_newest_first_filtered_by_player_and_paginated_r17(scene: Scene) -> None:
    a, b, c, x, y = (person(scene, name) for name in ("Al A", "Bo B", "Cy C", "Xe X", "Yu Y"))
    first = merged(scene.office, a, b)["merge_id"]
    second = merged(scene.office, x, y)["merge_id"]
    third = merged(scene.office, a, c)["merge_id"]
    everything = merges_list(scene.office)
    assert (everything["total"], [m["id"] for m in everything["items"]]) == (3, [third, second, first])
    of_a = merges_list(scene.office, f"?player_id={a}")
    assert (of_a["total"], [m["id"] for m in of_a["items"]]) == (2, [third, first])
    of_y = merges_list(scene.office, f"?player_id={y}")  # the duplicate's side counts too
    assert [m["id"] for m in of_y["items"]] == [second]
    assert merges_list(scene.office, "?player_id=987654321")["total"] == 0
    page2 = merges_list(scene.office, "?per_page=2&page=2")
    assert (page2["total"], [m["id"] for m in page2["items"]]) == (3, [first])
    assert_problem(scene.office.get(f"{MERGES}/987654321"), 404)


# Undoing (R17) -------------------------------------------------------------------------------------


def test_undo_restores_both_players_exactly_r17(scene: Scene) -> None:
    """R17: results, sanctions, disqualifications and the fields taken go back to the duplicate;
    merged_into_id is null; standings, qualifiers, door list and profiles are as before."""
    fillers = scene.fillers(4)
    survivor = person(scene, "Sam Survivor")
    assert scene.office.patch(f"{PLAYERS}/{survivor}", json={"email": None}).status_code == 200
    duplicate = person(scene, "Dup Duplicate", membership_number="198507211234", home_venue_id=scene.venue_id)
    scene.report([survivor, *fillers])
    scene.report([duplicate, *fillers])
    sanctioned(scene.office, duplicate, "suspension", "fighting", first_day=ago(3), last_day=ago(-20))
    disqualify(scene, duplicate)
    before = state(scene, survivor, duplicate)
    originals = {pid: record(scene.office, pid) for pid in (survivor, duplicate)}
    body = merged(scene.office, survivor, duplicate)
    assert state(scene, survivor, duplicate)["standings"] != before["standings"]
    answer = undone(scene.office, body["merge_id"], "They are twins.")
    assert answer["id"] == body["merge_id"]
    assert (answer["undone"], answer["undone_by"], answer["undo_reason"]) == (
        True,
        "Office: Test",
        "They are twins.",
    )
    assert answer["undone_at"].endswith("Z")
    assert read_merge(scene.office, body["merge_id"]) == answer
    assert {pid: record(scene.office, pid) for pid in (survivor, duplicate)} == originals
    after = state(scene, survivor, duplicate)
    for name in ("public", "standings", "qualifiers", "barred", "disqualifications", "sanctions"):
        assert after[name] == before[name], name
    assert seen(scene.public, duplicate)["merged_into_id"] is None


def test_after_undo_the_players_can_be_merged_again_r17(pair: Pair) -> None:
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    first = merged(scene.office, s, d)["merge_id"]
    undone(scene.office, first)
    second = merged(scene.office, s, d)["merge_id"]
    assert second != first
    assert standings_of(pair.scene)[s] == (2, 40)


def test_undo_twice_is_409_r17(pair: Pair) -> None:
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    merge_id = merged(scene.office, s, d)["merge_id"]
    first = undone(scene.office, merge_id, "First undo.")
    before = state(scene, s, d)
    assert_problem(undo(scene.office, merge_id, "Second undo."), 409, rule="R17")
    assert state(scene, s, d) == before
    assert read_merge(scene.office, merge_id) == first


def test_undo_refused_when_a_moved_result_was_corrected_r17(pair: Pair) -> None:
    """R17: a correction replaced the moved result: the merge cannot be undone (409, saying so)."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    merge_id = merged(scene.office, s, d)["merge_id"]
    report = pair.second
    correction = {
        **scene.body([*pair.fillers[:1], s, *pair.fillers[1:]], date.fromisoformat(report["date"])),
        "reason": "Sheet misread.",
    }
    response = scene.office.put(f"{TOURNAMENTS}/{report['id']}", json=correction)
    assert response.status_code == 200, response.get_data(as_text=True)
    before = state(scene, s, d)
    problem = assert_problem(undo(scene.office, merge_id), 409, rule="R17")
    assert "correction" in problem["detail"]
    assert state(scene, s, d) == before
    assert read_merge(scene.office, merge_id)["undone"] is False


def test_undo_refused_when_a_taken_field_changed_r17(scene: Scene) -> None:
    """R17: the survivor's email, taken in the merge, was changed since: 409 naming it."""
    survivor = person(scene, "Sam Survivor")
    assert scene.office.patch(f"{PLAYERS}/{survivor}", json={"email": None}).status_code == 200
    duplicate = person(scene, "Dup Duplicate")
    merge_id = merged(scene.office, survivor, duplicate)["merge_id"]
    changed = scene.office.patch(f"{PLAYERS}/{survivor}", json={"email": unique_email()})
    assert changed.status_code == 200, changed.get_data(as_text=True)
    before = state(scene, survivor, duplicate)
    problem = assert_problem(undo(scene.office, merge_id), 409, rule="R17")
    assert "email" in problem["detail"]
    assert state(scene, survivor, duplicate) == before


def test_undo_refused_when_the_survivor_was_merged_again_r17(pair: Pair) -> None:
    """R17: the survivor was since merged into a third record: 409 saying so."""
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    third = person(scene, "Third Record")
    merge_id = merged(scene.office, s, d)["merge_id"]
    merged(scene.office, third, s)
    before = state(scene, s, d, third)
    problem = assert_problem(undo(scene.office, merge_id), 409, rule="R17")
    assert str(third) in problem["detail"]
    assert state(scene, s, d, third) == before
    assert standings_of(scene)[third] == (2, 40)


def test_undo_of_an_unknown_merge_is_404_and_needs_a_reason(pair: Pair) -> None:
    scene = pair.scene
    assert_problem(undo(scene.office, 987654321), 404)
    merge_id = merged(scene.office, pair.survivor, pair.duplicate)["merge_id"]
    assert_problem(scene.office.post(f"{MERGES}/{merge_id}/undo", json={}), 422, "reason")
    assert read_merge(scene.office, merge_id)["undone"] is False


# Audit (R18) --------------------------------------------------------------------------------------


def test_merge_and_undo_are_audited_with_before_after_and_reason_r18(scene: Scene) -> None:
    survivor = person(scene, "Sam Survivor")
    duplicate = person(scene, "Dup Duplicate", membership_number="198507211234")
    s_email = seen(scene.office, survivor)["email"]
    merge_id = merged(scene.office, survivor, duplicate, "Signed up twice.")["merge_id"]
    (entry,) = audit_entries(scene.office, "action=player.merge")
    assert (entry["actor"], entry["entity"], entry["entity_id"]) == ("Office: Test", "player", survivor)
    assert entry["reason"] == "Signed up twice."
    assert entry["before"]["survivor"]["membership_number"] is None
    assert entry["before"]["survivor"]["email"] == s_email
    assert entry["before"]["duplicate"]["membership_number"] == "198507211234"
    assert entry["before"]["duplicate"]["merged_into_id"] is None
    assert entry["after"]["merge_id"] == merge_id
    assert entry["after"]["survivor"]["membership_number"] == "198507211234"
    assert audit_entries(scene.office, "action=player.merge_undo") == []
    undone(scene.office, merge_id, "Twins.")
    (undo_entry,) = audit_entries(scene.office, "action=player.merge_undo")
    assert undo_entry["reason"] == "Twins."
    assert undo_entry["before"]["duplicate"]["merged_into_id"] == survivor
    assert undo_entry["after"]["duplicate"]["merged_into_id"] is None
    assert undo_entry["after"]["duplicate"]["membership_number"] == "198507211234"
    assert undo_entry["after"]["survivor"]["membership_number"] is None
    assert len(audit_entries(scene.office, "action=player.merge")) == 1


def test_refused_merges_and_undos_leave_no_audit_entry_r18(pair: Pair) -> None:
    scene, s, d = pair.scene, pair.survivor, pair.duplicate
    assert_problem(merge(scene.office, s, s), 422)
    merge_id = merged(scene.office, s, d)["merge_id"]
    undone(scene.office, merge_id)
    assert_problem(undo(scene.office, merge_id), 409)
    assert len(audit_entries(scene.office, "action=player.merge")) == 1
    assert len(audit_entries(scene.office, "action=player.merge_undo")) == 1
