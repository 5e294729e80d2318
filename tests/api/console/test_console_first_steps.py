"""A new league's first steps on the office's console home, in order, each marked done once taken
(through the API here, as through the console's own pages), the demo league counting for none;
and the demo league removed from the console after the office confirms what it deletes."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.support.console import csrf, hidden_fields, signed_in, text_of
from tests.support.league import Caller, League, new_key

STEPS = [
    "The league's time zone",
    "A region",
    "Venues and their nights",
    "A points chart",
    "A season",
    "Host keys",
]


def steps_shown(page: str) -> list[tuple[str, bool]]:
    """(step, done) as the home lists them, in its order."""
    page = page.replace(" :", ":")  # a step's link, then what is left of it
    listed = sorted((page.find(f"{step}:"), step) for step in STEPS if f"{step}:" in page)
    return [(step, f"{step}: done" in page) for _at, step in listed]


def test_the_office_home_leads_with_the_first_steps_until_all_are_done(
    app: Flask, office: Caller, league: League, runner: Any
) -> None:
    assert runner.invoke(args=["demo", "load"]).exit_code == 0
    browser = signed_in(app, office.key)
    home = text_of(browser.get("/console/"))
    assert "The demo league is still loaded" in home
    assert steps_shown(home) == [
        (step, False) for step in STEPS
    ]  # the demo's region, venues... count for none
    assert office.patch("/api/v1/league-settings", json={"timezone": "America/Chicago"}).status_code == 200
    region = league.region()
    venue = league.venue(region["id"])
    schedule = {"schedule": [{"weekday": 2, "starts_at": "19:30", "sessions": 1}]}
    assert office.put(f"/api/v1/venues/{venue['id']}/schedule", json=schedule).status_code == 200
    chart = league.chart(kind="top_fraction", fraction="0.3", step=10)
    done = steps_shown(text_of(browser.get("/console/")))
    assert done == [(step, step in STEPS[:4]) for step in STEPS]
    league.season(region_ids=[region["id"]], points_chart_id=chart["id"])
    new_key(app, "host", [venue["id"]], "Host: First")
    home = text_of(browser.get("/console/"))
    assert "Setting up your league" not in home and steps_shown(home) == []


def test_the_office_removes_the_demo_after_seeing_what_goes(app: Flask, office: Caller, runner: Any) -> None:
    assert runner.invoke(args=["demo", "load"]).exit_code == 0
    browser = signed_in(app, office.key)
    page = browser.get("/console/demo")
    shown = text_of(page)
    assert page.status_code == 200 and "Removing it deletes" in shown and "venues" in shown
    assert browser.post("/console/demo", data={"listed": "x"}).status_code == 400  # no token
    stale = browser.post("/console/demo", data={"csrf_token": csrf(page), "listed": "an older list"})
    assert stale.status_code == 409 and "changed since this page listed it" in text_of(stale)
    assert office.get("/api/v1/regions").get_json()["total"] == 1
    removed = browser.post(
        "/console/demo", data={"csrf_token": csrf(page), "listed": hidden_fields(page)["listed"]}
    )
    assert removed.status_code == 302
    assert office.get("/api/v1/regions").get_json()["total"] == 0
    entry = office.get("/api/v1/audit-log?action=demo.remove").get_json()["items"][0]
    assert entry["actor"] == "Office: Test"  # the office's key, not the demo's name
    assert "There is no demo league" in text_of(browser.get("/console/demo"))


def test_hosts_have_no_first_steps_nor_the_demo_page(app: Flask, office: Caller, league: League) -> None:
    venue = league.venue(league.region()["id"])
    host = signed_in(app, new_key(app, "host", [venue["id"]], "Host: Steps"))
    assert "Setting up your league" not in text_of(host.get("/console/"))
    assert host.get("/console/demo").status_code == 403
