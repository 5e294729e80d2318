"""The checks of a season's writes that need the database (R2): its settings hold together and
name what exists, it overlaps no season over a common region, and no live regular report of it
falls outside new dates or regions. seasons.py runs them before it writes."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities.league import PointsChart, Region, Season, Venue
from models.entities.reports import Report
from models.errors import Problem, RuleViolation, refuse
from models.rules.reports import ReportKind
from models.services.lookup import require_exists
from models.services.seasons.queries import overlapping_seasons


def check_settings(session: Session, data: dict[str, Any]) -> None:
    """Checks that need the whole season (after a PATCH is merged) or the database."""
    problems: list[Problem] = []
    if data["ends_on"] < data["starts_on"]:
        problems.append(Problem("ends_on", "Must be on or after starts_on.", "R2"))
    championship = data.get("championship_date")
    if championship is not None and championship <= data["ends_on"]:
        problems.append(
            Problem("championship_date", "The championship is held after the season's last day.", "R2")
        )
    tiers = [tier["events"] for tier in data.get("attendance_bonus") or []]
    if len(tiers) != len(set(tiers)):
        problems.append(Problem("attendance_bonus", "Each tier needs a different number of events.", "R9"))
    for index, region_id in enumerate(data.get("region_ids") or []):
        if session.get(Region, region_id) is None:
            problems.append(Problem(f"region_ids.{index}", f"There is no region with id {region_id}."))
    refuse("The season's settings do not hold together", problems)
    require_exists(session, PointsChart, data.get("points_chart_id"), "points_chart_id", "points chart")


def refuse_overlap(session: Session, data: dict[str, Any], exclude_id: int | None) -> None:
    """R2: no two seasons covering a common region overlap (the triggers are the last guard)."""
    clashes = overlapping_seasons(
        session, data["starts_on"], data["ends_on"], data.get("region_ids") or [], exclude_id
    )
    if clashes:
        other = clashes[0]
        message = (
            f"Overlaps season {other.id} ({other.name}, {other.starts_on} to {other.ends_on}), "
            "which covers a common venue."
        )
        raise RuleViolation(
            message, problems=[Problem("starts_on", message, "R2"), Problem("ends_on", message, "R2")]
        )


def refuse_orphans(session: Session, season: Season, merged: dict[str, Any]) -> None:
    """R2: new dates or regions must still contain every live regular report of the season."""
    reports = session.execute(
        select(Report.id, Report.date, Venue.region_id)
        .join(Venue, Venue.id == Report.venue_id)
        .where(
            Report.season_id == season.id,
            Report.kind == ReportKind.REGULAR,
            Report.live,
        )
    ).all()
    regions = set(merged.get("region_ids") or [])
    for report_id, day, region_id in reports:
        outside = not merged["starts_on"] <= day <= merged["ends_on"]
        if outside or (regions and region_id not in regions):
            message = (
                f"Report {report_id} ({day.isoformat()}) would fall outside the season; "
                "void or move it first."
            )
            raise RuleViolation(
                message, problems=[Problem("starts_on", message, "R2"), Problem("ends_on", message, "R2")]
            )
