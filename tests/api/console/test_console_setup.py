"""The office sets the league up in the console, through the API's own schemas and services
(api/console/api_forms.py): regions and the league's settings. What the API refuses the page
refuses, beside the field and in the API's words, storing nothing; hosts may not use the pages."""

from __future__ import annotations

from flask import Flask

from tests.builders import Scene
from tests.support.console import csrf, signed_in, text_of

REGIONS, SETTINGS = "/console/regions", "/console/league-settings"


def test_r3_the_office_makes_a_region_and_a_refused_one_stores_nothing(app: Flask, scene: Scene) -> None:
    office = signed_in(app, scene.office.key)
    page = office.get(REGIONS)
    assert page.status_code == 200 and scene.region["name"] in text_of(page)
    token = csrf(page)
    made = office.post(REGIONS, data={"csrf_token": token, "name": "  North Side "})
    assert made.status_code == 302
    assert "Region North Side made" in text_of(office.get(REGIONS))
    before = scene.office.get("/api/v1/regions").get_json()["total"]
    for name, said in (("", "Fill this in."), ("North Side", "already")):
        refused = office.post(REGIONS, data={"csrf_token": token, "name": name})
        assert refused.status_code == 422, text_of(refused)
        assert said in text_of(refused) and 'aria-invalid="true"' in refused.get_data(as_text=True)
    assert office.post(REGIONS, data={"name": "No token"}).status_code == 400
    assert scene.office.get("/api/v1/regions").get_json()["total"] == before


def test_r2a_r15_the_office_changes_the_leagues_settings_as_the_api_would(app: Flask, scene: Scene) -> None:
    office = signed_in(app, scene.office.key)
    page = office.get(SETTINGS)
    assert page.status_code == 200 and 'list="zones"' in page.get_data(as_text=True)
    token = csrf(page)
    saved = office.post(
        SETTINGS,
        data={
            "csrf_token": token,
            "name": "Tuesday League",
            "timezone": "America/Chicago",
            "max_entrants": "300",
        },
    )
    assert saved.status_code == 302, text_of(saved)
    settings = scene.office.get("/api/v1/league-settings").get_json()
    assert (settings["name"], settings["timezone"], settings["max_entrants"]) == (
        "Tuesday League",
        "America/Chicago",
        300,
    )
    entries = scene.office.get("/api/v1/audit-log?entity=league_settings").get_json()["items"]
    assert len(entries) == 1  # one change, of the three fields the page changed
    for field, value, said in (
        ("timezone", "+02:00", "America/"),
        ("max_entrants", "many", "Write a whole number, e.g. 3."),
        ("min_suspension_days", "-1", "Write a number from 0 to"),
    ):
        refused = office.post(SETTINGS, data={"csrf_token": token, "name": "Tuesday League", field: value})
        assert refused.status_code == 422 and said in text_of(refused), (field, text_of(refused))
    assert scene.office.get("/api/v1/league-settings").get_json() == settings
    cleared = office.post(SETTINGS, data={"csrf_token": token, "name": "Tuesday League", "timezone": ""})
    assert cleared.status_code == 302
    assert scene.office.get("/api/v1/league-settings").get_json()["timezone"] == "UTC"  # the default again


def test_hosts_may_not_set_the_league_up(app: Flask, scene: Scene) -> None:
    host = signed_in(app, scene.host.key)
    for path in (REGIONS, SETTINGS):
        assert host.get(path).status_code == 403
