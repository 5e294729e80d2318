"""a player's data rights: per-player audit keys, the erasures, sealed audit entries

- player_keys: each player's data key, wrapped by the master key (AUDIT_KEY, else
  instance/audit_key for the embedded SQLite default, as the app reads it). Every player gets one.
- erasures: the players whose personal data was erased (R21), one row per player (the last guard
  of R17a), so an erasure can be applied again after an older backup is restored.
- league_settings.erase_inactive_after_months: retention, off (null) by default.
- audit_log: every personal value an existing entry holds about a player is sealed under that
  player's key (R21), so that no personal value stays in plain text in the log. The log's R18
  triggers refuse UPDATE, so they are dropped for this rewrite and made again at once, in the
  migration's one transaction; the downgrade opens the values again the same way.

Revision ID: 0020
Revises: 0017
Create Date: 2026-12-06 09:00:00
"""
import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from models.infra import sealing
from models.infra.clock import utcnow
from models.rules import personal

revision: str = '0020'
down_revision: str | None = '0019'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BUMP = "UPDATE data_version SET version = version + 1 WHERE id = 1"
TABLES = ('player_keys', 'erasures')
MESSAGE = 'R18: the audit log is append-only'
SQLITE_GUARDS = (
    f"CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END",
    f"CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END",
)
POSTGRESQL_GUARD = (
    "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log "
    "FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()"
)

audit_log = sa.table(
    'audit_log',
    sa.column('id', sa.Integer),
    sa.column('entity', sa.String),
    sa.column('entity_id', sa.Integer),
    sa.column('before', sa.JSON),
    sa.column('after', sa.JSON),
    sa.column('reason', sa.Text),
)
player_keys = sa.table(
    'player_keys',
    sa.column('player_id', sa.Integer),
    sa.column('wrapped_key', sa.LargeBinary),
    sa.column('created_at', sa.DateTime),
)


def _keyring() -> sealing.Keyring:
    bind = op.get_bind()
    return sealing.Keyring(sealing.master_key_text(bind.engine.url.render_as_string(hide_password=False)))


def _version_triggers(table: str) -> None:
    # League data like any other table: its changes move the data version on (migration 0008).
    if op.get_bind().dialect.name == 'postgresql':
        op.execute(
            f"CREATE TRIGGER data_version_{table} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE "
            f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()"
        )
    else:
        for event in ('INSERT', 'UPDATE', 'DELETE'):
            op.execute(
                f"CREATE TRIGGER data_version_{table}_{event.lower()} AFTER {event} ON {table} "
                f"BEGIN {BUMP}; END"
            )


def _without_guards(rewrite: Any) -> None:
    """Run `rewrite` with the audit log's R18 triggers dropped, and make them again."""
    dialect = op.get_bind().dialect.name
    if dialect == 'postgresql':
        op.execute("DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log")
    else:
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_update")
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_delete")
    rewrite()
    if dialect == 'postgresql':
        op.execute(POSTGRESQL_GUARD)
    else:
        for statement in SQLITE_GUARDS:
            op.execute(statement)


def _player_values(bind: sa.Connection) -> dict[int, set[str]]:
    rows = bind.execute(
        sa.text("SELECT id, full_name, display_name, email, date_of_birth, membership_number FROM players")
    ).all()
    values = {}
    for player_id, full_name, display_name, email, born, number in rows:
        values[player_id] = {str(v) for v in (full_name, display_name, email, born, number) if v}
    return values


def _loaded(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def upgrade() -> None:
    op.create_table(
        'player_keys',
        sa.Column('player_id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('wrapped_key', sa.LargeBinary(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('player_id', name=op.f('pk_player_keys')),
    )
    op.create_table(
        'erasures',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('erased_at', sa.DateTime(), nullable=False),
        sa.Column('erased_by', sa.String(length=120), nullable=False),
        sa.Column('erased_by_key_id', sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_erasures')),
        sa.UniqueConstraint('player_id', name=op.f('uq_erasures_player_id')),
    )
    for table in TABLES:
        _version_triggers(table)
    # A plain ADD COLUMN: the table keeps its triggers.
    op.add_column('league_settings', sa.Column('erase_inactive_after_months', sa.Integer(), nullable=True))

    bind = op.get_bind()
    values = _player_values(bind)
    if not values:
        return
    keyring = _keyring()
    keys: dict[int, bytes] = {}
    stored = []
    now = utcnow()
    for player_id in sorted(values):
        keys[player_id], wrapped = keyring.new_data_key(player_id)
        stored.append({'player_id': player_id, 'wrapped_key': wrapped, 'created_at': now})
    bind.execute(player_keys.insert(), stored)

    def seal(value: Any, owners: list[int]) -> dict[str, Any]:
        return {personal.SEALED: owners, 'v': sealing.seal_value(keys, owners, value)}

    def rewrite() -> None:
        entries = bind.execute(
            sa.select(
                audit_log.c.id, audit_log.c.entity, audit_log.c.entity_id,
                audit_log.c.before, audit_log.c.after, audit_log.c.reason,
            ).order_by(audit_log.c.id)
        ).all()
        for entry_id, entity, entity_id, before, after, reason in entries:
            before, after = _loaded(before), _loaded(after)
            named = personal.players_named(entity, entity_id, (before, after)) & keys.keys()
            if not named:
                continue
            found = personal.personal_values(entity, entity_id, (before, after))
            held = {p: found.get(p, set()) | values.get(p, set()) for p in named}
            owner = entity_id if entity == 'player' else None
            new_before = personal.seal_tree(before, owner, held, keys.keys(), seal)
            new_after = personal.seal_tree(after, owner, held, keys.keys(), seal)
            new_reason = reason
            if reason:
                token = personal.seal_tree(reason, owner, held, keys.keys(), seal)
                new_reason = json.dumps(token) if personal.is_sealed(token) else reason
            if (new_before, new_after, new_reason) != (before, after, reason):
                bind.execute(
                    audit_log.update()
                    .where(audit_log.c.id == entry_id)
                    .values(before=new_before, after=new_after, reason=new_reason)
                )

    _without_guards(rewrite)


def downgrade() -> None:
    bind = op.get_bind()
    rows = bind.execute(sa.select(player_keys.c.player_id, player_keys.c.wrapped_key)).all()
    if rows:
        keyring = _keyring()
        keys = {player_id: keyring.unwrap(player_id, wrapped) for player_id, wrapped in rows}
    else:
        keys = {}

    def unseal(token: dict[str, Any]) -> Any:
        try:
            return sealing.open_value(keys, [int(p) for p in token[personal.SEALED]], token['v'])
        except sealing.Unreadable:
            return personal.ERASED

    def rewrite() -> None:
        entries = bind.execute(
            sa.select(audit_log.c.id, audit_log.c.before, audit_log.c.after, audit_log.c.reason)
        ).all()
        for entry_id, before, after, reason in entries:
            before, after = _loaded(before), _loaded(after)
            new_before, new_after = personal.open_tree(before, unseal), personal.open_tree(after, unseal)
            new_reason = reason
            if reason and reason.startswith('{"' + personal.SEALED + '"'):
                token = json.loads(reason)
                new_reason = unseal(token) if personal.is_sealed(token) else reason
            if (new_before, new_after, new_reason) != (before, after, reason):
                bind.execute(
                    audit_log.update()
                    .where(audit_log.c.id == entry_id)
                    .values(before=new_before, after=new_after, reason=new_reason)
                )

    _without_guards(rewrite)
    op.execute("ALTER TABLE league_settings DROP COLUMN erase_inactive_after_months")
    for table in TABLES:
        if bind.dialect.name == 'postgresql':
            op.execute(f"DROP TRIGGER IF EXISTS data_version_{table} ON {table}")
        op.drop_table(table)
