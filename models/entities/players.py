"""Players (R5) with the personal fields of R19."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base
from models.infra.clock import utcnow


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    full_name: Mapped[str] = mapped_column(String(200))
    display_name: Mapped[str] = mapped_column(String(120))
    # The display name normalised as name_key is (R5): what the public's search matches, so
    # "jose" finds "José A.".
    display_key: Mapped[str] = mapped_column(String(120), index=True)
    # The normalised name (R5): lower case, accents and punctuation removed, for duplicate hints.
    name_key: Mapped[str] = mapped_column(String(200), index=True)
    # Personal (R19). Email is stored lower-cased so uniqueness ignores case.
    email: Mapped[str | None] = mapped_column(String(254), unique=True)
    date_of_birth: Mapped[date | None] = mapped_column(Date)
    # R5: the date of birth as YYYYMMDD followed by a 4-digit PIN (002).
    membership_number: Mapped[str | None] = mapped_column(String(12), unique=True)
    home_venue_id: Mapped[int | None] = mapped_column(ForeignKey("venues.id"), index=True)
    # Set when the office merges this record into another (R17); the record is kept for undo.
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    # Registered by the demo league's loader (models/services/demo/writes.py): never shown at a venue
    # outside the demo's region (door lists, searches, a host's names to pick from).
    demo: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)

    @property
    def pin(self) -> str | None:
        return self.membership_number[8:] if self.membership_number else None


class DistinctPlayers(Base):
    """R5: the office said that two players whose names look alike are two people, so the pair is
    no longer offered as a possible duplicate. One row per pair, the lower id first (so a pair is
    stored once whichever of the two the office started from); the unique constraint is the last
    guard of "once" (R17a) when two offices say it at the same moment."""

    __tablename__ = "distinct_players"
    __table_args__ = (
        UniqueConstraint("low_id", "high_id"),
        CheckConstraint("low_id < high_id", name="lower_id_first"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    low_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    high_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    reason: Mapped[str] = mapped_column(Text)
    recorded_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    recorded_by: Mapped[str] = mapped_column(String(120))
    recorded_by_key_id: Mapped[int | None] = mapped_column(Integer)

    @property
    def player_ids(self) -> list[int]:
        return [self.low_id, self.high_id]
