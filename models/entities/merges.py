"""Player merges (R17): the office merged a duplicate player record into another; what moved is
kept, so the merge can be undone exactly."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base
from models.infra.clock import utcnow


class PlayerMerge(Base):
    __tablename__ = "player_merges"
    __table_args__ = (
        # R17: a duplicate has at most one live merge (migration 0014; its triggers guard the rest).
        Index(
            "uq_player_merges_live_duplicate",
            "duplicate_id",
            unique=True,
            sqlite_where=text("undone_at IS NULL"),
            postgresql_where=text("undone_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    survivor_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    duplicate_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    reason: Mapped[str] = mapped_column(Text)
    merged_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    merged_by: Mapped[str] = mapped_column(String(120))
    merged_by_key_id: Mapped[int | None] = mapped_column(Integer)
    # What moved, to undo it exactly: {"results": [ids], "sanctions": [ids],
    # "disqualifications": [ids], "fields": {name: value taken from the duplicate}}.
    moved: Mapped[Any] = mapped_column(JSON)
    undone_at: Mapped[datetime | None] = mapped_column(DateTime)
    undone_by: Mapped[str | None] = mapped_column(String(120))
    undo_reason: Mapped[str | None] = mapped_column(Text)

    @property
    def undone(self) -> bool:
        return self.undone_at is not None
