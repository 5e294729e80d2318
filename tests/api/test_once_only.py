"""Once means once (R17a), one request after another: a second lift, void, revocation, withdrawal,
undo or publication of the same lists is a 409 problem naming what happened, changes nothing and
leaves no audit entry; a change made against a version that is gone is refused (412 with
If-Match). The same, raced under real gunicorn, is in test_once_only_races.py."""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.builders import (
    SANCTIONS,
    SEASONS,
    TOURNAMENTS,
    MakeScene,
    Scene,
    ago,
    audit_entries,
    ended_season,
    sanctioned,
)
from tests.support.league import assert_problem


def entries(scene: Scene, action: str) -> int:
    return len(audit_entries(scene.office, f"action={action}"))


def test_a_second_lift_is_409_naming_when_and_leaves_no_audit_entry_r17a(scene: Scene) -> None:
    """R15, R17a: lifted once: the second lift is a 409 of R17a saying it was already lifted."""
    sanction = sanctioned(scene.office, scene.player())
    url = f"{SANCTIONS}/{sanction['id']}/lift"
    assert scene.office.post(url, json={"reason": "First."}).status_code == 200
    again = assert_problem(scene.office.post(url, json={"reason": "Second."}), 409, "reason", rule="R17a")
    assert f"Sanction {sanction['id']} was already lifted on {ago(0)}" in again["detail"]
    assert scene.office.get(f"{SANCTIONS}/{sanction['id']}").get_json()["lift_reason"] == "First."
    assert entries(scene, "sanction.lift") == 1


def test_a_second_void_and_a_correction_of_a_voided_report_are_409s_r17a(scene: Scene) -> None:
    """R17, R17a: voided once: voiding again, or correcting it, is a 409 of R17a saying it was
    voided; nothing changes, one audit entry."""
    ids = scene.add_players(2)
    report = scene.posted(scene.body(ids))
    url = f"{TOURNAMENTS}/{report['id']}"
    assert scene.office.post(f"{url}/void", json={"reason": "Duplicate."}).status_code == 200
    again = assert_problem(scene.office.post(f"{url}/void", json={"reason": "Again."}), 409, rule="R17a")
    assert f"Report {report['id']} was already voided" in again["detail"]
    corrected = scene.office.put(url, json={**scene.body(ids[::-1]), "reason": "Revive."})
    assert "not corrected" in assert_problem(corrected, 409, rule="R17a")["detail"]
    stored = scene.office.get(url).get_json()
    assert (stored["voided"], stored["version"], stored["void_reason"]) == (True, 1, "Duplicate.")
    assert entries(scene, "tournament.void") == 1
    assert entries(scene, "tournament.correct") == 0


def test_a_void_or_a_correction_made_against_a_version_that_is_gone_is_412_r17a(scene: Scene) -> None:
    """R17, R17a: a change is made against the version it read: once the report was corrected
    to version 2, a void or a correction sent with If-Match version 1 is a 412; the report stays
    at version 2, live."""
    ids = scene.add_players(3)
    report = scene.posted(scene.body(ids))
    url, read = f"{TOURNAMENTS}/{report['id']}", {"If-Match": f'"r{report["id"]}v1"'}
    first = scene.office.put(url, json={**scene.body(ids[::-1]), "reason": "Order."}, headers=read)
    assert first.status_code == 200, first.get_data(as_text=True)
    assert_problem(scene.office.post(f"{url}/void", json={"reason": "Gone."}, headers=read), 412, "If-Match")
    second = scene.office.put(url, json={**scene.body(ids), "reason": "Back."}, headers=read)
    assert_problem(second, 412, "If-Match")
    stored = scene.office.get(url).get_json()
    assert (stored["voided"], stored["version"]) == (False, 2)
    assert entries(scene, "tournament.correct") == 1
    assert entries(scene, "tournament.void") == 0


def test_a_second_withdrawal_is_409_and_leaves_no_audit_entry_r13_r17a(scene: Scene) -> None:
    """R13, R17a: withdrawn once: the second withdrawal is a 409 of R17a saying when."""
    path = f"{SEASONS}/{scene.season_id}/disqualifications"
    item = scene.office.post(path, json={"player_id": scene.player(), "reason": "Collusion."}).get_json()
    url = f"{path}/{item['id']}/withdraw"
    assert scene.office.post(url, json={"reason": "Cleared."}).status_code == 200
    again = assert_problem(scene.office.post(url, json={"reason": "Again."}), 409, "reason", rule="R17a")
    assert f"Disqualification {item['id']} was already withdrawn on {ago(0)}" in again["detail"]
    assert entries(scene, "disqualification.withdraw") == 1


def test_the_same_lists_are_published_once_r12_r17a(make_scene: MakeScene) -> None:
    """R12, R17a: publishing again lists and settlements the latest publication holds is a 409
    of R17a naming it; once a correction changes the lists, they are published again."""
    scene = make_scene(**ended_season())
    players = scene.add_players(5)
    report = scene.report(players)
    path = f"{SEASONS}/{scene.season_id}/qualifiers/publish"
    first = scene.office.post(path, json={"settlements": [], "note": "First."})
    assert first.status_code == 201, first.get_data(as_text=True)
    again = assert_problem(
        scene.office.post(path, json={"settlements": [], "note": "Again."}), 409, rule="R17a"
    )
    assert f"These lists of season {scene.season_id} were already published" in again["detail"]
    assert entries(scene, "qualifiers.publish") == 1
    body: dict[str, Any] = {
        **scene.body(players[::-1], date.fromisoformat(report["date"])),
        "reason": "Order.",
    }
    assert scene.office.put(f"{TOURNAMENTS}/{report['id']}", json=body).status_code == 200
    assert scene.office.post(path, json={"settlements": [], "note": "Second."}).status_code == 201
    assert entries(scene, "qualifiers.publish") == 2
