"""The office's players in the console: found by name from the home page, a record changed as the
API's PATCH changes it (audited; what the API refuses refused beside its field, nothing stored),
and a player's personal data erased after a page that names what goes (R21), as the API erases
it. Hosts reach none of it."""

from __future__ import annotations

from flask import Flask

from tests.builders import Scene
from tests.support.console import csrf, form_of, links, signed_in, text_of


def player_page(player_id: int) -> str:
    return f"/console/players/{player_id}"


def test_r19_the_office_finds_a_player_and_changes_their_record_as_the_api_would(
    app: Flask, scene: Scene
) -> None:
    ann = scene.player("Ann B.")
    record = scene.office.get(f"/api/v1/players/{ann}").get_json()
    office = signed_in(app, scene.office.key)
    found = office.get(links(office.get("/console/"))["Find a player"] + f"?q={record['full_name'][:8]}")
    assert links(found)[f"Ann B. ({record['full_name']}), player {ann}"] == player_page(ann)
    page = office.get(player_page(ann))
    assert page.status_code == 200 and f'value="{record["email"]}"' in page.get_data(as_text=True)

    # What the API refuses, the page refuses beside the field, storing nothing.
    token = csrf(page)
    for field, value, said in (
        ("email", "not an email", "Write an email address, e.g. ann@example.com."),
        ("full_name", "", "Fill this in."),
        ("date_of_birth", "1990-02-30", "Write a date, or pick it from the calendar."),
        ("membership_number", "1234", "membership"),
    ):
        refused = office.post(player_page(ann), data={**form_of(page, **{field: value}), "csrf_token": token})
        assert refused.status_code == 422, (field, text_of(refused))
        assert said.lower() in text_of(refused).lower(), (field, text_of(refused))
        assert f'id="{field}-problem"' in refused.get_data(as_text=True), field
        assert scene.office.get(f"/api/v1/players/{ann}").get_json() == record
    api = scene.office.patch(f"/api/v1/players/{ann}", json={"email": "not an email"})
    assert api.status_code == 422 and "email" in api.get_json()["errors"]

    # Saved: only what changed is sent, and the audit log says who changed it.
    changed = {"email": "ann.new@example.org", "home_venue_id": str(scene.venue_id)}
    saved = office.post(player_page(ann), data={**form_of(page, **changed), "csrf_token": token})
    assert saved.status_code == 302, text_of(saved)
    after = scene.office.get(f"/api/v1/players/{ann}").get_json()
    assert after["email"] == "ann.new@example.org" and after["home_venue_id"] == scene.venue_id
    assert after["full_name"] == record["full_name"] and after["display_name"] == "Ann B."
    audit = scene.office.get(f"/api/v1/audit-log?entity=player&entity_id={ann}").get_json()["items"]
    assert audit[0]["action"] == "player.update" and audit[0]["after"]["email"] == "ann.new@example.org"
    assert "record is saved" in text_of(office.get(saved.headers["Location"]))

    host = signed_in(app, scene.host.key)
    assert host.get(player_page(ann)).status_code == 403
    assert host.get("/console/players?q=Ann").status_code == 403
    assert "Find a player" not in links(host.get("/console/"))
    untokened = {k: v for k, v in form_of(page, email="x@example.org").items() if k != "csrf_token"}
    assert office.post(player_page(ann), data=untokened).status_code == 400
    assert scene.office.get(f"/api/v1/players/{ann}").get_json()["email"] == "ann.new@example.org"


def test_r21_the_office_erases_a_players_personal_data_after_a_page_naming_what_goes(
    app: Flask, scene: Scene
) -> None:
    bob = scene.player("Bob C.")
    record = scene.office.get(f"/api/v1/players/{bob}").get_json()
    office = signed_in(app, scene.office.key)
    erase = links(office.get(player_page(bob)))["Erase this player's personal data"]
    asked = office.get(erase)
    words = text_of(asked)
    assert f"Erase {record['full_name']}, player {bob}?" in words and "This cannot be undone." in words
    token = csrf(asked)
    refused = office.post(erase, data={"csrf_token": token, "reason": ""})
    assert refused.status_code == 422 and 'id="reason-problem"' in refused.get_data(as_text=True)
    assert scene.office.get(f"/api/v1/players/{bob}").get_json() == record

    assert signed_in(app, scene.host.key).get(erase).status_code == 403
    erased = office.post(erase, data={"csrf_token": token, "reason": "Asked by email on 3 Dec."})
    assert erased.status_code == 302, text_of(erased)
    after = scene.office.get(f"/api/v1/players/{bob}").get_json()
    assert after["full_name"] == "" and after["email"] is None
    shown = text_of(office.get(erased.headers["Location"]))
    assert f"Erased: the personal data of player {bob}" in shown and "was erased (R21)" in shown
    assert "Save the record" not in shown
    again = office.post(erase, data={"csrf_token": token, "reason": "Twice."})
    assert again.status_code == 409 and "was erased" in text_of(again), text_of(again)
