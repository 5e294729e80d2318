"""A night's state (R22), as its answers give it: the clock as the server counts it (when the
level started and ends, as instants, so a page counts from the server's time), players left of
entrants, the average stack, who sits where, who went out and at which place, the last moves.
Players by display name only (R19); an erased player by the name they were given (R21)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models.entities import Night, NightAction, NightEntry, Player, Venue
from models.entities.reports import Report, Result
from models.errors import NotFound
from models.infra.clock import utcnow
from models.rules.nights import Out, places, re_entry_closed, re_entry_open, said_break, said_re_entry
from models.rules.players import player_labels
from models.rules.structures import (
    LateRegistration,
    Period,
    clock_at,
    closing_second,
    period_before,
    said_closing,
    seconds_played,
)
from models.services import wall_clock
from models.services.lookup import get_or_raise
from models.services.nights.players_out import last_undoable, players_of
from models.services.nights.runs import re_entry_of
from models.services.paging import Page, PageRequest, paginate
from models.services.structures.writes import rules_of


@dataclass(frozen=True)
class ClockView:
    status: str  # not_started, running, paused
    started_at: datetime | None
    paused_at: datetime | None
    paused_seconds: float
    played_seconds: int
    period_index: int
    period: Period
    next: Period | None
    previous: Period | None  # where a step back takes the clock
    level_started_at: datetime | None  # running only: instants the page counts from
    level_ends_at: datetime | None
    seconds_left: int | None  # as of the answer: what a paused clock shows
    late_registration_open: bool
    late_registration_closes: str


def clock_view(night: Night, now: datetime) -> ClockView:
    kept = night.structure
    rules = rules_of(kept["levels"], kept.get("breaks", []), kept["starting_chips"])
    played = seconds_played(
        night.clock_started_at, night.clock_paused_at, night.paused_seconds, now, night.clock_moved_seconds
    )
    at = clock_at(rules, played)
    status = (
        "not_started" if night.clock_started_at is None else "paused" if night.clock_paused_at else "running"
    )
    running = status == "running"
    level_start = now - timedelta(seconds=played - at.period.starts) if running else None
    level_end = now + timedelta(seconds=at.seconds_left) if running and at.seconds_left is not None else None
    rule = LateRegistration(night.late_after_level, night.late_minutes)
    closes = closing_second(rules, rule)
    return ClockView(
        status=status,
        started_at=night.clock_started_at,
        paused_at=night.clock_paused_at,
        paused_seconds=night.paused_seconds,
        played_seconds=int(played),
        period_index=at.index,
        period=at.period,
        next=at.next,
        previous=period_before(rules, at.index),
        level_started_at=_whole(level_start),
        level_ends_at=_whole(level_end),
        seconds_left=at.seconds_left,
        late_registration_open=closes is None or played < closes,
        late_registration_closes=said_closing(rules, rule),
    )


def _whole(instant: datetime | None) -> datetime | None:
    """An instant to the second, so that answers within one level are the same answer."""
    return None if instant is None else instant.replace(microsecond=0)


@dataclass(frozen=True)
class SeatView:
    player_id: int
    label: str
    status: str
    table: int | None
    seat: int | None
    place: int | None
    late: bool
    re_entered: bool
    chips_before: int | None
    knocked_out_by: int | None


@dataclass(frozen=True)
class ReEntryView:
    """What tonight allows (R22): the venue's setting as the night was opened with it, in words,
    and whether a player out may re-enter now."""

    allowed: bool
    until_break: int | None
    said: str
    open_now: bool


@dataclass(frozen=True)
class UndoView:
    """The action an undo takes back (R22): its kind and sequence, and the players it concerns
    (who signed in or re-entered, or who went out: of a hand, each can be brought back alone)."""

    kind: str
    sequence: int
    players: list[tuple[int, str]]


@dataclass(frozen=True)
class NightView:
    night: Night
    venue: Venue
    clock: ClockView
    players: list[SeatView]
    entrants: int
    players_left: int
    re_entries: int
    average_stack: int | None
    moves: list[dict[str, Any]]
    draw: dict[str, list[int]] | None
    today: date
    re_entry: ReEntryView
    undoable: UndoView | None
    ended_by: str | None  # last_player, chip_counts; None while open


def night_view(session: Session, night_id: int, now: datetime | None = None) -> NightView:
    night = get_or_raise(session, Night, night_id, "night")
    now = now or utcnow()
    entries = list(
        session.scalars(select(NightEntry).where(NightEntry.night_id == night.id).order_by(NightEntry.id))
    )
    named = select(Player.id, Player.display_name).where(Player.id.in_([e.player_id for e in entries]))
    names: dict[int, str] = {row.id: row.display_name for row in session.execute(named)}
    labels = player_labels((pid, names[pid]) for pid in sorted(names))
    if night.places:
        placed = {int(pid): place for pid, place in night.places.items()}
    else:
        out = [Out(e.player_id, e.out_hand or 0, e.out_rank or 0) for e in entries if e.status != "playing"]
        placed = places(len(entries), out)
    left = [e for e in entries if e.status == "playing"]
    re_entries = sum(e.re_entered for e in entries)
    chips = night.structure["starting_chips"] * (len(entries) + re_entries)
    # The last action (its moves, to announce) and the draw: two rows, however long the night.
    standing = select(NightAction).where(NightAction.night_id == night.id, NightAction.undone_at.is_(None))
    last = session.scalar(standing.order_by(NightAction.sequence.desc()).limit(1))
    draw = session.scalar(standing.where(NightAction.kind == "seat").limit(1))
    drawn = draw.effect.get("seats") if draw is not None else None
    seats = [
        SeatView(
            e.player_id,
            labels.get(e.player_id, names.get(e.player_id, "")),
            e.status,
            e.table_no if e.status == "playing" else None,
            e.seat_no if e.status == "playing" else None,
            placed.get(e.player_id),
            e.late,
            e.re_entered,
            e.chips_before,
            e.knocked_out_by_id,
        )
        for e in entries
    ]
    seats.sort(key=lambda s: (s.place or 0, s.table or 0, s.seat or 0, s.label.casefold()))
    venue = get_or_raise(session, Venue, night.venue_id, "venue")
    undoable = last_undoable(session, night.id) if night.state == "open" else None
    ended_by = None
    if night.state != "open":
        ended_by = "chip_counts" if len(left) > 1 else "last_player"
    return NightView(
        night=night,
        venue=venue,
        clock=clock_view(night, now),
        players=seats,
        entrants=len(entries),
        players_left=len(left),
        re_entries=re_entries,
        average_stack=chips // len(left) if left else None,
        moves=list(last.effect.get("moves", [])) if last is not None else [],
        draw=drawn,
        today=wall_clock.at_venue(session, venue),
        re_entry=re_entry_view(night, now),
        undoable=None
        if undoable is None
        else UndoView(
            undoable.kind,
            undoable.sequence,
            [(pid, labels.get(pid, names.get(pid, ""))) for pid in players_of(undoable)],
        ),
        ended_by=ended_by,
    )


def re_entry_view(night: Night, now: datetime) -> ReEntryView:
    kept = night.structure
    rules = rules_of(kept["levels"], kept.get("breaks", []), kept["starting_chips"])
    played = seconds_played(
        night.clock_started_at, night.clock_paused_at, night.paused_seconds, now, night.clock_moved_seconds
    )
    rule = re_entry_of(night)
    said = said_re_entry(rule)
    if rule.allowed and re_entry_closed(rules, rule, played):
        assert rule.until_break is not None
        said = f"Re-entry: closed at the end of {said_break(rule.until_break)}"
    started = night.clock_started_at is not None
    return ReEntryView(
        rule.allowed,
        rule.until_break,
        said,
        night.state == "open" and re_entry_open(rules, rule, played, started),
    )


def venue_night(session: Session, venue_id: int) -> Night:
    """The venue's night of today on its clock (the latest session), else its latest night."""
    venue = get_or_raise(session, Venue, venue_id, "venue")
    today = wall_clock.at_venue(session, venue)
    query = select(Night).where(Night.venue_id == venue.id).order_by(Night.date.desc(), Night.session.desc())
    night = session.scalar(query.where(Night.date == today).limit(1)) or session.scalar(query.limit(1))
    if night is None:
        raise NotFound(f"{venue.name} has no night yet.")
    return night


def night_version(session: Session, night_id: int) -> list[str]:
    """What a night's answer is keyed by besides the league's scope: its sequence (every action
    moves it) and where its clock stands (a new level is a new answer), so 50 phones following
    one night are answered from one answer, or with a 304, until either moves (R22)."""
    night = session.get(Night, night_id)
    if night is None:
        return ["none"]
    clock = clock_view(night, utcnow())
    return [str(night.sequence), night.state, clock.status, str(clock.period_index)]


def list_nights(session: Session, venue_id: int, page: PageRequest) -> Page[Night]:
    """A venue's nights, the latest first."""
    get_or_raise(session, Venue, venue_id, "venue")
    query = select(Night).where(Night.venue_id == venue_id).order_by(Night.date.desc(), Night.session.desc())
    return paginate(session, query, page)


def nights_version(session: Session, venue_id: int) -> tuple[int, int]:
    """How many nights the venue has, and the sum of their sequences: moves with any action."""
    counted = select(func.count(Night.id), func.coalesce(func.sum(Night.sequence), 0))
    row = session.execute(counted.where(Night.venue_id == venue_id)).one()
    return int(row[0]), int(row[1])


# The sign-in's list offers the venue's players seen there last, this many at most: a venue of
# many years keeps the host's page light. Anyone else is still found by name, email or number.
SEEN_AT_MOST = 400


def seen_lately(session: Session, venue_id: int) -> list[tuple[int, str]]:
    """(id, full name) of the venue's players with a live result there, the latest seen first
    (SEEN_AT_MOST of them), sorted by name."""
    last_seen = (
        select(Result.player_id, func.max(Report.date).label("seen"))
        .join(Report, Report.id == Result.tournament_id)
        .where(Report.venue_id == venue_id, Report.live)
        .group_by(Result.player_id)
        .subquery()
    )
    query = (
        select(Player.id, func.coalesce(Player.full_name, Player.display_name))
        .join(last_seen, last_seen.c.player_id == Player.id)
        .where(Player.merged_into_id.is_(None))
        .order_by(last_seen.c.seen.desc(), Player.id)
        .limit(SEEN_AT_MOST)
    )
    return sorted(((pid, name) for pid, name in session.execute(query)), key=lambda row: row[1].casefold())


def open_nights(session: Session) -> list[Night]:
    """The league's nights being played now (state open), by venue name: where to go tonight."""
    return list(
        session.scalars(
            select(Night)
            .join(Venue, Venue.id == Night.venue_id)
            .where(Night.state == "open")
            .order_by(Venue.name, Night.venue_id, Night.session)
        )
    )


def open_nights_version(session: Session) -> tuple[int, int]:
    """What the list of open nights moves with: how many nights there are, and the sum of their
    sequences (a night opened, or any action, moves one)."""
    row = session.execute(select(func.count(Night.id), func.coalesce(func.sum(Night.sequence), 0))).one()
    return int(row[0]), int(row[1])
