"""Reports (a tournament's finishing order as its host posts it, R2-R6) and their results, with the
points stored on each (R7, R8). The tables keep their published names, `tournaments` and
`results` (and `results.tournament_id`): only the code says "report"."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    CheckConstraint,
    ColumnElement,
    Date,
    DateTime,
    Enum,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.ext.hybrid import hybrid_property
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.entities.base import Base
from models.entities.league import Season, Venue
from models.entities.players import Player
from models.infra.clock import utcnow
from models.rules import reports as report_rules
from models.rules.reports import EntrantStatus, ReportKind

REPORT_KINDS = tuple(kind.value for kind in ReportKind)
STATUSES = tuple(status.value for status in EntrantStatus)

# A live report is one not voided (R17: a voided report counts nowhere). `Report.live` says
# it in Python and in queries on the entity; `live_in` on other columns (the table's, for the
# statements built on tables); LIVE_SQL in DDL (the partial unique index).
LIVE_SQL = "voided_at IS NULL"


def live_in(columns: Any) -> ColumnElement[bool]:
    """`Report.live` over columns holding `voided_at`: the entity's, an alias's, or a table's
    (`table_of(Report).c`: a statement built on the table stays a Core statement)."""
    condition: ColumnElement[bool] = columns.voided_at.is_(None)
    return condition


def played_in(columns: Any) -> ColumnElement[bool]:
    """`Result.played` over columns holding `status`: the entity's, or a subquery's."""
    condition: ColumnElement[bool] = columns.status != EntrantStatus.NO_SHOW
    return condition


class Report(Base):
    """One report: a tournament's finishing order at a venue, stored, corrected or voided
    (R17). Its table keeps the published name `tournaments`."""

    __tablename__ = "tournaments"
    __table_args__ = (
        # One live report per venue, date and session (a second is a 409). A voided report keeps its
        # row (the office can still read it) but frees the slot for the report that replaces it.
        Index(
            "uq_tournaments_venue_date_session",
            "venue_id",
            "date",
            "session",
            unique=True,
            sqlite_where=text(LIVE_SQL),
            postgresql_where=text(LIVE_SQL),
        ),
        Index("ix_tournaments_season_venue_date", "season_id", "venue_id", "date"),
        # A season's page of live reports, newest first, and how many there are: from the index
        # alone (migration 0025).
        Index(
            "ix_tournaments_live_season_order",
            "season_id",
            "date",
            "session",
            "id",
            sqlite_where=text(LIVE_SQL),
            postgresql_where=text(LIVE_SQL),
        ),
        # The rating order (R20): the reports from a date, session and id on.
        Index("ix_tournaments_rating_order", "date", "session", "id"),
        CheckConstraint("session >= 1", name="session_positive"),
        CheckConstraint("entrants >= 1", name="entrants_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    venue_id: Mapped[int] = mapped_column(ForeignKey("venues.id"))
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"))
    date: Mapped[date] = mapped_column(Date)
    session: Mapped[int] = mapped_column(Integer, default=1)
    kind: Mapped[str] = mapped_column(
        Enum(*REPORT_KINDS, name="tournament_kind", native_enum=False, create_constraint=True)
    )
    entrants: Mapped[int] = mapped_column(Integer)
    # Bumped by every correction, so a reader can tell which version of a report they saw.
    version: Mapped[int] = mapped_column(Integer, default=1)
    reported_by: Mapped[str] = mapped_column(String(120))
    reported_by_key_id: Mapped[int | None] = mapped_column(Integer)
    # The reporter's role ("host", "office", or "system" for the command line): what anyone may
    # see of who reported, while the key's name (perhaps a person's) is for the office and the
    # venue's hosts (R19).
    reported_by_role: Mapped[str] = mapped_column(String(16), default="office", server_default="office")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)
    voided_at: Mapped[datetime | None] = mapped_column(DateTime)
    voided_by: Mapped[str | None] = mapped_column(String(120))
    void_reason: Mapped[str | None] = mapped_column(Text)

    venue: Mapped[Venue] = relationship()
    season: Mapped[Season] = relationship()
    results: Mapped[list[Result]] = relationship(
        back_populates="report", cascade="all, delete-orphan", order_by="Result.place"
    )

    @hybrid_property
    def live(self) -> bool:
        """Not voided: the report counts (R17). In a query, `where(Report.live)`."""
        return self.voided_at is None

    @live.inplace.expression
    @classmethod
    def _live_expression(cls) -> ColumnElement[bool]:
        return live_in(cls)

    @property
    def voided(self) -> bool:
        return not self.live


class Result(Base):
    """One entrant's final place (R4), status (R6) and the points it earned (R7, R8)."""

    __tablename__ = "results"
    __table_args__ = (
        UniqueConstraint("tournament_id", "player_id"),
        UniqueConstraint("tournament_id", "place"),
        CheckConstraint("place >= 1", name="place_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    place: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(
        Enum(*STATUSES, name="entrant_status", native_enum=False, create_constraint=True),
        default=EntrantStatus.PLAYED.value,
    )
    placement_points: Mapped[int] = mapped_column(Integer, default=0)
    participation_points: Mapped[int] = mapped_column(Integer, default=0)
    # R8a: who knocked the player out (an entrant who finished higher); how many this player
    # knocked out in the report, and the points that earned (part of `points`).
    # No foreign key (SQLite adds none to a table in place; recreating results would drop its
    # triggers): the report's checks name an entrant, merges move it (migration 0029).
    knocked_out_by_id: Mapped[int | None] = mapped_column(Integer, index=True)
    knockouts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    knockout_points: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    points: Mapped[int] = mapped_column(Integer, default=0)

    report: Mapped[Report] = relationship(back_populates="results")
    player: Mapped[Player] = relationship()

    @hybrid_property
    def played(self) -> bool:
        """Played, not a no-show (R9; rules/reports.played). In a query, `Result.played`."""
        return report_rules.played(self.status)

    @played.inplace.expression
    @classmethod
    def _played_expression(cls) -> ColumnElement[bool]:
        return played_in(cls)
