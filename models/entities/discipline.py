"""Discipline (R15): sanctions against players, and the league-wide settings they follow."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import CheckConstraint, Date, DateTime, Enum, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.entities.base import Base
from models.entities.league import Venue
from models.entities.players import Player
from models.infra.clock import default_zone, utcnow
from models.rules.discipline import CATEGORIES, KINDS, Minimums, Terms
from models.rules.framing import ANY_SITE

DEFAULT_MINIMUMS = Minimums()
# The most entrants a report may have unless the office says otherwise: a pub's big night is a
# few dozen; a region's final a few hundred. The office may set 50 to 10,000.
DEFAULT_MAX_ENTRANTS, LEAST_MAX_ENTRANTS, MOST_MAX_ENTRANTS = 500, 50, 10_000
# The league's name until the office gives its own (the league setting `name`).
DEFAULT_LEAGUE_NAME = "Poker League"


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


class LeagueSettings(Base):
    """League-wide settings (one row): the minimum suspension lengths of R15, the most entrants a
    report may have, which sites may frame the embeddable pages, the league's zone and name."""

    __tablename__ = "league_settings"
    __table_args__ = (
        CheckConstraint("id = 1", name="single_row"),
        CheckConstraint("min_suspension_days >= 0", name="min_suspension_days"),
        CheckConstraint("min_outside_alcohol_months >= 0", name="min_outside_alcohol_months"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, default=1)
    min_suspension_days: Mapped[int] = mapped_column(Integer, default=DEFAULT_MINIMUMS.suspension_days)
    min_outside_alcohol_months: Mapped[int] = mapped_column(
        Integer, default=DEFAULT_MINIMUMS.outside_alcohol_months
    )
    max_entrants: Mapped[int] = mapped_column(
        Integer, default=DEFAULT_MAX_ENTRANTS, server_default=str(DEFAULT_MAX_ENTRANTS)
    )
    # Which sites may frame the embeddable pages (a CSP frame-ancestors source list).
    embed_frame_ancestors: Mapped[str] = mapped_column(
        String(2000), default=ANY_SITE, server_default=ANY_SITE
    )
    # R2a: the league's IANA zone; None: LEAGUE_TIMEZONE, else UTC (`zone`).
    timezone: Mapped[str | None] = mapped_column(String(64))
    # The league's name, as the front door (GET /) and its pages say it.
    name: Mapped[str] = mapped_column(
        String(120), default=DEFAULT_LEAGUE_NAME, server_default=DEFAULT_LEAGUE_NAME
    )
    # R21 retention: players with no result in this many months are erased by
    # `flask players erase-inactive` (run by cron); None: off (the default).
    erase_inactive_after_months: Mapped[int | None] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)

    @property
    def zone(self) -> str:
        """The zone league-wide dates are read in (R2a)."""
        return self.timezone or default_zone()

    @property
    def minimums(self) -> Minimums:
        return Minimums(self.min_suspension_days, self.min_outside_alcohol_months)
