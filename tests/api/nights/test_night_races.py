"""R22 under real gunicorn (4 threaded workers), on a database of each backend: phones acting on
one night at the same moment. The night's row is locked before an action is checked, so:

- twenty phones each recording a different bust-out, all made on the same state: exactly one is
  applied, every other is a 409 carrying the night as it stands (one player out, the sequence
  moved on by one);
- one phone's action retried twenty times at once (pub Wi-Fi): applied once, every answer a 200
  (one applying it, the rest replaying it), one player out.

Each race runs REPEATS times, each on a night of its own (a new session at the venue)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.databases import ScratchDatabases
from tests.support.races import OPTIONS, WORKERS, Live, at_once, statuses
from tests.support.servers import gunicorn

pytestmark = pytest.mark.server

REPEATS = 3
RACERS = 20


@pytest.fixture(scope="module")
def live(backend: str, scratch: ScratchDatabases, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    url = scratch.migrated(backend)
    with gunicorn(url, WORKERS, tmp_path_factory.mktemp("night-races"), *OPTIONS, REQUEST_LOG="0") as (
        server,
        _m,
    ):
        yield Live(server, url)
    scratch.discard(url)


_sessions = itertools.count(1)


def night_of(live: Live, players: int) -> tuple[dict[str, Any], list[int]]:
    """A night of its own (the next session tonight), its players signed in and seated."""
    night = live.write("POST", f"/api/v1/venues/{live.server.venue_id}/nights", {"session": next(_sessions)})
    ids = [live.player() for _ in range(players)]
    for n, pid in enumerate(ids):
        body = {
            "action_id": f"setup-{night['id']}-{n}",
            "sequence": n,
            "type": "sign_in",
            "player": {"player_id": pid},
        }
        live.write("POST", f"/api/v1/nights/{night['id']}/actions", body)
    answer = live.write(
        "POST",
        f"/api/v1/nights/{night['id']}/actions",
        {"action_id": f"draw-night-{night['id']}", "sequence": players, "type": "seat"},
    )
    return answer["night"], ids


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_r22_of_twenty_phones_acting_on_one_state_one_is_applied_the_rest_get_the_night(
    live: Live, repeat: int
) -> None:
    night, ids = night_of(live, RACERS + 2)
    path = f"/api/v1/nights/{night['id']}/actions"
    racing = [
        (
            "POST",
            path,
            {
                "action_id": f"race-{night['id']}-{n}",
                "sequence": night["sequence"],
                "type": "bust",
                "players": [{"player_id": pid}],
            },
        )
        for n, pid in enumerate(ids[:RACERS])
    ]
    answers = at_once(live, racing)
    assert statuses(answers) == {200: 1, 409: RACERS - 1}, (repeat, answers)
    moved = [body for status, body in answers if status == 409]
    assert all(body["rule"] == "R22" and body["night"]["sequence"] == night["sequence"] + 1 for body in moved)
    after = live.write("GET", f"/api/v1/nights/{night['id']}")
    assert (after["players_left"], after["sequence"]) == (RACERS + 1, night["sequence"] + 1)
    assert sum(p["status"] == "out" for p in after["players"]) == 1


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_r22_an_action_retried_twenty_times_at_once_is_applied_once(live: Live, repeat: int) -> None:
    night, ids = night_of(live, 4)
    path = f"/api/v1/nights/{night['id']}/actions"
    body = {
        "action_id": f"retried-{night['id']}",
        "sequence": night["sequence"],
        "type": "bust",
        "players": [{"player_id": ids[0]}],
    }
    answers = at_once(live, [("POST", path, body)] * RACERS)
    assert statuses(answers) == {200: RACERS}, (repeat, answers)
    assert sum(not answer["action"]["replayed"] for _status, answer in answers) == 1
    after = live.write("GET", f"/api/v1/nights/{night['id']}")
    assert (after["players_left"], after["sequence"]) == (3, night["sequence"] + 1)
