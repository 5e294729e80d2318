"""Single flight under real gunicorn, on a database of each backend: four threaded workers
sharing one Redis, or one worker's four threads with its own memory. Twenty readers asking at
the same moment for an answer no one has asked for since the last write (the season's qualifier
lists, the venue's standings) get the same answer, computed once (`X-Cache: miss`) and served
to the others from the store (`X-Cache: hit`), rather than computed by each. Seen failing first:
without the flights, four to nine of the twenty computed it."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator

import pytest

from tests.support.databases import ScratchDatabases
from tests.support.races import OPTIONS, WORKERS
from tests.support.servers import PATIENCE, REDIS_URL, Server, gunicorn, post_a_report, redis_answers

pytestmark = pytest.mark.server

READERS = 20


@pytest.fixture(scope="module", params=["redis", "disk", "memory"])
def server(
    request: pytest.FixtureRequest,
    backend: str,
    scratch: ScratchDatabases,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Server]:
    """Four workers sharing Redis, or the embedded store's directory, or one worker (its four
    threads) with its own memory."""
    shared = request.param != "memory"
    if request.param == "redis" and not redis_answers():
        pytest.skip("Redis does not answer at 127.0.0.1:6379")
    url = scratch.migrated(backend)
    where = tmp_path_factory.mktemp("single-flight")
    with gunicorn(
        url,
        WORKERS if shared else 1,
        where,
        *OPTIONS,
        CACHE_URL=REDIS_URL if request.param == "redis" else "",
        CACHE_DIR=str(where / "answers") if request.param == "disk" else "",
        CACHE_FLIGHT_WAIT_SECONDS=str(PATIENCE),  # a busy machine's leader is waited for
        REQUEST_LOG="0",
    ) as (served, _master):
        yield served
    scratch.discard(url)


def read_at_once(server: Server, path: str) -> list[tuple[int, str, bytes]]:
    """(status, X-Cache, body) of READERS reads released together, each on its own connection."""
    barrier = threading.Barrier(READERS)
    answers: list[tuple[int, str, bytes]] = []
    lock = threading.Lock()

    def read() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=PATIENCE)
        try:
            conn.connect()
            barrier.wait(PATIENCE)
            conn.request("GET", path, headers={"Connection": "close"})
            response = conn.getresponse()
            got = (response.status, response.getheader("X-Cache") or "", response.read())
            with lock:
                answers.append(got)
        finally:
            conn.close()

    threads = [threading.Thread(target=read) for _ in range(READERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(2 * PATIENCE)
    assert len(answers) == READERS
    return answers


@pytest.mark.parametrize("which", ["qualifiers", "standings"])
def test_answers_missed_at_once_are_computed_once_for_every_worker(server: Server, which: str) -> None:
    paths = {
        "qualifiers": f"/api/v1/seasons/{server.season_id}/qualifiers",
        "standings": server.standings,
    }
    for day in (3, 2):  # each write retires the answer: a cold read each time
        post_a_report(server, day + (10 if which == "qualifiers" else 0))
        answers = read_at_once(server, paths[which])
        assert {status for status, _cache, _body in answers} == {200}
        assert len({body for _status, _cache, body in answers}) == 1  # one answer for all
        computed = sum(1 for _status, cache, _body in answers if cache == "miss")
        assert computed == 1, [cache for _status, cache, _body in answers]
