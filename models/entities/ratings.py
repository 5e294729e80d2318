"""Skill ratings (R20): each player's current rating and a point of history per rated report, kept
equal to a computation from scratch by every write that changes results
(models/services/ratings/writes.py). Derived data: the results are the record, and
`flask --app app ratings rebuild` recomputes both tables from them."""

from __future__ import annotations

from datetime import date

from sqlalchemy import Date, Double, ForeignKey, Index, Integer
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base


class PlayerRating(Base):
    """A player's rating now: mu and sigma as openskill left them (double precision, stored
    exactly), the rated tournaments, and the last rated report (its place in the rating order)."""

    __tablename__ = "player_ratings"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    tournaments: Mapped[int] = mapped_column(Integer)
    # The last rated report, by its place in the order (no foreign key: when the report is
    # deleted, the replay from its place finds this row and restores it from the history).
    last_tournament_id: Mapped[int] = mapped_column(Integer)
    last_date: Mapped[date] = mapped_column(Date)
    last_session: Mapped[int] = mapped_column(Integer)


class RatingPoint(Base):
    """One player's rating after one rated report (R20): the report's place in the order (date,
    session, id), venue, the player's place and the rated entrants, mu and sigma after."""

    __tablename__ = "rating_points"
    __table_args__ = (
        # The replay's cut: every point from a place in the order on.
        Index("ix_rating_points_order", "date", "session", "tournament_id"),
        # A region's rating table: the players with a point at one of its venues (migration 0023).
        Index("ix_rating_points_venue_player", "venue_id", "player_id"),
    )

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    # No foreign keys to players and venues (migration 0021): a point goes with its report, and
    # the checks were most of a rated report's write. The rebuild guard after every test catches
    # a point left behind.
    player_id: Mapped[int] = mapped_column(Integer, primary_key=True, index=True)
    date: Mapped[date] = mapped_column(Date)
    session: Mapped[int] = mapped_column(Integer)
    venue_id: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    entrants: Mapped[int] = mapped_column(Integer)  # the report's rated entrants
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    tournaments: Mapped[int] = mapped_column(Integer)  # rated tournaments, this one included
