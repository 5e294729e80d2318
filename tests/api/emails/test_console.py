"""R23 in the console, as a phone at the door uses it: a host finds a player of their venue by
name and records, with one button, that they asked for the weekly email (the API's service,
audited alike); the office sees and changes it on the same page; a host of another venue is
refused, and a post without its CSRF token changes nothing."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.builders import Scene, audit_entries
from tests.support.console import csrf, links, signed_in, text_of

PLAYERS = "/api/v1/players"


def consent(scene: Scene, player: int) -> dict[str, Any]:
    answer: dict[str, Any] = scene.office.get(f"{PLAYERS}/{player}/email-consent").get_json()
    return answer


def test_r23_a_host_records_at_the_door_that_a_player_asked_for_the_weekly_email(
    app: Flask, scene: Scene
) -> None:
    ann, bea = scene.players("Annabel Q.", "Bea B.")
    scene.report([ann, bea])
    host = signed_in(app, scene.host.key)
    found = host.get("/console/weekly-email?q=annabel")
    assert found.status_code == 200
    (page_path,) = [path for label, path in links(found).items() if label.startswith("Annabel Q. (")]
    assert page_path == f"/console/players/{ann}/weekly-email"
    page = host.get(page_path)
    assert "They asked for the weekly email" in text_of(page)
    done = host.post(page_path, data={"csrf_token": csrf(page), "wants": "yes"})
    assert done.status_code == 302
    assert "Recorded: Annabel Q. gets the weekly email" in text_of(host.get(done.headers["Location"]))
    given = consent(scene, ann)
    assert (given["consent"], given["source"], given["given_by"]) == (True, "door", "Host: Crown")
    assert [e["actor"] for e in audit_entries(scene.office, "action=player.email_consent")] == ["Host: Crown"]

    # The office sees it on the same page, and stops it.
    office = signed_in(app, scene.office.key)
    seen = office.get(page_path)
    assert "Gets the weekly email" in text_of(seen) and "Host: Crown" in text_of(seen)
    stopped = office.post(page_path, data={"csrf_token": csrf(seen), "wants": "no"})
    assert stopped.status_code == 302 and consent(scene, ann)["consent"] is False

    # No token, or a host of another venue: nothing changes.
    assert host.post(page_path, data={"wants": "yes"}).status_code == 400
    stranger = signed_in(app, scene.host_for(scene.league.venue()["id"], name="Host: Elsewhere").key)
    assert stranger.get(page_path).status_code == 403
    assert consent(scene, ann)["consent"] is False
