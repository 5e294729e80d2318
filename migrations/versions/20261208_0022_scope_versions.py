"""scope_versions: versions of parts of the league data, so a write retires only the cached answers
that read the part it changed

The league's one data version (0008) moves on with every change, so every report retired every
cached answer of every season. Beside it, each row here is the version of one scope:

- `season:S`: the reports, results and standing lines of season S (the season's qualifier lists
  read all of them: R14 links its venues);
- `venue:S:V`: those of venue V in season S (the venue's standings read only those);
- `league`: everything else those answers read (seasons and their regions, points charts, venues,
  regions, the league's settings, sanctions, disqualifications, publications, merges, and any
  change to a player already stored: a rename shows in every list).

Triggers move them on in the change's own transaction, whoever makes it (row triggers on SQLite,
statement triggers with transition tables on PostgreSQL). A player's INSERT moves no scope (a new
player shows only through results, which move theirs); tables no scoped answer reads (the audit
log, API keys, ratings, schedules, the players' keys) move none. Answers keyed by scopes are
listed in api/cache.py; every other answer stays keyed by the league's data version.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-08 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LEAGUE_TABLES = (
    "seasons",
    "season_regions",
    "points_charts",
    "points_chart_bands",
    "venues",
    "regions",
    "league_settings",
    "sanctions",
    "disqualifications",
    "qualifier_publications",
    "player_merges",
    "distinct_players",
    "erasures",
)
# (table, scopes of a row as SQL expressions over the row, FROM clause joining what they need)
SCOPED = {
    "tournaments": ("'season:' || r.season_id", "'venue:' || r.season_id || ':' || r.venue_id"),
    "standing_lines": ("'season:' || r.season_id", "'venue:' || r.season_id || ':' || r.venue_id"),
    "results": ("'season:' || t.season_id", "'venue:' || t.season_id || ':' || t.venue_id"),
}
UPSERT = "ON CONFLICT (scope) DO UPDATE SET version = scope_versions.version + 1"
EVENTS = ("INSERT", "UPDATE", "DELETE")


def _sources(table: str, rows: str) -> str:
    """The FROM clause of a changed row's scopes: a result's come from its report."""
    if table == "results":
        return f"{rows} AS r JOIN tournaments AS t ON t.id = r.tournament_id"
    return f"{rows} AS r"


def _postgresql() -> None:
    op.execute(
        "CREATE FUNCTION bump_league_scope() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"INSERT INTO scope_versions (scope, version) VALUES ('league', 1) {UPSERT}; RETURN NULL; END $$"
    )
    for table in LEAGUE_TABLES:
        op.execute(
            f"CREATE TRIGGER scope_league_{table} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION bump_league_scope()"
        )
    op.execute(
        "CREATE TRIGGER scope_league_players AFTER UPDATE OR DELETE OR TRUNCATE ON players "
        "FOR EACH STATEMENT EXECUTE FUNCTION bump_league_scope()"
    )
    for table, scopes in SCOPED.items():
        for event in EVENTS:
            sides = {"INSERT": ("new_rows",), "DELETE": ("old_rows",), "UPDATE": ("new_rows", "old_rows")}[event]
            referencing = " ".join(
                f"{'NEW' if side == 'new_rows' else 'OLD'} TABLE AS {side}" for side in sides
            )
            selects = " UNION ".join(
                f"SELECT {scope} AS scope FROM {_sources(table, side)}" for side in sides for scope in scopes
            )
            function = f"bump_scopes_{table}_{event.lower()}"
            op.execute(
                f"CREATE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                f"INSERT INTO scope_versions (scope, version) SELECT scope, 1 FROM ({selects}) AS changed "
                f"{UPSERT}; RETURN NULL; END $$"
            )
            op.execute(
                f"CREATE TRIGGER scope_{table}_{event.lower()} AFTER {event} ON {table} "
                f"REFERENCING {referencing} FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
            )
        op.execute(
            f"CREATE TRIGGER scope_league_{table}_truncate AFTER TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION bump_league_scope()"
        )


def _sqlite() -> None:
    league = f"INSERT INTO scope_versions (scope, version) VALUES ('league', 1) {UPSERT};"
    for table in LEAGUE_TABLES:
        for event in EVENTS:
            op.execute(f"CREATE TRIGGER scope_league_{table}_{event.lower()} AFTER {event} ON {table} BEGIN {league} END")
    for event in ("UPDATE", "DELETE"):
        op.execute(f"CREATE TRIGGER scope_league_players_{event.lower()} AFTER {event} ON players BEGIN {league} END")
    for table, scopes in SCOPED.items():
        for event in EVENTS:
            sides = {"INSERT": ("NEW",), "DELETE": ("OLD",), "UPDATE": ("NEW", "OLD")}[event]
            body = []
            for side in sides:
                for scope in scopes:
                    expression = scope.replace("r.", f"{side}.")
                    if table == "results":
                        body.append(
                            f"INSERT INTO scope_versions (scope, version) SELECT {expression}, 1 "
                            f"FROM tournaments AS t WHERE t.id = {side}.tournament_id {UPSERT};"
                        )
                    else:
                        body.append(f"INSERT INTO scope_versions (scope, version) VALUES ({expression}, 1) {UPSERT};")
            op.execute(
                f"CREATE TRIGGER scope_{table}_{event.lower()} AFTER {event} ON {table} BEGIN {' '.join(body)} END"
            )


def upgrade() -> None:
    op.create_table(
        "scope_versions",
        sa.Column("scope", sa.String(length=80), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("scope", name=op.f("pk_scope_versions")),
    )
    if op.get_bind().dialect.name == "postgresql":
        _postgresql()
    else:
        _sqlite()


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in (*LEAGUE_TABLES, "players"):
            op.execute(f"DROP TRIGGER IF EXISTS scope_league_{table} ON {table}")
        for table in SCOPED:
            op.execute(f"DROP TRIGGER IF EXISTS scope_league_{table}_truncate ON {table}")
            for event in EVENTS:
                op.execute(f"DROP TRIGGER IF EXISTS scope_{table}_{event.lower()} ON {table}")
                op.execute(f"DROP FUNCTION IF EXISTS bump_scopes_{table}_{event.lower()}()")
        op.execute("DROP FUNCTION IF EXISTS bump_league_scope()")
    else:
        for table in LEAGUE_TABLES:
            for event in EVENTS:
                op.execute(f"DROP TRIGGER IF EXISTS scope_league_{table}_{event.lower()}")
        for event in ("update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS scope_league_players_{event}")
        for table in SCOPED:
            for event in EVENTS:
                op.execute(f"DROP TRIGGER IF EXISTS scope_{table}_{event.lower()}")
    op.drop_table("scope_versions")
