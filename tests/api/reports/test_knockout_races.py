"""R8a under real gunicorn (4 threaded workers), on a database of each backend: in a season with
knockout points and a bounty on the venue's leader, twenty reports of one venue posted at the
same moment, their nights in no particular order (late reports among them). Each settles the
venue's bounties night after night, reading every other report; every writer holds the data
version row's lock from its first write to its commit, so each settlement reads the others'
committed work. Afterwards every result's knockout points are what scoring the season again
gives, and the standing lines are the results' (the guards tests/conftest.py runs after every
test)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.databases import ScratchDatabases
from tests.support.races import OPTIONS, WORKERS, Live, at_once, statuses
from tests.support.servers import gunicorn

pytestmark = pytest.mark.server

RACERS = 20


@pytest.fixture(scope="module")
def live(backend: str, scratch: ScratchDatabases, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    url = scratch.migrated(backend)
    with gunicorn(url, WORKERS, tmp_path_factory.mktemp("knockout-races"), *OPTIONS, REQUEST_LOG="0") as (
        server,
        _m,
    ):
        yield Live(server, url)
    scratch.discard(url)


def test_r8a_twenty_reports_at_once_settle_one_venues_bounties_in_the_order_played(live: Live) -> None:
    season = f"/api/v1/seasons/{live.server.season_id}"
    live.write(
        "PATCH",
        season,
        {"knockout_points": 10, "bounty": "venue_leader", "bounty_points": 25, "reason": "Knockouts on."},
    )
    players = [live.player() for _ in range(6)]
    chance = random.Random(8)
    bodies = []
    for _ in range(RACERS):
        order = chance.sample(players, 4)
        body: dict[str, Any] = live.report_body(order)
        # Each player out knocked out by someone above: the bounty moves with the leader.
        for n, row in enumerate(body["results"][1:], start=1):
            row["knocked_out_by"] = body["results"][chance.randrange(n)]["player_id"]
        bodies.append(body)
    chance.shuffle(bodies)  # nights posted out of order: a late report moves later bounties
    answers = at_once(live, [("POST", "/api/v1/tournaments", body) for body in bodies])
    assert statuses(answers) == {201: RACERS}, answers
    assert live.lines_current()  # the knockout points too (assert_knockouts_current)
