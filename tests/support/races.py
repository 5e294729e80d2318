"""Races under real gunicorn (tests/api/test_once_only_races.py, tests/api/nights): a served
league on a database of its own, and requests sent at the same moment, each on its own
connection opened before a barrier that releases them together."""

from __future__ import annotations

import http.client
import json
import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.builders import OFFICE_LATE, TOURNAMENTS, ago
from tests.support.databases import assert_ratings_current, assert_standing_lines_current
from tests.support.servers import PATIENCE, Server

WORKERS = 4
OPTIONS = ("--worker-class", "gthread", "--threads", "4", "-t", "120")
REPEATS = 3
PLAYERS = "/api/v1/players"
MERGES = "/api/v1/player-merges"
SANCTIONS = "/api/v1/sanctions"
KEYS = "/api/v1/api-keys"
REASON = {"reason": "Seen at the same moment by several of the office."}
# R17: the office's reason for a report of a night past a host's window.
LATE = {"reason": OFFICE_LATE}


@dataclass
class Live:
    """A served league on a database of its own, and the office's calls to it."""

    server: Server
    url: str
    slots: Iterator[tuple[str, int]] = field(init=False)

    def __post_init__(self) -> None:
        # (date, session) pairs of the running season (ago(60) to ago(-30)), each used once.
        self.slots = iter([(ago(day), session) for day in range(1, 60) for session in range(1, 100)])

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        status, _headers, answer = self.server.request(
            method, path, body, Authorization=f"Bearer {self.server.office}"
        )
        return status, answer

    def write(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = self.call(method, path, body)
        assert status in (200, 201, 204), (method, path, status, answer)
        return answer

    def player(self) -> int:
        name = f"Q{uuid.uuid4().hex[:9]} Z{uuid.uuid4().hex[:9]}"
        body = {"full_name": name, "email": f"{uuid.uuid4().hex[:12]}@example.org"}
        return int(self.write("POST", PLAYERS, body)["id"])

    def report_body(self, player_ids: list[int], venue_id: int | None = None) -> dict[str, Any]:
        day, session = next(self.slots)
        return {
            "venue_id": venue_id or self.server.venue_id,
            "date": day,
            "session": session,
            "results": [{"place": i, "player_id": p} for i, p in enumerate(player_ids, start=1)],
        }

    def report(self, player_ids: list[int]) -> dict[str, Any]:
        answer: dict[str, Any] = self.write("POST", TOURNAMENTS, self.report_body(player_ids))
        return answer

    def audited(self, action: str) -> int:
        """How many audit entries of this action the log holds."""
        return int(self.write("GET", f"/api/v1/audit-log?action={action}&per_page=1")["total"])

    def scalar(self, sql: str, **params: Any) -> Any:
        engine = create_engine(make_url(self.url))
        try:
            with engine.connect() as conn:
                return conn.execute(text(sql), params).scalar_one()
        finally:
            engine.dispose()

    def lines_current(self) -> bool:
        """R9-R11: whether the stored standing lines are the ones summed from the results (as
        tests/conftest.py checks after every test in a transaction)."""
        engine = create_engine(make_url(self.url))
        try:
            with engine.connect() as conn, conn.begin():
                assert_standing_lines_current(conn)
        except AssertionError:
            return False
        finally:
            engine.dispose()
        return True

    def ratings_current(self) -> bool:
        """R20: whether the stored ratings and their history are, float for float, a rebuild's
        (as tests/conftest.py checks after every test in a transaction)."""
        engine = create_engine(make_url(self.url))
        try:
            with engine.connect() as conn, conn.begin():
                assert_ratings_current(conn)
        except AssertionError:
            return False
        finally:
            engine.dispose()
        return True


# (method, path, body), or (method, path, body, more headers).
Request = tuple[str, str, Any] | tuple[str, str, Any, dict[str, str]]


def at_once(live: Live, requests: list[Request]) -> list[tuple[int, Any]]:
    """Send the requests as the office, each on its own connection to the server, opened before
    a barrier that releases them all together; their (status, body), in the order given."""
    barrier = threading.Barrier(len(requests))
    answers: list[tuple[int, Any] | None] = [None] * len(requests)
    failures: list[BaseException] = []

    def send(index: int, method: str, path: str, body: Any, more: dict[str, str] | None = None) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", live.server.port, timeout=PATIENCE)
        try:
            headers = {"Authorization": f"Bearer {live.server.office}", "Connection": "close", **(more or {})}
            payload = None if body is None else json.dumps(body)
            if payload is not None:
                headers["Content-Type"] = "application/json"
            conn.connect()
            barrier.wait(PATIENCE)
            conn.request(method, path, body=payload, headers=headers)
            response = conn.getresponse()
            raw = response.read()
            answers[index] = (response.status, json.loads(raw) if raw else None)
        except BaseException as exc:  # noqa: BLE001 - re-raised by the test's thread
            failures.append(exc)
            barrier.abort()
        finally:
            conn.close()

    threads = [
        threading.Thread(target=send, args=(index, *request)) for index, request in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(2 * PATIENCE)  # the barrier, then the request
    if failures:
        raise failures[0]
    assert all(answer is not None for answer in answers), answers
    return [answer for answer in answers if answer is not None]


def statuses(answers: list[tuple[int, Any]]) -> dict[int, int]:
    return dict(sorted(Counter(status for status, _ in answers).items()))
