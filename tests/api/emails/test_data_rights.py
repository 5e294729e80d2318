"""R21 for the weekly email (R23), through HTTP on both databases: a player's erasure deletes their
consent and every message not sent, and empties the text of those sent (no column of the email
tables holds a value of theirs afterwards); their data export shows the consent as recorded and
each message's subject, state and when it was sent; the audit entries of consent never held the
address."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, select, text
from sqlalchemy.orm import Session

from models.entities import EmailConsent, EmailMessage
from tests.builders import Scene, audit_entries

PLAYERS = "/api/v1/players"


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)
    return None if status == 204 else response.get_json()


def export(scene: Scene, player: int) -> dict[str, Any]:
    data: dict[str, Any] = ok(scene.office.get(f"{PLAYERS}/{player}/data-export"))
    return data


def with_mail(scene: Scene, worker: Any, smtp: Any, monday: datetime) -> tuple[int, dict[str, Any]]:
    """Zed asked for the weekly email at the door: one digest sent, next week's pending."""
    zed, other = scene.players("Zed Quill", "Bea B.")
    scene.report([zed, other])
    ok(scene.host.put(f"{PLAYERS}/{zed}/email-consent"))
    assert worker.queue(monday) == 1 and worker.send(smtp.url, monday) == 1
    assert worker.queue(monday + timedelta(days=7)) == 1
    return zed, ok(scene.office.get(f"{PLAYERS}/{zed}"))


def test_r21_the_export_holds_the_consent_and_the_messages_sent(
    scene: Scene, worker: Any, smtp: Any, monday: datetime
) -> None:
    zed, _record = with_mail(scene, worker, smtp, monday)
    data = export(scene, zed)
    consent = data["player"]["email_consent"]
    assert consent["source"] == "door" and consent["given_by"] == "Host: Crown"
    assert consent["given_at"].endswith("Z")
    sent, pending = data["player"]["emails"]
    assert (sent["kind"], sent["state"]) == ("digest", "sent")
    assert sent["subject"].startswith("Your week in the league: ") and sent["sent_at"].endswith("Z")
    assert (pending["state"], pending["sent_at"]) == ("pending", None)
    assert "body" not in sent
    assert data["records"][0]["email_consent"] == consent
    # The export's own audit entries of consent hold no address.
    entries = [e for e in data["audit_log"] if e["action"].startswith("player.email_consent")]
    assert len(entries) == 1 and "@" not in json.dumps(entries)


def test_r21_erasure_deletes_the_consent_and_what_was_not_sent(
    scene: Scene, worker: Any, smtp: Any, monday: datetime, db_session: Session, connection: Connection
) -> None:
    zed, record = with_mail(scene, worker, smtp, monday)
    ok(scene.office.post(f"{PLAYERS}/{zed}/erase", json={"reason": "Asked at the bar."}))
    assert ok(scene.office.get(f"{PLAYERS}/{zed}/email-consent"))["consent"] is False
    db_session.expire_all()
    assert db_session.get(EmailConsent, zed) is None
    left = list(db_session.scalars(select(EmailMessage).where(EmailMessage.player_id == zed)))
    assert [(m.state, m.body) for m in left] == [("sent", "")]
    # No column of the email tables holds a value of hers; nothing more is composed or sent.
    values = [record["email"], record["full_name"], "Zed Quill"]
    for table in ("email_consents", "email_messages"):
        for row in connection.execute(text(f"SELECT * FROM {table}")):
            assert not any(value in json.dumps([str(cell) for cell in row]) for value in values), table
    assert worker.queue(monday + timedelta(days=14)) == 0
    assert worker.send(smtp.url, monday + timedelta(days=14)) == 0
    assert len(smtp.inbox.received) == 1
    # She cannot consent again: an erased record has no address (R21, R23).
    ok(scene.office.put(f"{PLAYERS}/{zed}/email-consent"), 422)
    # The export of an erased player: what was sent, by subject; no consent.
    data = export(scene, zed)
    assert data["player"]["email_consent"] is None
    assert [m["state"] for m in data["player"]["emails"]] == ["sent"]
    # The audit entries of her consent never held her address, before or after.
    entries = audit_entries(scene.office, f"entity=player&entity_id={zed}")
    consent_entries = [e for e in entries if e["action"].startswith("player.email_consent")]
    assert consent_entries and record["email"] not in json.dumps(consent_entries)
