"""Standing lines: each player's results at a venue in a season, summed (R9-R11), kept up to date
by every write that changes results (models/services/standings/lines.py). Derived data: the
results are the record, and `flask --app app standings rebuild` recomputes the lines from them."""

from __future__ import annotations

from sqlalchemy import ForeignKey, Index, Integer, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base


class StandingLine(Base):
    """One player's line at one venue in one season: the live regular results there, every date."""

    __tablename__ = "standing_lines"
    __table_args__ = (
        # A season's lines by venue, best first: the top of every table in one index walk.
        Index("ix_standing_lines_season_venue_points", "season_id", "venue_id", "points"),
    )

    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True)
    venue_id: Mapped[int] = mapped_column(ForeignKey("venues.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    finishes: Mapped[int] = mapped_column(Integer)  # results, no-shows included
    played: Mapped[int] = mapped_column(Integer)  # results that are not no-shows (R9)
    placement_points: Mapped[int] = mapped_column(Integer)
    participation_points: Mapped[int] = mapped_column(Integer)
    counted: Mapped[int] = mapped_column(Integer)  # R10: the totals that count
    wins: Mapped[int] = mapped_column(Integer)
    points_finishes: Mapped[int] = mapped_column(Integer)
    best_finish: Mapped[int] = mapped_column(Integer)
    place_total: Mapped[int] = mapped_column(Integer)
    best_single: Mapped[int] = mapped_column(Integer)
    places: Mapped[str] = mapped_column(Text)  # every place, comma-separated (R11's countback)
    knockout_points: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # R8a
    knockouts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # R8a
    points: Mapped[int] = mapped_column(Integer)  # counted + the attendance bonus (R9, R10)
