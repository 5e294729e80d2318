"""Races on a real database: the database itself refuses what a race could slip past the
service's own checks, and the checks made under a lock refuse the rest before the database has to."""

from __future__ import annotations

import logging
import re
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from app import create_app
from models.services.reports import writes as report_writes
from tests.builders import TOURNAMENTS, Scene, utc_today
from tests.support.league import Caller, League, assert_problem, new_key

PLAYERS = "/api/v1/players"


def test_second_report_for_a_slot_is_409_from_the_unique_index(scene: Scene, monkeypatch: Any) -> None:
    """409: with the service's check out of the way (as when two hosts post at the same
    moment), the unique index on venue, date and session still refuses the second report."""
    players = scene.add_players(4)
    first = scene.posted(scene.body(players[:2]))
    monkeypatch.setattr(report_writes, "refuse_taken_slot", lambda *_args, **_kwargs: None)
    response = scene.post(scene.body(players[2:]))
    assert_problem(response, 409)
    listed = scene.office.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}").get_json()
    assert [item["id"] for item in listed["items"]] == [first["id"]]
    assert listed["items"][0]["results"][0]["player"]["id"] == players[0]


@dataclass
class LiveLeague:
    """A venue with a season ending yesterday, on a real database (not a test transaction), so
    concurrent requests really race."""

    app: Flask
    office: Caller
    venue_id: int
    day: date
    players: list[int]
    season_id: int

    def host(self) -> str:
        return new_key(self.app, "host", [self.venue_id])

    def body(self, player_ids: list[int]) -> dict[str, Any]:
        return {
            "venue_id": self.venue_id,
            "date": self.day.isoformat(),
            "results": [{"place": i, "player_id": p} for i, p in enumerate(player_ids, start=1)],
        }

    def stored(self) -> int:
        return int(self.office.get(f"{TOURNAMENTS}?venue_id={self.venue_id}").get_json()["total"])


@pytest.fixture()
def live(backend: str, scratch: Any) -> Iterator[LiveLeague]:
    url = scratch.migrated(backend)
    app = create_app({"DATABASE_URL": url, "TESTING": True, "RATELIMIT_ENABLED": False})
    office = Caller(app.test_client(), new_key(app, "office"))
    league = League(office)
    day = utc_today() - timedelta(days=1)
    venue = league.venue()
    season = league.season(starts_on=(day - timedelta(days=30)).isoformat(), ends_on=day.isoformat())
    players = [league.player()["id"] for _ in range(6)]
    yield LiveLeague(app, office, venue["id"], day, players, season["id"])
    app.extensions["league_db"].engine.dispose()
    scratch.discard(url)


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; their answers, in finishing order."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = []

    def run(call: Callable[[], Any]) -> None:
        barrier.wait()
        answers.append(call())

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_simultaneous_reports_store_exactly_one(live: LiveLeague) -> None:
    """Two hosts post the same venue, date and session at the same moment: exactly one report
    is stored, the other answer is a 409."""

    def post_as_new_host(player_ids: list[int]) -> Callable[[], int]:
        host = Caller(live.app.test_client(), live.host())
        return lambda: host.post(TOURNAMENTS, json=live.body(player_ids)).status_code

    answers = at_once(post_as_new_host(live.players[:3]), post_as_new_host(live.players[3:]))
    assert sorted(answers) == [201, 409]
    assert live.stored() == 1


def test_simultaneous_retries_under_one_idempotency_key_get_the_same_report(live: LiveLeague) -> None:
    """A host's app retries at once on a bad connection: three identical posts under one
    Idempotency-Key all answer the one stored report ("A result report")."""
    key = live.host()
    body = live.body(live.players[:3])

    def post() -> tuple[int, Any]:
        client = Caller(live.app.test_client(), key)
        response = client.post(TOURNAMENTS, json=body, headers={"Idempotency-Key": "tonight-1"})
        return response.status_code, response.get_json().get("id")

    answers = at_once(post, post, post)
    assert [status for status, _ in answers] == [201, 201, 201]
    assert len({report_id for _, report_id in answers}) == 1
    assert live.stored() == 1


def test_r17_host_reports_racing_a_publication_are_in_it_or_refused(live: LiveLeague) -> None:
    """R17, R12: twenty hosts report yesterday's nights (sessions 1-20) while the office publishes
    the season's lists. Each report either committed before the publication (and the published
    list counts it) or is refused (403, R17: the season is published); none is stored after the
    publication without it. The report holds its season FOR SHARE while it checks, the
    publication takes it FOR NO KEY UPDATE, so the check and the write are one step."""
    keys = [live.host() for _ in range(20)]
    publish = f"/api/v1/seasons/{live.season_id}/qualifiers/publish"

    def report(key: str, session: int) -> Callable[[], tuple[str, int, Any]]:
        client = Caller(live.app.test_client(), key)
        body = {**live.body(live.players[:2]), "session": session}
        return lambda: ("report", client.post(TOURNAMENTS, json=body).status_code, None)

    def publication() -> tuple[str, int, Any]:
        answer = live.office.post(publish, json={"settlements": []})
        return "publish", answer.status_code, answer.get_json()

    calls = [report(key, session) for session, key in enumerate(keys, start=1)]
    answers = at_once(*calls[:10], publication, *calls[10:])
    ((_, status, published),) = [a for a in answers if a[0] == "publish"]
    assert status == 201, published
    statuses = sorted(s for kind, s, _ in answers if kind == "report")
    assert set(statuses) <= {201, 403}, statuses
    (venue,) = [v for v in published["venues"] if v["venue_id"] == live.venue_id]
    assert venue["tournaments"] == statuses.count(201) == live.stored()


def test_r19_r17a_twenty_registrations_of_one_new_email_at_once_never_meet_the_unique_index(
    live: LiveLeague, caplog: pytest.LogCaptureFixture
) -> None:
    """R19, R17a: a host's twenty registrations of one new email sent together: one 201, and
    nineteen 409s naming `email` but no player (as for an email found registered). Each is refused
    by the service's own check, made under the writers' lock, never by the unique index: the
    database raises no unique violation (PostgreSQL's server log would hold the email, in the
    error's DETAIL), and no line of the app's own log holds the email."""
    seen: list[str] = []

    def database_error(context: Any) -> None:
        seen.append(
            getattr(context.original_exception, "sqlstate", None) or type(context.original_exception).__name__
        )

    engine = live.app.extensions["league_db"].engine
    event.listen(engine, "handle_error", database_error)
    key = live.host()
    email = f"race-{uuid.uuid4().hex[:12]}@example.org"

    def register(n: int) -> Callable[[], tuple[int, Any]]:
        client = Caller(live.app.test_client(), key)
        body = {"full_name": f"Rae Racer {n}", "email": email}
        return lambda: (lambda answer: (answer.status_code, answer.get_json()))(
            client.post(PLAYERS, json=body)
        )

    caplog.set_level(logging.DEBUG)
    try:
        answers = at_once(*(register(n) for n in range(20)))
    finally:
        event.remove(engine, "handle_error", database_error)
    (winner,) = [body for status, body in answers if status == 201] or [{"id": 0}]
    unnamed = re.compile(rf"\b{winner['id']}\b")
    outcome = {
        "answers": sorted(status for status, _ in answers),
        "409s naming email, not the player": sum(
            1
            for status, body in answers
            if status == 409
            and "email" in body.get("errors", {})
            and not unnamed.search(f"{body['detail']} {body['errors']}")
        ),
        "database errors": seen,
        "log lines holding the email": [r.getMessage() for r in caplog.records if email in r.getMessage()],
    }
    assert outcome == {
        "answers": [201] + [409] * 19,
        "409s naming email, not the player": 19,
        "database errors": [],
        "log lines holding the email": [],
    }, answers
