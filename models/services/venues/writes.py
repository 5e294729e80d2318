"""Venues: create and change them (R1), with their schedules."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import Region, Season, Venue
from models.entities.nights import Structure
from models.entities.reports import Report
from models.errors import Conflict, InvalidInput, Problem, RuleViolation
from models.rules.reports import ReportKind
from models.services.audit_log.writes import record, record_update, snapshot
from models.services.lookup import require_exists
from models.services.seasons.queries import covers_regions
from models.services.venues.schedule_queries import schedule_of
from models.services.venues.schedules import check_schedule, replace_schedule, schedule_snapshot


def _check_venue_name(session: Session, region_id: int, name: str, venue_id: int | None) -> None:
    clash = session.scalar(select(Venue.id).where(Venue.region_id == region_id, Venue.name == name))
    if clash is not None and clash != venue_id:
        raise Conflict(
            f"Venue {clash} in that region is already named {name!r}.",
            problems=[Problem("name", "Already used by another venue of the region.")],
        )


def _check_night_settings(session: Session, data: dict[str, Any], venue: Venue | None) -> None:
    """R22: a structure that exists; late registration closing after a level or after minutes,
    not both."""
    require_exists(session, Structure, data.get("structure_id"), "structure_id", "structure")
    level = data.get("late_after_level", venue.late_after_level if venue else None)
    minutes = data.get("late_minutes", venue.late_minutes if venue else None)
    if level is not None and minutes is not None:
        field = "late_minutes" if "late_minutes" in data else "late_after_level"
        raise InvalidInput.at(
            field,
            "Late registration closes after a level or after minutes of play, not both: set the "
            "other to null.",
            rule="R22",
        )


def _re_entry_columns(data: dict[str, Any]) -> dict[str, Any]:
    """R22: the re-entry setting (`{"allowed", "until_break"}`, given whole) as its columns; a
    venue without re-entry has no break to allow it until."""
    data = dict(data)
    if "re_entry" in data:
        given = data.pop("re_entry")
        data["re_entry_allowed"] = given["allowed"]
        data["re_entry_until_break"] = given.get("until_break") if given["allowed"] else None
    return data


def create_venue(session: Session, actor: Actor, data: dict[str, Any]) -> Venue:
    require_exists(session, Region, data["region_id"], "region_id", "region")
    _check_night_settings(session, data, None)
    _check_venue_name(session, data["region_id"], data["name"], None)
    venue = Venue(**_re_entry_columns(data))
    session.add(venue)
    session.flush()
    record(session, actor, "venue.create", "venue", venue.id, after=snapshot(venue))
    return venue


# What a venue's calendar events say of it (their summary, location and zone, R2a).
CALENDAR_FIELDS = ("name", "city", "timezone")


def update_venue(session: Session, actor: Actor, venue: Venue, changes: dict[str, Any]) -> Venue:
    """A venue's fields, and its regular nights when `schedule` is given (whole); audited."""
    changes = _re_entry_columns(changes)
    nights = changes.pop("schedule", None)
    schedule = None if nights is None else check_schedule(nights)
    before = snapshot(venue, schedule=schedule_snapshot(schedule_of(session, venue.id)))
    _check_night_settings(session, changes, venue)
    if "region_id" in changes:
        require_exists(session, Region, changes["region_id"], "region_id", "region")
        if changes["region_id"] != venue.region_id:
            _refuse_stranded_reports(session, venue, changes["region_id"])
    _check_venue_name(
        session,
        changes.get("region_id", venue.region_id),
        changes.get("name", venue.name),
        venue.id,
    )
    if any(key in changes and changes[key] != getattr(venue, key) for key in CALENDAR_FIELDS):
        venue.calendar_sequence += 1  # R2a: every event of its calendar reads differently now
    for key, value in changes.items():
        setattr(venue, key, value)
    if schedule is not None:
        replace_schedule(session, venue, schedule)
    session.flush()
    after = snapshot(venue, schedule=schedule_snapshot(schedule_of(session, venue.id)))
    record_update(session, actor, "venue.update", "venue", venue.id, before=before, after=after)
    return venue


def _refuse_stranded_reports(session: Session, venue: Venue, region_id: int) -> None:
    """R2: a venue keeps its reports' seasons; it cannot move to a region they do not cover."""
    stranded = session.scalar(
        select(Report.id)
        .join(Season, Season.id == Report.season_id)
        .where(
            Report.venue_id == venue.id,
            Report.kind == ReportKind.REGULAR,
            Report.live,
            ~covers_regions([region_id]),
        )
        .limit(1)
    )
    if stranded is not None:
        message = (
            f"Report {stranded} of this venue belongs to a season that does not cover region {region_id}."
        )
        raise RuleViolation.at("region_id", message, rule="R2")


# Points charts (R7) ---------------------------------------------------------------------------
