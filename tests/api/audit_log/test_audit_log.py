"""R18: the office reads and filters the append-only audit log; nothing edits or deletes it."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from api.audit_log.schemas import AuditOut
from tests.support.league import assert_problem

LOG = "/api/v1/audit-log"


def actions(caller: Any, query: str) -> list[tuple[str, int | None]]:
    response = caller.get(f"{LOG}?{query}")
    assert response.status_code == 200, response.get_json()
    return [(e["action"], e["entity_id"]) for e in response.get_json()["items"]]


@pytest.fixture()
def history(office, host_for, league):
    """Entries at known times: a region in February, a venue and a player in March."""
    with time_machine.travel(datetime(2026, 2, 10, 12, 0, tzinfo=UTC), tick=False):
        north = league.region(name="North")
    with time_machine.travel(datetime(2026, 3, 5, 9, 30, tzinfo=UTC), tick=False):
        crown = league.venue(north["id"], name="The Crown")
    host = host_for(crown["id"], name="Host: Pat")
    with time_machine.travel(datetime(2026, 3, 20, 18, 0, tzinfo=UTC), tick=False):
        created = host.post(
            "/api/v1/players",
            json={"full_name": "Ann Lee", "email": "ann@example.org"},
            headers={"X-Request-ID": "req-player-1"},
        )
        assert created.status_code == 201
    return {"region": north, "venue": crown, "player": created.get_json()}


def test_entries_say_who_when_what_before_after_r18(history, office):
    player = history["player"]
    entries = office.get(f"{LOG}?entity=player").get_json()["items"]
    assert len(entries) == 1
    entry = entries[0]
    assert entry["action"] == "player.create"
    assert (entry["entity"], entry["entity_id"]) == ("player", player["id"])
    assert (entry["actor"], entry["actor_role"]) == ("Host: Pat", "host")
    assert entry["actor_key_id"] is not None
    assert entry["request_id"] == "req-player-1"
    assert entry["at"] == "2026-03-20T18:00:00Z"
    assert entry["before"] is None
    assert entry["after"]["email"] == "ann@example.org"
    assert entry["after"]["full_name"] == "Ann Lee"


def test_newest_first_and_filters_r18(history, office):
    region, venue, player = history["region"], history["venue"], history["player"]
    assert actions(office, "entity=region") == [("region.create", region["id"])]
    assert actions(office, "entity=venue") == [("venue.create", venue["id"])]
    assert actions(office, f"entity=venue&entity_id={venue['id']}") == [("venue.create", venue["id"])]
    assert actions(office, f"entity=venue&entity_id={venue['id'] + 1000}") == []
    assert actions(office, "action=player.create") == [("player.create", player["id"])]
    assert actions(office, "actor=Host%3A%20Pat") == [("player.create", player["id"])]
    assert actions(office, "actor=Nobody") == []
    # Time windows (UTC): since is inclusive from a date's midnight; a date-only until includes
    # that whole day, a timestamp until is exclusive.
    dated = "since=2026-01-01&until=2026-04-01"
    assert actions(office, dated) == [
        ("player.create", player["id"]),
        ("venue.create", venue["id"]),
        ("region.create", region["id"]),
    ]
    assert actions(office, "since=2026-03-01&until=2026-04-01") == [
        ("player.create", player["id"]),
        ("venue.create", venue["id"]),
    ]
    assert actions(office, "since=2026-02-01&until=2026-03-04") == [("region.create", region["id"])]
    assert actions(office, "since=2026-02-01&until=2026-03-05") == [
        ("venue.create", venue["id"]),
        ("region.create", region["id"]),
    ]
    assert actions(office, "since=2026-03-05T09:30:00Z&until=2026-03-20T18:00:00Z") == [
        ("venue.create", venue["id"])
    ]
    assert actions(office, "since=2026-03-05T10:30:00%2B01:00&until=2026-03-05T09:30:01Z") == [
        ("venue.create", venue["id"])
    ]
    assert actions(office, "entity=region&since=2026-03-01") == []


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("since=yesterday", "since"),
        ("until=2026-02-30", "until"),
        ("entity_id=abc", "entity_id"),
        ("entity_id=99999999999", "entity_id"),
        ("per_page=501", "per_page"),
    ],
)
def test_bad_filters_refused(office, query, field):
    assert_problem(office.get(f"{LOG}?{query}"), 422, field)


def test_the_log_answers_csv_every_entry_the_filters_keep_r18(history, office, host_for):
    """R18: `?format=csv`, `Accept: text/csv` and the `.csv` operation answer the same CSV: every
    entry the filters keep (whatever the page), newest first, the JSON's fields as columns; the
    same filters refused alike; the office's alone."""
    query = "since=2026-03-01&until=2026-03-31"
    entries = office.get(f"{LOG}?{query}").get_json()["items"]
    assert [e["action"] for e in entries] == ["player.create", "venue.create"]
    answer = office.get(f"{LOG}.csv?{query}")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    text = answer.get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    assert list(rows[0]) == [*AuditOut().fields]
    assert [(int(r["id"]), r["at"], r["action"]) for r in rows] == [
        (e["id"], e["at"], e["action"]) for e in entries
    ]
    assert json.loads(rows[0]["after"]) == entries[0]["after"] and rows[0]["before"] == ""
    assert rows[0]["request_id"] == "req-player-1" and rows[0]["actor"] == "Host: Pat"
    paged = office.get(f"{LOG}?{query}&per_page=1&format=csv")
    assert paged.get_data() == answer.get_data() and "Accept" in paged.headers["Vary"]
    assert office.get(f"{LOG}?{query}", headers={"Accept": "text/csv"}).get_data() == answer.get_data()
    assert_problem(office.get(f"{LOG}.csv?since=yesterday"), 422, "since")
    assert_problem(office.get(f"{LOG}.csv?page=2"), 400, "page")  # it pages nothing
    assert_problem(host_for(history["venue"]["id"]).get(f"{LOG}.csv"), 403)


def test_office_only_r18(public, host_for, league):
    venue = league.venue()
    assert_problem(public.get(LOG), 401)
    assert_problem(host_for(venue["id"]).get(LOG), 403)


def test_pages_say_the_total_r18(league, office):
    for _ in range(3):
        league.region()
    body = office.get(f"{LOG}?entity=region&per_page=2").get_json()
    assert (len(body["items"]), body["total"], body["pages"]) == (2, 3, 2)


def test_nothing_edits_or_deletes_the_log_through_the_service_r18(office):
    entry = office.get(LOG).get_json()["items"][0]
    assert_problem(office.delete(LOG), 405)
    assert_problem(office.post(LOG, json={"action": "forged"}), 405)
    assert_problem(office.put(LOG, json={}), 405)
    assert_problem(office.patch(f"{LOG}/{entry['id']}", json={"actor": "someone"}), 404)
    assert_problem(office.delete(f"{LOG}/{entry['id']}"), 404)
    assert office.get(LOG).get_json()["items"][0] == entry


def test_the_database_refuses_to_change_the_log_r18(office, connection):
    """R18: triggers refuse UPDATE and DELETE on audit_log, on SQLite and PostgreSQL alike."""
    assert office.get(LOG).get_json()["total"] >= 1  # the office key's own creation
    for statement in ("UPDATE audit_log SET actor = 'someone else'", "DELETE FROM audit_log"):
        with pytest.raises(DBAPIError, match="R18"), connection.begin_nested():
            connection.execute(text(statement))
    assert (
        connection.execute(text("SELECT count(*) FROM audit_log WHERE actor = 'someone else'")).scalar() == 0
    )


def test_refused_writes_leave_no_entry_r18(league, office):
    league.season()
    before = office.get(LOG).get_json()["total"]
    refused = office.post(
        "/api/v1/seasons", json={"name": "Clash", "starts_on": "2026-02-01", "ends_on": "2026-02-28"}
    )
    assert refused.status_code == 422
    assert office.get(LOG).get_json()["total"] == before


def test_an_update_that_changes_nothing_records_nothing_r18(scene):
    """R18: the log keeps changes. A PATCH of `{}`, or of the values already stored, answers 200
    and records nothing (it wrote a row whose before equalled its after); the answers read
    before it stay current (their ETag still matches: no data changed)."""
    player = scene.league.player("Nat Nochange")
    venue = scene.public.get(f"/api/v1/venues/{scene.venue_id}").get_json()
    season = scene.public.get(f"/api/v1/seasons/{scene.season_id}").get_json()
    targets = [
        (f"/api/v1/players/{player['id']}", {"display_name": player["display_name"]}),
        (f"/api/v1/venues/{scene.venue_id}", {"name": venue["name"]}),
        (f"/api/v1/seasons/{scene.season_id}", {"min_age": season["min_age"]}),
        ("/api/v1/league-settings", {}),
    ]
    count = scene.office.get("/api/v1/audit-log?per_page=1").get_json()["total"]
    etag = scene.public.get(scene.path()).headers["ETag"]
    for path, same in targets:
        for body in ({}, same):
            answer = scene.office.patch(path, json=body)
            assert answer.status_code == 200, (path, answer.get_data(as_text=True))
    assert scene.office.get("/api/v1/audit-log?per_page=1").get_json()["total"] == count
    assert scene.public.get(scene.path(), headers={"If-None-Match": etag}).status_code == 304
    # A real change is still recorded, once.
    assert (
        scene.office.patch(f"/api/v1/players/{player['id']}", json={"display_name": "Nat N2"}).status_code
        == 200
    )
    assert scene.office.get("/api/v1/audit-log?per_page=1").get_json()["total"] == count + 1
