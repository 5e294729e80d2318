"""Points stored on results (R6-R8), recomputed when a season's chart or settings change (the
seasons call `rescore_season` through `seasons/writes.rescores_seasons`, which it registers into)."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from models.entities.league import PointsChart, Season
from models.entities.reports import Report, Result
from models.errors import RuleViolation
from models.rules.charts import DEFAULT_CHART, Band, Chart, ChartKind, Unscorable
from models.rules.formulas import FormulaError, parse
from models.rules.reports import ReportKind, score_report
from models.services.reports.knockouts import settle_bounties
from models.services.seasons.writes import rescores_seasons
from models.services.standings.lines import refresh_lines
from models.services.webhooks.tell import standings_told


def chart_rule(chart: PointsChart | None) -> Chart:
    """The pure chart of an entity; a season without a chart uses the default top_fraction one."""
    if chart is None:
        return DEFAULT_CHART
    if chart.kind == ChartKind.TOP_FRACTION:
        assert chart.fraction is not None and chart.step is not None
        return Chart(kind=ChartKind.TOP_FRACTION, fraction=Decimal(chart.fraction), step=chart.step)
    if chart.kind == ChartKind.FORMULA:
        assert chart.formula is not None and chart.fraction is not None
        try:
            parse(chart.formula)  # R7: the stored text is parsed (and its pieces checked) again
        except FormulaError as exc:
            message = f"Points chart {chart.id}'s stored formula is no longer valid: {exc}."
            raise RuleViolation.at("formula", message, rule="R7") from None
        return Chart(kind=ChartKind.FORMULA, fraction=Decimal(chart.fraction), formula=chart.formula)
    return Chart(
        kind=ChartKind.BANDS,
        bands=tuple(Band(b.min_entrants, b.max_entrants, tuple(b.points)) for b in chart.bands),
    )


@rescores_seasons
def rescore_season(session: Session, season: Season) -> int:
    """Recompute every stored result of the season; returns how many results changed.

    Refuses (R7) when the season's chart gives no points for a live report's number of entrants
    (no band for it, or a formula with no value there); a voided one, which counts nowhere, is
    left as it was.
    """
    session.flush()
    session.refresh(season)
    chart = chart_rule(season.points_chart)
    reports = session.scalars(
        select(Report)
        .where(Report.season_id == season.id)
        .options(selectinload(Report.results))
        .order_by(Report.id)
    ).all()
    before = {r.id: _scored(r) for t in reports for r in t.results}
    for report in reports:
        rows = {r.player_id: n for n, r in enumerate(report.results)}
        try:
            earned = score_report(
                chart,
                [(r.place, r.status) for r in report.results],
                season.participation_points,
                season.absent_keeps_place_points,
                [rows.get(r.knocked_out_by_id) if r.knocked_out_by_id else None for r in report.results],
                season.knockout_rule,
            )
        except Unscorable as exc:
            if not report.live:
                # R17: a voided report counts nowhere, so it cannot veto a chart; it keeps the
                # points it was stored with.
                continue
            message = f"Report {report.id} has {report.entrants} entrants: {exc}."
            raise RuleViolation.at("points_chart_id", message, rule="R7") from None
        for result, points in zip(report.results, earned, strict=True):
            new = (
                points.placement_points,
                points.participation_points,
                points.knockout_points,
                points.knockouts,
                points.points,
            )
            if new != _scored(result):
                (
                    result.placement_points,
                    result.participation_points,
                    result.knockout_points,
                    result.knockouts,
                    result.points,
                ) = new
    if season.knockout_rule.has_bounty:
        # R8a: each venue's bounties, night after night, on the points just computed.
        for venue_id in sorted({t.venue_id for t in reports if t.kind == ReportKind.REGULAR and t.live}):
            settle_bounties(session, season, venue_id)
    changed = sum(1 for t in reports for r in t.results if _scored(r) != before[r.id])
    if changed:
        refresh_lines(session, season)
        moved = {t.venue_id for t in reports if t.kind == ReportKind.REGULAR and t.live}
        standings_told(session, [(season.id, venue_id) for venue_id in moved])
    return changed


def _scored(result: Result) -> tuple[int, int, int, int, int]:
    return (
        result.placement_points,
        result.participation_points,
        result.knockout_points,
        result.knockouts,
        result.points,
    )
