"""A host's phone running a night through the API (R22), for the night tests."""

from __future__ import annotations

import itertools
from typing import Any

from tests.builders import Scene
from tests.support.league import Caller

NIGHTS = "/api/v1/nights"
_ids = itertools.count(1)


def action_id() -> str:
    return f"phone-action-{next(_ids):06d}"


class Phone:
    """A host's phone: each action with an id of its own and the night's sequence it last saw."""

    def __init__(self, caller: Caller, night: dict[str, Any]) -> None:
        self.caller, self.night = caller, night

    def send(self, kind: str, status: int = 200, **fields: Any) -> Any:
        body = {"action_id": action_id(), "sequence": self.night["sequence"], "type": kind, **fields}
        answer = self.caller.post(f"{NIGHTS}/{self.night['id']}/actions", json=body)
        assert answer.status_code == status, answer.get_json()
        if status == 200:
            self.night = answer.get_json()["night"]
        return answer.get_json()

    def by_player(self) -> dict[int, dict[str, Any]]:
        return {p["player_id"]: p for p in self.night["players"]}


def opened(scene: Scene, caller: Caller | None = None, **body: Any) -> dict[str, Any]:
    answer = (caller or scene.host).post(f"/api/v1/venues/{scene.venue_id}/nights", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()
