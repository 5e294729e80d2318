"""R19, R23: a player asks for the weekly email themself (`POST /api/v1/email-subscriptions`, or the
page /email/subscribe), through HTTP on both databases, with the emails as a real SMTP server
receives them. The answer is the same whether or not the address is a player's, and so is the
work the request does (one INSERT, no lookup: the delivery worker decides); only the player is
sent a link, which records their consent (source `self`, audited) once. The allowance per address
counts known and unknown addresses alike; bad input is a 422 naming `email`; an erasure (R21)
removes what is pending, and an old link does nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
import time_machine
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Connection, event, func, select, text
from sqlalchemy.orm import Session

from models.entities import EmailConfirmation, EmailMessage, EmailSubscriptionRequest
from models.rules.emails import confirm_token, unsubscribe_token
from tests.builders import Scene, audit_entries, unique_email
from tests.support.league import Caller, assert_problem

PLAYERS = "/api/v1/players"
SUBSCRIPTIONS = "/api/v1/email-subscriptions"
ASKED = "If this is a league player's address, we have sent a link to it to confirm the weekly email."
LINK = re.compile(r"https://league\.example(/email/confirm/[A-Za-z0-9_.-]+)")
ONE_CLICK = {"List-Unsubscribe": "One-Click"}
SAVEPOINT = re.compile(r"sa_savepoint_\d+")


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)
    return None if status == 204 else response.get_json()


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def player_of_the_venue(scene: Scene, name: str = "Ann A.") -> tuple[int, str]:
    """A player with a result at the scene's venue, and their address."""
    player, other = scene.players(name, "Bea B.")
    scene.report([player, other])
    return player, ok(scene.office.get(f"{PLAYERS}/{player}"))["email"]


def consent(scene: Scene, player: int) -> dict[str, Any]:
    answer: dict[str, Any] = ok(scene.office.get(f"{PLAYERS}/{player}/email-consent"))
    return answer


def confirm_path(message: Any) -> str:
    """The one-time link of a confirmation email, as a path of this service."""
    found = LINK.search(message.get_content())
    assert found, message.get_content()
    return found.group(1)


def stored(db_session: Session, entity: Any) -> int:
    db_session.expire_all()
    return int(db_session.scalar(select(func.count()).select_from(entity)) or 0)


def alike(response: Any) -> tuple[int, bytes, list[tuple[str, str]]]:
    """An answer as a prober sees it: status, body and every header but the request's own id."""
    headers = sorted((k, v) for k, v in response.headers.items() if k != "X-Request-ID")
    return response.status_code, response.get_data(), headers


@contextmanager
def statements(connection: Connection) -> Iterator[list[str]]:
    """Every statement sent on the test's connection meanwhile (any session joined to it)."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(SAVEPOINT.sub("sa_savepoint_N", statement))  # the test's savepoints are numbered

    event.listen(connection, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(connection, "before_cursor_execute", note)


def test_r19_r23_known_and_unknown_addresses_get_the_same_answer_and_only_the_player_a_link(
    scene: Scene, public: Caller, worker: Any, smtp: Any, db_session: Session, client: FlaskClient
) -> None:
    """R19, R23: a player's address and an address of no one's get the same answer (status, body,
    headers); the worker sends a link to the player alone and keeps neither address; the link's
    page confirms with a button (its GET changes nothing), records the consent as the player's own
    (source self, audited without the address), and a second use does nothing."""
    player, address = player_of_the_venue(scene)
    known = public.post(SUBSCRIPTIONS, json={"email": address.upper()})
    unknown = public.post(SUBSCRIPTIONS, json={"email": unique_email()})
    assert alike(known) == alike(unknown)
    assert known.status_code == 202 and known.get_json() == {"message": ASKED}
    assert stored(db_session, EmailSubscriptionRequest) == 2
    # The worker: one confirmation, for the player; no address kept, of either.
    assert worker.confirm(now()) == 1
    assert stored(db_session, EmailSubscriptionRequest) == 0
    assert worker.send(smtp.url, now()) == 1
    assert smtp.inbox.envelopes == [("weekly@league.example", [address])]
    (mail,) = smtp.inbox.received
    assert mail["Subject"] == "Confirm the league's weekly email" and "List-Unsubscribe" not in mail
    assert mail.get_content().startswith("Hello Ann A.,")
    path = confirm_path(mail)
    # A link scanner opens it: a page with a button, nothing recorded.
    page = client.get(path)
    assert page.status_code == 200 and 'method="post"' in page.get_data(as_text=True)
    assert (
        page.headers["Referrer-Policy"] == "no-referrer"
        and "form-action 'self'" in page.headers["Content-Security-Policy"]
    )
    assert consent(scene, player)["consent"] is False
    # The player presses it.
    done = client.post(path)
    assert done.status_code == 200 and "you will get the league's weekly email" in done.get_data(as_text=True)
    given = consent(scene, player)
    assert (given["consent"], given["source"], given["given_by"]) == (
        True,
        "self",
        "the player, by email link",
    )
    (entry,) = audit_entries(scene.office, "action=player.email_consent")
    assert (entry["actor"], entry["actor_role"], entry["entity_id"]) == (
        "the player, by email link",
        "public",
        player,
    )
    assert entry["after"]["source"] == "self" and "@" not in json.dumps(entry)
    # Used twice: nothing more, and the page says so.
    for again in (client.post(path), client.get(path)):
        assert again.status_code == 410 and "used already" in again.get_data(as_text=True)
    assert len(audit_entries(scene.office, "action=player.email_consent")) == 1
    assert stored(db_session, EmailConfirmation) == 0


def test_r19_the_request_does_the_same_work_whoever_the_address_names(
    scene: Scene, public: Caller, connection: Connection
) -> None:
    """R19: "we have sent a link if …" takes the same path, so the same time, either way: the
    request for a player's address sends exactly the statements that one for no one's does, and
    none of them reads the players."""
    _player, address = player_of_the_venue(scene)
    ok(public.post(SUBSCRIPTIONS, json={"email": unique_email()}), 202)  # warm, as a prober would
    with statements(connection) as for_the_player:
        ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202)
    with statements(connection) as for_no_one:
        ok(public.post(SUBSCRIPTIONS, json={"email": unique_email()}), 202)
    assert for_the_player == for_no_one
    assert any("email_subscription_requests" in s for s in for_the_player)
    assert not [s for s in for_the_player if re.search(r"\bplayers\b", s)]


def test_r19_r23_the_allowance_per_address_counts_known_and_unknown_addresses_alike(
    scene: Scene, make_app: Any, db_session: Session
) -> None:
    """R19, R23: each request counts against the caller's address, whether or not it names a
    player, the API's and the page's alike; past the allowance both are refused the same way (a
    429 with Retry-After) and nothing is stored; another address still asks."""
    _player, address = player_of_the_venue(scene)
    limited: Flask = make_app(RATELIMIT_ENABLED=True, RATELIMIT_EMAIL_SUBSCRIPTIONS="4 per minute")
    pub = Caller(limited.test_client(), None)
    answers = [pub.post(SUBSCRIPTIONS, json={"email": e}) for e in (address, unique_email(), address)]
    page = pub.client.post("/email/subscribe", data={"email": unique_email()})
    assert [a.status_code for a in answers] == [202, 202, 202] and page.status_code == 200
    assert stored(db_session, EmailSubscriptionRequest) == 4
    known = pub.post(SUBSCRIPTIONS, json={"email": address})
    unknown = pub.post(SUBSCRIPTIONS, json={"email": unique_email()})
    for refused in (known, unknown):
        body = assert_problem(refused, 429)
        assert "weekly email" in body["detail"] and int(refused.headers["Retry-After"]) > 0
    assert {k: v for k, v in known.get_json().items() if k != "request_id"} == {
        k: v for k, v in unknown.get_json().items() if k != "request_id"
    }
    refused_page = pub.client.post("/email/subscribe", data={"email": address})
    assert refused_page.status_code == 429 and "Retry-After" in refused_page.headers
    assert stored(db_session, EmailSubscriptionRequest) == 4
    other = limited.test_client().post(
        SUBSCRIPTIONS, json={"email": address}, environ_base={"REMOTE_ADDR": "192.0.2.7"}
    )
    assert other.status_code == 202


BAD_BODIES = [
    {},
    {"email": None},
    {"email": ""},
    {"email": 42},
    {"email": "not an address"},
    {"email": "ann@@example.org"},
    {"email": "a" * 250 + "@example.org"},
    {"email": "ann@example.org\n"},
    {"email": "ann\x00@example.org"},
    {"email": "ann@exam\u200bple.org"},
]


@pytest.mark.parametrize("body", BAD_BODIES, ids=lambda b: repr(b)[:30])
def test_r23_bad_input_is_a_422_naming_email_and_stores_nothing(
    body: dict[str, Any], public: Caller, client: FlaskClient, db_session: Session
) -> None:
    """R23: no email, not an address, too long, or holding a control or invisible character: a
    problem+json 422 naming `email` (the page: its form again, 422), and nothing stored."""
    assert_problem(public.post(SUBSCRIPTIONS, json=body), 422, "email")
    form = {} if body.get("email") is None else {"email": str(body["email"])}
    page = client.post("/email/subscribe", data=form)
    assert page.status_code == 422 and 'name="email"' in page.get_data(as_text=True)
    assert stored(db_session, EmailSubscriptionRequest) == 0


def test_r23_a_player_who_consents_already_is_answered_alike_and_sent_nothing(
    scene: Scene, public: Caller, worker: Any, smtp: Any
) -> None:
    """R23: a player who consents already gets the same answer, no email, and no second consent."""
    player, address = player_of_the_venue(scene)
    ok(scene.host.put(f"{PLAYERS}/{player}/email-consent"))
    assert ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202) == {"message": ASKED}
    assert worker.confirm(now()) == 0
    assert worker.send(smtp.url, now()) == 0 and smtp.inbox.received == []
    assert consent(scene, player)["source"] == "door"
    assert len(audit_entries(scene.office, "action=player.email_consent")) == 1


def test_r23_one_confirmation_a_day_however_many_ask(
    scene: Scene, public: Caller, worker: Any, smtp: Any, db_session: Session
) -> None:
    """R23: asked three times on one day, the player is sent one link (which still works); asked
    the next day, another."""
    _player, address = player_of_the_venue(scene)
    for _ in range(3):
        ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202)
    assert worker.confirm(now()) == 1
    ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202)
    assert worker.confirm(now()) == 0
    ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202)
    assert worker.confirm(now() + timedelta(days=1)) == 1
    assert worker.send(smtp.url, now() + timedelta(days=1)) == 2
    assert stored(db_session, EmailConfirmation) == 2


def test_r23_an_expired_forged_or_foreign_link_changes_nothing(
    scene: Scene, public: Caller, worker: Any, smtp: Any, client: FlaskClient, app: Flask
) -> None:
    """R23: a link older than 7 days, a forged or damaged one, or an unsubscribe link put in its
    place answers a page saying so (400) and records nothing; within its 7 days it works."""
    player, address = player_of_the_venue(scene)
    ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202)
    worker.confirm(now())
    worker.send(smtp.url, now())
    path = confirm_path(smtp.inbox.received[0])
    token = path.rsplit("/", 1)[1]
    secret = str(app.config["SECRET_KEY"])
    payload, signature = token.split(".")
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    for bad in (
        f"{payload}.{flipped}",
        confirm_token("not the league's secret", "0" * 32, now()),
        unsubscribe_token(secret, player, now(), now()),
        "nonsense",
        "a" * 400,
    ):
        for answer in (client.post(f"/email/confirm/{bad}"), client.get(f"/email/confirm/{bad}")):
            assert answer.status_code == 400, bad
            assert "Nothing was changed" in answer.get_data(as_text=True)
    # A well-signed link naming no confirmation: no longer valid.
    assert client.post(f"/email/confirm/{confirm_token(secret, 'f' * 32, now())}").status_code == 410
    with time_machine.travel(datetime.now(UTC) + timedelta(days=7, minutes=1), tick=False):
        expired = client.post(path)
    assert expired.status_code == 400 and "expired" in expired.get_data(as_text=True)
    assert consent(scene, player)["consent"] is False
    with time_machine.travel(datetime.now(UTC) + timedelta(days=6), tick=False):
        assert client.post(path).status_code == 200
    assert consent(scene, player)["source"] == "self"


def test_r21_r23_erasure_removes_what_is_pending_and_an_old_link_does_nothing(
    scene: Scene,
    public: Caller,
    worker: Any,
    smtp: Any,
    client: FlaskClient,
    db_session: Session,
    connection: Connection,
) -> None:
    """R21, R23: after a player's erasure no confirmation of theirs and no request naming their
    address is left (no column of the email tables holds it), the link they were sent answers
    "no longer valid" and records nothing, and nothing more is sent."""
    player, address = player_of_the_venue(scene, "Zed Quill")
    ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202)
    worker.confirm(now())
    worker.send(smtp.url, now())
    path = confirm_path(smtp.inbox.received[0])
    ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202)  # asked again: still queued
    ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202)
    ok(scene.office.post(f"{PLAYERS}/{player}/erase", json={"reason": "Asked at the bar."}))
    assert stored(db_session, EmailSubscriptionRequest) == 0
    assert stored(db_session, EmailConfirmation) == 0
    for table in ("email_subscription_requests", "email_confirmations", "email_messages"):
        for row in connection.execute(text(f"SELECT * FROM {table}")):
            assert not any(
                value in json.dumps([str(cell) for cell in row]) for value in (address, "Zed Quill")
            )
    for answer in (client.get(path), client.post(path)):
        assert answer.status_code == 410 and "no longer valid" in answer.get_data(as_text=True)
    assert consent(scene, player)["consent"] is False
    assert audit_entries(scene.office, "action=player.email_consent") == []
    assert worker.confirm(now() + timedelta(days=1)) == 0
    assert worker.send(smtp.url, now() + timedelta(days=1)) == 0 and len(smtp.inbox.received) == 1


def test_r21_a_request_the_worker_took_before_the_erasure_sends_nothing(
    scene: Scene, public: Caller, worker: Any, smtp: Any, db_session: Session
) -> None:
    """R21: a confirmation queued, not yet sent, when the player is erased: deleted with them."""
    player, address = player_of_the_venue(scene)
    ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202)
    assert worker.confirm(now()) == 1
    ok(scene.office.post(f"{PLAYERS}/{player}/erase", json={"reason": "Asked by phone."}))
    assert worker.send(smtp.url, now()) == 0 and smtp.inbox.received == []
    assert stored(db_session, EmailConfirmation) == 0
    db_session.expire_all()
    assert list(db_session.scalars(select(EmailMessage.state).where(EmailMessage.player_id == player))) == []


def test_r23_the_page_asks_like_the_api_and_refuses_posts_from_other_sites(
    scene: Scene, client: FlaskClient, db_session: Session
) -> None:
    """R23, R24: /email/subscribe is a form for people (no script, no outside resource); posted,
    it answers the same page whether or not the address is a player's and queues the request as
    the API does. A post another site's page makes a browser send (CSRF) is refused, storing
    nothing."""
    _player, address = player_of_the_venue(scene)
    form = client.get("/email/subscribe")
    html = form.get_data(as_text=True)
    assert form.status_code == 200 and 'action="/email/subscribe"' in html and 'name="email"' in html
    csp = form.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "form-action 'self'" in csp and "<script" not in html
    known = client.post("/email/subscribe", data={"email": address})
    unknown = client.post("/email/subscribe", data={"email": unique_email()})
    assert alike(known) == alike(unknown) and known.status_code == 200
    assert ASKED.replace("'", "&#39;") in known.get_data(as_text=True)
    assert stored(db_session, EmailSubscriptionRequest) == 2
    same_site = client.post(
        "/email/subscribe",
        data={"email": address},
        headers={"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"},
    )
    assert same_site.status_code == 200
    for headers in (
        {"Sec-Fetch-Site": "cross-site", "Origin": "https://elsewhere.example"},
        {"Origin": "https://elsewhere.example"},
        {"Origin": "null"},
    ):
        refused = client.post("/email/subscribe", data={"email": address}, headers=headers)
        assert refused.status_code == 403, headers
    assert stored(db_session, EmailSubscriptionRequest) == 3


def test_r23_the_consent_api_the_digest_and_unsubscribing_still_work_after_a_confirmed_link(
    scene: Scene, public: Caller, worker: Any, smtp: Any, monday: datetime, client: FlaskClient
) -> None:
    """R23: consent given by the player's own link is a consent like any other: the week's digest
    goes to them with its one-click unsubscribe (RFC 8058), which withdraws it; the office's
    PUT and DELETE keep working; the data export shows where it came from."""
    player, address = player_of_the_venue(scene)
    ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202)
    worker.confirm(now())
    worker.send(smtp.url, now())
    ok(client.post(confirm_path(smtp.inbox.received[0])))
    export = ok(scene.office.get(f"{PLAYERS}/{player}/data-export"))["player"]
    assert export["email_consent"]["source"] == "self"
    assert [m["kind"] for m in export["emails"]] == ["confirm"]
    assert worker.queue(monday) == 1 and worker.send(smtp.url, monday) == 1
    digest = smtp.inbox.received[1]
    assert digest["Subject"].startswith("Your week in the league: ")
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = urlsplit(str(digest["List-Unsubscribe"])[1:-1]).path
    assert client.post(unsubscribe, data=ONE_CLICK).status_code == 200
    assert consent(scene, player)["consent"] is False
    ok(scene.office.put(f"{PLAYERS}/{player}/email-consent"))
    assert consent(scene, player)["source"] == "office"
    ok(scene.office.delete(f"{PLAYERS}/{player}/email-consent"), 204)
    # The office cannot claim the player's own link for them.
    bad = scene.office.put(f"{PLAYERS}/{player}/email-consent", json={"source": "self"})
    assert_problem(bad, 422, "source")


def test_r23_the_delivery_worker_sends_the_link_in_one_pass(
    scene: Scene, public: Caller, smtp: Any, make_app: Any, db_session: Session
) -> None:
    """`flask --app app deliver --once`: the request taken, the link composed and sent to
    PUBLIC_URL in one pass; the link's date reads in the league's format (R24)."""
    _player, address = player_of_the_venue(scene)
    ok(public.post(SUBSCRIPTIONS, json={"email": address}), 202)
    fresh = make_app(
        SMTP_URL=smtp.url, MAIL_FROM="weekly@league.example", PUBLIC_URL="https://league.example/"
    )
    outcome = fresh.test_cli_runner().invoke(args=["deliver", "--once"])
    assert outcome.exit_code == 0, outcome.output
    (mail,) = smtp.inbox.received
    confirm_path(mail)
    assert re.search(r"until \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2}\.", mail.get_content())
    assert stored(db_session, EmailSubscriptionRequest) == 0
    assert [m.state for m in db_session.scalars(select(EmailMessage))] == ["sent"]
