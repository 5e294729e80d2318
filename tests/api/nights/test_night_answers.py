"""The night's answers (R22) are what the spec says, fields required included: a night played
through on a host's phone (signed in, seated on two tables, the clock started and paused, bust-outs
that move players, an undo, a re-entry, a report refused then posted), every answer of it, the
action's (`ActionOut`), the night's (its clock, seats, moves, projection) and the lists
(`NightListed`, structures), validated by schemathesis against the served spec. Every field an
answer's schema requires is present (tests/test_openapi.py holds every answer's objects to name
them)."""

from __future__ import annotations

from typing import Any

import schemathesis
from flask import Flask

from tests.builders import Scene
from tests.support.league import Caller
from tests.support.nights import NIGHTS, Phone, opened


class Checked(Caller):
    """A caller whose every answer is validated against the operation of the spec it called."""

    def __init__(self, caller: Caller, spec: Any, checked: list[str]) -> None:
        super().__init__(caller.client, caller.key)
        self.spec, self.checked = spec, checked

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        answer = super().request(method, path, **kwargs)
        operation = self.spec.find_operation_by_path(method, path.split("?", 1)[0])
        assert operation is not None, (method, path)
        operation.validate_response(answer)
        self.checked.append(f"{method} {operation.path} {answer.status_code}")
        return answer


def test_r22_every_answer_of_a_night_holds_the_fields_its_spec_requires(app: Flask, scene: Scene) -> None:
    spec = schemathesis.openapi.from_wsgi("/openapi.json", app)
    checked: list[str] = []
    host, office = Checked(scene.host, spec, checked), Checked(scene.office, spec, checked)
    made = office.post(
        "/api/v1/structures",
        json={
            "name": "Checked",
            "starting_chips": 3000,
            "levels": [{"small_blind": 25, "big_blind": 50, "minutes": 15}] * 2,
            "breaks": [{"after_level": 1, "minutes": 10}],
        },
    )
    assert made.status_code == 201, made.get_json()
    assert office.get("/api/v1/structures").status_code == 200
    phone = Phone(host, opened(scene, host, structure_id=made.get_json()["id"]))
    players = scene.add_players(12)
    for pid in players:
        phone.send("sign_in", player={"player_id": pid})
    phone.send("seat")
    phone.send("clock", clock="start")
    phone.send("clock", clock="pause")
    for pid in players[:4]:
        phone.send("bust", players=[{"player_id": pid}], knocked_out_by=players[-1])
    phone.send("undo")
    phone.send("re_enter", 422, player_id=players[0])
    phone.send("clock", clock="resume")
    for pid in players[3:-1]:
        phone.send("bust", players=[{"player_id": pid}], knocked_out_by=players[-1])
    assert phone.night["state"] == "reported", phone.night
    assert host.get(f"{NIGHTS}/{phone.night['id']}").status_code == 200
    assert host.get(f"/api/v1/venues/{scene.venue_id}/nights").status_code == 200
    assert office.get(NIGHTS).status_code == 200
    answered = {line.rsplit(" ", 1)[0] for line in checked}
    assert {
        "POST /api/v1/nights/{night_id}/actions",
        "GET /api/v1/nights/{night_id}",
        "GET /api/v1/venues/{venue_id}/nights",
        "POST /api/v1/structures",
    } <= answered, answered
