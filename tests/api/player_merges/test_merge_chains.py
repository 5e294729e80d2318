"""Chains of merges (R5, R13, R16, R17) through the HTTP API: B merged into A, then A into C. An id
merged away, however many merges ago, names the final survivor C everywhere: a report naming B is
C's (with the merged_player warning), a suspension of C refuses it (R16), a sanction or a
disqualification for B is refused naming C, B's profile and a search for B's name name C, and
merging into B is refused naming C. Undoing the chain goes in reverse: the first merge is refused
while the later one depends on it, saying which to undo first; undone in reverse, everything is
as before."""

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
    person,
    qualifiers_path,
    sanctioned,
)
from tests.support.league import assert_problem

PLAYERS = "/api/v1/players"
MERGES = "/api/v1/player-merges"


class Chain:
    """Bea (B) won one report, Ava (A) another, Cal (C) a third, of 5 entrants each; then B was
    merged into A (merge `first`), and A into C (merge `second`)."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.b = person(scene, "Bea Beginning")
        self.a = person(scene, "Ava Middle")
        self.c = person(scene, "Cal End")
        self.fillers = scene.fillers(4)
        for player in (self.b, self.a, self.c):
            scene.report([player, *self.fillers])
        self.before = chain_state(scene, self)
        self.first = merge(scene, self.a, self.b)
        self.second = merge(scene, self.c, self.a)


def merge(scene: Scene, survivor: int, duplicate: int) -> int:
    response = scene.office.post(
        f"{PLAYERS}/{survivor}/merge", json={"duplicate_id": duplicate, "reason": "Same person."}
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    return int(response.get_json()["merge_id"])


def profile(scene: Scene, player_id: int) -> dict[str, Any]:
    response = scene.office.get(f"{PLAYERS}/{player_id}")
    assert response.status_code == 200, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return {k: v for k, v in data.items() if k != "updated_at"}


def chain_state(scene: Scene, chain: Chain) -> dict[str, Any]:
    """What the merges and their undos change, as the office and the public read it."""
    return {
        "profiles": {p: profile(scene, p) for p in (chain.b, chain.a, chain.c)},
        "standings": scene.rows(),
        "sanctions": scene.office.get(f"{SANCTIONS}?per_page=100").get_json(),
        "qualifiers": scene.public.get(qualifiers_path(scene.season_id, scene.venue_id)).get_json(),
    }


@pytest.fixture()
def chain(scene: Scene) -> Chain:
    return Chain(scene)


def test_a_report_naming_a_record_merged_twice_is_the_final_survivors_r5_r17(chain: Chain) -> None:
    """R5, R17: a report naming B is recorded on C (not on A, itself merged away), with the
    merged_player warning naming C; C's standings hold it, A's and B's ids hold nothing."""
    scene = chain.scene
    response = scene.post(scene.body([chain.b, *chain.fillers], date.fromisoformat(ago(3))))
    assert response.status_code == 201, response.get_data(as_text=True)
    report = response.get_json()
    assert report["results"][0]["player"]["id"] == chain.c
    (warning,) = [w for w in report["warnings"] if w["code"] == "merged_player"]
    assert warning["player_ids"] == [chain.c]
    assert f"player {chain.b} was merged into player {chain.c}" in warning["message"]
    standing = {row["player"]["id"]: row["played"] for row in scene.rows()}
    assert standing[chain.c] == 4
    assert chain.a not in standing and chain.b not in standing


def test_a_suspension_of_the_final_survivor_refuses_a_report_naming_the_first_record_r16_r17(
    chain: Chain,
) -> None:
    """R16, R17: C is suspended: a report naming B (merged into A, merged into C) is refused
    whole under R16, naming the row; nothing is stored."""
    scene = chain.scene
    sanctioned(scene.office, chain.c, first_day=ago(10), last_day=ago(-10))
    stored = scene.stored_reports()
    response = scene.post(scene.body([chain.b, *chain.fillers], date.fromisoformat(ago(3))))
    problem = assert_problem(response, 422, "results.0.player_id", rule="R16")
    assert str(chain.c) in problem["detail"]
    assert scene.stored_reports() == stored


def test_a_sanction_for_a_record_merged_away_is_refused_naming_the_final_survivor_r16_r17(
    chain: Chain,
) -> None:
    """R16, R17: a sanction for B (or A) is refused, naming C, whom the office sanctions; none
    is recorded."""
    scene = chain.scene
    for merged_away in (chain.b, chain.a):
        body = {"player_id": merged_away, "kind": "warning", "category": "fighting", "reason": "Shouted."}
        problem = assert_problem(scene.office.post(SANCTIONS, json=body), 422, "player_id", rule="R17")
        assert f"sanction player {chain.c}" in problem["detail"]
    assert scene.office.get(SANCTIONS).get_json()["total"] == 0


def test_a_disqualification_of_a_record_merged_away_is_refused_naming_the_final_survivor_r13_r17(
    chain: Chain,
) -> None:
    """R13, R17: disqualifying B is refused, naming C; disqualifying C skips C at the venue."""
    scene = chain.scene
    path = f"{SEASONS}/{scene.season_id}/disqualifications"
    refused = scene.office.post(path, json={"player_id": chain.b, "reason": "Collusion."})
    problem = assert_problem(refused, 422, "player_id", rule="R17")
    assert f"disqualify player {chain.c}" in problem["detail"]
    assert scene.office.get(path).get_json()["total"] == 0
    assert scene.office.post(path, json={"player_id": chain.c, "reason": "Collusion."}).status_code == 201
    listed = scene.office.get(qualifiers_path(scene.season_id, scene.venue_id)).get_json()
    assert {"player": chain.c, "reason": "disqualified"} in [
        {"player": s["player"]["id"], "reason": s["reason"]} for s in listed["skipped"]
    ]


def test_the_profile_and_the_search_of_a_record_merged_twice_name_the_final_survivor_r17(
    chain: Chain,
) -> None:
    """R17: B's profile names C as the player it was merged into (its id names C now); a search
    for B's or A's name lists C, once, and never B or A."""
    scene = chain.scene
    assert profile(scene, chain.b)["merged_into_id"] == chain.c
    assert profile(scene, chain.a)["merged_into_id"] == chain.c
    assert profile(scene, chain.c)["merged_into_id"] is None
    for query in ("bea%20beginning", "ava%20middle", "cal%20end"):
        found = scene.public.get(f"{PLAYERS}?q={query}").get_json()
        assert [p["id"] for p in found["items"]] == [chain.c], query


def test_merging_into_or_again_a_record_merged_away_is_refused_naming_the_final_survivor_r17(
    chain: Chain,
) -> None:
    """R17: merging another record into B, or B into another, is a 409 naming where B went,
    C included; nothing changes."""
    scene = chain.scene
    other = person(scene, "Dee Other")
    before = chain_state(scene, chain)
    into_b = scene.office.post(f"{PLAYERS}/{chain.b}/merge", json={"duplicate_id": other, "reason": "x"})
    problem = assert_problem(into_b, 409, "survivor", rule="R17")
    assert f"now part of player {chain.c}" in problem["detail"]
    b_again = scene.office.post(f"{PLAYERS}/{other}/merge", json={"duplicate_id": chain.b, "reason": "x"})
    problem = assert_problem(b_again, 409, "duplicate_id", rule="R17")
    assert f"now part of player {chain.c}" in problem["detail"]
    assert chain_state(scene, chain) == before


def test_undoing_the_first_merge_while_a_later_one_depends_on_it_is_refused_r17(chain: Chain) -> None:
    """R17: A, the survivor of the first merge, was merged away in the second: undoing the
    first is a 409 naming the second merge, to be undone first; nothing changes, no audit."""
    scene = chain.scene
    before = chain_state(scene, chain)
    refused = scene.office.post(f"{MERGES}/{chain.first}/undo", json={"reason": "Two people."})
    problem = assert_problem(refused, 409, "merge", rule="R17")
    assert f"(merge {chain.second}): undo that merge first" in problem["detail"]
    assert chain_state(scene, chain) == before
    assert audit_entries(scene.office, "action=player.merge_undo") == []


def test_undoing_a_chain_in_reverse_restores_everything_exactly_r17(chain: Chain) -> None:
    """R17: undo the second merge, then the first: the three records, their standings, the
    sanctions and the qualifiers are exactly as before either merge."""
    scene = chain.scene
    for merge_id in (chain.second, chain.first):
        response = scene.office.post(f"{MERGES}/{merge_id}/undo", json={"reason": "Three people."})
        assert response.status_code == 200, response.get_data(as_text=True)
    assert chain_state(scene, chain) == chain.before
    listed = scene.office.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}").get_json()["items"]
    winners = sorted(report["results"][0]["player"]["id"] for report in listed)
    assert winners == sorted([chain.b, chain.a, chain.c])
