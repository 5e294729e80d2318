"""R23: the weekly email goes out through a real SMTP server (aiosmtpd, in the test process), read
back: to the player's address, from MAIL_FROM, with `List-Unsubscribe` (a signed link) and
`List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058). The one-click POST withdraws the
consent with no key and nothing more is sent; a forged or expired link, or a GET (a link
scanner), changes nothing. A failed send is tried again with backoff, then given up; without
SMTP_URL nothing is sent."""

from __future__ import annotations

import json
import socket
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import time_machine
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities import EmailMessage
from models.rules.emails import unsubscribe_token
from tests.builders import Scene, audit_entries

PLAYERS = "/api/v1/players"
ONE_CLICK = {"List-Unsubscribe": "One-Click"}


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)
    return None if status == 204 else response.get_json()


def consenting(scene: Scene) -> tuple[int, str]:
    """A player of the scene's venue who asked for the weekly email, and their address."""
    player, other = scene.players("Ann A.", "Bea B.")
    scene.report([player, other])
    ok(scene.host.put(f"{PLAYERS}/{player}/email-consent"))
    return player, ok(scene.office.get(f"{PLAYERS}/{player}"))["email"]


def messages(db_session: Session) -> list[EmailMessage]:
    db_session.expire_all()
    return list(db_session.scalars(select(EmailMessage).order_by(EmailMessage.id)))


def unsubscribe_path(message: Any) -> str:
    header = str(message["List-Unsubscribe"])
    assert header.startswith("<https://league.example/unsubscribe/") and header.endswith(">")
    return urlsplit(header[1:-1]).path


def closed_port() -> int:
    """A port of 127.0.0.1 nothing listens on (it was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def consent_of(scene: Scene, player: int) -> bool:
    return bool(ok(scene.office.get(f"{PLAYERS}/{player}/email-consent"))["consent"])


def test_r23_the_digest_is_sent_over_smtp_with_one_click_unsubscribe_headers(
    scene: Scene, worker: Any, smtp: Any, monday: datetime, db_session: Session
) -> None:
    player, address = consenting(scene)
    assert worker.queue(monday) == 1
    assert worker.send(smtp.url, monday) == 1
    (received,) = smtp.inbox.received
    assert smtp.inbox.envelopes == [("weekly@league.example", [address])]
    assert received["To"] == address and received["From"] == "League <weekly@league.example>"
    assert received["Subject"].startswith("Your week in the league: ")
    assert received["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    path = unsubscribe_path(received)
    text = received.get_content().replace("\r\n", "\n")
    assert text.startswith("Hello Ann A.,\n") and f"https://league.example{path}" in text
    (sent,) = messages(db_session)
    assert (sent.state, sent.attempts, sent.last_error) == ("sent", 1, None)
    assert sent.sent_at is not None
    # Sent once: the next pass has nothing due.
    assert worker.send(smtp.url, monday + timedelta(minutes=5)) == 0
    assert len(smtp.inbox.received) == 1
    assert consent_of(scene, player)


def test_r23_the_one_click_post_withdraws_consent_without_a_key_and_nothing_more_is_sent(
    scene: Scene, worker: Any, smtp: Any, monday: datetime, db_session: Session, client: FlaskClient
) -> None:
    player, _address = consenting(scene)
    worker.queue(monday)
    worker.send(smtp.url, monday)
    path = unsubscribe_path(smtp.inbox.received[0])
    next_week = monday + timedelta(days=7)
    assert worker.queue(next_week) == 1  # next week's, not sent yet
    # A link scanner opens the link: a page with a button, nothing changed.
    page = client.get(path)
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert 'method="post"' in page.get_data(as_text=True) and consent_of(scene, player)
    # The mail program's one click (RFC 8058): no key, the body it sends.
    done = client.post(path, data=ONE_CLICK)
    assert done.status_code == 200 and "no more weekly emails" in done.get_data(as_text=True)
    assert not consent_of(scene, player)
    (entry,) = audit_entries(scene.office, "action=player.email_consent_withdrawn")
    assert (entry["actor"], entry["actor_role"], entry["entity_id"]) == (
        "the player, by the link",
        "public",
        player,
    )
    # What was not sent is gone, and nothing more is composed or sent.
    assert [m.state for m in messages(db_session)] == ["sent"]
    assert worker.send(smtp.url, next_week) == 0
    assert worker.queue(next_week + timedelta(days=7)) == 0
    assert len(smtp.inbox.received) == 1
    # Clicked twice: still done, nothing audited again.
    assert client.post(path, data=ONE_CLICK).status_code == 200
    assert len(audit_entries(scene.office, "action=player.email_consent_withdrawn")) == 1


def test_r23_an_unsubscribe_link_withdraws_only_the_consent_it_was_sent_under(
    scene: Scene, worker: Any, smtp: Any, monday: datetime, client: FlaskClient
) -> None:
    """R23: a link withdraws only the consent it was sent under. The player unsubscribes by the
    link, later consents again; the old link, clicked again, leaves the new consent alone (a page
    saying nothing was changed, nothing audited), while a link of a message sent under the new
    consent withdraws it."""
    player, _address = consenting(scene)
    worker.queue(monday)
    worker.send(smtp.url, monday)
    old = unsubscribe_path(smtp.inbox.received[0])
    assert client.post(old, data=ONE_CLICK).status_code == 200 and not consent_of(scene, player)
    ok(scene.host.put(f"{PLAYERS}/{player}/email-consent"))
    assert consent_of(scene, player)
    again = client.post(old, data=ONE_CLICK)
    assert again.status_code == 200 and "Nothing was changed" in again.get_data(as_text=True)
    assert "no more weekly emails" not in again.get_data(as_text=True)
    assert consent_of(scene, player)
    assert len(audit_entries(scene.office, "action=player.email_consent_withdrawn")) == 1
    # The next message goes out under the new consent; its own link withdraws it.
    next_week = monday + timedelta(days=7)
    assert worker.queue(next_week) == 1 and worker.send(smtp.url, next_week) == 1
    new = unsubscribe_path(smtp.inbox.received[1])
    assert new != old and client.post(new, data=ONE_CLICK).status_code == 200
    assert not consent_of(scene, player)


def test_r23_the_one_click_post_says_list_unsubscribe_one_click_else_nothing_changes(
    scene: Scene, worker: Any, smtp: Any, monday: datetime, client: FlaskClient
) -> None:
    """R23, RFC 8058: the one-click POST carries `List-Unsubscribe=One-Click` in its form body; a
    POST without it (or saying something else) is refused (400, the page saying so) and changes
    nothing."""
    player, _address = consenting(scene)
    worker.queue(monday)
    worker.send(smtp.url, monday)
    path = unsubscribe_path(smtp.inbox.received[0])
    for body in ({}, {"List-Unsubscribe": "yes"}, {"one-click": "One-Click"}):
        refused = client.post(path, data=body)
        assert refused.status_code == 400, body
        assert "Nothing was changed" in refused.get_data(as_text=True)
    assert client.post(path, data=b"", content_type="text/plain").status_code == 400
    assert client.post(path, json=ONE_CLICK).status_code == 400
    assert consent_of(scene, player)
    assert audit_entries(scene.office, "action=player.email_consent_withdrawn") == []
    # As a form, urlencoded or multipart (both are RFC 8058's), it is done.
    multipart = client.post(path, data=ONE_CLICK, content_type="multipart/form-data")
    assert multipart.status_code == 200 and not consent_of(scene, player)


def test_r23_an_expired_or_forged_link_changes_nothing(
    scene: Scene, worker: Any, smtp: Any, monday: datetime, client: FlaskClient, app: Any
) -> None:
    player, _address = consenting(scene)
    worker.queue(monday)
    worker.send(smtp.url, monday)
    path = unsubscribe_path(smtp.inbox.received[0])
    token = path.rsplit("/", 1)[1]
    payload, signature = token.split(".")
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    now = datetime.now(UTC)
    forged_by_another_key = unsubscribe_token("not the league's secret", player, now, now)
    other_player = unsubscribe_token("not the league's secret", player + 1, now, now)
    for bad in (f"{payload}.{flipped}", forged_by_another_key, other_player, "nonsense", "a" * 400, "..."):
        for answer in (client.post(f"/unsubscribe/{bad}", data=ONE_CLICK), client.get(f"/unsubscribe/{bad}")):
            assert answer.status_code == 400, bad
            assert "Nothing was changed" in answer.get_data(as_text=True)
    with time_machine.travel(datetime.now(UTC) + timedelta(days=61), tick=False):
        expired = client.post(path, data=ONE_CLICK)
    assert expired.status_code == 400 and "expired" in expired.get_data(as_text=True)
    assert consent_of(scene, player)
    assert audit_entries(scene.office, "action=player.email_consent_withdrawn") == []
    # Within its 60 days the same link works.
    with time_machine.travel(datetime.now(UTC) + timedelta(days=59), tick=False):
        assert client.post(path, data=ONE_CLICK).status_code == 200
    assert not consent_of(scene, player)


def test_r23_a_failed_send_is_tried_again_with_backoff_then_given_up(
    scene: Scene, worker: Any, smtp: Any, monday: datetime, db_session: Session
) -> None:
    consenting(scene)
    worker.queue(monday)
    # No server listens there: tried again in a minute, then two, …
    nobody = f"smtp://127.0.0.1:{closed_port()}"
    assert worker.send(nobody, monday) == 1
    (message,) = messages(db_session)
    assert (message.state, message.attempts, message.leased_until) == ("pending", 1, None)
    assert message.next_attempt_at == monday + timedelta(minutes=1)
    assert message.last_error and "@" not in message.last_error
    assert worker.send(nobody, monday + timedelta(seconds=30)) == 0  # not due yet
    assert worker.send(nobody, monday + timedelta(minutes=1)) == 1
    (message,) = messages(db_session)
    assert (message.attempts, message.next_attempt_at) == (2, monday + timedelta(minutes=3))
    # The server answers at last.
    assert worker.send(smtp.url, monday + timedelta(minutes=3)) == 1
    assert [m.state for m in messages(db_session)] == ["sent"] and len(smtp.inbox.received) == 1
    # A day of failures: given up.
    next_week = monday + timedelta(days=7)
    assert worker.queue(next_week) == 1
    assert worker.send(nobody, next_week + timedelta(hours=23, minutes=59, seconds=30)) == 1
    assert [m.state for m in messages(db_session)] == ["sent", "gave_up"]
    assert "given up: tried for a day" in str(messages(db_session)[1].last_error)


def test_r23_a_recipient_refused_for_good_is_given_up_at_once(
    scene: Scene, worker: Any, smtp: Any, monday: datetime, db_session: Session
) -> None:
    _player, address = consenting(scene)
    smtp.inbox.refuse = "550 No such mailbox"
    worker.queue(monday)
    assert worker.send(smtp.url, monday) == 1
    (message,) = messages(db_session)
    assert (message.state, message.attempts) == ("gave_up", 1)
    assert "550" in str(message.last_error) and address not in str(message.last_error)


def test_r23_without_smtp_url_nothing_is_sent_and_the_messages_wait(
    scene: Scene, worker: Any, smtp: Any, monday: datetime, db_session: Session
) -> None:
    consenting(scene)
    worker.queue(monday)
    assert worker.send("", monday) == 0
    assert worker.send("http://127.0.0.1:25", monday) == 0  # not an SMTP URL: logged, nothing sent
    assert worker.send(smtp.url, monday, mail_from="") == 0  # no sender: nothing sent
    assert [(m.state, m.attempts) for m in messages(db_session)] == [("pending", 0)]
    assert worker.send(smtp.url, monday) == 1 and len(smtp.inbox.received) == 1


def test_r23_the_delivery_worker_queues_and_sends_in_one_pass(
    scene: Scene, smtp: Any, monday: datetime, make_app: Any, db_session: Session
) -> None:
    """`flask --app app deliver --once` with SMTP_URL, MAIL_FROM and PUBLIC_URL set: the week's
    digest composed and sent in one pass, its link to PUBLIC_URL."""
    consenting(scene)
    fresh = make_app(
        SMTP_URL=smtp.url, MAIL_FROM="weekly@league.example", PUBLIC_URL="https://league.example/"
    )
    with time_machine.travel(monday.replace(tzinfo=UTC), tick=True):
        outcome = fresh.test_cli_runner().invoke(args=["deliver", "--once"])
    assert outcome.exit_code == 0, outcome.output
    assert len(smtp.inbox.received) == 1
    unsubscribe_path(smtp.inbox.received[0])
    assert [m.state for m in messages(db_session)] == ["sent"]
    assert json.dumps([m.subject for m in messages(db_session)]).count("Your week") == 1
