"""Sanctions (R15): recording, listing, reading and lifting them, who may do which and see which,
bad input refused whole, the league settings that set the minimum lengths, the audit trail (R18),
and a player's disciplinary history with the office's 12-month counts."""

from __future__ import annotations

from typing import Any

import pytest

from tests.builders import (
    SANCTIONS,
    Scene,
    ago,
    audit_entries,
    iso,
    sanction_body,
    sanctioned,
    utc_today,
)
from tests.support.league import Caller, assert_problem

SETTINGS = "/api/v1/league-settings"


def ids(response: Any) -> list[int]:
    """The ids of a list answer's items, in order (a 200)."""
    assert response.status_code == 200, response.get_data(as_text=True)
    return [item["id"] for item in response.get_json()["items"]]


def stored(office: Caller) -> int:
    """How many sanctions are stored (the office sees all)."""
    response = office.get(SANCTIONS)
    assert response.status_code == 200
    return int(response.get_json()["total"])


def other_venue(scene: Scene) -> int:
    """A second venue, in the scene's region."""
    return int(scene.league.venue(scene.region["id"])["id"])


# Recording ---------------------------------------------------------------------------------------


def test_office_records_a_suspension_with_every_field_r15(scene: Scene) -> None:
    """R15: the answer says who, when, why and the days; first and last day as sent."""
    player = scene.player("Dana Dealer")
    response = scene.office.post(
        SANCTIONS,
        json=sanction_body(player, "suspension", "berating", first_day=ago(30), last_day=ago(16)),
    )
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert isinstance(body["id"], int)
    assert body["player"] == {"id": player, "display_name": "Dana Dealer", "label": "Dana Dealer"}
    assert body["player_id"] == player
    assert (body["kind"], body["category"], body["venue_id"]) == ("suspension", "berating", None)
    assert (body["first_day"], body["last_day"]) == (ago(30), ago(16))
    assert body["permanent"] is False
    assert body["active"] is False  # over before today
    assert body["reason"] == "Threw a chair."
    assert (body["issued_by"], body["issued_by_role"]) == ("Office: Test", "office")
    assert body["issued_at"][:10] == iso(utc_today())
    assert body["lifted"] is False
    for name in ("lifted_at", "lifted_on", "lifted_by", "lift_reason"):
        assert body[name] is None, name
    assert body["warnings"] == []  # R16: no stored result of the player falls inside it
    again = scene.office.get(f"{SANCTIONS}/{body['id']}")
    assert again.status_code == 200
    assert again.get_json() == {name: value for name, value in body.items() if name != "warnings"}


@pytest.mark.parametrize("kind", ["reminder", "warning"])
def test_office_records_league_wide_notes_r15(scene: Scene, kind: str) -> None:
    """R15: reminders and warnings are league-wide (no venue)."""
    player = scene.player()
    body = sanctioned(scene.office, player, kind, "late_arrival", first_day=ago(3), last_day=ago(3))
    assert (body["kind"], body["category"], body["venue_id"]) == (kind, "late_arrival", None)


def test_first_day_defaults_to_today_and_no_last_day_is_permanent_r15(scene: Scene) -> None:
    """R15: no first_day is today; no last_day (or null) is permanent; it runs today."""
    player = scene.player()
    absent = sanctioned(scene.office, player, "suspension", "cheating")
    assert (absent["first_day"], absent["last_day"], absent["permanent"]) == (iso(utc_today()), None, True)
    assert absent["active"] is True
    null = sanctioned(scene.office, player, "suspension", "collusion", first_day=ago(5), last_day=None)
    assert (null["first_day"], null["last_day"], null["permanent"]) == (ago(5), None, True)


def test_permanent_true_without_last_day_r15(scene: Scene) -> None:
    """R15: `permanent: true` is a sanction with no last day."""
    body = sanctioned(
        scene.office, scene.player(), "suspension", "gambling", first_day=ago(2), permanent=True
    )
    assert (body["last_day"], body["permanent"], body["active"]) == (None, True, True)


def test_starts_on_and_ends_on_are_aliases_r15(scene: Scene) -> None:
    """R15: starts_on/ends_on are the first and last day."""
    body = sanctioned(
        scene.office, scene.player(), "suspension", "fighting", starts_on=ago(20), ends_on=ago(5)
    )
    assert (body["first_day"], body["last_day"]) == (ago(20), ago(5))


def test_active_means_it_runs_today_r15(scene: Scene) -> None:
    """R15: `active` is true from the first day to the last, both included, and not before or after."""
    player = scene.player()
    ends_today = sanctioned(
        scene.office, player, "suspension", "fighting", first_day=ago(14), last_day=ago(0)
    )
    starts_today = sanctioned(
        scene.office, player, "suspension", "fighting", first_day=ago(0), last_day=ago(-14)
    )
    ended = sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(15), last_day=ago(1))
    future = sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(-1), last_day=ago(-15))
    assert (ends_today["active"], starts_today["active"]) == (True, True)
    assert (ended["active"], future["active"]) == (False, False)


def test_a_host_bans_a_player_from_their_own_venue_r15(scene: Scene) -> None:
    """R15: a host issues a venue ban of their own venue, temporary or permanent."""
    player = scene.player()
    body = sanctioned(scene.host, player, "venue_ban", "outside_alcohol", venue_id=scene.venue_id)
    assert (body["kind"], body["venue_id"], body["permanent"]) == ("venue_ban", scene.venue_id, True)
    assert (body["issued_by"], body["issued_by_role"]) == ("Host: Crown", "host")
    dated = sanctioned(
        scene.host,
        player,
        "venue_ban",
        "bad_etiquette",
        venue_id=scene.venue_id,
        first_day=ago(3),
        last_day=ago(1),
    )
    assert (dated["last_day"], dated["permanent"]) == (ago(1), False)


def test_office_bans_from_any_venue_r15(scene: Scene) -> None:
    """R15: the office issues a venue ban at any venue."""
    elsewhere = other_venue(scene)
    body = sanctioned(scene.office, scene.player(), "venue_ban", "fighting", venue_id=elsewhere)
    assert body["venue_id"] == elsewhere


@pytest.mark.parametrize("kind", ["reminder", "warning", "suspension"])
def test_a_host_cannot_issue_league_wide_kinds_r15(scene: Scene, kind: str) -> None:
    """R15: reminders, warnings and suspensions are the office's; a host gets 403 naming R15."""
    player = scene.player()
    response = scene.host.post(SANCTIONS, json=sanction_body(player, kind, "fighting", first_day=ago(30)))
    assert_problem(response, 403, rule="R15")
    assert stored(scene.office) == 0


def test_a_host_cannot_ban_from_another_venue_r15(scene: Scene) -> None:
    """R15: a host bans only from their own venue."""
    response = scene.host.post(
        SANCTIONS, json=sanction_body(scene.player(), "venue_ban", "fighting", venue_id=other_venue(scene))
    )
    assert_problem(response, 403, rule="R15")
    assert stored(scene.office) == 0


def test_the_public_gets_401_everywhere_r15(scene: Scene) -> None:
    """R15: sanctions are for hosts and the office; the public is not let in."""
    player = scene.player()
    sanction = sanctioned(scene.office, player, "suspension", "fighting")
    public = scene.public
    assert_problem(public.post(SANCTIONS, json=sanction_body(player)), 401)
    assert_problem(public.get(SANCTIONS), 401)
    assert_problem(public.get(f"{SANCTIONS}/{sanction['id']}"), 401)
    assert_problem(public.post(f"{SANCTIONS}/{sanction['id']}/lift", json={"reason": "x"}), 401)
    assert_problem(public.get(f"/api/v1/players/{player}/sanctions"), 401)
    assert scene.office.get(f"{SANCTIONS}/{sanction['id']}").get_json()["lifted"] is False
    assert stored(scene.office) == 1


# Bad input ---------------------------------------------------------------------------------------


DROP = object()  # the field is left out
HERE = object()  # the scene's venue

BAD_INPUT: list[tuple[str, dict[str, Any], str, str | None]] = [
    # (case, fields replacing the valid body's, the field named, the rule)
    ("unknown player", {"player_id": 987654321}, "player_id", None),
    ("unknown venue", {"kind": "venue_ban", "venue_id": 987654321}, "venue_id", None),
    ("last day before first", {"first_day": ago(10), "last_day": ago(11)}, "last_day", "R15"),
    ("ban without venue", {"kind": "venue_ban"}, "venue_id", "R15"),
    ("ban with null venue", {"kind": "venue_ban", "venue_id": None}, "venue_id", "R15"),
    ("suspension with a venue", {"venue_id": HERE}, "venue_id", "R15"),
    ("warning with a venue", {"kind": "warning", "venue_id": HERE}, "venue_id", "R15"),
    ("reminder with a venue", {"kind": "reminder", "venue_id": HERE}, "venue_id", "R15"),
    ("unknown category", {"category": "rudeness"}, "category", None),
    ("unknown kind", {"kind": "scolding"}, "kind", None),
    ("13 days, both counted", {"first_day": ago(30), "last_day": ago(18)}, "last_day", "R15"),
    ("permanent with a last day", {"permanent": True, "last_day": ago(10)}, "last_day", None),
    ("no reason", {"reason": DROP}, "reason", None),
]


@pytest.mark.parametrize(("case", "changes", "field", "rule"), BAD_INPUT, ids=[c[0] for c in BAD_INPUT])
def test_bad_input_is_refused_naming_the_field_r15(
    scene: Scene, case: str, changes: dict[str, Any], field: str, rule: str | None
) -> None:
    """R15: each bad sanction is a 422 problem naming the field (and R15 where the rule is broken);
    nothing is stored, nothing audited."""
    body = sanction_body(scene.player(), "suspension", "fighting", first_day=ago(30), last_day=ago(10))
    for name, value in changes.items():
        if value is DROP:
            del body[name]
        else:
            body[name] = scene.venue_id if value is HERE else value
    assert_problem(scene.office.post(SANCTIONS, json=body), 422, field, rule=rule)
    assert stored(scene.office) == 0
    assert audit_entries(scene.office, "entity=sanction") == []


def test_exactly_the_minimum_is_accepted_r15(scene: Scene) -> None:
    """R15: last_day = first_day + 13 days is the shortest suspension: 14 days, both ends counted."""
    body = sanctioned(
        scene.office, scene.player(), "suspension", "fighting", first_day=ago(30), last_day=ago(17)
    )
    assert (body["first_day"], body["last_day"]) == (ago(30), ago(17))


def test_outside_alcohol_lasts_six_calendar_months_r15(scene: Scene) -> None:
    """R15: an outside_alcohol suspension lasts at least 6 calendar months, both ends counted:
    from 10 January, 9 July or later."""
    player = scene.player()
    short = sanction_body(
        player, "suspension", "outside_alcohol", first_day="2026-01-10", last_day="2026-07-08"
    )
    assert_problem(scene.office.post(SANCTIONS, json=short), 422, "last_day", rule="R15")
    month = sanction_body(
        player, "suspension", "outside_alcohol", first_day="2026-01-10", last_day="2026-02-10"
    )
    assert_problem(scene.office.post(SANCTIONS, json=month), 422, "last_day", rule="R15")
    assert stored(scene.office) == 0
    body = sanctioned(
        scene.office, player, "suspension", "outside_alcohol", first_day="2026-01-10", last_day="2026-07-09"
    )
    assert body["last_day"] == "2026-07-09"
    forever = sanctioned(scene.office, player, "suspension", "outside_alcohol", first_day="2026-01-10")
    assert forever["permanent"] is True


def test_minimums_bind_suspensions_only_r15(scene: Scene) -> None:
    """R15: a one-day venue ban or warning is fine; only suspensions have a minimum."""
    player = scene.player()
    ban = sanctioned(
        scene.office,
        player,
        "venue_ban",
        "outside_alcohol",
        venue_id=scene.venue_id,
        first_day=ago(5),
        last_day=ago(5),
    )
    warning = sanctioned(scene.office, player, "warning", "fighting", first_day=ago(5), last_day=ago(5))
    assert (ban["last_day"], warning["last_day"]) == (ago(5), ago(5))


# R15: the first and the last day both count -------------------------------------------------------


def refused_last_day(office: Caller, body: dict[str, Any]) -> str:
    """The R15 refusal's message at last_day (a 422 problem+json); nothing stored."""
    before = stored(office)
    problem = assert_problem(office.post(SANCTIONS, json=body), 422, "last_day", rule="R15")
    assert set(problem["errors"]) == {"last_day"}
    assert stored(office) == before
    (message,) = problem["errors"]["last_day"]
    assert message.startswith("A suspension"), message
    return str(message)


def test_r15_two_weeks_from_tuesday_1_december_end_on_monday_14_december(scene: Scene) -> None:
    """R15: the 14-day minimum counts the first and the last day: from 2026-12-01, 2026-12-13 is
    refused in the league's words, 2026-12-14 accepted (the player misses two Tuesday nights)."""
    player = scene.player()
    short = sanction_body(player, "suspension", "fighting", first_day="2026-12-01", last_day="2026-12-13")
    message = refused_last_day(scene.office, short)
    assert "at least 14 days, counting the first and the last: from 1 December, 14 December or later" in (
        message
    )
    assert audit_entries(scene.office, "entity=sanction") == []
    body = sanctioned(
        scene.office, player, "suspension", "fighting", first_day="2026-12-01", last_day="2026-12-14"
    )
    assert (body["first_day"], body["last_day"]) == ("2026-12-01", "2026-12-14")


def test_r15_six_months_from_1_december_end_on_31_may(scene: Scene) -> None:
    """R15: outside_alcohol from 2026-12-01: 2027-05-30 is refused, naming both years (the last
    day falls in another year), 2027-05-31 accepted."""
    player = scene.player()
    short = sanction_body(
        player, "suspension", "outside_alcohol", first_day="2026-12-01", last_day="2027-05-30"
    )
    message = refused_last_day(scene.office, short)
    assert (
        "at least 6 months, counting the first and the last: from 1 December 2026, 31 May 2027 or later"
        in message
    )
    body = sanctioned(
        scene.office, player, "suspension", "outside_alcohol", first_day="2026-12-01", last_day="2027-05-31"
    )
    assert body["last_day"] == "2027-05-31"


def test_r15_a_changed_minimum_counts_both_days_too(scene: Scene) -> None:
    """R15: the league's minimums (PATCH /league-settings) are honoured the same way: 21 days from
    1 December end on 21 December; 3 months from 1 December on 28 February; 1 day on the first."""
    player = scene.player()
    settings = {"min_suspension_days": 21, "min_outside_alcohol_months": 3}
    assert scene.office.patch(SETTINGS, json=settings).status_code == 200
    days = sanction_body(player, "suspension", "fighting", first_day="2026-12-01", last_day="2026-12-20")
    assert "at least 21 days, counting the first and the last: from 1 December, 21 December or later" in (
        refused_last_day(scene.office, days)
    )
    assert scene.office.post(SANCTIONS, json={**days, "last_day": "2026-12-21"}).status_code == 201
    months = sanction_body(
        player, "suspension", "outside_alcohol", first_day="2026-12-01", last_day="2027-02-27"
    )
    assert (
        "at least 3 months, counting the first and the last: from 1 December 2026, 28 February 2027 or later"
        in refused_last_day(scene.office, months)
    )
    assert scene.office.post(SANCTIONS, json={**months, "last_day": "2027-02-28"}).status_code == 201
    assert scene.office.patch(SETTINGS, json={"min_suspension_days": 1}).status_code == 200
    one_day = sanctioned(
        scene.office, player, "suspension", "fighting", first_day="2026-12-01", last_day="2026-12-01"
    )
    assert (one_day["first_day"], one_day["last_day"]) == ("2026-12-01", "2026-12-01")


# League settings ---------------------------------------------------------------------------------


def test_league_settings_are_public_with_the_defaults_r15(scene: Scene) -> None:
    """R15: anyone reads the minimums: 14 days, 6 months for outside alcohol."""
    response = scene.public.get(SETTINGS)
    assert response.status_code == 200
    body = response.get_json()
    assert (body["min_suspension_days"], body["min_outside_alcohol_months"]) == (14, 6)


def test_only_the_office_changes_league_settings_r15(scene: Scene) -> None:
    """R15: a host gets 403, the public 401; the settings stay."""
    assert_problem(scene.host.patch(SETTINGS, json={"min_suspension_days": 30}), 403)
    assert_problem(scene.public.patch(SETTINGS, json={"min_suspension_days": 30}), 401)
    assert scene.public.get(SETTINGS).get_json()["min_suspension_days"] == 14
    response = scene.office.patch(SETTINGS, json={"min_suspension_days": 30})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["min_suspension_days"] == 30
    assert response.get_json()["min_outside_alcohol_months"] == 6
    assert scene.public.get(SETTINGS).get_json()["min_suspension_days"] == 30


def test_a_longer_minimum_applies_to_new_suspensions_r15(scene: Scene) -> None:
    """R15: after the office raises the minimum to 30 days, 29 days (both counted) are refused and
    30 accepted; a suspension issued before keeps its terms."""
    player = scene.player()
    earlier = sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(60), last_day=ago(47))
    assert scene.office.patch(SETTINGS, json={"min_suspension_days": 30}).status_code == 200
    short = sanction_body(player, "suspension", "fighting", first_day=ago(40), last_day=ago(12))
    problem = assert_problem(scene.office.post(SANCTIONS, json=short), 422, "last_day", rule="R15")
    assert "at least 30 days" in problem["errors"]["last_day"][0]
    body = sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(40), last_day=ago(11))
    assert body["last_day"] == ago(11)
    kept = scene.office.get(f"{SANCTIONS}/{earlier['id']}").get_json()
    assert (kept["first_day"], kept["last_day"]) == (ago(60), ago(47))


def test_a_shorter_minimum_applies_to_new_suspensions_r15(scene: Scene) -> None:
    """R15: lowered to 7 days, a 7-day suspension (both days counted; refused under the default)
    is accepted, and 6 days still refused."""
    player = scene.player()
    week = sanction_body(player, "suspension", "fighting", first_day=ago(20), last_day=ago(14))
    assert_problem(scene.office.post(SANCTIONS, json=week), 422, "last_day", rule="R15")
    assert scene.office.patch(SETTINGS, json={"min_suspension_days": 7}).status_code == 200
    response = scene.office.post(SANCTIONS, json=week)
    assert response.status_code == 201, response.get_json()
    six_days = {**week, "last_day": ago(15)}
    assert_problem(scene.office.post(SANCTIONS, json=six_days), 422, "last_day", rule="R15")


def test_a_changed_outside_alcohol_minimum_applies_r15(scene: Scene) -> None:
    """R15: with min_outside_alcohol_months 3, a 3-month outside_alcohol suspension (10 January
    to 9 April, both counted) is accepted, a day less refused."""
    player = scene.player()
    body = sanction_body(
        player, "suspension", "outside_alcohol", first_day="2026-01-10", last_day="2026-04-09"
    )
    assert_problem(scene.office.post(SANCTIONS, json=body), 422, "last_day", rule="R15")
    assert scene.office.patch(SETTINGS, json={"min_outside_alcohol_months": 3}).status_code == 200
    assert scene.office.post(SANCTIONS, json=body).status_code == 201
    too_short = {**body, "last_day": "2026-04-08"}
    assert_problem(scene.office.post(SANCTIONS, json=too_short), 422, "last_day", rule="R15")


def test_a_league_settings_change_is_audited_r18(scene: Scene) -> None:
    """R18: league_settings.update with before, after and the actor's key name."""
    assert audit_entries(scene.office, "action=league_settings.update") == []
    response = scene.office.patch(SETTINGS, json={"min_suspension_days": 21})
    assert response.status_code == 200
    (entry,) = audit_entries(scene.office, "action=league_settings.update")
    assert entry["actor"] == "Office: Test"
    assert entry["before"]["min_suspension_days"] == 14
    assert entry["after"]["min_suspension_days"] == 21
    assert entry["after"]["min_outside_alcohol_months"] == 6


# Listing and reading -----------------------------------------------------------------------------


@pytest.fixture()
def spread(scene: Scene) -> dict[str, Any]:
    """Two players: Ann with a reminder, a warning, a suspension, a ban at the scene's venue and a
    ban at another venue; Bob with a suspension (key "bobs"). Created oldest first_day first."""
    ann, bob = scene.players("Ann", "Bob")
    elsewhere = other_venue(scene)
    office = scene.office
    made = {
        "reminder": sanctioned(office, ann, "reminder", "late_arrival", first_day=ago(50), last_day=ago(50)),
        "warning": sanctioned(office, ann, "warning", "berating", first_day=ago(45), last_day=ago(45)),
        "suspension": sanctioned(office, ann, "suspension", "fighting", first_day=ago(40), last_day=ago(26)),
        "ban_here": sanctioned(
            office, ann, "venue_ban", "gambling", venue_id=scene.venue_id, first_day=ago(20)
        ),
        "ban_elsewhere": sanctioned(
            office, ann, "venue_ban", "gambling", venue_id=elsewhere, first_day=ago(10)
        ),
        "bobs": sanctioned(office, bob, "suspension", "cheating", first_day=ago(5)),
    }
    return {"ann": ann, "bob": bob, "elsewhere": elsewhere, **{k: v["id"] for k, v in made.items()}}


def test_the_office_lists_all_newest_first_r15(scene: Scene, spread: dict[str, Any]) -> None:
    """R15: the office sees every sanction, newest first (here first days and issue order agree)."""
    response = scene.office.get(SANCTIONS)
    assert ids(response) == [
        spread[k] for k in ("bobs", "ban_elsewhere", "ban_here", "suspension", "warning", "reminder")
    ]
    body = response.get_json()
    assert (body["total"], body["page"], body["per_page"], body["pages"]) == (6, 1, 50, 1)


def test_the_list_is_paginated_r15(scene: Scene, spread: dict[str, Any]) -> None:
    """R15: page and per_page cut the newest-first list; total and pages say how much there is."""
    first = scene.office.get(f"{SANCTIONS}?per_page=4")
    second = scene.office.get(f"{SANCTIONS}?per_page=4&page=2")
    assert ids(first) == [spread[k] for k in ("bobs", "ban_elsewhere", "ban_here", "suspension")]
    assert ids(second) == [spread[k] for k in ("warning", "reminder")]
    assert (second.get_json()["total"], second.get_json()["pages"], second.get_json()["page"]) == (6, 2, 2)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("player_id=BOB", ["bobs"]),
        ("kind=warning", ["warning"]),
        ("kind=venue_ban", ["ban_elsewhere", "ban_here"]),
        ("category=gambling", ["ban_elsewhere", "ban_here"]),
        ("venue_id=HERE", ["ban_here"]),
        ("player_id=ANN&kind=suspension", ["suspension"]),
    ],
)
def test_filters_r15(scene: Scene, spread: dict[str, Any], query: str, expected: list[str]) -> None:
    """R15: the list filters by player, kind, category and a ban's venue."""
    query = (
        query.replace("BOB", str(spread["bob"]))
        .replace("ANN", str(spread["ann"]))
        .replace("HERE", str(scene.venue_id))
    )
    assert ids(scene.office.get(f"{SANCTIONS}?{query}")) == [spread[k] for k in expected]


@pytest.mark.parametrize(
    ("day_ago", "expected"),
    [
        (50, ["reminder"]),
        (46, []),
        (41, []),
        (40, ["suspension"]),
        (26, ["suspension"]),
        (25, []),
        (20, ["ban_here"]),
        (5, ["bobs", "ban_elsewhere", "ban_here"]),
        (-400, ["bobs", "ban_elsewhere", "ban_here"]),
    ],
)
def test_active_on_a_day_r15(scene: Scene, spread: dict[str, Any], day_ago: int, expected: list[str]) -> None:
    """R15: active_on lists what runs that day: first and last day included, permanent ones for
    ever."""
    assert ids(scene.office.get(f"{SANCTIONS}?active_on={ago(day_ago)}")) == [spread[k] for k in expected]


def test_active_on_and_lifting_r15(scene: Scene) -> None:
    """R15: a sanction lifted today ran until yesterday; from today on it is not active."""
    sanction = sanctioned(scene.office, scene.player(), "suspension", "fighting", first_day=ago(10))
    assert scene.office.post(f"{SANCTIONS}/{sanction['id']}/lift", json={"reason": "x"}).status_code == 200
    assert ids(scene.office.get(f"{SANCTIONS}?active_on={ago(1)}")) == [sanction["id"]]
    assert ids(scene.office.get(f"{SANCTIONS}?active_on={ago(0)}")) == []
    assert ids(scene.office.get(f"{SANCTIONS}?active_on={ago(-30)}")) == []


def test_active_on_a_one_day_warning_r15(scene: Scene, spread: dict[str, Any]) -> None:
    """R15: a warning whose first and last day are the same runs on that one day."""
    assert ids(scene.office.get(f"{SANCTIONS}?active_on={ago(45)}")) == [spread["warning"]]
    assert ids(scene.office.get(f"{SANCTIONS}?active_on={ago(44)}")) == []


def test_a_host_sees_suspensions_and_their_own_bans_r15(scene: Scene, spread: dict[str, Any]) -> None:
    """R15: a host sees league-wide suspensions and bans at their venues: not reminders, warnings
    or another venue's bans, in the list nor one by one (404)."""
    assert ids(scene.host.get(SANCTIONS)) == [spread[k] for k in ("bobs", "ban_here", "suspension")]
    assert scene.host.get(SANCTIONS).get_json()["total"] == 3
    for key in ("bobs", "ban_here", "suspension"):
        assert scene.host.get(f"{SANCTIONS}/{spread[key]}").status_code == 200, key
    for key in ("reminder", "warning", "ban_elsewhere"):
        assert_problem(scene.host.get(f"{SANCTIONS}/{spread[key]}"), 404)
        assert scene.office.get(f"{SANCTIONS}/{spread[key]}").status_code == 200
    assert ids(scene.host.get(f"{SANCTIONS}?venue_id={spread['elsewhere']}")) == []
    other_host = scene.host_for(spread["elsewhere"], name="Host: Elsewhere")
    assert ids(other_host.get(SANCTIONS)) == [spread[k] for k in ("bobs", "ban_elsewhere", "suspension")]


def test_an_unknown_sanction_is_404_r15(scene: Scene) -> None:
    """R15: reading an id no sanction has."""
    assert_problem(scene.office.get(f"{SANCTIONS}/987654321"), 404)


# Lifting -----------------------------------------------------------------------------------------


def test_the_office_lifts_a_sanction_and_the_record_stays_r15(scene: Scene) -> None:
    """R15: lifted early, the sanction stays with who lifted it, when and why; it no longer runs."""
    player = scene.player()
    sanction = sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(3))
    assert sanction["active"] is True
    response = scene.office.post(f"{SANCTIONS}/{sanction['id']}/lift", json={"reason": "Apologised."})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["lifted"] is True
    assert (body["lifted_by"], body["lift_reason"], body["lifted_on"]) == (
        "Office: Test",
        "Apologised.",
        iso(utc_today()),
    )
    assert body["lifted_at"] is not None
    assert body["active"] is False
    assert (body["reason"], body["issued_by"], body["first_day"]) == (
        "Threw a chair.",
        "Office: Test",
        ago(3),
    )
    assert scene.office.get(f"{SANCTIONS}/{sanction['id']}").get_json() == body
    assert ids(scene.office.get(f"{SANCTIONS}?player_id={player}")) == [sanction["id"]]


def test_lifting_a_lifted_sanction_is_409_r15(scene: Scene) -> None:
    """R15: a sanction is lifted once; the second try changes nothing."""
    sanction = sanctioned(scene.office, scene.player(), "suspension", "fighting")
    url = f"{SANCTIONS}/{sanction['id']}/lift"
    assert scene.office.post(url, json={"reason": "First."}).status_code == 200
    assert_problem(scene.office.post(url, json={"reason": "Second."}), 409)
    assert scene.office.get(f"{SANCTIONS}/{sanction['id']}").get_json()["lift_reason"] == "First."
    assert len(audit_entries(scene.office, "action=sanction.lift")) == 1


def test_lifting_needs_a_reason_r15(scene: Scene) -> None:
    """R15: a lift without a reason is 422 naming reason; the sanction stays in force."""
    sanction = sanctioned(scene.office, scene.player(), "suspension", "fighting")
    assert_problem(scene.office.post(f"{SANCTIONS}/{sanction['id']}/lift", json={}), 422, "reason")
    assert scene.office.get(f"{SANCTIONS}/{sanction['id']}").get_json()["lifted"] is False


def test_lifting_an_unknown_sanction_is_404_r15(scene: Scene) -> None:
    """R15: no such sanction."""
    assert_problem(scene.office.post(f"{SANCTIONS}/987654321/lift", json={"reason": "x"}), 404)


def test_a_host_lifts_their_own_venues_ban_r15(scene: Scene) -> None:
    """R15: a host lifts a ban at their own venue, even one the office issued."""
    ban = sanctioned(scene.office, scene.player(), "venue_ban", "fighting", venue_id=scene.venue_id)
    response = scene.host.post(f"{SANCTIONS}/{ban['id']}/lift", json={"reason": "Paid for the glass."})
    assert response.status_code == 200, response.get_json()
    assert (response.get_json()["lifted"], response.get_json()["lifted_by"]) == (True, "Host: Crown")


def test_a_host_cannot_lift_a_suspension_r15(scene: Scene) -> None:
    """R15: a suspension is the office's to lift; a host gets 403 naming R15."""
    suspension = sanctioned(scene.office, scene.player(), "suspension", "fighting")
    assert_problem(
        scene.host.post(f"{SANCTIONS}/{suspension['id']}/lift", json={"reason": "x"}), 403, rule="R15"
    )
    assert scene.office.get(f"{SANCTIONS}/{suspension['id']}").get_json()["lifted"] is False


def test_a_host_lifting_another_venues_ban_gets_the_404_of_a_missing_one_r15_r19(scene: Scene) -> None:
    """R15, R19: a host lifts only their own venue's bans, and may not even see another venue's:
    lifting one is answered exactly as lifting a sanction that does not exist (404, the same
    words but the id), so lifting tells a host no more than reading does."""
    ban = sanctioned(scene.office, scene.player(), "venue_ban", "fighting", venue_id=other_venue(scene))
    hidden = scene.host.post(f"{SANCTIONS}/{ban['id']}/lift", json={"reason": "x"})
    missing = scene.host.post(f"{SANCTIONS}/987654321/lift", json={"reason": "x"})
    assert scene.office.get(f"{SANCTIONS}/{ban['id']}").get_json()["lifted"] is False
    seen, absent = assert_problem(hidden, 404), assert_problem(missing, 404)
    assert seen["detail"] == absent["detail"].replace("987654321", str(ban["id"]))
    drop = ("detail", "request_id", "instance")
    same = [{k: v for k, v in body.items() if k not in drop} for body in (seen, absent)]
    assert same[0] == same[1]
    assert_problem(scene.host.get(f"{SANCTIONS}/{ban['id']}"), 404)


# Audit (R18) -------------------------------------------------------------------------------------


def test_a_sanction_is_audited_when_recorded_r18(scene: Scene) -> None:
    """R18: sanction.create, with after only and the actor's key name."""
    player = scene.player()
    by_office = sanctioned(
        scene.office, player, "suspension", "cheating", first_day=ago(30), last_day=ago(16)
    )
    by_host = sanctioned(scene.host, player, "venue_ban", "fighting", venue_id=scene.venue_id)
    entries = audit_entries(scene.office, "entity=sanction")
    assert [(e["action"], e["entity_id"]) for e in entries] == [
        ("sanction.create", by_host["id"]),
        ("sanction.create", by_office["id"]),
    ]
    host_entry, office_entry = entries
    assert (office_entry["actor"], host_entry["actor"]) == ("Office: Test", "Host: Crown")
    assert office_entry["before"] is None
    after = office_entry["after"]
    assert (after["kind"], after["category"], after["player_id"]) == ("suspension", "cheating", player)
    assert (after["first_day"], after["last_day"]) == (ago(30), ago(16))
    assert host_entry["after"]["venue_id"] == scene.venue_id
    assert audit_entries(scene.office, "action=sanction.create") == entries


def test_a_lift_is_audited_with_before_and_after_r18(scene: Scene) -> None:
    """R18: sanction.lift, before (not lifted) and after (lifted, by whom, why)."""
    sanction = sanctioned(scene.office, scene.player(), "suspension", "cheating")
    scene.office.post(f"{SANCTIONS}/{sanction['id']}/lift", json={"reason": "Cleared."})
    (entry,) = audit_entries(scene.office, "action=sanction.lift")
    assert (entry["entity"], entry["entity_id"], entry["actor"]) == (
        "sanction",
        sanction["id"],
        "Office: Test",
    )
    assert entry["before"]["lifted_at"] is None
    assert entry["after"]["lifted_at"] is not None
    assert entry["after"]["lift_reason"] == "Cleared."
    assert entry["after"]["lifted_by"] == "Office: Test"


def test_a_host_does_not_read_the_audit_log_r18(scene: Scene) -> None:
    """R18: the audit log is the office's."""
    sanctioned(scene.office, scene.player(), "suspension", "cheating")
    assert_problem(scene.host.get("/api/v1/audit-log?entity=sanction"), 403)


# A player's history ------------------------------------------------------------------------------


def history(caller: Caller, player_id: int) -> dict[str, Any]:
    response = caller.get(f"/api/v1/players/{player_id}/sanctions")
    assert response.status_code == 200, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return data


@pytest.fixture()
def record(scene: Scene) -> dict[str, Any]:
    """Pat's history: within 12 months two warnings (one lifted) and a lifted suspension; beyond
    them a warning and a suspension; a reminder; a running ban here and one at another venue."""
    pat = scene.player("Pat Punter")
    elsewhere = other_venue(scene)
    office = scene.office
    made = {
        "old_warning": sanctioned(office, pat, "warning", "berating", first_day=ago(420), last_day=ago(420)),
        "old_suspension": sanctioned(
            office, pat, "suspension", "fighting", first_day=ago(400), last_day=ago(380)
        ),
        "warning": sanctioned(office, pat, "warning", "berating", first_day=ago(330), last_day=ago(330)),
        "suspension": sanctioned(office, pat, "suspension", "fighting", first_day=ago(100), last_day=ago(86)),
        "lifted_warning": sanctioned(office, pat, "warning", "berating", first_day=ago(40), last_day=ago(40)),
        "reminder": sanctioned(office, pat, "reminder", "late_arrival", first_day=ago(30), last_day=ago(30)),
        "ban_elsewhere": sanctioned(
            office, pat, "venue_ban", "gambling", venue_id=elsewhere, first_day=ago(20)
        ),
        "ban_here": sanctioned(
            office, pat, "venue_ban", "gambling", venue_id=scene.venue_id, first_day=ago(10)
        ),
    }
    for key in ("suspension", "lifted_warning"):
        lifted = office.post(f"{SANCTIONS}/{made[key]['id']}/lift", json={"reason": "Reviewed."})
        assert lifted.status_code == 200
    return {"pat": pat, **{k: v["id"] for k, v in made.items()}}


def test_the_office_reads_a_players_whole_history_and_counts_r15(
    scene: Scene, record: dict[str, Any]
) -> None:
    """R15: every sanction, newest first, lifted ones included; the running ones in `active`;
    warnings and suspensions counted by first day over the last 12 months, lifted ones too."""
    body = history(scene.office, record["pat"])
    assert (body["player_id"], body["display_name"]) == (record["pat"], "Pat Punter")
    assert [s["id"] for s in body["sanctions"]] == [
        record[k]
        for k in (
            "ban_here",
            "ban_elsewhere",
            "reminder",
            "lifted_warning",
            "suspension",
            "warning",
            "old_suspension",
            "old_warning",
        )
    ]
    assert sorted(body["active"]) == sorted([record["ban_here"], record["ban_elsewhere"]])
    assert body["warnings_last_12_months"] == 2
    assert body["suspensions_last_12_months"] == 1


def test_a_host_reads_the_history_they_may_see_without_counts_r15(
    scene: Scene, record: dict[str, Any]
) -> None:
    """R15: a host sees the suspensions and their own venue's bans; no 12-month counts."""
    body = history(scene.host, record["pat"])
    assert [s["id"] for s in body["sanctions"]] == [
        record[k] for k in ("ban_here", "suspension", "old_suspension")
    ]
    assert body["active"] == [record["ban_here"]]
    assert "warnings_last_12_months" not in body
    assert "suspensions_last_12_months" not in body


def test_a_history_without_sanctions_r15(scene: Scene) -> None:
    """R15: a player never sanctioned has an empty history and zero counts."""
    player = scene.player("Clean Carla")
    body = history(scene.office, player)
    assert (body["sanctions"], body["active"]) == ([], [])
    assert (body["warnings_last_12_months"], body["suspensions_last_12_months"]) == (0, 0)
    assert_problem(scene.office.get("/api/v1/players/987654321/sanctions"), 404)


def test_the_player_page_carries_the_counts_for_the_office_only_r15(
    scene: Scene, record: dict[str, Any]
) -> None:
    """R15: GET /players/{id} has `discipline` for the office; not for a host or the public."""
    url = f"/api/v1/players/{record['pat']}"
    office = scene.office.get(url)
    assert office.status_code == 200
    assert office.get_json()["discipline"] == {"warnings_last_12_months": 2, "suspensions_last_12_months": 1}
    for caller in (scene.host, scene.public):
        response = caller.get(url)
        assert response.status_code == 200
        assert "discipline" not in response.get_json()


def test_counts_ignore_reminders_and_bans_r15(scene: Scene) -> None:
    """R15: only warnings and suspensions are counted."""
    player = scene.player()
    sanctioned(scene.office, player, "reminder", "late_arrival", first_day=ago(3), last_day=ago(3))
    sanctioned(scene.office, player, "venue_ban", "fighting", venue_id=scene.venue_id, first_day=ago(3))
    sanctioned(scene.office, player, "warning", "fighting", first_day=ago(2), last_day=ago(2))
    body = history(scene.office, player)
    assert (body["warnings_last_12_months"], body["suspensions_last_12_months"]) == (1, 0)
    assert len(body["sanctions"]) == 3
