"""merge guards: one live merge per duplicate, no survivor merged away, nothing on a record merged away

The database's own guards of R17 (merges), for whatever the service's checks and locks miss:

- at most one live (not undone) merge per duplicate: a partial unique index;
- a record merged away is neither a survivor (of a new merge, or of a player record pointed at
  it) nor merged again until its merge is undone (triggers on players and player_merges);
- a record merged away holds no results, sanctions or disqualifications: it gives them to its
  survivor before it is marked merged, and nothing is written on it afterwards (triggers on
  players, results, sanctions and disqualifications; a report naming it is recorded on the
  final survivor by the service).

A trigger's message starts with the rule ("R17: …"), which api/errors.py reads (a 409).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01 09:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = 'uq_player_merges_live_duplicate'
HOLDERS = ('results', 'sanctions', 'disqualifications')

MERGED_AWAY = "R17: a record merged away is no survivor: merge into the player it was merged into"
MERGED_AGAIN = "R17: a record merged away is not merged again until its merge is undone"
HOLDS_NOTHING = "R17: a record merged away holds no results, sanctions or disqualifications"
NAMES_SURVIVOR = "R17: a record merged away holds nothing: send it again, the id now names the survivor"

_POSTGRESQL = [
    """
    CREATE FUNCTION players_merge_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.merged_into_id IS NULL THEN
            RETURN NEW;
        END IF;
        IF NEW.merged_into_id = NEW.id THEN
            RAISE EXCEPTION 'R17: player % cannot be merged into itself', NEW.id;
        END IF;
        IF TG_OP = 'UPDATE' AND OLD.merged_into_id IS NOT NULL
                AND OLD.merged_into_id IS DISTINCT FROM NEW.merged_into_id THEN
            RAISE EXCEPTION 'R17: player % was already merged into player %: not again until that merge is undone',
                NEW.id, OLD.merged_into_id;
        END IF;
        IF EXISTS (SELECT 1 FROM players WHERE id = NEW.merged_into_id AND merged_into_id IS NOT NULL) THEN
            RAISE EXCEPTION 'R17: player % was merged away: it cannot be a survivor', NEW.merged_into_id;
        END IF;
        IF EXISTS (SELECT 1 FROM results WHERE player_id = NEW.id)
                OR EXISTS (SELECT 1 FROM sanctions WHERE player_id = NEW.id)
                OR EXISTS (SELECT 1 FROM disqualifications WHERE player_id = NEW.id) THEN
            RAISE EXCEPTION 'R17: player % still holds results, sanctions or disqualifications: they move first',
                NEW.id;
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER players_merge_guard BEFORE INSERT OR UPDATE OF merged_into_id ON players
    FOR EACH ROW EXECUTE FUNCTION players_merge_guard()
    """,
    """
    CREATE FUNCTION player_merges_survivor_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.undone_at IS NULL AND EXISTS (
            SELECT 1 FROM players WHERE id = NEW.survivor_id AND merged_into_id IS NOT NULL
        ) THEN
            RAISE EXCEPTION 'R17: player % was merged away: it cannot be a survivor', NEW.survivor_id;
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER player_merges_survivor_guard BEFORE INSERT ON player_merges
    FOR EACH ROW EXECUTE FUNCTION player_merges_survivor_guard()
    """,
    # A row moved onto a player merged away (one update names one player).
    """
    CREATE FUNCTION holder_not_merged_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE into_id integer;
    BEGIN
        SELECT merged_into_id INTO into_id FROM players WHERE id = NEW.player_id;
        IF into_id IS NOT NULL THEN
            RAISE EXCEPTION 'R17: player % was merged into player % meanwhile: send it again, the id now names the survivor',
                NEW.player_id, into_id;
        END IF;
        RETURN NEW;
    END $$
    """,
    # Rows inserted on players merged away: one query per statement, however many rows (a report
    # stores its results in one INSERT).
    """
    CREATE FUNCTION holders_not_merged_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE merged_id integer; into_id integer;
    BEGIN
        SELECT p.id, p.merged_into_id INTO merged_id, into_id
        FROM inserted i JOIN players p ON p.id = i.player_id
        WHERE p.merged_into_id IS NOT NULL LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'R17: player % was merged into player % meanwhile: send it again, the id now names the survivor',
                merged_id, into_id;
        END IF;
        RETURN NULL;
    END $$
    """,
]
for _table in HOLDERS:
    _POSTGRESQL += [
        f"""
        CREATE TRIGGER {_table}_not_merged_update BEFORE UPDATE OF player_id ON {_table}
        FOR EACH ROW EXECUTE FUNCTION holder_not_merged_guard()
        """,
        f"""
        CREATE TRIGGER {_table}_not_merged_insert AFTER INSERT ON {_table}
        REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION holders_not_merged_guard()
        """,
    ]

_MERGED = "(SELECT merged_into_id FROM players WHERE id = {}) IS NOT NULL"
_SQLITE = []
for _event in ('INSERT', 'UPDATE OF merged_into_id'):
    _name = _event.split()[0].lower()
    _changed = "" if _name == 'insert' else (
        "OLD.merged_into_id IS NOT NULL AND OLD.merged_into_id IS NOT NEW.merged_into_id"
    )
    _SQLITE += [
        f"""
        CREATE TRIGGER players_no_merged_survivor_{_name} BEFORE {_event} ON players
        WHEN NEW.merged_into_id IS NOT NULL
            AND (NEW.merged_into_id = NEW.id OR {_MERGED.format('NEW.merged_into_id')})
        BEGIN SELECT RAISE(ABORT, '{MERGED_AWAY}'); END
        """,
        f"""
        CREATE TRIGGER players_merged_holds_nothing_{_name} BEFORE {_event} ON players
        WHEN NEW.merged_into_id IS NOT NULL AND (
            EXISTS (SELECT 1 FROM results WHERE player_id = NEW.id)
            OR EXISTS (SELECT 1 FROM sanctions WHERE player_id = NEW.id)
            OR EXISTS (SELECT 1 FROM disqualifications WHERE player_id = NEW.id)
        )
        BEGIN SELECT RAISE(ABORT, '{HOLDS_NOTHING}'); END
        """,
    ]
    if _changed:
        _SQLITE.append(
            f"""
            CREATE TRIGGER players_merged_once BEFORE {_event} ON players
            WHEN NEW.merged_into_id IS NOT NULL AND {_changed}
            BEGIN SELECT RAISE(ABORT, '{MERGED_AGAIN}'); END
            """
        )
_SQLITE.append(
    f"""
    CREATE TRIGGER player_merges_survivor_guard BEFORE INSERT ON player_merges
    WHEN NEW.undone_at IS NULL AND {_MERGED.format('NEW.survivor_id')}
    BEGIN SELECT RAISE(ABORT, '{MERGED_AWAY}'); END
    """
)
for _table in HOLDERS:
    for _event in ('INSERT', 'UPDATE OF player_id'):
        _SQLITE.append(
            f"""
            CREATE TRIGGER {_table}_not_merged_{_event.split()[0].lower()} BEFORE {_event} ON {_table}
            WHEN {_MERGED.format('NEW.player_id')}
            BEGIN SELECT RAISE(ABORT, '{NAMES_SURVIVOR}'); END
            """
        )

_POSTGRESQL_DROPS = [
    "DROP TRIGGER IF EXISTS players_merge_guard ON players",
    "DROP TRIGGER IF EXISTS player_merges_survivor_guard ON player_merges",
    *(f"DROP TRIGGER IF EXISTS {t}_not_merged_{e} ON {t}" for t in HOLDERS for e in ('update', 'insert')),
    "DROP FUNCTION IF EXISTS players_merge_guard()",
    "DROP FUNCTION IF EXISTS player_merges_survivor_guard()",
    "DROP FUNCTION IF EXISTS holder_not_merged_guard()",
    "DROP FUNCTION IF EXISTS holders_not_merged_guard()",
]
_SQLITE_DROPS = [
    *(f"DROP TRIGGER IF EXISTS players_no_merged_survivor_{e}" for e in ('insert', 'update')),
    *(f"DROP TRIGGER IF EXISTS players_merged_holds_nothing_{e}" for e in ('insert', 'update')),
    "DROP TRIGGER IF EXISTS players_merged_once",
    "DROP TRIGGER IF EXISTS player_merges_survivor_guard",
    *(f"DROP TRIGGER IF EXISTS {t}_not_merged_{e}" for t in HOLDERS for e in ('insert', 'update')),
]


def upgrade() -> None:
    with op.batch_alter_table('player_merges', schema=None) as batch_op:
        batch_op.create_index(
            INDEX,
            ['duplicate_id'],
            unique=True,
            sqlite_where=sa.text('undone_at IS NULL'),
            postgresql_where=sa.text('undone_at IS NULL'),
        )
    dialect = op.get_bind().dialect.name
    for statement in {'postgresql': _POSTGRESQL, 'sqlite': _SQLITE}.get(dialect, []):
        op.execute(statement)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    for statement in {'postgresql': _POSTGRESQL_DROPS, 'sqlite': _SQLITE_DROPS}.get(dialect, []):
        op.execute(statement)
    with op.batch_alter_table('player_merges', schema=None) as batch_op:
        batch_op.drop_index(INDEX)
