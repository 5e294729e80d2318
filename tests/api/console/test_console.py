"""The web console (/console/) through its pages, as a browser uses them (form posts with their
CSRF tokens, a cookie jar): signing in with an API key makes a server-side session; a host posts
tonight's results as a spreadsheet, previews them (nothing stored), confirms, and sees the
standings; refusals are the API's, shown beside the rows; every change is audited with the key
as actor."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from flask import Flask
from flask.testing import FlaskClient

from models.infra.clock import utcnow
from tests.builders import Scene, audit_entries, days_ago, iso, said, utc_today
from tests.support.console import (
    SIGN_IN,
    csrf,
    hidden_fields,
    reasons_by_place,
    sheet,
    signed_in,
    text_of,
    typed_values,
    upload,
)
from tests.support.league import Caller, assert_problem, new_key


def test_signing_in_makes_a_server_side_session_and_the_browser_never_keeps_the_key(
    app: Flask, scene: Scene
) -> None:
    browser = app.test_client()
    page = browser.get(SIGN_IN)
    policy = page.headers["Content-Security-Policy"]
    assert page.status_code == 200 and "frame-ancestors 'none'" in policy and "script-src" not in policy
    assert 'type="password"' in page.get_data(as_text=True) and "<label" in page.get_data(as_text=True)
    answer = browser.post(SIGN_IN, data={"key": scene.host.key, "csrf_token": csrf(page)})
    assert answer.status_code == 302
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith("league_console=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert (
        "Path=/console/" in cookie and "Max-Age=43200" in cookie and "Secure" not in cookie
    )  # plain HTTP here
    assert scene.host.key not in cookie and all(
        scene.host.key not in value for value in answer.headers.values()
    )
    home = browser.get("/console/")
    assert home.status_code == 200 and scene.venue["name"] in text_of(home)


def test_over_https_the_cookie_is_secure(app: Flask, scene: Scene) -> None:
    browser = app.test_client()
    page = browser.get(SIGN_IN, base_url="https://league.example")
    csrf_cookie = page.headers["Set-Cookie"]
    assert (
        csrf_cookie.startswith("league_csrf=") and "Secure" in csrf_cookie and "Path=/console/" in csrf_cookie
    )
    answer = browser.post(
        SIGN_IN, data={"key": scene.host.key, "csrf_token": csrf(page)}, base_url="https://league.example"
    )
    assert answer.status_code == 302 and "Secure" in answer.headers["Set-Cookie"]


def test_a_wrong_key_is_refused_on_the_page_and_changes_nothing(app: Flask, scene: Scene) -> None:
    browser = app.test_client()
    answer = browser.post(SIGN_IN, data={"key": "plk_nothing", "csrf_token": csrf(browser.get(SIGN_IN))})
    assert answer.status_code == 401 and "not valid" in text_of(answer)
    assert "Set-Cookie" not in answer.headers or "league_console" not in answer.headers["Set-Cookie"]
    assert browser.get("/console/").status_code == 302


def test_sign_ins_are_rate_limited_per_address_like_wrong_api_keys(make_app: Any, scene: Scene) -> None:
    limited = make_app(RATELIMIT_ENABLED=True, RATELIMIT_AUTH_FAILURES="3 per minute")
    browser = limited.test_client()
    statuses = []
    for guess in range(5):
        page = browser.get(SIGN_IN)
        statuses.append(
            browser.post(SIGN_IN, data={"key": f"plk_guess{guess}", "csrf_token": csrf(page)}).status_code
        )
    assert statuses == [401, 401, 401, 429, 429]
    page = browser.get(SIGN_IN)
    refused = browser.post(
        SIGN_IN, data={"key": "plk_one_more", "csrf_token": csrf(page)}, headers={"Accept": "text/html"}
    )
    assert (
        refused.status_code == 429
        and refused.mimetype == "text/html"
        and int(refused.headers["Retry-After"]) > 0
    )
    # The host's own key, from the same address (a pub's shared Wi-Fi), still signs in.
    page = browser.get(SIGN_IN)
    signed = browser.post(SIGN_IN, data={"key": scene.host.key, "csrf_token": csrf(page)})
    assert signed.status_code == 302 and signed.headers["Location"] == "/console/"


def test_a_form_posted_without_its_csrf_token_is_refused_and_changes_nothing(
    app: Flask, scene: Scene
) -> None:
    browser = app.test_client()
    assert browser.post(SIGN_IN, data={"key": scene.host.key}).status_code == 400
    assert browser.get("/console/").status_code == 302  # not signed in
    host = signed_in(app, scene.host.key)
    before = scene.stored_reports()
    data = {
        "date": iso(utc_today()),
        "session": "1",
        "kind": "regular",
        "pasted": sheet([(1, scene.player()), (2, scene.player())]),
    }
    refused = host.post(f"/console/venues/{scene.venue_id}/report", data=data)
    assert refused.status_code == 400 and "security token" in text_of(refused)
    forged = host.post(
        f"/console/venues/{scene.venue_id}/report/confirm", data={**data, "csv": data["pasted"]}
    )
    assert forged.status_code == 400
    assert host.post("/console/sign-out").status_code == 400
    assert scene.stored_reports() == before


def test_sign_out_ends_the_session_and_so_do_expiry_and_revocation(app: Flask, scene: Scene) -> None:
    host = signed_in(app, scene.host.key)
    token = host.get_cookie("league_console", path="/console/")
    assert token is not None
    out = host.post("/console/sign-out", data={"csrf_token": csrf(host.get("/console/"))})
    assert out.status_code == 302 and out.headers["Location"] == SIGN_IN
    replayed = app.test_client()
    replayed.set_cookie("league_console", token.value, path="/console/")
    assert replayed.get("/console/").status_code == 302
    later = signed_in(app, scene.host.key)
    with time_machine.travel(utcnow() + timedelta(hours=13)):
        assert later.get("/console/").status_code == 302
    again = signed_in(app, scene.host.key)
    key_id = scene.office.get("/api/v1/api-keys?per_page=500").get_json()["items"][-1]["id"]
    assert scene.office.delete(f"/api/v1/api-keys/{key_id}").status_code in (200, 204)
    assert again.get("/console/").status_code == 302


def test_a_host_previews_tonights_sheet_then_stores_it_and_sees_the_standings_r7(
    app: Flask, scene: Scene
) -> None:
    """R7: the preview shows places, names and points and stores nothing; confirming stores the
    same report, audited with the host's key as actor, and the standings show it."""
    ann, bob, cy = scene.players("Ann", "Bob", "Cy")
    host = signed_in(app, scene.host.key)
    before = scene.stored_reports()
    preview = upload(host, scene.venue_id, sheet([(1, ann), (2, bob), (3, cy)]), iso(days_ago(1)))
    assert preview.status_code == 200, text_of(preview)
    words = text_of(preview)
    assert "Nothing is stored yet" in words and re.search(
        r"1 Ann played \d+ 2 Bob played \d+ 3 Cy played \d+", words
    )
    assert scene.stored_reports() == before
    stored = host.post(f"/console/venues/{scene.venue_id}/report/confirm", data=hidden_fields(preview))
    assert stored.status_code == 302 and stored.headers["Location"].endswith(
        f"/venues/{scene.venue_id}/standings?season_id={scene.season_id}"  # the report's season
    )
    assert scene.stored_reports() == before + 1
    standings = host.get(stored.headers["Location"])
    api = scene.public.get(f"/api/v1/seasons/{scene.season_id}/venues/{scene.venue_id}/standings").get_json()
    assert "Stored: report" in text_of(standings)
    for row in api["standings"]:
        assert f"{row['player']['display_name']} {row['points']} {row['played']}" in text_of(standings)
    entry = audit_entries(scene.office, "action=tournament.create")[0]
    assert entry["actor"] == "Host: Crown" and entry["actor_role"] == "host"


def test_refusals_are_the_apis_each_reason_in_full_under_its_row_and_nothing_is_stored_r5_r16(
    app: Flask, scene: Scene
) -> None:
    """R5, R16: an unknown player and a suspended one refuse the sheet whole; each reason is
    written in full under its row, in the sheet's words ("Row 4 (place 3), column player_id: …",
    never a JSON path); nothing is stored, on preview or on confirm."""
    ann, sam = scene.players("Ann", "Sam")
    suspended = scene.office.post(
        "/api/v1/sanctions",
        json={
            "player_id": sam,
            "kind": "suspension",
            "category": "berating",
            "starts_on": iso(days_ago(5)),
            "ends_on": iso(days_ago(-20)),
            "reason": "Abuse of staff.",
        },
    )
    assert suspended.status_code == 201, suspended.get_json()
    host = signed_in(app, scene.host.key)
    before = scene.stored_reports()
    refused = upload(host, scene.venue_id, sheet([(1, ann), (2, sam), (3, 999999)]), iso(days_ago(1)))
    assert refused.status_code == 422
    by_place = reasons_by_place(refused)
    assert by_place["1"] == ""
    assert by_place["2"].startswith("Row 3 (place 2), column player_id: ") and "suspend" in by_place["2"]
    assert by_place["3"].startswith("Row 4 (place 3), column player_id: ")
    assert "no player with id 999999" in by_place["3"]
    assert "results." not in text_of(refused)
    assert "Change the rows marked below, then upload the sheet again." in text_of(refused)
    assert scene.stored_reports() == before


def test_a_host_may_not_post_for_another_venue(app: Flask, scene: Scene, make_scene: Any) -> None:
    other = make_scene()
    host = signed_in(app, scene.host.key)
    refused = host.get(f"/console/venues/{other.venue_id}/report", headers={"Accept": "text/html"})
    assert refused.status_code == 403 and refused.mimetype == "text/html"
    assert "does not host" in text_of(refused)


@pytest.mark.parametrize("path", ["/console/", "/console/venues/1/report", "/console/venues/1/standings"])
def test_pages_ask_to_sign_in_first(client: FlaskClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 302 and answer.headers["Location"].startswith(SIGN_IN)


def test_the_office_finds_a_player_issues_a_sanction_and_lifts_it_r15_r18(app: Flask, scene: Scene) -> None:
    """R15: a sanction is checked as the API checks it (a suspension shorter than the league's
    minimum is refused beside its last day); issued and lifted with reasons, both audited with
    the office's key as actor (R18); the door list then shows the suspended player (R16)."""
    (eli,) = scene.players("Eli")
    office = signed_in(app, scene.office.key)
    found = office.get("/console/sanctions?q=Eli")
    assert found.status_code == 200 and f"/console/players/{eli}/sanctions" in found.get_data(as_text=True)
    form = office.get(f"/console/players/{eli}/sanctions")
    fields = {
        "csrf_token": csrf(form),
        "kind": "suspension",
        "category": "berating",
        "venue_id": "",
        "first_day": iso(utc_today()),
        "reason": "Abuse of staff.",
    }
    short = office.post(
        f"/console/players/{eli}/sanctions", data={**fields, "last_day": iso(utc_today() + timedelta(days=2))}
    )
    assert short.status_code == 422 and "at least 14 days, counting the first and the last" in text_of(short)
    assert re.search(
        r'name="last_day"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="last_day"',
        short.get_data(as_text=True),
    )
    issued = office.post(
        f"/console/players/{eli}/sanctions",
        data={**fields, "last_day": iso(utc_today() + timedelta(days=20))},
    )
    assert issued.status_code == 302
    listed = office.get(issued.headers["Location"])
    assert "Issued: sanction" in text_of(listed) and "Abuse of staff." in text_of(listed)
    door = signed_in(app, scene.host.key).get(f"/console/venues/{scene.venue_id}/door-list")
    assert door.status_code == 200 and f"Eli #{eli} · suspension (berating)" in text_of(door)
    sanction_id = re.search(r"/console/sanctions/(\d+)/lift", listed.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    unexplained = office.post(
        f"/console/sanctions/{sanction_id}/lift", data={"csrf_token": csrf(listed), "reason": " "}
    )
    assert "Give the reason" in text_of(office.get(unexplained.headers["Location"]))
    lifted = office.post(
        f"/console/sanctions/{sanction_id}/lift", data={"csrf_token": csrf(listed), "reason": "Apologised."}
    )
    assert "lifted" in text_of(office.get(lifted.headers["Location"])) and "Apologised." in text_of(
        office.get(lifted.headers["Location"])
    )
    actions = [
        (e["action"], e["actor_role"])
        for e in audit_entries(scene.office, f"entity=sanction&entity_id={sanction_id}")
    ]
    assert sorted(actions) == [("sanction.create", "office"), ("sanction.lift", "office")]


def test_the_console_says_r15s_minimum_and_r16s_results_that_stand_as_the_api_does(
    app: Flask, scene: Scene
) -> None:
    """R15: the sanction form refuses a suspension of 13 days in the API's words ("at least 14
    days, counting the first and the last: from 1 December, 14 December or later"). R16: one
    recorded after the fact says, once issued, which stored results fall inside it (they stand)."""
    lou, ann = scene.players("Lou", "Ann")
    report = scene.report([lou, ann], days_ago(20))
    office = signed_in(app, scene.office.key)
    form = office.get(f"/console/players/{lou}/sanctions")
    fields = {
        "csrf_token": csrf(form),
        "kind": "suspension",
        "category": "fighting",
        "venue_id": "",
        "reason": "Fight at the bar.",
    }
    path = f"/console/players/{lou}/sanctions"
    short = office.post(path, data={**fields, "first_day": "2026-12-01", "last_day": "2026-12-13"})
    assert short.status_code == 422
    assert (
        "at least 14 days, counting the first and the last: from 1 December, 14 December or later"
        in text_of(short)
    )
    issued = office.post(path, data={**fields, "first_day": iso(days_ago(25)), "last_day": iso(days_ago(5))})
    assert issued.status_code == 302
    page = text_of(office.get(issued.headers["Location"]))
    assert "1 stored result falls inside this suspension; it stands" in page and "R16:" not in page
    # The API's notice, its date said as the league says dates (R24).
    assert f"report {report['id']} (venue {scene.venue_id}, {said(days_ago(20))}, session 1)" in page


def test_office_pages_are_for_the_office_and_door_lists_for_the_venues_hosts(
    app: Flask, scene: Scene, make_scene: Any
) -> None:
    other = make_scene()
    host = signed_in(app, scene.host.key)
    for path in ("/console/sanctions", f"/console/players/{scene.player()}/sanctions"):
        assert host.get(path, headers={"Accept": "text/html"}).status_code == 403
    assert (
        host.get(f"/console/venues/{other.venue_id}/door-list", headers={"Accept": "text/html"}).status_code
        == 403
    )


def test_a_host_voids_a_recent_report_with_a_reason_and_a_stale_page_changes_nothing_r17(
    app: Flask, scene: Scene
) -> None:
    """R17: the venue's recent reports with their results; voiding needs a reason, is refused
    when the report changed since the page was read (its version), and is audited."""
    ann, bob = scene.players("Ann", "Bob")
    report = scene.report([ann, bob], days_ago(2))
    host = signed_in(app, scene.host.key)
    listed = host.get(f"/console/venues/{scene.venue_id}/reports")
    assert listed.status_code == 200 and f"Void report {report['id']}" in text_of(listed)
    form = {"csrf_token": csrf(listed), "version": str(report["version"])}
    nothing = host.post(f"/console/reports/{report['id']}/void", data={**form, "reason": ""})
    assert "give the reason" in text_of(host.get(nothing.headers["Location"]))
    stale = host.post(
        f"/console/reports/{report['id']}/void", data={**form, "version": "999", "reason": "Wrong night."}
    )
    assert "was not voided" in text_of(host.get(stale.headers["Location"]))
    assert scene.public.get(f"/api/v1/tournaments/{report['id']}").status_code == 200
    voided = host.post(f"/console/reports/{report['id']}/void", data={**form, "reason": "Wrong night."})
    assert "Voided: report" in text_of(host.get(voided.headers["Location"]))
    assert scene.public.get(f"/api/v1/tournaments/{report['id']}").status_code == 404
    (entry,) = audit_entries(scene.office, f"action=tournament.void&entity_id={report['id']}")
    assert entry["actor_role"] == "host" and entry["reason"] == "Wrong night."
    # R17a: a second void (an old page, a double tap) is told the report was voided, not a 404.
    again = host.post(
        f"/console/reports/{report['id']}/void", data={**form, "version": "2", "reason": "Again."}
    )
    assert again.status_code == 302
    told = text_of(host.get(again.headers["Location"]))
    assert "was not voided" in told and "already voided" in told
    assert len(audit_entries(scene.office, f"action=tournament.void&entity_id={report['id']}")) == 1
    other = scene.report([bob, ann], days_ago(3))
    garbled = host.post(
        f"/console/reports/{other['id']}/void", data={**form, "version": "abc", "reason": "Again."}
    )
    assert garbled.status_code == 302  # a hand-edited version is no 500: read as none sent


def test_the_office_makes_a_host_key_shown_once_and_revokes_it_r18(app: Flask, scene: Scene) -> None:
    """The new key's secret is on the page once, and it signs in; revoked, it no longer does;
    both audited (R18). The audit log page filters by action."""
    office = signed_in(app, scene.office.key)
    page = office.get("/console/keys")
    made = office.post(
        "/console/keys", data={"csrf_token": csrf(page), "name": "Host: Sam", "venue_id": str(scene.venue_id)}
    )
    assert made.status_code == 200
    secret = re.search(r'<code id="new-key">([^<]+)</code>', made.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    assert secret not in office.get("/console/keys").get_data(as_text=True)  # once
    sam = signed_in(app, secret)
    assert scene.venue["name"] in text_of(sam.get("/console/"))
    key_id = re.search(r"key (\d+) \(Host: Sam\)", text_of(made)).group(1)  # type: ignore[union-attr]
    # Revoking goes through a page that names the key, and its post.
    confirm = office.get(f"/console/keys/{key_id}/revoke")
    assert (
        f"Revoke the key 'Host: Sam' (host of {scene.venue['name']})? It stops working at once."
        in text_of(confirm)
    )
    revoked = office.post(f"/console/keys/{key_id}/revoke", data={"csrf_token": csrf(confirm)})
    assert revoked.status_code == 302
    assert sam.get("/console/").status_code == 302
    assert (
        scene.office.get("/api/v1/regions", headers={"Authorization": f"Bearer {secret}"}).status_code == 401
    )
    log = office.get("/console/audit?action=api_key.revoke")
    assert (
        log.status_code == 200 and "api_key.revoke" in text_of(log) and "api_key.create" not in text_of(log)
    )
    nameless = office.post(
        "/console/keys", data={"csrf_token": csrf(page), "name": "", "venue_id": str(scene.venue_id)}
    )
    assert nameless.status_code == 400 and "Name the key." in text_of(nameless)
    assert (
        signed_in(app, scene.host.key).get("/console/keys", headers={"Accept": "text/html"}).status_code
        == 403
    )


def key_rows(response: Any) -> dict[str, str]:
    """The keys page's rows by key name: the row's words."""
    page = response.get_data(as_text=True)
    rows = re.findall(r"<tr><td data-label=\"Key\">.*?</tr>", page, re.S)
    return {
        html.unescape(re.search(r'<th scope="row">([^<]*)</th>', row).group(1)): " ".join(  # type: ignore[union-attr]
            html.unescape(re.sub(r"<[^>]+>", " ", row)).split()
        )
        for row in rows
    }


def own_key_id(scene: Scene) -> int:
    """The id of the office's key (the one the office signs in with)."""
    keys = scene.office.get("/api/v1/api-keys?per_page=500").get_json()["items"]
    assert scene.office.key is not None
    (own,) = [key["id"] for key in keys if scene.office.key.startswith(key["key_prefix"])]
    return int(own)


def test_the_keys_page_names_each_keys_venues_and_revoking_asks_first_r18(app: Flask, scene: Scene) -> None:
    """Each key's venues by name, never by number. The list revokes nothing: each key leads to
    a page that names it and whose venues it hosts; reading that page changes nothing, and its
    post without its token is refused (400). Confirmed, the key stops working and the revocation
    is audited (R18); confirmed again (another tab), it is refused, once is once (R17a)."""
    two = scene.league.venue(scene.region["id"], name="The Anchor")
    both = scene.host_for(scene.venue_id, two["id"], name="Host: Both")
    office = signed_in(app, scene.office.key)
    keys = office.get("/console/keys")
    rows = key_rows(keys)
    assert f"Host: Crown host {scene.venue['name']} Revoke key" in rows["Host: Crown"]
    assert sorted([scene.venue["name"], "The Anchor"]) == sorted(
        re.search(r"host (.*), (.*) Revoke", rows["Host: Both"]).groups()  # type: ignore[union-attr]
    )
    assert "/revoke" not in "".join(re.findall(r"<form[^>]*>", keys.get_data(as_text=True)))
    both_id = re.search(r"^(\d+) Host: Both", rows["Host: Both"]).group(1)  # type: ignore[union-attr]
    confirm = office.get(f"/console/keys/{both_id}/revoke")
    assert confirm.status_code == 200
    names = " and ".join(sorted([scene.venue["name"], "The Anchor"], key=lambda n: n != scene.venue["name"]))
    assert f"Revoke the key 'Host: Both' (host of {names})? It stops working at once." in text_of(confirm)
    assert both.get("/api/v1/regions").status_code == 200  # read, not revoked
    assert office.post(f"/console/keys/{both_id}/revoke").status_code == 400
    assert both.get("/api/v1/regions").status_code == 200
    done = office.post(f"/console/keys/{both_id}/revoke", data={"csrf_token": csrf(confirm)})
    assert done.status_code == 302 and both.get("/api/v1/regions").status_code == 401
    assert len(audit_entries(scene.office, f"action=api_key.revoke&entity_id={both_id}")) == 1
    assert "revoked" in key_rows(office.get("/console/keys"))["Host: Both"]
    again = office.post(f"/console/keys/{both_id}/revoke", data={"csrf_token": csrf(confirm)})
    assert (
        again.status_code == 409 and "Not revoked:" in text_of(again) and "already revoked" in text_of(again)
    )
    assert len(audit_entries(scene.office, f"action=api_key.revoke&entity_id={both_id}")) == 1
    assert "was revoked on" in text_of(office.get(f"/console/keys/{both_id}/revoke"))
    host = signed_in(app, scene.host.key)
    crown = key_rows(keys)["Host: Crown"].split()[0]
    assert host.get(f"/console/keys/{crown}/revoke", headers={"Accept": "text/html"}).status_code == 403
    token = csrf(host.get("/console/"))
    assert host.post(f"/console/keys/{crown}/revoke", data={"csrf_token": token}).status_code == 403
    assert scene.host.get("/api/v1/regions").status_code == 200


def test_the_key_signed_in_with_is_never_offered_and_revoking_it_is_refused_r18(
    app: Flask, scene: Scene
) -> None:
    """The office's own key is marked in use, with no way to revoke it; its page says why; a
    hand-made post to revoke it is refused (403, the API's words: DELETE refuses it too), the key
    still works, the office is still signed in, and nothing is audited (R18)."""
    office = signed_in(app, scene.office.key)
    own = own_key_id(scene)
    keys = office.get("/console/keys")
    row = key_rows(keys)["Office: Test"]
    assert "in use: you are signed in with it" in row and "Revoke" not in row
    assert f"/console/keys/{own}/revoke" not in keys.get_data(as_text=True)
    page = office.get(f"/console/keys/{own}/revoke")
    assert (
        "is the key you are signed in with" in text_of(page)
        and '<form method="post" action' not in (page.get_data(as_text=True).split("<main>")[1])
    )
    forged = office.post(f"/console/keys/{own}/revoke", data={"csrf_token": csrf(keys)})
    assert forged.status_code == 403
    assert f"Not revoked: API key {own} is the key you are using: it cannot revoke itself." in text_of(forged)
    assert scene.office.get("/api/v1/regions").status_code == 200
    assert office.get("/console/keys").status_code == 200
    assert audit_entries(scene.office, "action=api_key.revoke") == []
    answer = scene.office.delete(f"/api/v1/api-keys/{own}")
    assert answer.status_code == 403 and "it cannot revoke itself" in answer.get_json()["detail"]
    assert scene.office.get("/api/v1/regions").status_code == 200


def test_the_season_at_a_glance_names_venues_to_chase_and_provisional_qualifiers_r12(
    app: Flask, scene: Scene
) -> None:
    """The venues with no report this week (the API's missing reports), and each venue's
    qualifiers as the API lists them now to the office (R12; its flags, age_unverified too)."""
    scene.league.venue(scene.region["id"], name="Quiet Arms")
    players = scene.add_players(10)
    scene.report(players, days_ago(utc_today().weekday()))  # this week, at the scene's venue
    office = signed_in(app, scene.office.key)
    glance = office.get("/console/seasons")
    assert glance.status_code == 200
    words = text_of(glance)
    chase = words[words.find(scene.season["name"]) : words.find("Provisional qualifiers")]
    assert "Quiet Arms" in chase and scene.venue["name"] not in chase
    lists = scene.office.get(f"/api/v1/seasons/{scene.season_id}/qualifiers").get_json()["venues"]
    (ours,) = [v for v in lists if v["venue_id"] == scene.venue_id]

    def flags(q: dict[str, Any]) -> str:
        return f" [{', '.join(q['flags']).replace('_', ' ')}]" if q["flags"] else ""

    shown = ", ".join(f"{q['player']['display_name']} ({q['points']}){flags(q)}" for q in ours["qualifiers"])
    assert f"{scene.venue['name']} {ours['quota']} {shown}" in words


def test_the_office_settles_a_tie_at_the_cut_by_the_draw_and_publishes_r12(
    app: Flask, make_scene: Any
) -> None:
    """R12: the lists with who is level at the cut; the draw's winner ticked and the lists
    published (the API then shows them, the tie settled); a running season's are refused, on the
    page, naming the rule's reason."""
    scene = make_scene(
        starts_on=iso(days_ago(80)), ends_on=iso(days_ago(10)), championship_date=iso(days_ago(5))
    )
    ann, bob, cy = scene.players("Ann", "Bob", "Cy")
    filler = scene.add_players(7)
    scene.report([ann, bob, cy, *filler], days_ago(30))
    scene.report([ann, cy, bob, *filler], days_ago(25))
    office = signed_in(app, scene.office.key)
    page = office.get(f"/console/seasons/{scene.season_id}/qualifiers")
    assert page.status_code == 200 and "Final, not yet published." in text_of(page)
    assert f'value="{scene.venue_id}:{cy}"' in page.get_data(as_text=True)
    published = office.post(
        f"/console/seasons/{scene.season_id}/qualifiers",
        data={"csrf_token": csrf(page), "note": "Draw held on 1 Dec.", "settle": f"{scene.venue_id}:{cy}"},
    )
    assert published.status_code == 302
    assert "Published: the lists" in text_of(office.get(published.headers["Location"]))
    lists = scene.public.get(f"/api/v1/seasons/{scene.season_id}/qualifiers").get_json()
    (venue,) = [v for v in lists["venues"] if v["venue_id"] == scene.venue_id]
    assert lists["published"] and [q["player"]["id"] for q in venue["qualifiers"]] == [ann, cy]
    assert "tie_settled" in venue["qualifiers"][1]["flags"]
    running = make_scene()
    page = office.get(f"/console/seasons/{running.season_id}/qualifiers")
    refused = office.post(f"/console/seasons/{running.season_id}/qualifiers", data={"csrf_token": csrf(page)})
    assert (
        refused.status_code == 422
        and "Not published" in text_of(refused)
        and "after its last day" in text_of(refused)
    )


def test_the_office_merges_a_new_look_alike_into_the_player_and_undoes_it_r5_r17(
    app: Flask, scene: Scene
) -> None:
    """R5: a player registered lately whose name closely matches another's is listed with them;
    R17: merged with a reason (the results move), then undone, both audited."""
    older = scene.league.player("Jonathan Whitfield")
    scene.league.player("Zed Quill")  # like nobody
    newer = scene.league.player("Jonathon Whitfield")
    scene.report([newer["id"], *scene.players("Otto")], days_ago(3))
    office = signed_in(app, scene.office.key)
    page = office.get("/console/duplicates")
    words = text_of(page)
    assert f"player {newer['id']}" in words and f"Merge {newer['id']} into {older['id']}" in words
    assert "Zed Quill" not in words
    merged = office.post(
        f"/console/players/{older['id']}/merge",
        data={"csrf_token": csrf(page), "duplicate_id": str(newer["id"]), "reason": "Same man, a typo."},
    )
    after = office.get(merged.headers["Location"])
    assert "Merged: player" in text_of(after)
    profile = scene.office.get(f"/api/v1/players/{older['id']}").get_json()
    assert sum(len(s["results"]) for s in profile["seasons"]) == 1
    merge_id = re.search(r"/console/merges/(\d+)/undo", after.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    undone = office.post(
        f"/console/merges/{merge_id}/undo", data={"csrf_token": csrf(after), "reason": "Two men."}
    )
    assert "Undone: merge" in text_of(office.get(undone.headers["Location"]))
    actions = [e["action"] for e in audit_entries(scene.office, f"entity=player&entity_id={older['id']}")]
    assert actions[:2] == ["player.merge_undo", "player.merge"]


def test_a_host_corrects_a_report_with_a_reason_previewed_first_r17(app: Flask, scene: Scene) -> None:
    """R17: the report's rows come prefilled, each player picked by name; the corrected order is
    previewed (nothing changes), then stored as a correction with its reason, audited; without a
    reason it is refused."""
    ann, bob, cy = scene.players("Ann", "Bob", "Cy")
    report = scene.report([ann, bob, cy], days_ago(2))
    host = signed_in(app, scene.host.key)
    form = host.get(f"/console/reports/{report['id']}/correct")
    assert form.status_code == 200
    picked = typed_values(form)
    assert all(picked[f"player_{n}"].endswith(f"(#{pid})") for n, pid in ((1, ann), (2, bob), (3, cy)))
    assert [picked[f"status_{n}"] for n in (1, 2, 3)] == ["played"] * 3
    fields = {
        "csrf_token": csrf(form),
        "version": str(report["version"]),
        "rows": "3",
        "player_1": picked["player_2"],
        "player_2": picked["player_1"],
        "player_3": picked["player_3"],
    }
    unexplained = host.post(f"/console/reports/{report['id']}/correct", data={**fields, "reason": ""})
    assert unexplained.status_code == 400 and "Give the reason" in text_of(unexplained)
    assert typed_values(unexplained)["player_1"] == picked["player_2"]  # the rows as typed
    preview = host.post(
        f"/console/reports/{report['id']}/correct", data={**fields, "reason": "Bob won, not Ann."}
    )
    assert preview.status_code == 200
    assert re.search(r"1 Bob changed played \d+ 2 Ann changed played \d+ 3 Cy played", text_of(preview))
    stored = scene.public.get(f"/api/v1/tournaments/{report['id']}").get_json()
    assert stored["results"][0]["player"]["id"] == ann  # not yet
    done = host.post(f"/console/venues/{scene.venue_id}/report/confirm", data=hidden_fields(preview))
    assert done.status_code == 302 and "Corrected: report" in text_of(host.get(done.headers["Location"]))
    stored = scene.public.get(f"/api/v1/tournaments/{report['id']}").get_json()
    assert stored["results"][0]["player"]["id"] == bob and stored["version"] == report["version"] + 1
    (entry,) = audit_entries(scene.office, f"action=tournament.correct&entity_id={report['id']}")
    assert entry["reason"] == "Bob won, not Ann." and entry["actor_role"] == "host"


def test_a_host_types_the_rows_picking_players_by_name_and_registering_a_new_one_r5(
    app: Flask, scene: Scene
) -> None:
    """R5: the page offers the venue's players to pick by name; a picked player is named by id, a
    new one by full name and email (registered when stored, with a possible-duplicate warning when
    alike); the rows are previewed like an upload, then stored."""
    ann, bob = scene.players("Ann", "Bob")
    scene.report([ann, bob], days_ago(5))
    host = signed_in(app, scene.host.key)
    page = host.get(f"/console/venues/{scene.venue_id}/rows")
    offered = re.findall(r'<option value="([^"]+)">', page.get_data(as_text=True))
    picked_bob = next(html.unescape(v) for v in offered if v.endswith(f"(#{bob})"))
    picked_ann = next(html.unescape(v) for v in offered if v.endswith(f"(#{ann})"))
    data = {
        "csrf_token": csrf(page),
        "date": iso(days_ago(1)),
        "session": "1",
        "kind": "regular",
        "player_1": picked_bob,
        "player_2": "Newcomer Nell",
        "email_2": "nell.new@example.org",
        "player_3": picked_ann,
        "status_3": "declared_withdrawal",
    }
    preview = host.post(f"/console/venues/{scene.venue_id}/rows", data=data)
    assert preview.status_code == 200, text_of(preview)
    assert re.search(
        r"1 Bob played \d+ 2 Newcomer N\. new player played \d+ 3 Ann withdrew \d+",
        text_of(preview),
    )
    done = host.post(f"/console/venues/{scene.venue_id}/report/confirm", data=hidden_fields(preview))
    assert done.status_code == 302
    found = scene.office.get("/api/v1/players?q=nell.new@example.org").get_json()["items"]
    assert [p["full_name"] for p in found] == ["Newcomer Nell"]
    unknown = host.post(
        f"/console/venues/{scene.venue_id}/rows", data={**data, "email_2": "", "player_2": "Nobody Known"}
    )
    assert unknown.status_code == 422 and "Nobody Known" in text_of(unknown)


def test_the_typed_rows_offer_only_the_players_the_host_may_see_r19(app: Flask, scene: Scene) -> None:
    """R19: the names the typed-rows page offers (display and full name) are the venue's players
    as the API sees them: a live result there, or their home venue. A player whose only result
    there is in a voided report is not offered, nor is their full name on the page."""
    live, voided_only = scene.players("Live Lou", "Void Vic")
    home = scene.league.player("Homely Hattie Hearth", display_name="Hattie H.", home_venue_id=scene.venue_id)
    fillers = scene.fillers(2)
    scene.report([live, *fillers])
    doomed = scene.report([voided_only, *fillers])
    voided = scene.office.post(f"/api/v1/tournaments/{doomed['id']}/void", json={"reason": "Wrong night."})
    assert voided.status_code == 200
    page = signed_in(app, scene.host.key).get(f"/console/venues/{scene.venue_id}/rows")
    offered = [html.unescape(v) for v in re.findall(r'<option value="([^"]+)">', page.get_data(as_text=True))]
    ids = {int(m.group(1)) for v in offered if (m := re.search(r"\(#(\d+)\)$", v))}
    assert {live, home["id"], *fillers} == ids
    full_name = next(p["full_name"] for p in scene.roster if p["id"] == voided_only)
    assert full_name not in page.get_data(as_text=True)


def test_the_consoles_reports_count_unknown_identifiers_with_the_api_r19(make_app: Any, scene: Scene) -> None:
    """R19: membership numbers and emails that name no player count against the host's key from
    every door: an upload's preview, typed rows and the API share one count
    (RATELIMIT_UNKNOWN_IDENTIFIERS, 20 per 10 minutes). Once it is used up, a preview, typed rows
    or a confirm naming any email or membership number is a 429 page before anything is looked
    up, and so is the API; rows naming players by id still preview."""
    limited = make_app(RATELIMIT_ENABLED=True)
    browser = signed_in(limited, scene.host.key)
    api = Caller(limited.test_client(), scene.host.key)
    day = iso(days_ago(2))
    numbers = [f"19900101{pin:04d}" for pin in range(30)]

    def by_numbers(chosen: list[str]) -> str:
        return "place,membership_number\n" + "".join(f"{p},{n}\n" for p, n in enumerate(chosen, start=1))

    preview = upload(browser, scene.venue_id, by_numbers(numbers[:8]), day=day)
    assert preview.status_code == 422 and f"No player has membership number {numbers[0]}" in text_of(preview)
    rows_page = browser.get(f"/console/venues/{scene.venue_id}/rows")
    typed = {"csrf_token": csrf(rows_page), "date": day, "session": "1", "kind": "regular"}
    typed |= {f"email_{n}": f"nobody{n}@example.org" for n in range(1, 9)}
    refused = browser.post(f"/console/venues/{scene.venue_id}/rows", data=typed)
    assert refused.status_code == 422 and "nobody1@example.org" in text_of(refused)
    body = {"venue_id": scene.venue_id, "date": day, "results": []}
    body["results"] = [{"place": p, "membership_number": n} for p, n in enumerate(numbers[16:20], start=1)]
    assert_problem(api.post("/api/v1/tournaments?dry_run=1", json=body), 422, rule="R5")
    spent = [
        upload(browser, scene.venue_id, by_numbers(numbers[20:21]), day=day),
        browser.post(f"/console/venues/{scene.venue_id}/rows", data=typed),
        browser.post(
            f"/console/venues/{scene.venue_id}/report/confirm",
            data={"csrf_token": csrf(rows_page), "date": day, "session": "1", "kind": "regular"}
            | {"csv": by_numbers(numbers[21:22])},
            headers={"Accept": "text/html"},
        ),
    ]
    for answer in spent:
        assert answer.status_code == 429 and int(answer.headers["Retry-After"]) > 0
        assert "name no player" in text_of(answer) and numbers[21] not in text_of(answer)
    assert spent[2].mimetype == "text/html"
    assert_problem(api.post("/api/v1/tournaments?dry_run=1", json=body), 429)
    by_id = upload(browser, scene.venue_id, sheet([(1, scene.player()), (2, scene.player())]), day=day)
    assert by_id.status_code == 200, text_of(by_id)


def test_behind_a_trusted_proxy_ending_tls_the_cookie_is_secure(make_app: Any, scene: Scene) -> None:
    """TRUSTED_PROXIES: the proxy's X-Forwarded-Proto says the browser came over HTTPS."""
    proxied = make_app(TRUSTED_PROXIES=1)
    browser = proxied.test_client()
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    page = browser.get(SIGN_IN, headers=https)
    answer = browser.post(SIGN_IN, data={"key": scene.host.key, "csrf_token": csrf(page)}, headers=https)
    assert answer.status_code == 302 and "Secure" in answer.headers["Set-Cookie"]
    plain = make_app().test_client()
    page = plain.get(SIGN_IN, headers=https)
    answer = plain.post(SIGN_IN, data={"key": scene.host.key, "csrf_token": csrf(page)}, headers=https)
    assert answer.status_code == 302 and "Secure" not in answer.headers["Set-Cookie"]  # not believed


def test_every_console_field_has_a_label_and_every_page_a_heading(app: Flask, scene: Scene) -> None:
    """For keyboards and screen readers: each input, select and text area has a label (or is
    hidden), each page one h1, and nothing is loaded from anywhere."""
    office = signed_in(app, scene.office.key)
    report = scene.report(scene.players("Ann", "Bob"), days_ago(2))
    paths = [
        "/console/",
        f"/console/venues/{scene.venue_id}/report",
        f"/console/venues/{scene.venue_id}/rows",
        f"/console/venues/{scene.venue_id}/standings",
        f"/console/venues/{scene.venue_id}/door-list",
        f"/console/venues/{scene.venue_id}/reports",
        f"/console/reports/{report['id']}/correct",
        "/console/sanctions",
        f"/console/players/{report['results'][0]['player']['id']}/sanctions",
        "/console/keys",
        f"/console/keys/{key_rows(office.get('/console/keys'))['Host: Crown'].split()[0]}/revoke",
        "/console/audit",
        "/console/seasons",
        f"/console/seasons/{scene.season_id}/qualifiers",
        "/console/duplicates",
        "/console/regions",
        "/console/league-settings",
        "/console/venues",
        f"/console/venues/{scene.venue_id}/settings",
    ]
    for path in paths:
        answer = office.get(path)
        assert answer.status_code == 200, path
        page = answer.get_data(as_text=True)
        assert page.count("<h1") == 1, path
        assert "<script" not in page and "http://" not in page.replace(
            'xmlns="http://www.w3.org/2000/svg"', ""
        ), path
        labelled = set(re.findall(r'<label[^>]*for="([^"]+)"', page))
        for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", page):
            if 'type="hidden"' in tag or "aria-label=" in tag:  # a list of rows' cell: its column and row
                continue
            field_id = re.search(r'id="([^"]+)"', tag)
            assert field_id and field_id.group(1) in labelled, (path, tag)


def test_tampered_or_garbled_forms_are_refused_never_a_500(app: Flask, scene: Scene) -> None:
    """Whatever a form carries (a garbled sheet, hidden fields edited by hand, absurd row
    counts), the answer is a refusal page and nothing is stored."""
    host = signed_in(app, scene.host.key)
    before = scene.stored_reports()
    for pasted in (
        "\x00\xff garbage",
        "place,player_id\n1,abc\n",
        "a,b\n1,2\n",
        "place,player_id\n" + "9" * 5000 + ",1\n",
    ):
        assert upload(host, scene.venue_id, pasted).status_code == 422
    form = host.get(f"/console/venues/{scene.venue_id}/report")
    tampered = {
        "csrf_token": csrf(form),
        "date": "not a date",
        "session": "x",
        "kind": "zzz",
        "csv": "place,player_id\n1,1\n",
    }
    for report_id in ("abc", ""):
        answer = host.post(
            f"/console/venues/{scene.venue_id}/report/confirm", data={**tampered, "report_id": report_id}
        )
        assert answer.status_code in (400, 422), answer.status_code
    assert (
        host.get(f"/console/venues/{scene.venue_id}/rows?rows=999999")
        .get_data(as_text=True)
        .count('name="player_')
        == 200
    )
    assert scene.stored_reports() == before


@pytest.mark.parametrize(
    "target", ["/console/%0d%0aSet-Cookie:%20x=1", "/console/%09", "https://evil.example/"]
)
def test_a_sign_in_link_naming_no_page_of_the_console_is_refused(
    app: Flask, scene: Scene, target: str
) -> None:
    """A `next` holding control characters (which would reach the Location header: a 500) or
    naming another site is a 400, signed in or not; nothing is opened."""
    browser = app.test_client()
    page = browser.get(SIGN_IN)
    refused = browser.post(
        f"{SIGN_IN}?next={target}",
        data={"key": scene.host.key, "csrf_token": csrf(page)},
        headers={"Accept": "text/html"},
    )
    assert refused.status_code == 400 and refused.mimetype == "text/html"
    assert (
        "Location" not in refused.headers and browser.get_cookie("league_console", path="/console/") is None
    )
    assert browser.get(f"{SIGN_IN}?next={target}").status_code == 400
    fine = browser.post(
        f"{SIGN_IN}?next=/console/venues/{scene.venue_id}/report",
        data={"key": scene.host.key, "csrf_token": csrf(browser.get(SIGN_IN))},
    )
    assert fine.status_code == 302 and fine.headers["Location"] == f"/console/venues/{scene.venue_id}/report"


def test_signing_in_and_out_renews_the_csrf_secret(app: Flask, scene: Scene) -> None:
    """A form's token from before a sign-in (or a sign-out) is refused after it: the secret the
    tokens are made from is new at each."""
    browser = app.test_client()
    before = csrf(browser.get(SIGN_IN))
    browser.post(SIGN_IN, data={"key": scene.host.key, "csrf_token": before})
    form = browser.get(f"/console/venues/{scene.venue_id}/report")
    assert csrf(form) != before
    stale = {
        "csrf_token": before,
        "date": iso(utc_today()),
        "session": "1",
        "kind": "regular",
        "pasted": "place,player_id\n",
    }
    refused = browser.post(f"/console/venues/{scene.venue_id}/report", data=stale)
    assert refused.status_code == 400 and "security token" in text_of(refused)
    signed_in_token = csrf(form)
    out = browser.post("/console/sign-out", data={"csrf_token": signed_in_token})
    assert out.status_code == 302
    again = browser.post(SIGN_IN, data={"key": scene.host.key, "csrf_token": signed_in_token})
    assert again.status_code == 400 and browser.get("/console/").status_code == 302


def test_the_office_tells_two_look_alikes_apart_each_pair_offered_once_then_never_r5_r18(
    app: Flask, scene: Scene
) -> None:
    """R5: two players registered lately who look alike are offered once (not once under each),
    with what tells them apart: both emails, membership numbers, home venues and venues played
    at. "Not the same person", with a reason, records it (R18, audited on both); the pair is not
    offered again. Without a reason, or without the form's token, nothing is recorded."""
    older = scene.league.player(
        "Jonathan Whitfield", home_venue_id=scene.venue_id, membership_number="198507211234"
    )
    newer = scene.league.player("Jonathon Whitfield", email="jon.w@example.org")
    scene.report([newer["id"], *scene.players("Otto")], days_ago(3))
    office = signed_in(app, scene.office.key)
    page = office.get("/console/duplicates")
    words = text_of(page)
    assert words.count(f"Merge {newer['id']} into {older['id']}") == 1
    assert f"Merge {older['id']} into {newer['id']}" not in words
    assert words.count("Not the same person") == 1
    venue = scene.venue["name"]
    assert (
        f"Player {older['id']} · {older['email']} · membership number 198507211234 · home venue {venue}"
        in words
    )
    newer_facts = f"Player {newer['id']} · jon.w@example.org · membership number none · home venue none"
    assert f"{newer_facts} · played at {venue}" in words
    form = f"/console/players/{newer['id']}/not-duplicate"
    unexplained = office.post(
        form, data={"csrf_token": csrf(page), "other_id": str(older["id"]), "reason": ""}
    )
    assert "Not recorded: give the reason" in text_of(office.get(unexplained.headers["Location"]))
    assert office.post(form, data={"other_id": str(older["id"]), "reason": "Twins."}).status_code == 400
    assert audit_entries(scene.office, "action=player.not_duplicate") == []
    done = office.post(
        form, data={"csrf_token": csrf(page), "other_id": str(older["id"]), "reason": "Twins."}
    )
    after = text_of(office.get(done.headers["Location"]))
    assert f"Recorded: players {older['id']} and {newer['id']} are two people" in after
    assert "Not the same person" not in after and "No new player looks like another." in after
    entries = audit_entries(scene.office, "action=player.not_duplicate")
    assert sorted(e["entity_id"] for e in entries) == [older["id"], newer["id"]]
    assert {(e["reason"], e["actor_role"]) for e in entries} == {("Twins.", "office")}
    again = office.post(
        form, data={"csrf_token": csrf(page), "other_id": str(older["id"]), "reason": "Twins."}
    )
    told = text_of(office.get(again.headers["Location"]))
    assert "Not recorded: Players" in told and "R17a:" not in told


def test_a_pair_told_apart_stays_apart_when_one_of_them_is_merged_into_another_r5_r17(
    app: Flask, scene: Scene
) -> None:
    """R5, R17: Ann is not Bea; Bea is then merged into Cat, a newer record of her: Cat is not Ann
    either, so that pair is not offered; before the merge, Cat was offered with each of them."""
    ann = scene.league.player("Annabel Whitfield")
    bea = scene.league.player("Annabell Whitfield")
    told = scene.office.post(
        f"/api/v1/players/{bea['id']}/not-duplicate", json={"other_id": ann["id"], "reason": "Two."}
    )
    assert told.status_code == 201
    cat = scene.league.player("Annabelle Whitfield")
    office = signed_in(app, scene.office.key)
    words = text_of(office.get("/console/duplicates"))
    assert f"Merge {cat['id']} into {ann['id']}" in words and f"Merge {cat['id']} into {bea['id']}" in words
    assert f"Merge {bea['id']} into {ann['id']}" not in words
    merged = scene.office.post(
        f"/api/v1/players/{cat['id']}/merge", json={"duplicate_id": bea["id"], "reason": "Same."}
    )
    assert merged.status_code == 200
    words = text_of(office.get("/console/duplicates"))
    assert "No new player looks like another." in words, words


def test_the_typed_rows_leave_the_demos_players_out_at_other_venues_r19(
    app: Flask, scene: Scene, runner: Any
) -> None:
    """The demo stays in its corner: a demo player, even one the office gave this venue as home,
    is not among the names a host of another region's venue picks from; the demo's own venues
    offer its players."""
    assert runner.invoke(args=["demo", "load"]).exit_code == 0
    crown = next(
        v for v in scene.public.get("/api/v1/venues").get_json()["items"] if v["name"] == "The Crown"
    )
    demo_player = scene.office.get("/api/v1/players?q=demo.example.org&per_page=1").get_json()["items"][0]
    moved = scene.office.patch(f"/api/v1/players/{demo_player['id']}", json={"home_venue_id": scene.venue_id})
    assert moved.status_code == 200
    ours = scene.league.player("Homely Hattie Hearth", home_venue_id=scene.venue_id)

    def offered(key: str, venue_id: int) -> set[int]:
        page = signed_in(app, key).get(f"/console/venues/{venue_id}/rows").get_data(as_text=True)
        return {int(m) for m in re.findall(r'<option value="[^"]+\(#(\d+)\)">', page)}

    assert offered(scene.host.key, scene.venue_id) == {ours["id"]}
    crown_host = new_key(app, "host", [crown["id"]], name="Host: Crown")
    assert len(offered(crown_host, crown["id"])) >= 8


def test_the_preview_names_no_id_of_a_player_it_would_register_r5(app: Flask, scene: Scene) -> None:
    """R5: the preview is a dry run: a new player close to a stored one is flagged new, and the
    warning names the stored one by id and the new one by name only (it has no id yet)."""
    match = scene.league.player("Jonathan Whitfield")
    ann = scene.player("Ann")
    host = signed_in(app, scene.host.key)
    csv = f"place,player_id,email,full_name\n1,{ann},,\n2,,jonathon.w@example.org,Jonathon Whitfield\n"
    preview = upload(host, scene.venue_id, csv, iso(days_ago(1)))
    words = text_of(preview)
    assert preview.status_code == 200, words
    assert "2 Jonathon W. new player" in words
    assert (
        f"place 2: the new player Jonathon W. closely matches Jonathan W. (#{match['id']}); once stored"
        in words
    )
    assert re.findall(r"\(#\d+\)", words) == [f"(#{match['id']})"]  # no number for the new one
