"""The database itself refuses what a race could slip past the service's own checks."""

from __future__ import annotations

from typing import Any

from models.services import reports
from tests.api.reports_support import TOURNAMENTS, Scene
from tests.conftest import assert_problem


def test_second_report_for_a_slot_is_409_from_the_unique_index(scene: Scene, monkeypatch: Any) -> None:
    """API.md 409: with the service's check out of the way (as when two hosts post at the same
    moment), the unique index on venue, date and session still refuses the second report."""
    players = scene.add_players(4)
    first = scene.reported(scene.body(players[:2]))
    monkeypatch.setattr(reports, "_refuse_taken_slot", lambda *_args, **_kwargs: None)
    response = scene.report(None, scene.body(players[2:]))
    assert_problem(response, 409)
    listed = scene.office.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}").get_json()
    assert [item["id"] for item in listed["items"]] == [first["id"]]
    assert listed["items"][0]["results"][0]["player"]["id"] == players[0]


def test_simultaneous_reports_store_exactly_one(backend: str, scratch: Any) -> None:
    """Two hosts post the same venue, date and session at the same moment, on a real database
    (not a test transaction): exactly one report is stored, the other answer is a 409."""
    import threading
    from datetime import timedelta

    from app import create_app
    from models.clock import today
    from models.migrate import alembic_config, upgrade
    from tests.conftest import Caller as Http
    from tests.conftest import League, new_key

    url = scratch.create(backend)
    upgrade(alembic_config(url))
    live = create_app({"DATABASE_URL": url, "TESTING": True, "RATELIMIT_ENABLED": False})
    office = Http(live.test_client(), new_key(live, "office"))
    league = League(office)
    day = today() - timedelta(days=1)
    venue = league.venue()
    league.season(starts_on=(day - timedelta(days=30)).isoformat(), ends_on=day.isoformat())
    players = [league.player()["id"] for _ in range(6)]
    keys = [new_key(live, "host", [venue["id"]]) for _ in range(2)]
    barrier = threading.Barrier(2)
    answers: list[int] = []

    def post(key: str, ids: list[int]) -> None:
        client = Http(live.test_client(), key)
        body = {
            "venue_id": venue["id"],
            "date": day.isoformat(),
            "results": [{"place": i, "player_id": p} for i, p in enumerate(ids, start=1)],
        }
        barrier.wait()
        answers.append(client.post(TOURNAMENTS, json=body).status_code)

    threads = [
        threading.Thread(target=post, args=(keys[0], players[:3])),
        threading.Thread(target=post, args=(keys[1], players[3:])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201, 409]
    assert office.get(f"{TOURNAMENTS}?venue_id={venue['id']}").get_json()["total"] == 1
    live.extensions["league_db"].engine.dispose()


def test_simultaneous_retries_under_one_idempotency_key_get_the_same_report(
    backend: str, scratch: Any
) -> None:
    """A host's app retries at once on a bad connection: three identical posts under one
    Idempotency-Key all answer the one stored report (API.md "A result report")."""
    import threading
    from datetime import timedelta

    from app import create_app
    from models.clock import today
    from models.migrate import alembic_config, upgrade
    from tests.conftest import Caller as Http
    from tests.conftest import League, new_key

    url = scratch.create(backend)
    upgrade(alembic_config(url))
    live = create_app({"DATABASE_URL": url, "TESTING": True, "RATELIMIT_ENABLED": False})
    office = Http(live.test_client(), new_key(live, "office"))
    league = League(office)
    day = today() - timedelta(days=1)
    venue = league.venue()
    league.season(starts_on=(day - timedelta(days=30)).isoformat(), ends_on=day.isoformat())
    players = [league.player()["id"] for _ in range(3)]
    host_key = new_key(live, "host", [venue["id"]])
    body = {
        "venue_id": venue["id"],
        "date": day.isoformat(),
        "results": [{"place": i, "player_id": p} for i, p in enumerate(players, start=1)],
    }
    barrier = threading.Barrier(3)
    answers: list[tuple[int, Any]] = []

    def post() -> None:
        client = Http(live.test_client(), host_key)
        barrier.wait()
        response = client.post(TOURNAMENTS, json=body, headers={"Idempotency-Key": "tonight-1"})
        answers.append((response.status_code, response.get_json().get("id")))

    threads = [threading.Thread(target=post) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [status for status, _ in answers] == [201, 201, 201]
    assert len({report_id for _, report_id in answers}) == 1
    assert office.get(f"{TOURNAMENTS}?venue_id={venue['id']}").get_json()["total"] == 1
    live.extensions["league_db"].engine.dispose()
