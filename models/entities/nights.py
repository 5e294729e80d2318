"""The league night as it happens (R22): blind structures, the night opened at a venue, who
signed in and where they sit, and every action of the night, once each (its phone's action id)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.entities.base import Base
from models.entities.league import Venue
from models.entities.players import Player
from models.infra.clock import utcnow

NIGHT_STATES = ("open", "finished", "reported")
ENTRY_STATES = ("playing", "out", "declared_withdrawal", "absent", "no_show")


class Structure(Base):
    """A blind structure (R22): starting chips, levels `[{small_blind, big_blind, minutes}]` and
    breaks `[{after_level, minutes, note}]`, checked when saved (rules/structures)."""

    __tablename__ = "structures"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    starting_chips: Mapped[int] = mapped_column(Integer)
    levels: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    breaks: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)


class Night(Base):
    """A night opened at a venue (R22), on its local date and session: the structure, table size
    and late registration it was opened with (kept as they were, so a later edit never moves a
    running clock), its clock (when play started, a pause under way, the seconds paused), the
    sequence of its state (every action moves it on), and the report it became."""

    __tablename__ = "nights"
    __table_args__ = (
        UniqueConstraint("venue_id", "date", "session"),
        CheckConstraint("state IN ('open', 'finished', 'reported')", name="state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    venue_id: Mapped[int] = mapped_column(ForeignKey("venues.id"), index=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"), index=True)
    date: Mapped[date] = mapped_column(Date)
    session: Mapped[int] = mapped_column(Integer, default=1)
    scheduled: Mapped[bool] = mapped_column(Boolean, default=True)
    structure_id: Mapped[int | None] = mapped_column(ForeignKey("structures.id"))
    structure: Mapped[dict[str, Any]] = mapped_column(JSON)
    table_size: Mapped[int] = mapped_column(Integer)
    late_after_level: Mapped[int | None] = mapped_column(Integer)
    late_minutes: Mapped[int | None] = mapped_column(Integer)
    # Re-entry as the venue allowed it when the night opened (R22, 002): once, at a break, up
    # to the `re_entry_until_break`th (None: any break).
    re_entry_allowed: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    re_entry_until_break: Mapped[int | None] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(12), default="open")
    sequence: Mapped[int] = mapped_column(Integer, default=0)
    drawn: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    clock_started_at: Mapped[datetime | None] = mapped_column(DateTime)
    clock_paused_at: Mapped[datetime | None] = mapped_column(DateTime)
    paused_seconds: Mapped[float] = mapped_column(Float, default=0.0, server_default=text("0"))
    # Seconds of play the host's moves of the clock added (a skip) or took back (a step back).
    clock_moved_seconds: Mapped[float] = mapped_column(Float, default=0.0, server_default=text("0"))
    opened_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    opened_by: Mapped[str] = mapped_column(String(120))
    opened_by_key_id: Mapped[int | None] = mapped_column(Integer)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime)
    places: Mapped[dict[str, int] | None] = mapped_column(JSON)  # the finishing order, once over
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))
    # Why the finished night's report was refused (R2-R6, R16), until it is posted.
    report_problems: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)

    venue: Mapped[Venue] = relationship(viewonly=True)
    entries: Mapped[list[NightEntry]] = relationship(
        back_populates="night", order_by="NightEntry.id", viewonly=True
    )


class NightEntry(Base):
    """A player signed in to a night: their seat (after the draw), whether they are still in,
    and when they went out (`out_hand`: the sequence of the action that put them out; `out_rank`:
    their order on that hand, 0 the highest finish), with the chips they had before it."""

    __tablename__ = "night_entries"
    __table_args__ = (
        UniqueConstraint("night_id", "player_id"),
        CheckConstraint(
            "status IN ('playing', 'out', 'declared_withdrawal', 'absent', 'no_show')", name="status"
        ),
        # Two players never share a seat while both are in.
        Index(
            "ux_night_entries_seat",
            "night_id",
            "table_no",
            "seat_no",
            unique=True,
            sqlite_where=text("status = 'playing' AND table_no IS NOT NULL"),
            postgresql_where=text("status = 'playing' AND table_no IS NOT NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    table_no: Mapped[int | None] = mapped_column(Integer)
    seat_no: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(24), default="playing")
    out_hand: Mapped[int | None] = mapped_column(Integer)
    out_rank: Mapped[int | None] = mapped_column(Integer)
    chips_before: Mapped[int | None] = mapped_column(Integer)
    knocked_out_by_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    late: Mapped[bool] = mapped_column(Boolean, default=False)  # a late entry the host allowed
    re_entered: Mapped[bool] = mapped_column(Boolean, default=False)
    override_reason: Mapped[str | None] = mapped_column(Text)  # R16: the office let them in
    signed_in_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)

    night: Mapped[Night] = relationship(back_populates="entries", viewonly=True)
    player: Mapped[Player] = relationship(foreign_keys=[player_id], viewonly=True)


class NightAction(Base):
    """One action of a night, applied once: the phone's `action_id` (a retry finds it and changes
    nothing), the night's sequence it made, what was asked (players by id, never their personal
    values; `asked`: a keyed digest of the whole body, which tells a retry from another action
    under the same id), and what it did (`effect`: seats before, moves, so the last can be
    undone)."""

    __tablename__ = "night_actions"
    __table_args__ = (
        UniqueConstraint("night_id", "action_id"),
        UniqueConstraint("night_id", "sequence"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id"), index=True)
    action_id: Mapped[str] = mapped_column(String(64))
    sequence: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(24))
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    effect: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    undone_at: Mapped[int | None] = mapped_column(Integer)  # the sequence of the undo
    actor: Mapped[str] = mapped_column(String(120))
    actor_key_id: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
