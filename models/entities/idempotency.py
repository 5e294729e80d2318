"""The stored answers of idempotent requests (not league data: no data-version triggers)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base
from models.infra.clock import utcnow

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


class IdempotentRequest(Base):
    """A write answered under an Idempotency-Key: a retry with the same key and body gets the
    same answer without storing anything again. Scoped to the API key; kept 48 hours
    (`api/idempotency.py`, the only code that uses it)."""

    __tablename__ = "idempotent_requests"
    __table_args__ = (UniqueConstraint("api_key_id", "idempotency_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    api_key_id: Mapped[int] = mapped_column(Integer)
    idempotency_key: Mapped[str] = mapped_column(String(255))
    request_hash: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int] = mapped_column(Integer)
    response_body: Mapped[Any] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
