"""Opening tonight's game at a venue (R22), on the venue's clock (R2a): a night of its schedule
(its session), or one off it (a make-up night), inside a season covering the venue (R2); once
per venue, date and session, and never where that night is already reported."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities import Night, Report, Venue
from models.errors import Conflict, InvalidInput, Problem, RuleViolation
from models.rules.schedules import scheduled_games
from models.services import wall_clock
from models.services.access import may_run_night
from models.services.audit_log.writes import record, snapshot
from models.services.lookup import get_or_raise
from models.services.seasons.queries import season_for
from models.services.structures.writes import structure_for
from models.services.venues.schedule_queries import changes, exceptions_of, regular, schedule_of
from models.services.webhooks.tell import night_told


def open_night(
    session: Session,
    actor: Actor,
    venue_id: int,
    session_no: int | None = None,
    structure_id: int | None = None,
) -> Night:
    venue = get_or_raise(session, Venue, venue_id, "venue")
    may_run_night(actor, venue.id)
    today = wall_clock.at_venue(session, venue)
    season = season_for(session, venue, today)
    if season is None:
        raise RuleViolation.at(
            "date",
            f"No season covers {venue.name} on {today.isoformat()}: a night is played inside one.",
            rule="R2",
        )
    tonight = [
        night
        for night in scheduled_games(
            regular(schedule_of(session, venue.id)), changes(exceptions_of(session, venue.id)), today, today
        )
        if not night.cancelled
    ]
    sessions = max((night.sessions for night in tonight), default=0)
    number = session_no or 1
    if tonight and number > sessions:
        raise InvalidInput.at(
            "session",
            f"Tonight {venue.name} plays {sessions} session{'s' if sessions > 1 else ''}.",
            rule="R22",
        )
    _refuse_taken(session, venue, today, number)
    night = Night(
        venue_id=venue.id,
        season_id=season.id,
        date=today,
        session=number,
        scheduled=bool(tonight),
        structure=structure_for(session, venue, structure_id),
        table_size=venue.table_size,
        late_after_level=venue.late_after_level,
        late_minutes=venue.late_minutes,
        re_entry_allowed=venue.re_entry_allowed,
        re_entry_until_break=venue.re_entry_until_break,
        state="open",
        sequence=0,
        opened_by=actor.name,
        opened_by_key_id=actor.key_id,
    )
    night.structure_id = night.structure["id"]
    try:
        with session.begin_nested():
            session.add(night)
            session.flush()
    except IntegrityError:
        _refuse_taken(session, venue, today, number)  # another phone opened it meanwhile
        raise
    record(session, actor, "night.open", "night", night.id, after=snapshot(night))
    night_told(session, "night.opened", night)  # R23
    return night


def _refuse_taken(session: Session, venue: Venue, day: object, number: int) -> None:
    opened = session.scalar(
        select(Night.id).where(Night.venue_id == venue.id, Night.date == day, Night.session == number)
    )
    if opened is not None:
        raise Conflict(
            f"Night {opened} is open already: {venue.name}, session {number} tonight.",
            rule="R22",
            problems=[Problem("session", f"Opened already as night {opened}.", "R22")],
        )
    reported = session.scalar(
        select(Report.id).where(
            Report.venue_id == venue.id,
            Report.date == day,
            Report.session == number,
            Report.live,
        )
    )
    if reported is not None:
        raise Conflict(
            f"Report {reported} already holds {venue.name}, session {number} tonight.",
            rule="R22",
            problems=[Problem("session", f"Reported already as report {reported}.", "R22")],
        )
