"""R23: the office's webhooks in the console, as a browser uses the pages: a subscription made
by the API's schema (its secret shown once, on that page only), a target on a private address
refused beside its field, the delivery log after a test ping and the worker's pass, pause and
resume, deletion after a page that names it. Hosts may not use the pages."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.builders import Scene
from tests.support.console import csrf, signed_in, text_of
from tests.support.receiver import receiver

PAGE = "/console/webhooks"


def test_r23_the_office_keeps_webhooks_in_the_console(
    app: Flask, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    office = signed_in(app, scene.office.key)
    page = office.get(PAGE)
    assert page.status_code == 200 and "No webhook yet" in text_of(page)
    token = csrf(page)
    refused = office.post(
        PAGE, data={"csrf_token": token, "url": "http://169.254.169.254/", "events": "report.posted"}
    )
    assert refused.status_code == 422 and "169.254.169.254 is a link-local address" in text_of(refused)
    # R23: the console's form goes through the same check: an address carried inside an IPv6 one.
    carried = office.post(
        PAGE, data={"csrf_token": token, "url": "http://[2002:7f00:1::]/", "events": "report.posted"}
    )
    assert carried.status_code == 422 and "127.0.0.1 is a loopback address" in text_of(carried)
    zoned = office.post(
        PAGE, data={"csrf_token": token, "url": "http://[fe80::1%25eth0]/", "events": "report.posted"}
    )
    assert zoned.status_code == 422 and "zone" in text_of(zoned)
    assert scene.office.get("/api/v1/webhooks").get_json()["items"] == []
    monkeypatch.setitem(app.config, "WEBHOOKS_ALLOW_PRIVATE", True)
    with receiver() as hook:
        made = office.post(
            PAGE,
            data={
                "csrf_token": token,
                "url": hook.url,
                "events": ["report.posted", "standings.changed"],
                "format": "json",
                "description": "The website",
            },
        )
        shown = text_of(made)
        assert made.status_code == 201 and "Its secret, shown this once" in shown and "whsec_" in shown
        (listed,) = scene.office.get("/api/v1/webhooks").get_json()["items"]
        assert (
            listed["events"] == ["report.posted", "standings.changed"]
            and listed["description"] == "The website"
        )
        assert "whsec_" not in text_of(office.get(PAGE))  # never again
        mine = f"{PAGE}/{listed['id']}"
        pinged = office.post(mine, data={"csrf_token": token, "do": "ping"}, follow_redirects=True)
        assert "A test event is on its way" in text_of(pinged) and "A test from the league" in text_of(pinged)
        assert app.test_cli_runner().invoke(args=["deliver", "--once"]).exit_code == 0
        log = text_of(office.get(mine))
        assert "delivered" in log and "204" in log and len(hook.got) == 1
        paused = office.post(mine, data={"csrf_token": token, "do": "pause"}, follow_redirects=True)
        assert (
            "Paused" in text_of(paused)
            and scene.office.get(f"/api/v1/webhooks/{listed['id']}").get_json()["paused"]
        )
        office.post(mine, data={"csrf_token": token, "do": "resume"})
        assert not scene.office.get(f"/api/v1/webhooks/{listed['id']}").get_json()["paused"]
        asked = office.get(f"{mine}?delete=1")
        assert f"Delete webhook {listed['id']}" in text_of(asked)
        gone = office.post(
            mine, data={"csrf_token": token, "do": "delete", "sure": "yes"}, follow_redirects=True
        )
        assert "deleted" in text_of(gone) and scene.office.get("/api/v1/webhooks").get_json()["items"] == []
    audit = scene.office.get("/api/v1/audit-log?entity=webhook").get_json()["items"]
    assert {e["action"] for e in audit} == {"webhook.create", "webhook.update", "webhook.delete"}
    assert all("secret" not in (e.get("after") or {}) for e in audit)


def test_r23_hosts_may_not_use_the_webhook_pages(app: Flask, scene: Scene) -> None:
    host = signed_in(app, scene.host.key)
    assert host.get(PAGE, headers={"Accept": "text/html"}).status_code == 403


def ticked(body: str) -> list[str]:
    return re.findall(r'name="events" value="([\w.]+)" checked', body)


def test_r23_a_new_chat_webhooks_boxes_are_ticked_as_a_chat_wants(
    app: Flask, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R23: the new webhook's boxes follow the API's default for its format: for Discord or Slack
    (the page's link for that format) the report events, never standings.changed, so a report is
    one message in the channel; for json the reports and the standings, as before."""
    office = signed_in(app, scene.office.key)
    plain = office.get(PAGE).get_data(as_text=True)
    assert ticked(plain) == ["report.posted", "standings.changed"]
    assert '<option value="json" selected>' in plain
    chat = office.get(f"{PAGE}?format=discord")
    body = chat.get_data(as_text=True)
    assert ticked(body) == ["report.posted", "report.corrected", "report.voided"]
    assert '<option value="discord" selected>' in body and 'aria-current="page">Discord message' in body
    assert f'href="{PAGE}?format=slack"' in body
    assert ticked(office.get(f"{PAGE}?format=nonsense").get_data(as_text=True)) == ticked(plain)
    monkeypatch.setitem(app.config, "WEBHOOKS_ALLOW_PRIVATE", True)
    made = office.post(
        f"{PAGE}?format=discord",
        data={
            "csrf_token": csrf(chat),
            "url": "http://127.0.0.1:9/hook",
            "format": "discord",
            "events": ticked(body),
        },
    )
    assert made.status_code == 201, text_of(made)
    (listed,) = scene.office.get("/api/v1/webhooks").get_json()["items"]
    assert (listed["format"], listed["events"]) == (
        "discord",
        ["report.posted", "report.corrected", "report.voided"],
    )
