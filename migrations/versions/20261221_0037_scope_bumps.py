"""scope bumps: each bump of a scope recorded with a sequence (what the refresher reads), the
night's own scope, and the outbox back to R23 alone

- scope_versions.seq: set on every bump of the row from one league-wide increasing counter, by a
  trigger on scope_versions itself, so every trigger that bumps a scope (migrations 0022, 0024,
  0033 and the night's below) records it unchanged. PostgreSQL: a SEQUENCE (`scope_bumps`,
  nextval in a BEFORE row trigger); SQLite: one more than the largest (its writers take turns).
- scope_versions.xact (PostgreSQL): the bumping transaction's id (`pg_current_xact_id()`, the
  top-level one inside a savepoint). A sequence number is taken before the commit, so a bump
  with a lower number may become visible after one with a higher: the refresher asks for those
  of the transactions it saw in progress by this id (models/freshness/bumps.py).
- `night:V`: a venue's nights (nights, night_entries, night_actions) move a scope of their own,
  so that the refresher finds the venue's live page; still no data version and no other scope:
  a bust-out at one venue retires nothing else (migration 0028). Row triggers on SQLite,
  statement triggers with transition tables on PostgreSQL, as 0022's.
- outbox_events.refreshed_at and its partial index are dropped: the refresher no longer rides
  the outbox (R23's events alone), and the outbox scope's triggers of outbox_events lose their
  exception for the refresher's own events (there are none).

Columns are added and dropped in place (no batch mode: recreating a table on SQLite drops its
triggers).

Revision ID: 0037
Revises: 0036
Create Date: 2026-12-21 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0037"
down_revision: str | None = "0036"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

EVENTS = ("INSERT", "UPDATE", "DELETE")
UPSERT = "ON CONFLICT (scope) DO UPDATE SET version = scope_versions.version + 1"
# The venue of a changed row of each night table, as SQL over the row `r` (and its night `n`).
NIGHT_VENUE = {"nights": "r.venue_id", "night_entries": "n.venue_id", "night_actions": "n.venue_id"}
# Migration 0033's trigger of the outbox scope, and its exception for the refresher's events.
OUTBOX_UPSERT = (
    "INSERT INTO scope_versions (scope, version) VALUES ('outbox', 1) "
    "ON CONFLICT (scope) DO UPDATE SET version = scope_versions.version + 1"
)
INTERNAL = "('night.changed')"
WAITING = sa.text("refreshed_at IS NULL")


def _night_rows(table: str, rows: str) -> str:
    if table == "nights":
        return f"{rows} AS r"
    return f"{rows} AS r JOIN nights AS n ON n.id = r.night_id"


def _postgresql_up() -> None:
    op.execute("CREATE SEQUENCE scope_bumps")
    op.execute(
        "CREATE FUNCTION record_scope_bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "NEW.seq := nextval('scope_bumps'); NEW.xact := pg_current_xact_id()::text::bigint; "
        "RETURN NEW; END $$"
    )
    op.execute(
        "CREATE TRIGGER bumps_recorded BEFORE INSERT OR UPDATE ON scope_versions "
        "FOR EACH ROW EXECUTE FUNCTION record_scope_bump()"
    )
    for table, venue in NIGHT_VENUE.items():
        for event in EVENTS:
            sides = {"INSERT": ("new_rows",), "DELETE": ("old_rows",), "UPDATE": ("new_rows", "old_rows")}[
                event
            ]
            referencing = " ".join(f"{'NEW' if s == 'new_rows' else 'OLD'} TABLE AS {s}" for s in sides)
            selects = " UNION ".join(
                f"SELECT 'night:' || {venue} AS scope FROM {_night_rows(table, side)}" for side in sides
            )
            function = f"bump_night_scope_{table}_{event.lower()}"
            op.execute(
                f"CREATE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                f"INSERT INTO scope_versions (scope, version) SELECT DISTINCT scope, 1 FROM ({selects}) AS changed "
                f"{UPSERT}; RETURN NULL; END $$"
            )
            op.execute(
                f"CREATE TRIGGER night_scope_{table}_{event.lower()} AFTER {event} ON {table} "
                f"REFERENCING {referencing} FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
            )


def _outbox_events_triggers(exception: bool) -> None:
    """Migration 0033's triggers of outbox_events, with (`exception`) or without its WHEN."""
    postgresql = op.get_bind().dialect.name == "postgresql"
    for event in EVENTS:
        name = f"outbox_scope_outbox_events_{event.lower()}"
        sides = {"INSERT": ("NEW",), "DELETE": ("OLD",), "UPDATE": ("OLD", "NEW")}[event]
        when = (
            " WHEN (" + " OR ".join(f"{s}.kind NOT IN {INTERNAL}" for s in sides) + ")" if exception else ""
        )
        if postgresql:
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON outbox_events")
            op.execute(
                f"CREATE CONSTRAINT TRIGGER {name} AFTER {event} ON outbox_events "
                f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW{when} EXECUTE FUNCTION bump_outbox_scope()"
            )
        else:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
            op.execute(
                f"CREATE TRIGGER {name} AFTER {event} ON outbox_events{when} BEGIN {OUTBOX_UPSERT}; END"
            )


def _sqlite_up() -> None:
    # The next number: the largest so far, plus one (the row's own seq is still the old one, or NULL).
    seq = "UPDATE scope_versions SET seq = (SELECT COALESCE(MAX(seq), 0) + 1 FROM scope_versions) WHERE scope = NEW.scope;"
    op.execute(f"CREATE TRIGGER bumps_recorded_insert AFTER INSERT ON scope_versions BEGIN {seq} END")
    op.execute(
        f"CREATE TRIGGER bumps_recorded_update AFTER UPDATE OF version ON scope_versions BEGIN {seq} END"
    )
    for table, venue in NIGHT_VENUE.items():
        for event in EVENTS:
            sides = {"INSERT": ("NEW",), "DELETE": ("OLD",), "UPDATE": ("NEW", "OLD")}[event]
            body = []
            for side in sides:
                if table == "nights":
                    body.append(
                        f"INSERT INTO scope_versions (scope, version) VALUES ('night:' || {side}.venue_id, 1) {UPSERT};"
                    )
                else:
                    body.append(
                        f"INSERT INTO scope_versions (scope, version) SELECT 'night:' || n.venue_id, 1 "
                        f"FROM nights AS n WHERE n.id = {side}.night_id {UPSERT};"
                    )
            op.execute(
                f"CREATE TRIGGER night_scope_{table}_{event.lower()} AFTER {event} ON {table} BEGIN {' '.join(body)} END"
            )


def upgrade() -> None:
    op.add_column("scope_versions", sa.Column("seq", sa.BigInteger(), nullable=True))
    op.add_column("scope_versions", sa.Column("xact", sa.BigInteger(), nullable=True))
    op.create_index("ix_scope_versions_seq", "scope_versions", ["seq"])
    op.create_index("ix_scope_versions_xact", "scope_versions", ["xact"])
    if op.get_bind().dialect.name == "postgresql":
        _postgresql_up()
    else:
        _sqlite_up()
    _outbox_events_triggers(exception=False)
    op.execute("DELETE FROM outbox_events WHERE kind IN " + INTERNAL)
    op.drop_index("ix_outbox_events_waiting", table_name="outbox_events")
    op.drop_column("outbox_events", "refreshed_at")


def downgrade() -> None:
    op.add_column("outbox_events", sa.Column("refreshed_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE outbox_events SET refreshed_at = created_at")
    op.create_index(
        "ix_outbox_events_waiting", "outbox_events", ["id"], postgresql_where=WAITING, sqlite_where=WAITING
    )
    _outbox_events_triggers(exception=True)
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table in NIGHT_VENUE:
        for event in EVENTS:
            if postgresql:
                op.execute(f"DROP TRIGGER IF EXISTS night_scope_{table}_{event.lower()} ON {table}")
                op.execute(f"DROP FUNCTION IF EXISTS bump_night_scope_{table}_{event.lower()}()")
            else:
                op.execute(f"DROP TRIGGER IF EXISTS night_scope_{table}_{event.lower()}")
    if postgresql:
        op.execute("DROP TRIGGER IF EXISTS bumps_recorded ON scope_versions")
        op.execute("DROP FUNCTION IF EXISTS record_scope_bump()")
        op.execute("DROP SEQUENCE IF EXISTS scope_bumps")
    else:
        op.execute("DROP TRIGGER IF EXISTS bumps_recorded_insert")
        op.execute("DROP TRIGGER IF EXISTS bumps_recorded_update")
    op.execute("DELETE FROM scope_versions WHERE scope LIKE 'night:%'")
    op.drop_index("ix_scope_versions_xact", table_name="scope_versions")
    op.drop_index("ix_scope_versions_seq", table_name="scope_versions")
    op.drop_column("scope_versions", "xact")
    op.drop_column("scope_versions", "seq")
