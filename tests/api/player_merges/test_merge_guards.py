"""The database refuses what the service's merge checks would miss (R17, migration 0014): with
each Python check switched off, as when two requests slip past it at the same moment, the
database's own guard refuses the write; the answer is a 409 problem of R17, nothing changes and
no audit entry is written."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from models.services.player_merges import writes as player_merges
from models.services.qualifiers import writes as qualifiers
from models.services.reports import checks as report_checks
from models.services.sanctions import checks as sanction_checks
from tests.builders import SANCTIONS, SEASONS, Scene, ago, audit_entries, person
from tests.support.league import assert_problem

PLAYERS = "/api/v1/players"


class Three:
    """Sam, Dup and Tom each won a report of 5 entrants; Dup was then merged into Sam."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.sam, self.dup, self.tom = (person(scene, name) for name in ("Sam S", "Dup D", "Tom T"))
        self.fillers = scene.fillers(4)
        for player in (self.sam, self.dup, self.tom):
            scene.report([player, *self.fillers])
        merged = merge(scene, self.sam, self.dup)
        assert merged.status_code == 200, merged.get_data(as_text=True)

    def state(self) -> dict[str, Any]:
        scene = self.scene
        return {
            "players": {
                p: scene.office.get(f"{PLAYERS}/{p}").get_json() for p in (self.sam, self.dup, self.tom)
            },
            "standings": scene.rows(),
            "reports": scene.stored_reports(),
            "sanctions": scene.office.get(SANCTIONS).get_json()["total"],
            "audit": len(audit_entries(scene.office, "")),
        }


def merge(scene: Scene, survivor: int, duplicate: int) -> Any:
    return scene.office.post(
        f"{PLAYERS}/{survivor}/merge", json={"duplicate_id": duplicate, "reason": "Same."}
    )


@pytest.fixture()
def three(scene: Scene) -> Three:
    return Three(scene)


@pytest.fixture()
def unchecked_merges(monkeypatch: pytest.MonkeyPatch) -> None:
    """player_merge_checks.check_merge switched off: every merge goes ahead to its writes."""
    monkeypatch.setattr(player_merges, "check_merge", lambda _session, _survivor, duplicate, _id: duplicate)


@pytest.mark.usefixtures("unchecked_merges")
def test_r17_the_database_refuses_a_survivor_merged_away(three: Three) -> None:
    """R17: with the check off, Tom merged into Dup (merged into Sam) is refused by the database."""
    before = three.state()
    assert_problem(merge(three.scene, three.dup, three.tom), 409, rule="R17")
    assert three.state() == before


@pytest.mark.usefixtures("unchecked_merges")
def test_r17_the_database_refuses_crosswise_merges(three: Three) -> None:
    """R17: with the check off, Sam merged into Dup (Dup merged into Sam) is refused by the
    database: the two never vanish into each other."""
    before = three.state()
    assert_problem(merge(three.scene, three.dup, three.sam), 409, rule="R17")
    assert three.state() == before


@pytest.mark.usefixtures("unchecked_merges")
def test_r17_the_database_refuses_merging_a_record_merged_away_again(three: Three) -> None:
    """R17: with the check off, Dup (merged into Sam) merged into Tom is refused by the database:
    one live merge per duplicate."""
    before = three.state()
    assert_problem(merge(three.scene, three.tom, three.dup), 409, rule="R17")
    assert three.state() == before


def test_r17_the_database_refuses_a_result_on_a_record_merged_away(
    three: Three, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R5, R17: with the report's resolution of merged ids switched off, a report naming Dup
    would store a result on a record merged away: the database refuses it, nothing is stored."""
    monkeypatch.setattr(report_checks, "final_survivors", lambda _session, _ids: {})
    scene = three.scene
    before = three.state()
    response = scene.post(scene.body([three.dup, *three.fillers], date.fromisoformat(ago(3))), scene.office)
    assert_problem(response, 409, rule="R17")
    assert three.state() == before


def test_r17_the_database_refuses_a_sanction_or_a_disqualification_of_a_record_merged_away(
    three: Three, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R16, R17: with the check switched off, a sanction or a disqualification of Dup (merged
    into Sam) is refused by the database."""
    monkeypatch.setattr(sanction_checks, "merged_away_problem", lambda *_args: None)
    monkeypatch.setattr(qualifiers, "merged_away_problem", lambda *_args: None)
    scene = three.scene
    before = three.state()
    body = {"player_id": three.dup, "kind": "warning", "category": "fighting", "reason": "Shouted."}
    assert_problem(scene.office.post(SANCTIONS, json=body), 409, rule="R17")
    path = f"{SEASONS}/{scene.season_id}/disqualifications"
    assert_problem(
        scene.office.post(path, json={"player_id": three.dup, "reason": "Collusion."}), 409, rule="R17"
    )
    assert three.state() == before
