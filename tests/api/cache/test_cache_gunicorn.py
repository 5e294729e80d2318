"""Real gunicorn on one database of each backend: two servers started on their own (one worker
each, as two machines behind a load balancer, or two workers of one gunicorn), each with its own
cache, or both with one directory (the embedded store) or one Redis. Requests are split between
them by turns, so each is known to take
its share (the kernel may hand every connection of one gunicorn to the same worker, so two workers
of one server would prove nothing by chance). After every write (a report, then its correction,
taken by each server in turn) every read on either server shows the write, and an old ETag gets
the whole new answer. Meanwhile a racing reader asks for standings no one has asked for since the
last write, so answers are computed while a write commits: none of them may be kept and served
once the write has answered. (On PostgreSQL such a read may mix the two states; that is reported
as a warning.)"""

from __future__ import annotations

import itertools
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.builders import OFFICE_LATE, TOURNAMENTS, ago
from tests.support.databases import ScratchDatabases
from tests.support.servers import PATIENCE, REDIS_URL, Server, build_league, gunicorn, redis_answers

# Starts real servers (gunicorn): seconds each; left out of the fast loop (scripts/test-fast).
pytestmark = pytest.mark.server

CYCLES = 20
READS_PER_CYCLE = 10


@pytest.fixture(params=["default", "disk", "redis"])
def cache_env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """Where answers are cached: the default (beside the SQLite file; each worker's own memory on
    PostgreSQL), a directory both share, or one Redis."""
    if request.param == "default":
        return {"CACHE_URL": "", "CACHE_DIR": ""}
    if request.param == "disk":
        return {"CACHE_URL": "", "CACHE_DIR": str(tmp_path / "answers")}
    if not redis_answers():
        pytest.skip("Redis does not answer at 127.0.0.1:6379")
    return {"CACHE_URL": REDIS_URL, "CACHE_DIR": ""}


@pytest.fixture()
def servers(
    backend: str, scratch: ScratchDatabases, cache_env: dict[str, str], tmp_path: Path
) -> Iterator[tuple[Server, Server]]:
    """Two gunicorns of one worker each on one new database of the backend, until the test ends."""
    url = scratch.migrated(backend)
    league = build_league(url)
    with (
        gunicorn(url, 1, tmp_path, league=league, **cache_env) as (first, _first),
        gunicorn(url, 1, tmp_path, league=league, **cache_env) as (second, _second),
    ):
        yield first, second
    scratch.discard(url)


@dataclass(frozen=True)
class State:
    """What the standings must say: reports, Ann's and Bob's points."""

    tournaments: int
    ann: int
    bob: int


def state_of(server: Server, standings: dict[str, Any]) -> State:
    points = {row["player"]["id"]: row["points"] for row in standings["standings"]}
    return State(standings["tournaments"], points.get(server.ann, 0), points.get(server.bob, 0))


def not_older(seen: State, since: list[State]) -> bool:
    """Whether every figure the answer shows is one of these states' (a read during a commit may
    show one state's count of reports and the next one's points, but nothing older)."""
    return all(
        getattr(seen, figure) in {getattr(s, figure) for s in since}
        for figure in ("tournaments", "ann", "bob")
    )


def test_every_read_after_a_write_shows_it_whichever_server_answers(servers: tuple[Server, Server]) -> None:
    """Cycle after cycle: the office posts a report (Ann 1st, Bob 2nd) or corrects the last one
    (Bob 1st), on each server in turn. Once the write has answered, the ETag of the answer before
    the write gets the new answer (200) from the other server, and every read on a fresh
    connection, taken by the two servers in turn, shows it. A racing reader asks meanwhile, of each
    server in turn, for the standings as of days after every report (the same standings, each a
    different URL, so each is computed anew, while writes commit): once a write has answered,
    neither server serves any of those URLs from before it, and no read begun after it shows less."""
    first = servers[0]  # the league's ids, the same on both
    states = [State(0, 0, 0)]
    done = [time.monotonic()]  # when the write making each state had answered
    racing: list[tuple[float, str, State | int]] = []  # when a racing read began, its URL, what it saw
    stop = threading.Event()

    def race() -> None:
        for n in itertools.count():
            if stop.is_set():
                return
            url = f"{first.standings}?as_of={ago(n % 40)}"  # every report is older than 40 days
            started = time.monotonic()
            status, _headers, body = servers[n % 2].request("GET", url)
            racing.append((started, url, state_of(first, body) if status == 200 else status))

    racer = threading.Thread(target=race, daemon=True)
    racer.start()
    try:
        status, headers, body = first.request("GET", first.standings)
        assert status == 200 and state_of(first, body) == states[0]
        etag, last = headers["etag"], None
        for cycle in range(CYCLES):
            writer, other = servers[cycle % 2], servers[(cycle + 1) % 2]
            now = states[-1]
            if cycle % 2 == 0:
                body = {
                    "venue_id": first.venue_id,
                    "date": ago(55 - cycle // 2),
                    "results": [{"place": 1, "player_id": first.ann}, {"place": 2, "player_id": first.bob}],
                    "reason": OFFICE_LATE,  # the office's, weeks ago (R17)
                }
                last = writer.write("POST", TOURNAMENTS, body)["id"]
                states.append(State(now.tournaments + 1, now.ann + 30, now.bob + 20))
            else:
                results = [{"place": 1, "player_id": first.bob}, {"place": 2, "player_id": first.ann}]
                writer.write("PUT", f"{TOURNAMENTS}/{last}", {"reason": "Swapped.", "results": results})
                states.append(State(now.tournaments, now.ann - 10, now.bob + 10))
            done.append(time.monotonic())
            status, headers, body = other.request("GET", first.standings, **{"If-None-Match": etag})
            assert status == 200, f"cycle {cycle}: the old ETag got {status}"
            assert state_of(first, body) == states[-1], f"cycle {cycle}: stale after an old ETag"
            etag = headers["etag"]
            for read in range(READS_PER_CYCLE):
                status, _headers, body = servers[read % 2].request("GET", first.standings)
                assert status == 200 and state_of(first, body) == states[-1], f"cycle {cycle}, read {read}"
            for url in {url for started, url, _seen in list(racing) if started >= done[-2]}:
                for server in servers:
                    status, _headers, body = server.request("GET", url)
                    assert status == 200 and state_of(first, body) == states[-1], (
                        f"cycle {cycle}: {url} stale on port {server.port}"
                    )
    finally:
        stop.set()
        racer.join(PATIENCE)  # its last read answered: every read it began is in `racing`
    torn = 0
    for started, url, seen in racing:
        k = max(i for i, at in enumerate(done) if at <= started)
        assert isinstance(seen, State) and not_older(seen, states[k:]), (
            f"{url}, begun after write {k}: {seen}"
        )
        torn += seen not in states
    assert len(racing) > CYCLES
    if torn:
        warnings.warn(
            f"{torn} racing reads mixed two states of the league (read during a commit)", stacklevel=1
        )
    for server in servers:
        answered = [line for line in server.access_log.read_text().splitlines() if first.standings in line]
        assert len(answered) > CYCLES * READS_PER_CYCLE // 2, f"port {server.port} answered {len(answered)}"
