"""The versions every cached answer is keyed by (models/services/freshness.py says how): the data
version, bumped by database triggers with every change to league data in the change's own
transaction (migration 0008), and the scopes' versions (migrations 0022, 0024, 0033); and the one
map of which table bumps which scope."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base

# Tables whose changes are not league data: the version itself, Alembic's bookkeeping, the
# stored answers of idempotent requests (they replay an answer, they are never read as data), and
# the web console's sign-ins.
UNVERSIONED_TABLES = frozenset(
    {"data_version", "scope_versions", "alembic_version", "idempotent_requests", "console_sessions"}
)
# A night's live state (R22): every answer of a night is keyed by the night's own `sequence`,
# moved on by each of its actions, and by its venue's `night:V` scope (migration 0037, which the
# refresher follows), so a bust-out at one venue moves no data version or other scope and
# retires no other answer (migration 0028). The report a night becomes moves what a report moves.
NIGHT_TABLES = frozenset({"nights", "night_entries", "night_actions"})
# Telling others (R23): the outbox, subscriptions, deliveries, consents and messages are written
# with a change, or by the delivery worker: they move no data version (migrations 0030, 0031), so
# a delivery's bookkeeping neither retires every answer nor waits on the league's writers.
OUTBOX_TABLES = frozenset(
    {
        "outbox_events",
        "webhooks",
        "webhook_deliveries",
        "email_consents",
        "email_messages",
        "email_subscription_requests",
        "email_confirmations",
    }
)
# Those that cached answers read (the office's subscriptions and their delivery log, a player's
# consent) move the `outbox` scope instead (migration 0033), whoever writes them, the delivery
# worker included: at the commit, after every other lock the transaction took, so a worker and a
# league writer wait on each other for a commit at most, and in no order that could deadlock. The
# weekly email's messages, the requests for it and their confirmation links
# are read by no cached answer (tests/api/cache/test_reads_covered.py fails when one does).
UNREAD_OUTBOX_TABLES = frozenset({"email_messages", "email_subscription_requests", "email_confirmations"})
OUTBOX_SCOPE_TABLES = OUTBOX_TABLES - UNREAD_OUTBOX_TABLES

# Which tables bump which scope (`Scope` names them; the triggers of migrations 0022, 0024 and 0033
# are held to this map by tests/migrations/test_data_version.py). A table that a scoped answer reads
# is in one of the first two; a table added later must be placed here (and given its triggers)
# or that test fails.
SCOPED_TABLES = frozenset({"tournaments", "results", "standing_lines"})  # season:S and venue:S:V
LEAGUE_SCOPE_TABLES = frozenset(
    {
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
        "players",  # an UPDATE or DELETE only: a new player shows only through results
    }
)
# A report's own scope (`report:T`, migration 0024): its row and its results.
REPORT_SCOPE_TABLES = frozenset({"tournaments", "results"})
# Each kind of scope (a scope's name up to its first ':') and the tables whose every change moves
# it: what a view's declaration covers (tests/api/cache/test_reads_covered.py holds the views'
# reads to it).
SCOPE_TABLES: dict[str, frozenset[str]] = {
    "league": LEAGUE_SCOPE_TABLES,
    "season": SCOPED_TABLES,
    "venue": SCOPED_TABLES,
    "report": REPORT_SCOPE_TABLES,
    "outbox": OUTBOX_SCOPE_TABLES,
    "night": NIGHT_TABLES,  # night:V, a venue's nights (migration 0037)
}
# Read by no scoped answer: their changes move no scope (the league's data version still moves).
SCOPE_FREE_TABLES = frozenset(
    {
        "audit_log",
        "api_keys",
        "api_key_venues",
        "player_keys",
        "player_ratings",
        "rating_points",
        "venue_nights",
        "schedule_exceptions",
        "night_stamps",
        "erased_values",
        "structures",
    }
)


class DataVersion(Base):
    __tablename__ = "data_version"
    __table_args__ = (CheckConstraint("id = 1", name="single_row"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Moves on with every change: each changed row on SQLite, each changing statement on PostgreSQL.
    version: Mapped[int] = mapped_column(BigInteger)
    # A random token, renewed when the database is restored from a backup: versions then repeat,
    # so cached answers of the abandoned timeline must not be taken for the restored one's.
    epoch: Mapped[str] = mapped_column(String(32))


class ScopeVersion(Base):
    """The version of one scope of league data (migrations 0022 and 0024): `league`, `season:S`,
    `venue:S:V` or `report:T` (`Scope` names them), bumped by triggers with every change to the
    rows of that scope. A scope never changed has no row (version 0). Each bump is recorded
    (migration 0037, models/freshness/bumps.py): `seq`, the league-wide counter's number of its
    latest bump, and on PostgreSQL `xact`, the transaction that made it."""

    __tablename__ = "scope_versions"
    __table_args__ = (Index("ix_scope_versions_seq", "seq"), Index("ix_scope_versions_xact", "xact"))

    scope: Mapped[str] = mapped_column(String(80), primary_key=True)
    version: Mapped[int] = mapped_column(BigInteger)
    seq: Mapped[int | None] = mapped_column(BigInteger)
    xact: Mapped[int | None] = mapped_column(BigInteger)
