"""Looking up points charts, and the chart a season plays by (R7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities.league import PointsChart, Season
from models.rules.charts import DEFAULT_CHART
from models.services.paging import Page, PageRequest, paginate


def list_charts(session: Session, page: PageRequest) -> Page[PointsChart]:
    return paginate(session, select(PointsChart).order_by(PointsChart.id), page)


@dataclass(frozen=True)
class DefaultChart:
    """The chart a season naming none plays by (R7: top 30%, step 10), shaped like a stored one."""

    id: None = None
    name: str = "default"
    kind: str = DEFAULT_CHART.kind
    fraction: Decimal = DEFAULT_CHART.fraction
    step: int = DEFAULT_CHART.step
    bands: list[object] = field(default_factory=list)
    formula: None = None
    preset: None = None


def chart_in_force(season: Season) -> PointsChart | DefaultChart:
    """R7: the season's chart, or the default one when it names none."""
    return season.points_chart if season.points_chart is not None else DefaultChart()
