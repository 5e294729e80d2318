"""R23: the office's webhooks in the console, as a browser uses the pages: a subscription made
by the API's schema (its secret shown once, on that page only), a target on a private address
refused beside its field, the delivery log after a test ping and the worker's pass, pause and
resume, deletion after a page that names it. Hosts may not use the pages."""

from __future__ import annotations

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
