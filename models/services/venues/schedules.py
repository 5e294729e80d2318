"""Writing venues' schedules: the regular games (the office, or a host of the venue) and the
exceptions to them (a game cancelled, moved or added), each audited (R18)."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities import GameStamp, ScheduleException, Venue, VenueGame
from models.errors import NotFound, Problem, refuse
from models.infra.clock import utcnow
from models.rules.schedules import (
    ExceptionKind,
    RegularGame,
    ScheduleChange,
    day_problems,
    exception_problems,
    schedule_problems,
    wall_clock_problems,
)
from models.services import wall_clock
from models.services.access import may_change_schedule, may_read_schedule_changes, may_set_schedule
from models.services.audit_log.writes import record, snapshot
from models.services.locks import hold_writes
from models.services.seasons.queries import season_for
from models.services.venues.schedule_queries import (
    changes,
    exceptions_of,
    regular,
    schedule_of,
    stored_schedule_of,
)


def schedule_snapshot(rows: list[VenueGame]) -> list[dict[str, Any]]:
    return [{"weekday": r.weekday, "starts_at": r.starts_at, "sessions": r.sessions} for r in rows]


def check_schedule(games: list[dict[str, Any]], path: str = "schedule") -> list[RegularGame]:
    """The schedule as rule values, or a refusal naming each bad field (nothing changes)."""
    schedule = [RegularGame(n["weekday"], n["starts_at"], n.get("sessions", 1)) for n in games]
    refuse("The schedule cannot be set.", schedule_problems(schedule, path))
    return schedule


def replace_schedule(session: Session, venue: Venue, schedule: list[RegularGame]) -> None:
    """The venue's regular games become `schedule` (checked already); the caller audits. A game
    kept (the same weekday and start) keeps its row, and when it was written unless its sessions
    change: its calendar events' DTSTAMP moves only when it changed (R2a). Every stored game not
    sent goes, those stored past the bound of R2 too. Writers one at a time from the start
    (locks.py), so two schedules sent at once never add up to more than either."""
    hold_writes(session)
    wanted = {(game.weekday, game.starts_at): game for game in schedule}
    stored = {(row.weekday, row.starts_at): row for row in stored_schedule_of(session, venue.id)}
    for key, row in stored.items():
        if key not in wanted:
            session.delete(row)
    for key, game in wanted.items():
        kept = stored.get(key)
        if kept is None:
            session.add(
                VenueGame(
                    venue_id=venue.id,
                    weekday=game.weekday,
                    starts_at=game.starts_at,
                    sessions=game.sessions,
                    changed_at=utcnow(),
                )
            )
        elif kept.sessions != game.sessions:
            kept.sessions, kept.changed_at = game.sessions, utcnow()
    session.flush()
    session.expire(venue, ["regular_games"])


def stamp_game(session: Session, venue_id: int, day: date) -> None:
    """R2a: the venue's games scheduled on `day` (the date in their calendar UID) changed, by an
    exception added or removed: their events' SEQUENCE grows by one and their DTSTAMP is now.
    Called after the write's first statement, so no other writer changes the row meanwhile (the
    data version's lock, "Once means once")."""
    row = session.scalar(select(GameStamp).where(GameStamp.venue_id == venue_id, GameStamp.date == day))
    if row is None:
        session.add(GameStamp(venue_id=venue_id, date=day, sequence=1, changed_at=utcnow()))
    else:
        row.sequence, row.changed_at = row.sequence + 1, utcnow()
    session.flush()


def set_schedule(
    session: Session, actor: Actor, venue: Venue, games: list[dict[str, Any]]
) -> list[VenueGame]:
    """The venue's regular games, whole (the office, or a host of the venue); audited."""
    may_set_schedule(actor, venue.id)
    schedule = check_schedule(games)
    before = {"schedule": schedule_snapshot(schedule_of(session, venue.id))}
    replace_schedule(session, venue, schedule)
    after = schedule_of(session, venue.id)
    record(
        session,
        actor,
        "venue.schedule",
        "venue",
        venue.id,
        before=before,
        after={"schedule": schedule_snapshot(after)},
    )
    return after


def _change_of(data: dict[str, Any]) -> ScheduleChange:
    return ScheduleChange(
        data["kind"],
        data["date"],
        data.get("to"),
        data.get("starts_at"),
        data.get("sessions"),
        data.get("note"),
    )


def _season_problems(session: Session, venue: Venue, change: ScheduleChange) -> list[Problem]:
    """R2: an exception's dates lie inside a season covering the venue."""
    problems = []
    for path, day in (("date", change.date), ("to", change.to_date)):
        if day is not None and season_for(session, venue, day) is None:
            problems.append(Problem(path, f"{day.isoformat()} is in no season covering this venue.", "R2"))
    return problems


def _duplicate_problems(session: Session, venue: Venue, change: ScheduleChange) -> list[Problem]:
    taken = select(ScheduleException.id).where(
        ScheduleException.venue_id == venue.id,
        ScheduleException.kind == change.kind,
        ScheduleException.date == change.date,
    )
    if session.scalar(taken) is None:
        return []
    return [Problem("date", f"This venue already has a {change.kind} night on {change.date.isoformat()}.")]


def add_exception(session: Session, actor: Actor, venue: Venue, data: dict[str, Any]) -> ScheduleException:
    """A game cancelled, moved or added (a make-up game); audited. A game outside every
    season covering the venue (R2), a bad time or count, the same exception twice, a fourth
    game on one date (R2) and a start its date's wall clock skips (R2a) are refused."""
    may_change_schedule(actor, venue.id)
    # R17a: writers one at a time from here (locks.py), so a second identical game sent at the
    # same moment sees the first and is refused as one (422 naming `date`), not by the unique index.
    hold_writes(session)
    change = _change_of(data)
    schedule = regular(schedule_of(session, venue.id))
    problems = exception_problems(change, schedule)
    problems += _season_problems(session, venue, change) + _duplicate_problems(session, venue, change)
    # R2: a date holds at most 3 games; R2a: a changed game's start is one its date's clock shows.
    problems += day_problems(schedule, changes(exceptions_of(session, venue.id)), change)
    problems += wall_clock_problems(change, schedule, wall_clock.venue_zone(session, venue))
    refuse("The schedule cannot be changed so.", problems)
    row = ScheduleException(
        venue_id=venue.id,
        kind=change.kind,
        date=change.date,
        to_date=change.to_date if change.kind == ExceptionKind.MOVED else None,
        starts_at=change.starts_at,
        sessions=change.sessions if change.kind == ExceptionKind.ADDED else None,
        note=change.note,
        created_by=actor.name,
    )
    session.add(row)
    session.flush()
    stamp_game(session, venue.id, row.date)
    record(session, actor, "schedule_exception.create", "schedule_exception", row.id, after=snapshot(row))
    return row


def list_exceptions(session: Session, actor: Actor, venue: Venue) -> list[ScheduleException]:
    may_read_schedule_changes(actor, venue.id)
    return exceptions_of(session, venue.id)


def delete_exception(session: Session, actor: Actor, venue: Venue, exception_id: int) -> None:
    may_change_schedule(actor, venue.id)
    row = session.get(ScheduleException, exception_id)
    if row is None or row.venue_id != venue.id:
        raise NotFound(f"Venue {venue.id} has no schedule exception {exception_id}.")
    before = snapshot(row)
    session.delete(row)
    session.flush()
    stamp_game(session, venue.id, row.date)
    record(session, actor, "schedule_exception.delete", "schedule_exception", exception_id, before=before)
