"""R23: what a receiver answers cannot swell or hold the delivery worker. Of an answer only its
first 4 KB are read (a 2xx's body not at all), and every delivery ends by its deadline
(WEBHOOK_DEADLINE_SECONDS), a receiver trickling its answer a byte at a time included, where
httpx's own timeouts are per read; and the worker sends to several receivers at once, so a slow
one delays no other (tests/api/webhooks/test_hostile_receivers.py runs the worker's process)."""

from __future__ import annotations

import time

import pytest
from flask import Flask

from models.infra.http_guard import Answer, Deadline, Late, guarded_client, post_json
from tests.builders import Scene
from tests.support.receiver import hostile_receiver, huge_answer, receiver, trickle
from tests.support.servers import PATIENCE

HOOKS = "/api/v1/webhooks"
MB = 1024 * 1024
# The deadline of these tests' deliveries: a trickle every half second is cut there, never at its
# own end (PATIENCE).
DEADLINE = 2.0


def post(url: str, deadline: float = PATIENCE) -> Answer:
    with guarded_client(True, Deadline(deadline)) as client:
        return post_json(client, url, b"{}", {"content-type": "application/json"})


def test_r23_only_the_first_4_kb_of_an_answer_are_read() -> None:
    with hostile_receiver(huge_answer(100 * MB)) as huge:
        answer = post(huge.url)
        huge.answered.wait(PATIENCE)
    assert answer.status == 500 and answer.start == "x" * 4096
    assert answer.cut == "answer too large: stopped after 4 KB"
    assert huge.hung_up.is_set() and huge.sent < 100 * MB


def test_r23_a_2xx_is_taken_without_its_body_read() -> None:
    with hostile_receiver(huge_answer(100 * MB, status="200 OK")) as huge:
        answer = post(huge.url)
        huge.answered.wait(PATIENCE)
    assert (answer.status, answer.start, answer.cut) == (200, "", None)
    assert huge.hung_up.is_set() and huge.sent < 100 * MB


def test_r23_a_trickled_answer_is_cut_at_the_deadline() -> None:
    """The status line itself trickles: no timeout of httpx's ever fires (each byte comes within
    it); the deadline does."""
    with hostile_receiver(trickle(every=0.5, longest=PATIENCE)) as slow:
        began = time.monotonic()
        with pytest.raises(Late, match=f"no full answer within {DEADLINE:g} s"):
            post(slow.url, DEADLINE)
        took = time.monotonic() - began
        slow.answered.wait(PATIENCE)
    assert slow.hung_up.is_set() and slow.sent >= 2
    assert DEADLINE <= took < PATIENCE / 5  # the deadline's doing, not the trickle's end


def test_r23_a_trickled_body_is_cut_at_the_deadline_and_its_start_kept() -> None:
    head = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 1000000\r\n\r\nBusy"
    with hostile_receiver(trickle(every=0.5, longest=PATIENCE, head=head)) as slow:
        answer = post(slow.url, DEADLINE)
        slow.answered.wait(PATIENCE)
    assert answer.status == 503 and answer.start.startswith("Busya")
    assert answer.cut == f"no full answer within {DEADLINE:g} s"
    assert slow.hung_up.is_set()


def test_r23_a_slow_receiver_delays_no_other_and_its_failure_says_why(
    private_ok: Flask, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`deliver --once`: the trickling receiver's delivery and the healthy one's are sent at
    once; the healthy one arrives while the trickle still holds its own."""
    monkeypatch.setitem(private_ok.config, "WEBHOOK_DEADLINE_SECONDS", DEADLINE)
    with hostile_receiver(trickle(every=0.5, longest=PATIENCE)) as slow, receiver() as healthy:
        hooks = []
        for url in (slow.url, healthy.url):
            made = scene.office.post(HOOKS, json={"url": url, "events": ["webhook.ping"]})
            hooks.append(made.get_json()["id"])
            assert scene.office.post(f"{HOOKS}/{hooks[-1]}/ping").status_code == 202
        result = private_ok.test_cli_runner().invoke(args=["deliver", "--once"])
        assert result.exit_code == 0, result.output
        slow.answered.wait(PATIENCE)
    assert slow.hung_up.is_set() and len(healthy.got) == 1
    assert healthy.got[0].received_at < slow.hung_up_at
    (cut,) = scene.office.get(f"{HOOKS}/{hooks[0]}/deliveries").get_json()["items"]
    assert (cut["state"], cut["attempts"], cut["last_status"]) == ("pending", 1, None)
    assert cut["last_error"] == f"no full answer within {DEADLINE:g} s"
    (sent,) = scene.office.get(f"{HOOKS}/{hooks[1]}/deliveries").get_json()["items"]
    assert (sent["state"], sent["last_status"]) == ("delivered", 204)
