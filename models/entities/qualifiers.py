"""Qualification (R12, R13): the office's disqualifications for a season, and the qualifier lists
it published (frozen as they were: a published list never changes silently)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.entities.base import Base
from models.entities.players import Player
from models.infra.clock import utcnow
from models.rules.qualifier_lists import VenueList


class Disqualification(Base):
    """R13: the office disqualified a player for a season; withdrawing keeps the record."""

    __tablename__ = "disqualifications"
    __table_args__ = (
        # One standing disqualification per player and season; a withdrawn one frees the place.
        Index(
            "uq_disqualifications_season_player",
            "season_id",
            "player_id",
            unique=True,
            sqlite_where=text("withdrawn_at IS NULL"),
            postgresql_where=text("withdrawn_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    created_by: Mapped[str] = mapped_column(String(120))
    created_by_key_id: Mapped[int | None] = mapped_column(Integer)
    withdrawn_at: Mapped[datetime | None] = mapped_column(DateTime)
    withdrawn_by: Mapped[str | None] = mapped_column(String(120))
    withdraw_reason: Mapped[str | None] = mapped_column(Text)

    player: Mapped[Player] = relationship()

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


class QualifierPublication(Base):
    """R12: the season's qualifier lists as the office published them. The newest is official."""

    __tablename__ = "qualifier_publications"

    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"), index=True)
    published_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    published_by: Mapped[str] = mapped_column(String(120))
    published_by_key_id: Mapped[int | None] = mapped_column(Integer)
    note: Mapped[str | None] = mapped_column(Text)
    # The office's draws settling ties at the cut: [{"venue_id", "player_id"}, ...].
    settlements: Mapped[list[dict[str, int]]] = mapped_column(JSON, default=list)
    # Every venue's list as published (plain JSON), frozen.
    lists: Mapped[list[VenueList]] = mapped_column(JSON)
