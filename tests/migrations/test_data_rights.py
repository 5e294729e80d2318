"""Migration 0020 (R21, R18): a database at 0017 holding players and audit entries written before
it (a player's creation with every personal field, a sanction whose reason names her, a merge
with the fields it took) is brought to 0020: every player has a key, no personal value is left in
plain text in the audit log, each reads back with the player's key ("[erased]" once the key is
gone), the non-personal values stay plain, the R18 triggers still refuse UPDATE and DELETE, and
going back to 0017 opens the values again."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import JSON, Connection, DateTime, Engine, Integer, String, Text, column, table, text
from sqlalchemy.exc import DatabaseError
from sqlalchemy.orm import Session

from models.entities import AuditEntry
from models.infra import sealing
from models.infra.migrate import alembic_config, downgrade, upgrade
from models.services.audit_log.queries import read_entries
from tests.support.migrations import NOW, add_player

SECRETS = ("Alicia Wonderprivate", "alicia.wonder@example.org", "198507211234", "1985-07-21")
AUDIT = table(
    "audit_log",
    column("at", DateTime),
    column("actor", String),
    column("actor_role", String),
    column("action", String),
    column("entity", String),
    column("entity_id", Integer),
    column("before", JSON),
    column("after", JSON),
    column("reason", Text),
)


def entry(
    conn: Connection, action: str, entity: str, entity_id: int, after: Any, reason: str | None = None
) -> None:
    conn.execute(
        AUDIT.insert().values(
            at=NOW,
            actor="Office: Dana",
            actor_role="office",
            action=action,
            entity=entity,
            entity_id=entity_id,
            before=None,
            after=after,
            reason=reason,
        )
    )


def log_text(conn: Connection) -> str:
    rows = conn.execute(text("SELECT before, after, reason FROM audit_log ORDER BY id")).all()
    return json.dumps(
        [[v if isinstance(v, str) or v is None else json.dumps(v) for v in row] for row in rows]
    )


def seed(engine: Engine) -> tuple[int, int]:
    with engine.begin() as conn:
        alicia = add_player(conn, "Alicia Wonderprivate")
        other = add_player(conn, "Other Person")
        conn.execute(
            text(
                "UPDATE players SET email = 'alicia.wonder@example.org', membership_number = '198507211234',"
                " date_of_birth = '1985-07-21' WHERE id = :id"
            ),
            {"id": alicia},
        )
        snapshot = {
            "id": alicia,
            "full_name": "Alicia Wonderprivate",
            "display_name": "Alicia Wonderprivate",
            "email": "alicia.wonder@example.org",
            "membership_number": "198507211234",
            "date_of_birth": "1985-07-21",
            "home_venue_id": None,
        }
        entry(conn, "player.create", "player", alicia, snapshot)
        entry(
            conn, "player.create", "player", other, {"id": other, "full_name": "Other Person", "email": None}
        )
        entry(
            conn,
            "sanction.create",
            "sanction",
            1,
            {"id": 1, "player_id": alicia, "kind": "warning", "reason": "Alicia Wonderprivate shouted."},
            reason=None,
        )
        entry(
            conn,
            "player.merge",
            "player",
            alicia,
            {"merge_id": 1, "moved": {"results": [], "fields": {"email": "alicia.wonder@example.org"}}},
            reason="Both are Alicia Wonderprivate.",
        )
    return alicia, other


def read_log(engine: Engine) -> list[Any]:
    with Session(engine) as session:
        entries = list(session.query(AuditEntry).order_by(AuditEntry.id))
        return [(e.action, e.after, e.reason) for e in read_entries(session, entries)]


def test_r21_0020_seals_the_personal_values_of_existing_entries_and_keeps_the_r18_guards(
    empty_url: str, empty_engine: Engine
) -> None:
    config = alembic_config(empty_url)
    upgrade(config, "0017")
    alicia, other = seed(empty_engine)
    with empty_engine.connect() as conn:
        assert all(secret in log_text(conn) for secret in SECRETS)  # plain before 0020
    upgrade(config, "0020")
    sealing.use(sealing.Keyring(sealing.master_key_text(empty_url)))
    with empty_engine.connect() as conn:
        stored = log_text(conn)
        assert [secret for secret in SECRETS if secret in stored] == []
        assert "warning" in stored  # non-personal values stay plain
        keys = conn.execute(text("SELECT player_id FROM player_keys ORDER BY player_id")).scalars().all()
        assert keys == [alicia, other]
        conn.rollback()
        for statement in ("UPDATE audit_log SET reason = 'x'", "DELETE FROM audit_log"):
            with pytest.raises(DatabaseError, match="R18"):  # noqa: SIM117 - the transaction must roll back
                with conn.begin():
                    conn.execute(text(statement))
    created, _other, sanction, merge = read_log(empty_engine)
    assert created[1]["email"] == "alicia.wonder@example.org"
    assert created[1]["date_of_birth"] == "1985-07-21"
    assert sanction[1]["reason"] == "Alicia Wonderprivate shouted."
    assert sanction[1]["kind"] == "warning"
    assert merge[1]["moved"]["fields"]["email"] == "alicia.wonder@example.org"
    assert merge[2] == "Both are Alicia Wonderprivate."

    # Back to 0017: the values are opened again in place, the guards kept.
    downgrade(config, "0017")
    with empty_engine.connect() as conn:
        assert all(secret in log_text(conn) for secret in SECRETS)
        conn.rollback()
        with pytest.raises(DatabaseError, match="R18"):  # noqa: SIM117 - the savepoint must roll back
            with conn.begin():
                conn.execute(text("DELETE FROM audit_log"))
    upgrade(config, "0020")

    # Her key deleted (as erasure deletes it): every value sealed under it reads "[erased]".
    with empty_engine.begin() as conn:
        conn.execute(text("DELETE FROM player_keys WHERE player_id = :id"), {"id": alicia})
    created, other_created, sanction, merge = read_log(empty_engine)
    assert created[1]["email"] == "[erased]" and created[1]["full_name"] == "[erased]"
    assert sanction[1]["reason"] == "[erased]" and merge[2] == "[erased]"
    assert other_created[1]["full_name"] == "Other Person"


def test_r21_0020_on_a_database_other_than_sqlite_needs_the_audit_key(
    backend: str, empty_url: str, empty_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The migration reads the master key as the app does: with PostgreSQL and no AUDIT_KEY it
    stops, saying why; with SQLite it is made once into instance/."""
    config = alembic_config(empty_url)
    upgrade(config, "0017")
    if backend == "sqlite":
        pytest.skip("the embedded default makes its key once into instance/")
    with empty_engine.begin() as conn:
        add_player(conn, "Alicia Wonderprivate")
    monkeypatch.delenv("AUDIT_KEY")
    with pytest.raises(sealing.MissingAuditKey, match="AUDIT_KEY"):
        upgrade(config, "0020")
