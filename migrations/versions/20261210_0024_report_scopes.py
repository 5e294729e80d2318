"""report scopes: `report:T`, moved on by every change to report T or its results, so a kept
answer of one report (a page of reports is written from them) is retired by a change to that
report alone, not by every report at its venue

Until now a page of reports kept each report's answer under its venue's scope (`venue:S:V`): a
report at a venue retired the answers of every report the venue had posted that season, and a
page of the venue's reports was dumped whole again after each. `report:T` is moved by the same
rows that move `venue:S:V` for that report (its tournament row, its results: a correction, a
void, a merge or a rescore rewrites them), beside the scopes migration 0022 made, in the change's
own transaction (a row trigger on SQLite, a statement trigger with a transition table on
PostgreSQL). What else a report's answer shows (players' names, the venue, the season) is in
the `league` scope.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-10 09:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The report a changed row belongs to, as SQL over the row.
REPORT = {"tournaments": "r.id", "results": "r.tournament_id"}
EVENTS = ("INSERT", "UPDATE", "DELETE")
UPSERT = "ON CONFLICT (scope) DO UPDATE SET version = scope_versions.version + 1"


def _postgresql() -> None:
    for table, report in REPORT.items():
        for event in EVENTS:
            sides = {"INSERT": ("new_rows",), "DELETE": ("old_rows",), "UPDATE": ("new_rows", "old_rows")}[event]
            referencing = " ".join(f"{'NEW' if side == 'new_rows' else 'OLD'} TABLE AS {side}" for side in sides)
            selects = " UNION ".join(f"SELECT 'report:' || {report} AS scope FROM {side} AS r" for side in sides)
            function = f"bump_report_scope_{table}_{event.lower()}"
            op.execute(
                f"CREATE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                f"INSERT INTO scope_versions (scope, version) SELECT DISTINCT scope, 1 FROM ({selects}) AS changed "
                f"{UPSERT}; RETURN NULL; END $$"
            )
            op.execute(
                f"CREATE TRIGGER scope_report_{table}_{event.lower()} AFTER {event} ON {table} "
                f"REFERENCING {referencing} FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
            )


def _sqlite() -> None:
    for table, report in REPORT.items():
        for event in EVENTS:
            sides = {"INSERT": ("NEW",), "DELETE": ("OLD",), "UPDATE": ("NEW", "OLD")}[event]
            body = " ".join(
                f"INSERT INTO scope_versions (scope, version) VALUES ('report:' || {report.replace('r.', side + '.')}, 1) "
                f"{UPSERT};"
                for side in sides
            )
            op.execute(f"CREATE TRIGGER scope_report_{table}_{event.lower()} AFTER {event} ON {table} BEGIN {body} END")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _postgresql()
    else:
        _sqlite()


def downgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table in REPORT:
        for event in EVENTS:
            if postgresql:
                op.execute(f"DROP TRIGGER IF EXISTS scope_report_{table}_{event.lower()} ON {table}")
                op.execute(f"DROP FUNCTION IF EXISTS bump_report_scope_{table}_{event.lower()}()")
            else:
                op.execute(f"DROP TRIGGER IF EXISTS scope_report_{table}_{event.lower()}")
