"""A problem's `detail` joins its parts once: the lead and each field's sentence separated by "; ",
one full stop at the end, never a sentence's full stop doubled by the joining ("… (Sunday).;
schedule.0 …") nor two full stops in a row."""

from __future__ import annotations

from typing import Any

from tests.support.league import Caller, League, assert_problem
from tests.support.local_dates import HostFor, LocalLeague, ok

DOUBLED = (".;", "..", ". .", ";;", "; ;")


def assert_joined_once(body: dict[str, Any]) -> str:
    detail = str(body["detail"])
    assert not [mark for mark in DOUBLED if mark in detail], detail
    assert detail.endswith(".") and not detail.endswith(".."), detail
    return detail


def test_a_venues_schedule_refused_for_two_nights_says_each_once(league: League, host_for: HostFor) -> None:
    """R2a: the venue PATCH whose detail read "… 7 (Sunday).; schedule.0.starts_at: …"."""
    here = LocalLeague(league, host_for, None, "2026-11-02", "2027-01-31")
    venue = here.venue()
    nights = [{"weekday": 8, "starts_at": "19:00"}, {"weekday": 3, "starts_at": "7pm"}]
    body = assert_problem(
        here.office.patch(f"/api/v1/venues/{venue}", json={"schedule": nights}),
        422,
        "schedule.0.weekday",
        "schedule.1.starts_at",
    )
    detail = assert_joined_once(body)
    assert detail == (
        "schedule.0.weekday: A weekday is 1 (Monday) to 7 (Sunday); "
        "schedule.1.starts_at: A start time is HH:MM, 00:00 to 23:59."
    )
    put = here.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": nights})
    assert assert_joined_once(assert_problem(put, 422, "schedule.0.weekday")) == detail


def test_a_schedule_exception_refused_by_a_rule_says_each_problem_once(
    league: League, host_for: HostFor
) -> None:
    """R2: a night moved from and to dates outside every season: the rule leads, then the
    service's lead and each date's problem, once each."""
    here = LocalLeague(league, host_for, None, "2026-11-02", "2027-01-31")
    venue = here.venue()
    tuesdays = {"schedule": [{"weekday": 2, "starts_at": "19:00"}]}
    ok(here.office.put(f"/api/v1/venues/{venue}/schedule", json=tuesdays))
    moved = {"kind": "moved", "date": "2027-06-01", "to": "2027-06-02"}
    refused = here.office.post(f"/api/v1/venues/{venue}/schedule-exceptions", json=moved)
    body = assert_problem(refused, 422, "date", "to", rule="R2")
    detail = assert_joined_once(body)
    assert detail == (
        "R2: The schedule cannot be changed so; date: 2027-06-01 is in no season covering this venue; "
        "to: 2027-06-02 is in no season covering this venue."
    )


def test_a_key_refused_and_a_body_of_bad_fields_say_each_once(office: Caller) -> None:
    """A host key without a venue (the service's refusal), and a body whose fields the schema
    refuses (the request's own summary): each part once, one full stop."""
    refused = office.post("/api/v1/api-keys", json={"name": "Host: nowhere", "role": "host", "venue_ids": []})
    detail = assert_joined_once(assert_problem(refused, 422, "venue_ids"))
    assert detail.count("venue_ids: ") == 1
    bad = office.post("/api/v1/regions", json={"name": "", "unknown": 1})
    assert_joined_once(assert_problem(bad, 422))
    many = office.post("/api/v1/players", json={f"field{n}": n for n in range(7)})
    detail = assert_joined_once(assert_problem(many, 422))
    assert "; and " in detail and detail.count("more") == 1
