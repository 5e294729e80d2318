"""Points charts: create, change and preview them (R7); a change rescores the seasons playing by it."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import PointsChart, PointsChartBand, Season
from models.errors import Conflict, Problem, RuleViolation, refuse
from models.rules.charts import (
    DEFAULT_FRACTION,
    DEFAULT_STEP,
    PRESETS,
    Band,
    ChartKind,
    Unscorable,
    band_problems,
    formula_problems,
    sentence,
    sorted_bands,
)
from models.rules.formulas import misread_number
from models.services.access import may_change_charts, may_make_charts
from models.services.audit_log.writes import record, snapshot
from models.services.locks import hold_writes, take_chart
from models.services.lookup import league_settings
from models.services.reports.scoring import chart_rule, rescore_season

# What a chart of each kind does not have, refused by name in a PATCH.
FOREIGN_FIELDS: dict[ChartKind, tuple[str, ...]] = {
    ChartKind.TOP_FRACTION: ("bands", "formula", "preset"),
    ChartKind.BANDS: ("fraction", "step", "formula", "preset"),
    ChartKind.FORMULA: ("step", "bands"),
}


def chart_snapshot(chart: PointsChart) -> dict[str, Any]:
    return snapshot(
        chart,
        bands=[
            {"min_entrants": b.min_entrants, "max_entrants": b.max_entrants, "points": b.points}
            for b in chart.bands
        ],
    )


def create_chart(session: Session, actor: Actor, data: dict[str, Any]) -> PointsChart:
    """R7: a top_fraction chart (fraction and step default to the rulebook's 0.30 and 10) or a
    bands chart, whose bands must neither overlap nor leave gaps, or a formula chart (its own
    formula or a preset), checked for every field from 2 to the league's max_entrants."""
    may_make_charts(actor)
    if session.scalar(select(PointsChart.id).where(PointsChart.name == data["name"])):
        raise Conflict(
            f"A points chart named {data['name']!r} already exists.",
            problems=[Problem("name", "Already in use.")],
        )
    chart = PointsChart(name=data["name"], kind=data["kind"])
    if data["kind"] == ChartKind.TOP_FRACTION:
        chart.fraction = data.get("fraction", DEFAULT_FRACTION)
        chart.step = data.get("step", DEFAULT_STEP)
    elif data["kind"] == ChartKind.FORMULA:
        set_formula(session, chart, data)
    else:
        bands = [Band(b["min_entrants"], b["max_entrants"], tuple(b["points"])) for b in data["bands"]]
        refuse("The bands of the points chart do not hold together", band_problems(bands))
        chart.bands = [
            PointsChartBand(min_entrants=b.min_entrants, max_entrants=b.max_entrants, points=list(b.points))
            for b in sorted_bands(bands)
        ]
    session.add(chart)
    session.flush()
    record(session, actor, "points_chart.create", "points_chart", chart.id, after=chart_snapshot(chart))
    return chart


def set_formula(session: Session, chart: PointsChart, data: dict[str, Any]) -> None:
    """R7: a formula chart's text and fraction, from a preset (its formula, and its fraction
    unless one is given) or as written; checked, before anything is stored, for every field of 2
    to the league's max_entrants entrants. Holds the writers' lock first (locks.hold_writes), so
    that the office raising max_entrants meanwhile either waits for this chart and checks it, or
    commits first and this check reads its new maximum."""
    hold_writes(session)
    preset = data.get("preset", None if "formula" in data else chart.preset)
    if preset is not None:  # a new preset, or only a new fraction for the preset in use
        formula, fraction = PRESETS[preset]
        chart.preset, chart.formula = preset, formula
        chart.fraction = data.get("fraction", fraction if "preset" in data else chart.fraction)
    else:
        chart.preset = None
        chart.formula = data.get("formula", chart.formula)
        chart.fraction = data.get(
            "fraction", chart.fraction if chart.fraction is not None else DEFAULT_FRACTION
        )
    assert chart.formula is not None and chart.fraction is not None
    if chart.preset is not None:
        return  # R7: a preset earns points for every place of every field (docs/rules.md)
    misread = misread_number(chart.formula) if "formula" in data else None
    if misread is not None:  # R7: a new formula's numbers read as written
        refuse("The formula of the points chart is refused", [Problem("formula", sentence(misread), "R7")])
    most = league_settings(session).max_entrants
    refuse(
        "The formula of the points chart is refused",
        formula_problems(chart.formula, Decimal(chart.fraction), 2, most),
    )


def update_chart(
    session: Session, actor: Actor, chart: PointsChart, changes: dict[str, Any], reason: str
) -> tuple[PointsChart, int]:
    """R7: change a chart (its name, or the fraction and step, the bands, or the formula, preset
    and fraction of its kind); every season playing by it is rescored. Returns it and how many
    stored results changed; refused whole (R7) if a live report's field has no band any more or
    its formula no value there. Audited with the reason (R18). The
    chart is locked before anything is read (locks.py): a report scoring by it commits first, or
    waits for this change and is scored by it (R17a)."""
    may_change_charts(actor)
    chart = take_chart(session, chart)
    problems = [
        Problem(name, f"A {chart.kind} chart has no {name}.")
        for name in FOREIGN_FIELDS[ChartKind(chart.kind)]
        if name in changes
    ]
    refuse("The points chart cannot be changed as asked", problems)
    if "name" in changes and changes["name"] != chart.name:
        taken = session.scalar(select(PointsChart.id).where(PointsChart.name == changes["name"]))
        if taken is not None:
            raise Conflict(
                f"A points chart named {changes['name']!r} already exists.",
                problems=[Problem("name", "Already in use.")],
            )
    before = chart_snapshot(chart)
    if chart.kind == ChartKind.FORMULA and changes.keys() & {"formula", "preset", "fraction"}:
        set_formula(session, chart, changes)
    for name in ("name", "fraction", "step"):
        if name in changes and chart.kind != ChartKind.FORMULA:
            setattr(chart, name, changes[name])
    if "name" in changes:
        chart.name = changes["name"]
    if "bands" in changes:
        bands = [Band(b["min_entrants"], b["max_entrants"], tuple(b["points"])) for b in changes["bands"]]
        refuse("The bands of the points chart do not hold together", band_problems(bands))
        chart.bands = []
        session.flush()
        chart.bands = [
            PointsChartBand(min_entrants=b.min_entrants, max_entrants=b.max_entrants, points=list(b.points))
            for b in sorted_bands(bands)
        ]
    session.flush()
    seasons = session.scalars(select(Season).where(Season.points_chart_id == chart.id)).all()
    rescored = sum(rescore_season(session, season) for season in seasons)
    record(
        session,
        actor,
        "points_chart.update",
        "points_chart",
        chart.id,
        before=before,
        after={**chart_snapshot(chart), "rescored_results": rescored},
        reason=reason,
    )
    return chart, rescored


def preview_chart(session: Session, chart: PointsChart | None, entrants: int) -> dict[str, Any]:
    """R7: the points of places 1..k for a field of `entrants`. The league's own formula was
    checked when saved for every field up to max_entrants, and no report is larger: past it, a
    preview is refused at once, nothing computed (a preset and the other kinds hold for any
    field, and are computed)."""
    if chart is not None and chart.kind == ChartKind.FORMULA and chart.preset is None:
        most = league_settings(session).max_entrants
        if entrants > most:
            message = (
                f"A report has at most {most} entrants (the league's max_entrants), the fields this "
                f"formula was checked for when saved: a field of {entrants} is not computed."
            )
            raise RuleViolation.at("entrants", message, rule="R7")
    try:
        points = chart_rule(chart).points_for(entrants)
    except Unscorable as exc:
        raise RuleViolation.at("entrants", sentence(exc), rule="R7") from None
    return {"entrants": entrants, "scoring_places": len(points), "points": points}
