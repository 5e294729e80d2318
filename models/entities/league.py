"""The league's shape: regions, venues, points charts and seasons (R1, R2, R7 and the season settings)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    ColumnElement,
    Date,
    DateTime,
    Enum,
    ForeignKey,
    Integer,
    Numeric,
    String,
    UniqueConstraint,
    false,
    select,
    text,
    true,
)
from sqlalchemy.ext.hybrid import hybrid_property
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.entities.base import Base
from models.infra.clock import utcnow
from models.rules.charts import ChartKind
from models.rules.knockouts import BOUNTIES, Bounty, Knockouts
from models.rules.nights import ReEntry
from models.rules.qualifiers import DoubleQualifierPolicy

CHART_KINDS = tuple(kind.value for kind in ChartKind)
DOUBLE_QUALIFIER_POLICIES = tuple(policy.value for policy in DoubleQualifierPolicy)

# The rulebook defaults of every season setting (R7-R14, R17; docs/rules.md).
SEASON_DEFAULTS: dict[str, Any] = {
    "participation_points": 0,
    "attendance_bonus": [],
    "count_best": None,
    "absent_keeps_place_points": False,
    "cut_fraction": Decimal("0.20"),
    "min_events_to_qualify": 1,
    "min_age": 21,
    "double_qualifier_policy": DoubleQualifierPolicy.BEST_RANK.value,
    "correction_days": 7,
    "knockout_points": 0,
    "bounty": Bounty.NONE.value,
    "bounty_points": 0,
}


class Region(Base):
    __tablename__ = "regions"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    # The demo league's region (set by its loader, models/services/demo/writes.py): its venues, players
    # and sanctions never show at a venue of any other region.
    demo: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Venue(Base):
    __tablename__ = "venues"
    __table_args__ = (UniqueConstraint("region_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    region_id: Mapped[int] = mapped_column(ForeignKey("regions.id"), index=True)
    city: Mapped[str | None] = mapped_column(String(120))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    # R2a: the IANA zone of the venue's wall clock; None: the league's.
    timezone: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)
    # R2a: how many times its name, city or zone changed (each of its calendar events reads
    # differently then): part of every event's SEQUENCE (models/services/schedule_queries.revisions).
    calendar_sequence: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    # R22: the night's tables hold this many players; the structure it plays (None: the
    # league's); late registration closes after this level or these minutes of play (neither:
    # at the end of the structure's first break).
    table_size: Mapped[int] = mapped_column(Integer, default=10, server_default=text("10"))
    structure_id: Mapped[int | None] = mapped_column(Integer)
    late_after_level: Mapped[int | None] = mapped_column(Integer)
    late_minutes: Mapped[int | None] = mapped_column(Integer)
    # R22 (002): whether a player out may re-enter once, at a break, and until which break (the
    # Nth of the structure's; None: any).
    re_entry_allowed: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    re_entry_until_break: Mapped[int | None] = mapped_column(Integer)

    region: Mapped[Region] = relationship()

    @property
    def re_entry(self) -> ReEntry:
        return ReEntry(self.re_entry_allowed, self.re_entry_until_break)

    # `regular_games`: its regular games, by weekday and start (VenueGame's backref, schedules.py).

    @hybrid_property
    def in_demo(self) -> bool:
        """A venue of the demo league's region. In a query, `where(Venue.in_demo)`."""
        return self.region.demo

    @in_demo.inplace.expression
    @classmethod
    def _in_demo_expression(cls) -> ColumnElement[bool]:
        return cls.region_id.in_(select(Region.id).where(Region.demo.is_(True)))


class PointsChart(Base):
    """R7: a `top_fraction` chart (fraction, step), a `bands` chart (rows in points_chart_bands)
    or a `formula` chart (its text as written, the fraction that gives k, and the preset it came
    from, if any)."""

    __tablename__ = "points_charts"
    __table_args__ = (
        CheckConstraint(
            "kind <> 'top_fraction' OR (fraction > 0 AND fraction <= 1 AND step >= 1)",
            name="top_fraction_settings",
        ),
        CheckConstraint(
            "kind <> 'formula' OR "
            "(formula IS NOT NULL AND fraction IS NOT NULL AND fraction > 0 AND fraction <= 1)",
            name="formula_settings",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    kind: Mapped[str] = mapped_column(
        Enum(*CHART_KINDS, name="chart_kind", native_enum=False, create_constraint=True)
    )
    fraction: Mapped[Decimal | None] = mapped_column(Numeric(5, 4))
    step: Mapped[int | None] = mapped_column(Integer)
    # R7 formula charts: the text as the office wrote it (a preset's text for a preset).
    formula: Mapped[str | None] = mapped_column(String(500))
    preset: Mapped[str | None] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)

    bands: Mapped[list[PointsChartBand]] = relationship(
        back_populates="chart",
        cascade="all, delete-orphan",
        order_by="PointsChartBand.min_entrants",
    )


class PointsChartBand(Base):
    __tablename__ = "points_chart_bands"
    __table_args__ = (
        UniqueConstraint("chart_id", "min_entrants"),
        CheckConstraint(
            "min_entrants >= 1 AND (max_entrants IS NULL OR max_entrants >= min_entrants)",
            name="entrant_range",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    chart_id: Mapped[int] = mapped_column(ForeignKey("points_charts.id", ondelete="CASCADE"))
    min_entrants: Mapped[int] = mapped_column(Integer)
    # None: the top band, open to any larger field.
    max_entrants: Mapped[int | None] = mapped_column(Integer)
    points: Mapped[list[int]] = mapped_column(JSON)

    chart: Mapped[PointsChart] = relationship(back_populates="bands")


class Season(Base):
    """R2: a promotion. Overlap of seasons on a common region is also refused by database triggers."""

    __tablename__ = "seasons"
    __table_args__ = (
        CheckConstraint("ends_on >= starts_on", name="dates_ordered"),
        CheckConstraint(
            "championship_date IS NULL OR championship_date > ends_on", name="championship_after"
        ),
        CheckConstraint("participation_points >= 0", name="participation_points"),
        CheckConstraint("count_best IS NULL OR count_best >= 1", name="count_best"),
        CheckConstraint("cut_fraction > 0 AND cut_fraction <= 1", name="cut_fraction"),
        CheckConstraint("min_events_to_qualify >= 1", name="min_events_to_qualify"),
        CheckConstraint("min_age >= 0", name="min_age"),
        CheckConstraint("correction_days >= 0", name="correction_days"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    starts_on: Mapped[date] = mapped_column(Date)
    ends_on: Mapped[date] = mapped_column(Date)
    championship_date: Mapped[date | None] = mapped_column(Date)
    # True when the season names no region: it then covers every region, present and future.
    all_regions: Mapped[bool] = mapped_column(Boolean, default=True)
    points_chart_id: Mapped[int | None] = mapped_column(ForeignKey("points_charts.id"))
    participation_points: Mapped[int] = mapped_column(
        Integer, default=SEASON_DEFAULTS["participation_points"]
    )
    attendance_bonus: Mapped[list[dict[str, int]]] = mapped_column(JSON, default=list)
    count_best: Mapped[int | None] = mapped_column(Integer)
    absent_keeps_place_points: Mapped[bool] = mapped_column(Boolean, default=False)
    cut_fraction: Mapped[Decimal] = mapped_column(Numeric(5, 4), default=SEASON_DEFAULTS["cut_fraction"])
    min_events_to_qualify: Mapped[int] = mapped_column(
        Integer, default=SEASON_DEFAULTS["min_events_to_qualify"]
    )
    min_age: Mapped[int] = mapped_column(Integer, default=SEASON_DEFAULTS["min_age"])
    double_qualifier_policy: Mapped[str] = mapped_column(
        Enum(
            *DOUBLE_QUALIFIER_POLICIES,
            name="double_qualifier_policy",
            native_enum=False,
            create_constraint=True,
        ),
        default=SEASON_DEFAULTS["double_qualifier_policy"],
    )
    correction_days: Mapped[int] = mapped_column(Integer, default=SEASON_DEFAULTS["correction_days"])
    # R8a: points per player knocked out, and the bounty (off by default).
    knockout_points: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    bounty: Mapped[str] = mapped_column(
        Enum(*BOUNTIES, name="bounty", native_enum=False, create_constraint=False, length=20),
        default=Bounty.NONE.value,
        server_default=Bounty.NONE.value,
    )
    bounty_points: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)

    points_chart: Mapped[PointsChart | None] = relationship()
    region_links: Mapped[list[SeasonRegion]] = relationship(
        cascade="all, delete-orphan", order_by="SeasonRegion.region_id"
    )

    @property
    def region_ids(self) -> list[int]:
        return [link.region_id for link in self.region_links]

    @property
    def knockout_rule(self) -> Knockouts:
        """R8a: the season's knockout settings."""
        return Knockouts(self.knockout_points or 0, Bounty(self.bounty or "none"), self.bounty_points or 0)

    def covers_region(self, region_id: int) -> bool:
        return self.all_regions or region_id in self.region_ids


class SeasonRegion(Base):
    __tablename__ = "season_regions"

    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True)
    region_id: Mapped[int] = mapped_column(ForeignKey("regions.id"), primary_key=True, index=True)
