"""Sanctions against players (R15): reminders, warnings, suspensions and venue bans."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import CheckConstraint, Date, DateTime, Enum, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.entities.base import Base
from models.entities.league import Venue
from models.entities.players import Player
from models.infra.clock import utcnow
from models.rules.sanctions import CATEGORIES, KINDS, Terms


class Sanction(Base):
    """A reminder, warning, suspension or venue ban. Never deleted: lifting one early keeps the
    record, with who lifted it, when and why."""

    __tablename__ = "sanctions"
    __table_args__ = (
        CheckConstraint("last_day IS NULL OR last_day >= first_day", name="days_ordered"),
        CheckConstraint("(kind = 'venue_ban') = (venue_id IS NOT NULL)", name="venue_only_for_bans"),
        # R16 looks up the sanctions of a report's players in one query.
        Index("ix_sanctions_player_id_kind", "player_id", "kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(
        Enum(*KINDS, name="sanction_kind", native_enum=False, create_constraint=True)
    )
    category: Mapped[str] = mapped_column(
        Enum(*CATEGORIES, name="sanction_category", native_enum=False, create_constraint=True)
    )
    venue_id: Mapped[int | None] = mapped_column(ForeignKey("venues.id"), index=True)
    first_day: Mapped[date] = mapped_column(Date)
    # None: permanent.
    last_day: Mapped[date | None] = mapped_column(Date)
    reason: Mapped[str] = mapped_column(Text)
    issued_by: Mapped[str] = mapped_column(String(120))
    issued_by_role: Mapped[str] = mapped_column(String(16))
    issued_by_key_id: Mapped[int | None] = mapped_column(Integer)
    issued_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    lifted_at: Mapped[datetime | None] = mapped_column(DateTime)
    # The day the lift took effect (UTC): from then on the sanction no longer runs.
    lifted_on: Mapped[date | None] = mapped_column(Date)
    lifted_by: Mapped[str | None] = mapped_column(String(120))
    lifted_by_key_id: Mapped[int | None] = mapped_column(Integer)
    lift_reason: Mapped[str | None] = mapped_column(Text)

    player: Mapped[Player] = relationship()
    venue: Mapped[Venue | None] = relationship()

    @property
    def terms(self) -> Terms:
        """The pure rule's view of this sanction."""
        return Terms(self.kind, self.category, self.first_day, self.last_day, self.venue_id, self.lifted_on)

    @property
    def permanent(self) -> bool:
        return self.last_day is None

    @property
    def lifted(self) -> bool:
        return self.lifted_at is not None

    def active_on(self, day: date) -> bool:
        """Runs on `day` (R15): begun, not over, not lifted by then."""
        return self.terms.runs_on(day)
