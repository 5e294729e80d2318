"""League-wide settings (R15's minimum suspension lengths, the league's zone and name, …): read
them, and change them audited."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities import Structure
from models.entities.league import PointsChart
from models.entities.league_settings import LeagueSettings
from models.errors import Problem, RuleViolation, refuse
from models.rules.charts import ChartKind, formula_problems
from models.rules.people_dates import date_format_problem, locale_problem
from models.rules.site import accent_problem
from models.services.audit_log.writes import record_update, snapshot
from models.services.locks import hold_writes
from models.services.lookup import league_settings, require_exists

SETTING_NAMES = (
    "name",
    "min_suspension_days",
    "min_outside_alcohol_months",
    "max_entrants",
    "embed_frame_ancestors",
    "timezone",
    "erase_inactive_after_months",
    "structure_id",
    "date_format",
    "locale",
    "site_enabled",
    "site_title",
    "site_welcome",
    "site_accent",
)


def update_league_settings(session: Session, actor: Actor, changes: dict[str, Any]) -> LeagueSettings:
    """R15, R18: the office changes the settings; the change is audited with before and after.
    Sanctions already issued keep the terms they were issued with. A larger max_entrants is
    refused (R7) while a formula chart fails for a field it newly allows."""
    if "max_entrants" in changes:
        hold_writes(session)  # R7: a formula chart saved meanwhile is checked against one maximum
    settings = league_settings(session)
    require_exists(session, Structure, changes.get("structure_id"), "structure_id", "structure")
    if changes.get("max_entrants", settings.max_entrants) > settings.max_entrants:
        check_formula_charts(session, settings.max_entrants + 1, changes["max_entrants"])
    refuse("The settings are refused", _said_for_people(settings, changes))
    before = snapshot(settings)
    for name in SETTING_NAMES:
        if name in changes:
            setattr(settings, name, changes[name])
    session.flush()
    record_update(
        session,
        actor,
        "league_settings.update",
        "league_settings",
        settings.id,
        before=before,
        after=snapshot(settings),
    )
    return settings


def _said_for_people(settings: LeagueSettings, changes: dict[str, Any]) -> list[Problem]:
    """R24: the date pattern tried in the locale it will be said in, and the accent's contrast."""
    problems = []
    locale = changes.get("locale", settings.locale)
    wrong_locale = locale_problem(locale) if "locale" in changes else None
    if wrong_locale:
        problems.append(Problem("locale", wrong_locale))
    elif "date_format" in changes or "locale" in changes:
        wrong = date_format_problem(changes.get("date_format", settings.date_format), locale)
        if wrong:
            problems.append(Problem("date_format", wrong))
    if "site_accent" in changes:
        wrong = accent_problem(changes["site_accent"])
        if wrong:
            problems.append(Problem("site.accent", wrong))
    return problems


def check_formula_charts(session: Session, first: int, last: int) -> None:
    """R7: every stored formula chart (presets hold for any field) must give points for every
    field of `first` to `last` entrants; refused naming the first chart, n and p that fail."""
    charts = session.scalars(
        select(PointsChart)
        .where(PointsChart.kind == ChartKind.FORMULA, PointsChart.preset.is_(None))
        .order_by(PointsChart.id)
    )
    for chart in charts:
        assert chart.formula is not None and chart.fraction is not None
        for problem in formula_problems(chart.formula, Decimal(chart.fraction), first, last):
            message = f"Points chart {chart.id} ({chart.name!r}): {problem.message}"
            raise RuleViolation.at("max_entrants", message, rule="R7")
