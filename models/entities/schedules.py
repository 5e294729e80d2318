"""A venue's regular games and the exceptions to them (R2a: local dates and wall-clock times).

A scheduled game is a "game" in the code (ARCHITECTURE.md's glossary: "night" is the live night,
R22); the tables keep the names they were made with, `venue_nights` and `night_stamps`."""

from __future__ import annotations

import datetime as dt
from datetime import datetime

from sqlalchemy import (
    CheckConstraint,
    Date,
    DateTime,
    Enum,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
    select,
    text,
)
from sqlalchemy.orm import Mapped, aliased, mapped_column, relationship

from models.entities.base import Base
from models.entities.league import Venue
from models.infra.clock import utcnow
from models.rules.schedules import EXCEPTION_KINDS, MOST_GAMES_A_WEEKDAY

BEFORE_REVISIONS = "2026-01-01 00:00:00"  # the fixed DTSTAMP of every calendar event before 0026


class VenueGame(Base):
    """One regular game of a venue's week: ISO weekday (Monday 1), local start "HH:MM", sessions.
    Its table keeps its old name, `venue_nights`."""

    __tablename__ = "venue_nights"
    __table_args__ = (
        UniqueConstraint("venue_id", "weekday", "starts_at"),
        CheckConstraint("weekday >= 1 AND weekday <= 7", name="weekday"),
        CheckConstraint("sessions >= 1 AND sessions <= 20", name="sessions"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    venue_id: Mapped[int] = mapped_column(ForeignKey("venues.id"), index=True)
    weekday: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[str] = mapped_column(String(5))
    sessions: Mapped[int] = mapped_column(Integer, default=1)
    # R2a: when it was written or its sessions changed (a calendar event's DTSTAMP); rows from
    # before migration 0026, or written behind the service's back, hold 2026-01-01.
    changed_at: Mapped[datetime] = mapped_column(
        DateTime, default=utcnow, server_default=text(f"'{BEFORE_REVISIONS}'")
    )

    venue: Mapped[Venue] = relationship(viewonly=True)


# R2: the regular games a venue's schedule gives: its first 3 of each weekday, by start. A
# schedule is never saved with more (rules.schedules.schedule_problems); one stored before that
# bound, or behind the service's back, is read so everywhere (its answers, games and calendar
# feeds) until it is set again, when what is sent replaces every stored game.
_ranked = select(
    VenueGame,
    func.row_number()
    .over(partition_by=(VenueGame.venue_id, VenueGame.weekday), order_by=(VenueGame.starts_at, VenueGame.id))
    .label("rank_on_weekday"),
).subquery("ranked_nights")
AppliedGame = aliased(
    VenueGame,
    select(_ranked).where(_ranked.c.rank_on_weekday <= MOST_GAMES_A_WEEKDAY).subquery("applied_nights"),
    name="applied_night",
)

# Venue.regular_games: the venue's regular games as applied, by weekday and start (read only).
Venue.regular_games = relationship(
    AppliedGame,
    primaryjoin=lambda: AppliedGame.venue_id == Venue.id,
    order_by=lambda: (AppliedGame.weekday, AppliedGame.starts_at),
    viewonly=True,
)


class ScheduleException(Base):
    """A game cancelled, moved (to `to_date`) or added (a make-up game), on a local date."""

    __tablename__ = "schedule_exceptions"
    __table_args__ = (UniqueConstraint("venue_id", "kind", "date"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    venue_id: Mapped[int] = mapped_column(ForeignKey("venues.id"), index=True)
    kind: Mapped[str] = mapped_column(
        Enum(*EXCEPTION_KINDS, name="schedule_exception_kind", native_enum=False, create_constraint=True)
    )
    date: Mapped[dt.date] = mapped_column(Date)
    to_date: Mapped[dt.date | None] = mapped_column(Date)
    starts_at: Mapped[str | None] = mapped_column(String(5))
    sessions: Mapped[int | None] = mapped_column(Integer)
    note: Mapped[str | None] = mapped_column(Text)
    created_by: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class GameStamp(Base):
    """How many times the games a venue's schedule gives on a date (the date in their calendar
    UID: a moved game's first one) were changed by an exception, added or removed, and when last
    (R2a: a calendar event's SEQUENCE and DTSTAMP). Kept when its exception is removed: the game
    back as scheduled is a newer revision still. Deleted with its venue. Its table keeps its old
    name, `night_stamps`."""

    __tablename__ = "night_stamps"
    __table_args__ = (
        UniqueConstraint("venue_id", "date"),
        CheckConstraint("sequence >= 0", name="sequence"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    venue_id: Mapped[int] = mapped_column(ForeignKey("venues.id", ondelete="CASCADE"))
    date: Mapped[dt.date] = mapped_column(Date)
    sequence: Mapped[int] = mapped_column(Integer)
    changed_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
