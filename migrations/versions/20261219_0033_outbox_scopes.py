"""outbox scope: the tables of telling others (R23) that cached answers read move a scope, `outbox`

Migrations 0030 and 0031 gave these tables no trigger, saying no cached answer read them. Some
do: the office's subscriptions and their delivery log (`/webhooks`, `/webhooks/{id}`,
`/webhooks/{id}/deliveries`) and a player's consent (`/players/{id}/email-consent`). Keyed by the
data version, which none of these tables moves, a delivery the worker failed, or a subscription it
paused, went on reading as before until some unrelated write.

Now every change to webhooks, webhook_deliveries, outbox_events and email_consents, whoever makes
it (a request, the delivery worker, a command, a plain SQL script), moves the `outbox` scope
(models/freshness/tables.OUTBOX_SCOPE_TABLES), and those answers are keyed by it. Still no data
version: the worker's bookkeeping retires those answers alone. Two exceptions, read by no answer:
email_messages (the weekly email's queue), and an event of the refresher's own (`night.changed`,
written by a live night's every action: each would otherwise move it).

- PostgreSQL: row triggers deferred to the commit (constraint triggers, INITIALLY DEFERRED), which
  move the scope once per transaction (a transaction-local setting remembers it, as 0008's data
  version does). At the commit the transaction has taken every other lock it takes (the data
  version's, the other scopes'), so the `outbox` row is always locked last, and held only while
  the transaction commits: a delivery worker and a league writer wait on each other for a commit
  at most, and never crosswise (a deadlock). TRUNCATE moves it too (a statement trigger).
- SQLite: a row trigger (its writers take turns anyway).

Revision ID: 0033
Revises: 0032
Create Date: 2026-12-19 09:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0033"
down_revision: str | None = "0032"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("outbox_events", "webhooks", "webhook_deliveries", "email_consents")
EVENTS = ("INSERT", "UPDATE", "DELETE")
# models.rules.webhooks.INTERNAL_KINDS at this revision: events for the refresher alone.
INTERNAL = "('night.changed')"
UPSERT = (
    "INSERT INTO scope_versions (scope, version) VALUES ('outbox', 1) "
    "ON CONFLICT (scope) DO UPDATE SET version = scope_versions.version + 1"
)
# PostgreSQL: set (transaction-local) once this transaction has moved the scope on.
MOVED = "league.outbox_scope_moved"


def _when(table: str, event: str, new: str = "NEW", old: str = "OLD") -> str:
    """The condition on the changed row: an event of the refresher's own moves nothing."""
    if table != "outbox_events":
        return ""
    sides = {"INSERT": (new,), "DELETE": (old,), "UPDATE": (old, new)}[event]
    return " WHEN (" + " OR ".join(f"{side}.kind NOT IN {INTERNAL}" for side in sides) + ")"


def _postgresql() -> None:
    op.execute(
        "CREATE FUNCTION bump_outbox_scope() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"IF current_setting('{MOVED}', true) IS DISTINCT FROM 'yes' THEN {UPSERT}; "
        f"PERFORM set_config('{MOVED}', 'yes', true); END IF; RETURN NULL; END $$"
    )
    for table in TABLES:
        for event in EVENTS:
            op.execute(
                f"CREATE CONSTRAINT TRIGGER outbox_scope_{table}_{event.lower()} AFTER {event} ON {table} "
                f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW{_when(table, event)} "
                "EXECUTE FUNCTION bump_outbox_scope()"
            )
        op.execute(
            f"CREATE TRIGGER outbox_scope_{table}_truncate AFTER TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION bump_outbox_scope()"
        )


def _sqlite() -> None:
    for table in TABLES:
        for event in EVENTS:
            op.execute(
                f"CREATE TRIGGER outbox_scope_{table}_{event.lower()} AFTER {event} ON {table}"
                f"{_when(table, event)} BEGIN {UPSERT}; END"
            )


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _postgresql()
    else:
        _sqlite()


def downgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table in TABLES:
        for event in (*EVENTS, "TRUNCATE"):
            name = f"outbox_scope_{table}_{event.lower()}"
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}" if postgresql else f"DROP TRIGGER IF EXISTS {name}")
    if postgresql:
        op.execute("DROP FUNCTION IF EXISTS bump_outbox_scope()")
