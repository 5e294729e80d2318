"""POST /api/v1/players/{id}/not-duplicate: the office says two look-alike players are two people
(R5), once (R17a), audited (R18); the pair is then no longer offered as a possible duplicate (the
console's page: test_console.py). Bad input changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from models.services.players import distinct_checks as distinct_player_checks
from tests.builders import audit_entries
from tests.support.league import Caller, League, assert_problem


def not_duplicate(caller: Caller, player_id: int, other_id: Any, reason: Any = "Two brothers.") -> Any:
    body: dict[str, Any] = {"other_id": other_id}
    if reason is not None:
        body["reason"] = reason
    return caller.post(f"/api/v1/players/{player_id}/not-duplicate", json=body)


@pytest.fixture()
def look_alikes(league: League) -> tuple[dict[str, Any], dict[str, Any]]:
    """Jonathan, then Jonathon: the second's registration warned of the first (R5)."""
    older = league.player("Jonathan Whitfield")
    newer = league.player("Jonathon Whitfield")
    assert [w["player_ids"] for w in newer["warnings"]] == [[older["id"]]]
    return older, newer


def recorded(office: Caller) -> list[dict[str, Any]]:
    return audit_entries(office, "action=player.not_duplicate")


def test_r5_r18_the_office_records_that_two_look_alikes_are_two_people(
    office: Caller, look_alikes: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    """R5: a 201 with the record, the pair lower id first, whichever side the office started from;
    R18: audited on both players, with the reason."""
    older, newer = look_alikes
    answer = not_duplicate(office, newer["id"], older["id"], "  Twins: different birthdays. ")
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert list(body) == ["id", "player_ids", "reason", "recorded_at", "recorded_by"]
    assert body["player_ids"] == [older["id"], newer["id"]]
    assert body["reason"] == "Twins: different birthdays." and body["recorded_by"] == "Office: Test"
    assert body["recorded_at"].endswith("Z")
    entries = recorded(office)
    assert sorted(e["entity_id"] for e in entries) == [older["id"], newer["id"]]
    assert {(e["entity"], e["reason"], e["after"]["id"]) for e in entries} == {
        ("player", "Twins: different birthdays.", body["id"])
    }


def test_r17a_a_pair_is_recorded_once_from_either_side(
    office: Caller, look_alikes: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    """R17a: once means once: the pair again, from either side, is a 409 saying when and by whom,
    and leaves no audit entry."""
    older, newer = look_alikes
    first = not_duplicate(office, newer["id"], older["id"]).get_json()
    for player_id, other_id in ((newer["id"], older["id"]), (older["id"], newer["id"])):
        again = not_duplicate(office, player_id, other_id, "Said again.")
        problem = assert_problem(again, 409, "other_id", rule="R17a")
        assert (
            f"already recorded as different people on {first['recorded_at'][:10]} by Office: Test"
            in (problem["detail"])
        )
    assert len(recorded(office)) == 2  # the first record's two entries


def test_r17a_the_unique_pair_answers_a_race_with_a_409_not_a_500(
    office: Caller, look_alikes: tuple[dict[str, Any], dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """R17a: with the service's own check switched off (as when two requests pass it at the same
    moment), the database's unique pair refuses the second: a 409 naming R17a, nothing stored."""
    older, newer = look_alikes
    assert not_duplicate(office, newer["id"], older["id"]).status_code == 201
    monkeypatch.setattr(distinct_player_checks, "refuse_recorded", lambda *_args: None)
    raced = not_duplicate(office, older["id"], newer["id"], "At the same moment.")
    problem = assert_problem(raced, 409, rule="R17a")
    assert "at the same moment" in problem["detail"]
    assert len(recorded(office)) == 2


def test_bad_input_is_refused_naming_the_field_and_changes_nothing(
    office: Caller, league: League, look_alikes: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    older, newer = look_alikes
    assert_problem(not_duplicate(office, newer["id"], newer["id"]), 422, "other_id")
    missing = assert_problem(not_duplicate(office, newer["id"], 999_999), 422, "other_id")
    assert "no player with id 999999" in missing["errors"]["other_id"][0]
    assert_problem(not_duplicate(office, 999_999, newer["id"]), 404)
    assert_problem(not_duplicate(office, newer["id"], older["id"], None), 422, "reason")
    assert_problem(not_duplicate(office, newer["id"], older["id"], "   "), 422, "reason")
    assert_problem(not_duplicate(office, newer["id"], "12"), 422, "other_id")
    assert_problem(
        office.post(f"/api/v1/players/{newer['id']}/not-duplicate", json={"reason": "x"}), 422, "other_id"
    )
    assert recorded(office) == []


def test_r17_a_player_merged_away_is_refused_naming_the_player_it_is_part_of_now(
    office: Caller, league: League, look_alikes: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    """R17: a record merged away is part of another player now: refused (409) naming it and where
    it went, from either side; nothing is recorded."""
    older, newer = look_alikes
    third = league.player("Jonathan Whitfeld")
    merged = office.post(
        f"/api/v1/players/{older['id']}/merge", json={"duplicate_id": third["id"], "reason": "Typo."}
    )
    assert merged.status_code == 200, merged.get_json()
    problem = assert_problem(not_duplicate(office, third["id"], newer["id"]), 409, "player_id", rule="R17")
    assert f"Player {third['id']} was merged into player {older['id']}" in problem["detail"]
    problem = assert_problem(not_duplicate(office, newer["id"], third["id"]), 409, "other_id", rule="R17")
    assert f"player {older['id']}" in problem["errors"]["other_id"][0]
    assert recorded(office) == []


def test_only_the_office_tells_players_apart(
    office: Caller,
    public: Caller,
    host_for: Any,
    league: League,
    look_alikes: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    older, newer = look_alikes
    venue = league.venue()
    assert_problem(not_duplicate(host_for(venue["id"]), newer["id"], older["id"]), 403)
    assert_problem(not_duplicate(public, newer["id"], older["id"]), 401)
    assert recorded(office) == []


def test_r5_a_name_registered_again_warns_of_the_new_pairs_only(
    office: Caller, league: League, look_alikes: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    """R5: once two look-alikes are told apart, a third of the same name is still registered with
    a warning naming both (the third and each of them are new pairs: nobody said those are two
    people); the pair told apart is never named together in a warning, since a warning lists the
    look-alikes of the one player it registers."""
    older, newer = look_alikes
    assert not_duplicate(office, newer["id"], older["id"]).status_code == 201
    third = league.player("Jonathan Whitfield")
    (warning,) = third["warnings"]
    assert warning["code"] == "possible_duplicate" and warning["rule"] == "R5"
    assert warning["player_ids"] == [older["id"], newer["id"]]
    assert warning["message"] == (
        f"the new player Jonathan W. (#{third['id']}) closely matches Jonathan W. (#{older['id']}), "
        f"Jonathon W. (#{newer['id']}); the office can merge them (R5)."
    )
