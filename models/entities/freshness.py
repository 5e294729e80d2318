"""The service's own tables, which are not league data: the data version (every change to league
data moves it on, in the change's own transaction: database triggers, migration 0008, so cached
answers keyed by it are never stale), and the tables that are not league data, which have no
data-version triggers (`UNVERSIONED_TABLES`)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
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

# Scopes (migration 0022; api/cache.py): which tables move which scope's version on. A table that
# a scoped answer reads is in one of the first three; a table added later must be placed here (and
# given its triggers) or tests/migrations/test_data_version.py fails.
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
    `venue:S:V` or `report:T`, moved on by triggers with every change to the rows of that scope. A
    scope never changed has no row (version 0)."""

    __tablename__ = "scope_versions"

    scope: Mapped[str] = mapped_column(String(80), primary_key=True)
    version: Mapped[int] = mapped_column(BigInteger)
