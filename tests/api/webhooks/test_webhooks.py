"""R23 webhooks through the API and the delivery worker's command (`flask --app app deliver
--once`), against a real HTTP receiver on 127.0.0.1 (allowed here by WEBHOOKS_ALLOW_PRIVATE):
subscriptions are the office's, their secret shown once; each delivery is signed as Standard
Webhooks says and verifies; a report tells report.posted and standings.changed, with the ids and
versions it is about, after the commit and never for a dry run; staff alone hear of sanctions;
a discord subscription gets a night's recap; failures are retried with backoff and a
subscription failing in a row is paused, the log saying so; targets on private, loopback or
link-local addresses are refused when saved, and again when sent."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from flask import Flask
from standardwebhooks.webhooks import Webhook as Verifier

from models.infra import http_guard
from models.infra.clock import utcnow
from tests.builders import Scene, days_ago, iso, said
from tests.support.league import assert_problem
from tests.support.receiver import receiver

HOOKS = "/api/v1/webhooks"


def deliver(app: Flask) -> str:
    result = app.test_cli_runner().invoke(args=["deliver", "--once"])
    assert result.exit_code == 0, result.output
    return str(result.output.splitlines()[-1])  # what it did (after the refresher's request log)


def subscribe(scene: Scene, url: str, events: list[str], **more: Any) -> dict[str, Any]:
    made = scene.office.post(HOOKS, json={"url": url, "events": events, **more})
    assert made.status_code == 201, made.get_json()
    body: dict[str, Any] = made.get_json()
    return body


def test_r23_a_report_is_told_signed_after_the_commit_and_never_for_a_dry_run(
    private_ok: Flask, scene: Scene
) -> None:
    with receiver() as hook:
        made = subscribe(scene, hook.url, ["report.posted", "standings.changed"], venue_id=scene.venue_id)
        assert made["secret"].startswith("whsec_")
        assert "secret" not in scene.office.get(f"{HOOKS}/{made['id']}").get_json()  # shown once
        a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
        tried = scene.host.post("/api/v1/tournaments?dry_run=1", json=scene.body([c, b, a]))
        assert tried.status_code == 200
        report = scene.posted(scene.body([a, b, c]))
        assert hook.got == []  # nothing is sent from inside the request
        assert deliver(private_ok).startswith("2 ")
        kinds = [r.json["type"] for r in hook.got]
        assert sorted(kinds) == ["report.posted", "standings.changed"]
        posted = next(r for r in hook.got if r.json["type"] == "report.posted")
        verified = Verifier(made["secret"]).verify(posted.body, posted.headers)
        assert (
            verified["data"]["tournament_id"] == report["id"]
            and verified["data"]["version"] == report["version"]
        )
        assert [row["display_name"] for row in verified["data"]["top"]] == ["Ann A.", "Bea B.", "Cal C."]
        assert posted.headers["webhook-id"] == verified["id"]
        assert verified["data"]["data_version"] >= 1
        # Nothing left to send; the log says delivered.
        assert deliver(private_ok).startswith("0 ")
        log = scene.office.get(f"{HOOKS}/{made['id']}/deliveries").get_json()
        assert [(d["state"], d["attempts"], d["last_status"]) for d in log["items"]] == [
            ("delivered", 1, 204)
        ] * 2
        # A report at another venue is not this subscription's.
        other = scene.league.venue(scene.region["id"])["id"]
        scene.posted(scene.body([a, b], venue_id=other), scene.office)
        assert deliver(private_ok).startswith("0 ")


def test_r23_sanctions_are_told_to_staff_subscriptions_only(private_ok: Flask, scene: Scene) -> None:
    with receiver() as staff, receiver() as public:
        subscribe(scene, staff.url, ["*"], staff=True)
        subscribe(scene, public.url, ["*"])
        pid = scene.player("Rowdy R.")
        issued = scene.office.post(
            "/api/v1/sanctions",
            json={
                "player_id": pid,
                "kind": "warning",
                "category": "berating",
                "reason": "Shouting at the host.",
            },
        )
        assert issued.status_code == 201, issued.get_json()
        deliver(private_ok)
        assert [r.json["type"] for r in staff.got] == ["sanction.recorded"]
        assert staff.got[0].json["data"]["player"] == {"id": pid, "display_name": "Rowdy R."}
        assert "reason" not in staff.got[0].json["data"]
        assert public.got == []


def test_r23_a_discord_subscription_gets_the_nights_recap(private_ok: Flask, scene: Scene) -> None:
    with receiver() as chat:
        subscribe(scene, chat.url, ["report.posted"], format="discord")
        a, b, c, d = scene.players("Ann A.", "Bea B.", "Cal C.", "Dee D.")
        scene.posted(scene.body([b, a, d, c]))
        deliver(private_ok)
        (message,) = chat.got
        text = message.json["content"]
        said_day = said(days_ago(2))  # R24: the date as the league says dates
        assert text.startswith(f"Results are in: **{scene.venue['name']}**, {said_day}: 4 entrants")
        assert "1. Bea B." in text and "2. Ann A." in text and "3. Dee D." in text and "Cal C." not in text
        assert message.json["allowed_mentions"] == {"parse": []}


def test_r23_failures_are_retried_with_backoff_and_a_failing_subscription_is_paused(
    private_ok: Flask, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(private_ok.config, "WEBHOOKS_PAUSE_AFTER", 3)
    with receiver(status=500) as down, time_machine.travel(utcnow(), tick=False) as clock:
        made = subscribe(scene, down.url, ["webhook.ping"])
        pinged = scene.office.post(f"{HOOKS}/{made['id']}/ping")
        assert pinged.status_code == 202 and pinged.get_json()["state"] == "pending"
        deliver(private_ok)
        (entry,) = scene.office.get(f"{HOOKS}/{made['id']}/deliveries").get_json()["items"]
        assert (entry["state"], entry["attempts"], entry["last_status"]) == ("pending", 1, 500)
        assert "HTTP 500" in entry["last_error"]
        assert deliver(private_ok).startswith("0 ")  # not due yet: 30 s later
        clock.shift(timedelta(seconds=31))
        deliver(private_ok)
        clock.shift(timedelta(seconds=61))
        deliver(private_ok)
        assert len(down.got) == 3 and len(down.ids()) == 1  # one event, retried: one webhook-id
        hook = scene.office.get(f"{HOOKS}/{made['id']}").get_json()
        assert hook["paused"] is True and "3 failed deliveries in a row" in hook["paused_reason"]
        clock.shift(timedelta(minutes=10))
        assert deliver(private_ok).startswith("0 ")  # paused: nothing sent
        down.status = 204
        resumed = scene.office.patch(f"{HOOKS}/{made['id']}", json={"paused": False})
        assert resumed.get_json()["paused"] is False and resumed.get_json()["failures_in_a_row"] == 0
        deliver(private_ok)
        (entry,) = scene.office.get(f"{HOOKS}/{made['id']}/deliveries").get_json()["items"]
        assert (entry["state"], entry["attempts"]) == ("delivered", 4)
        # A day after the event, tries stop: given up.
        scene.office.patch(f"{HOOKS}/{made['id']}", json={"url": down.url})
        down.status = 500
        private_ok.config["WEBHOOKS_PAUSE_AFTER"] = 1000
        again = scene.office.post(f"{HOOKS}/{made['id']}/ping").get_json()
        for _ in range(30):
            clock.shift(timedelta(hours=1))
            deliver(private_ok)
        log = {d["id"]: d for d in scene.office.get(f"{HOOKS}/{made['id']}/deliveries").get_json()["items"]}
        assert log[again["id"]]["state"] == "gave_up" and "given up" in log[again["id"]]["last_error"]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/hook",
        "http://[::1]/hook",
        "http://10.0.0.1/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://localhost:8080/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "ftp://example.org/hook",
        "http://user:pass@example.org/hook",
    ],
)
def test_r23_a_target_on_a_private_address_is_refused_when_saved(app: Flask, scene: Scene, url: str) -> None:
    refused = scene.office.post(HOOKS, json={"url": url, "events": ["report.posted"]})
    assert_problem(refused, 422, "url", rule="R23")
    assert scene.office.get(HOOKS).get_json()["items"] == []


# R23: URLs that only look public, or are not well-formed: an IPv6 zone, a private or loopback
# address carried inside an IPv6 one (6to4, Teredo, NAT64, IPv4-compatible, IPv4-mapped), port 0,
# a space in the host.
DISGUISED = [
    "http://[fe80::1%25eth0]/hook",
    "http://[fe80::1%eth0]/hook",
    "http://[2002:7f00:1::]/hook",
    "http://[2002:a00:1::1]/hook",
    "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook",
    "http://[64:ff9b::7f00:1]/hook",
    "http://[64:ff9b::a9fe:a9fe]/latest/meta-data",
    "http://[::127.0.0.1]/hook",
    "http://[::ffff:10.0.0.1]/hook",
    "http://[::ffff:a9fe:a9fe]/hook",
    "http://example.org:0/hook",
    "http://93.184.215.14:0/hook",
    "http://exa mple.org/hook",
    "http://93.184.215.14 /hook",
    "http://example.org\t/hook",
]
PUBLIC_IP = "93.184.215.14"
PUBLIC = f"https://{PUBLIC_IP}/hook"  # a public address: no lookup needed


@pytest.mark.parametrize("url", DISGUISED)
def test_r23_a_disguised_or_malformed_target_is_refused_when_saved(scene: Scene, url: str) -> None:
    """R23: POST and PATCH refuse it (422 naming `url`), and nothing changes."""
    refused = scene.office.post(HOOKS, json={"url": url, "events": ["report.posted"]})
    assert_problem(refused, 422, "url", rule="R23")
    assert scene.office.get(HOOKS).get_json()["items"] == []
    made = subscribe(scene, PUBLIC, ["report.posted"])
    changed = scene.office.patch(f"{HOOKS}/{made['id']}", json={"url": url})
    assert_problem(changed, 422, "url", rule="R23")
    assert scene.office.get(f"{HOOKS}/{made['id']}").get_json()["url"] == PUBLIC


def test_r23_public_targets_stay_welcome_however_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """R23: what the checks above refuse is refused for what it is: public addresses, carried or
    not, and host names (an international one, a trailing dot, a port) are still taken."""
    monkeypatch.setattr(http_guard, "addresses_of", lambda host, _port: [host if ":" in host else PUBLIC_IP])
    for url in (
        PUBLIC,
        "https://[2606:4700::1111]/hook",
        "https://[2002:5db8:d70e::1]/hook",  # 6to4 carrying 93.184.215.14
        "https://[::ffff:93.184.215.14]:8443/hook",
        "https://hooks.example.org./in",
        "https://bücher.example/hook",
        "http://my_host.example.org:8080/hook?x=1",
    ):
        http_guard.check_url(url, allow_private=False)
    assert http_guard.refused_address("2002:5db8:d70e::1") is None
    said = http_guard.refused_address("2001:0:4136:e378:8000:63bf:f5ff:fffe")
    assert said is not None and "Teredo client" in said and "10.0.0.1" in said


@pytest.mark.parametrize(("carrying", "how"), [("2002:7f00:1::", "6to4"), ("64:ff9b::7f00:1", "NAT64")])
def test_r23_an_ipv6_address_resolved_when_sent_carrying_loopback_is_refused(
    private_ok: Flask, scene: Scene, monkeypatch: pytest.MonkeyPatch, carrying: str, how: str
) -> None:
    """R23: a name that resolves, when the worker connects, to an IPv6 address carrying a
    loopback IPv4 one (6to4, NAT64) is refused as the worker checks it: nothing is sent."""
    with receiver() as hook:
        made = subscribe(scene, hook.url.replace("127.0.0.1", "localhost"), ["webhook.ping"])
        monkeypatch.setitem(private_ok.config, "WEBHOOKS_ALLOW_PRIVATE", False)
        monkeypatch.setattr(http_guard, "addresses_of", lambda _host, _port: [carrying])
        scene.office.post(f"{HOOKS}/{made['id']}/ping")
        deliver(private_ok)
        assert hook.got == []
        (entry,) = scene.office.get(f"{HOOKS}/{made['id']}/deliveries").get_json()["items"]
        assert entry["state"] == "pending" and f"localhost resolves to {carrying}" in entry["last_error"]
        assert f"carries 127.0.0.1 ({how}), and 127.0.0.1 is a loopback address" in entry["last_error"]


def test_r23_a_target_that_became_private_is_refused_when_sent(
    private_ok: Flask, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    with receiver() as hook:
        made = subscribe(scene, hook.url.replace("127.0.0.1", "localhost"), ["webhook.ping"])
        scene.office.post(f"{HOOKS}/{made['id']}/ping")
        monkeypatch.setitem(private_ok.config, "WEBHOOKS_ALLOW_PRIVATE", False)
        deliver(private_ok)
        assert hook.got == []
        (entry,) = scene.office.get(f"{HOOKS}/{made['id']}/deliveries").get_json()["items"]
        assert entry["state"] == "pending" and "localhost resolves to 127.0.0.1" in entry["last_error"]


def test_r23_a_redirect_is_checked_again_when_followed(
    private_ok: Flask, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first hop stands for a public receiver (its port let through); it redirects to the
    cloud's metadata address, which is refused as the worker connects to it."""
    with receiver(redirect_to="http://169.254.169.254/latest/meta-data") as bouncer:
        made = subscribe(scene, bouncer.url, ["webhook.ping"])
        scene.office.post(f"{HOOKS}/{made['id']}/ping")
        monkeypatch.setitem(private_ok.config, "WEBHOOKS_ALLOW_PRIVATE", False)
        checked = http_guard.check_host

        def public_stand_in(host: str, port: int, allow_private: bool) -> list[str]:
            return checked(host, port, allow_private or port == bouncer.port)

        monkeypatch.setattr(http_guard, "check_host", public_stand_in)
        deliver(private_ok)
        assert len(bouncer.got) == 1
        (entry,) = scene.office.get(f"{HOOKS}/{made['id']}/deliveries").get_json()["items"]
        assert entry["state"] == "pending"
        assert "169.254.169.254 is a link-local address" in entry["last_error"]


def test_r23_webhooks_are_the_offices(scene: Scene) -> None:
    assert scene.host.get(HOOKS).status_code == 403
    assert scene.public.get(HOOKS).status_code == 401
    wrong = scene.office.post(HOOKS, json={"url": "https://example.org/x", "events": ["report.eaten"]})
    assert_problem(wrong, 422, "events", rule="R23")


def test_r23_a_sanction_that_ended_is_told_once_to_staff(private_ok: Flask, scene: Scene) -> None:
    with receiver() as staff:
        subscribe(scene, staff.url, ["sanction.ended"], staff=True)
        pid = scene.player("Rowdy R.")
        suspension = {
            "player_id": pid,
            "kind": "suspension",
            "category": "fighting",
            "first_day": iso(days_ago(25)),
            "last_day": iso(days_ago(5)),
            "reason": "A fight in the car park.",
        }
        assert scene.office.post("/api/v1/sanctions", json=suspension).status_code == 201
        deliver(private_ok)
        deliver(private_ok)  # noticed again: told once
        assert [r.json["type"] for r in staff.got] == ["sanction.ended"]
        assert staff.got[0].json["data"]["last_day"] == iso(days_ago(5))


def test_r23_events_and_their_log_are_kept_a_month(private_ok: Flask, scene: Scene) -> None:
    with receiver() as hook, time_machine.travel(utcnow(), tick=False) as clock:
        made = subscribe(scene, hook.url, ["webhook.ping"])
        scene.office.post(f"{HOOKS}/{made['id']}/ping")
        deliver(private_ok)
        clock.shift(timedelta(days=29))
        deliver(private_ok)
        assert scene.office.get(f"{HOOKS}/{made['id']}/deliveries").get_json()["total"] == 1
        clock.shift(timedelta(days=2))
        deliver(private_ok)
        assert scene.office.get(f"{HOOKS}/{made['id']}/deliveries").get_json()["total"] == 0
