"""Reading venues' schedules: their regular games, exceptions, and the games they give in a
range of local dates, with the season and whether each was reported (R2, R2a); and the venues
whose reports the office chases, week by week (R2, R17: read from the reports' table here, so
that the tournaments' services, which read the schedules, are not read back)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import Select, func, not_, or_, select
from sqlalchemy.orm import Session

from models.entities import GameStamp, Region, Report, ScheduleException, Season, Venue, VenueGame
from models.entities.schedules import AppliedGame
from models.rules.reports import ReportKind
from models.rules.schedules import (
    HOURS_PLAYED,
    ExceptionKind,
    RegularGame,
    ScheduleChange,
    ScheduledGame,
    is_missing,
    played_games,
    scheduled_games,
    starts,
)
from models.services import wall_clock
from models.services.seasons.queries import demo_season, overlapping_seasons, venues_of


def schedule_of(session: Session, venue_id: int) -> list[VenueGame]:
    """The venue's regular games as applied (R2: at most 3 a weekday, `AppliedGame`)."""
    query = select(AppliedGame).where(AppliedGame.venue_id == venue_id)
    return list(session.scalars(query.order_by(AppliedGame.weekday, AppliedGame.starts_at)))


def stored_schedule_of(session: Session, venue_id: int) -> list[VenueGame]:
    """Every regular game stored for the venue, those past the bound too: what setting its
    schedule replaces."""
    query = select(VenueGame).where(VenueGame.venue_id == venue_id)
    return list(session.scalars(query.order_by(VenueGame.weekday, VenueGame.starts_at)))


def exceptions_of(session: Session, venue_id: int) -> list[ScheduleException]:
    query = select(ScheduleException).where(ScheduleException.venue_id == venue_id)
    return list(session.scalars(query.order_by(ScheduleException.date, ScheduleException.id)))


def regular(rows: Sequence[VenueGame]) -> list[RegularGame]:
    return [RegularGame(row.weekday, row.starts_at, row.sessions) for row in rows]


def changes(rows: Sequence[ScheduleException]) -> list[ScheduleChange]:
    return [
        ScheduleChange(row.kind, row.date, row.to_date, row.starts_at, row.sessions, row.note) for row in rows
    ]


@dataclass(frozen=True)
class Game:
    """A venue's game on a local date, with its zone, season, report and whether it is missing.
    A game played but not scheduled (`scheduled.unscheduled`, R2) has no start: `start_instant`
    and `start_on_clock` are None, and `starts` is for scheduled games alone."""

    venue: Venue
    region: Region
    scheduled: ScheduledGame
    zone: str
    season: Season | None
    reported: bool
    missing: bool

    @property
    def starts(self) -> datetime:
        if self.scheduled.unscheduled:
            raise ValueError("A night played but not scheduled has no start.")
        return starts(self.scheduled, self.zone)

    @property
    def start_instant(self) -> datetime | None:
        """The start as an instant; None for a game played but not scheduled."""
        return None if self.scheduled.unscheduled else self.starts

    @property
    def start_on_clock(self) -> str | None:
        """`local_start`; None for a game played but not scheduled."""
        return None if self.scheduled.unscheduled else self.local_start

    @property
    def ends(self) -> datetime:
        return self.starts + timedelta(hours=HOURS_PLAYED)

    @property
    def local_start(self) -> str:
        """The start as the venue's wall clock shows it ("HH:MM"): the schedule's, but for a start the
        clocks skip that date, which is as much later as they jump (R2a)."""
        return f"{self.starts:%H:%M}"

    @property
    def uid(self) -> str:
        """Stable across fetches: the venue, the local date and the start. A moved game keeps
        the date and start it was scheduled at, so a calendar moves its event rather than adding
        one. A make-up game's is marked so: a regular game, cancelled or not, or one moved in,
        may share its date and start, and each is its own event (R2a)."""
        day, start = self.scheduled.as_scheduled
        if self.scheduled.unscheduled:
            return f"venue-{self.venue.id}-{day.isoformat()}-played"
        made_up = "-make-up" if self.scheduled.make_up else ""
        return f"venue-{self.venue.id}-{day.isoformat()}-{start.replace(':', '')}{made_up}"


@dataclass(frozen=True)
class Revision:
    """A game as a calendar shows it (R2a): when it last changed (its DTSTAMP: its regular
    game written, an exception on its date added or removed, its venue edited; naive UTC) and how
    many times it was changed (its SEQUENCE: exceptions on its date, edits of the venue's name,
    city or zone), so that a subscribed calendar notices a moved game."""

    changed_at: datetime
    sequence: int


def revisions(session: Session, games: Sequence[Game]) -> list[Revision]:
    """Each game's revision, in order (two queries, whatever the number of games)."""
    if not games:
        return []
    ids = sorted({game.venue.id for game in games})
    days = [game.scheduled.as_scheduled[0] for game in games]
    stamps = {
        (row.venue_id, row.date): row
        for row in session.scalars(
            select(GameStamp).where(GameStamp.venue_id.in_(ids), GameStamp.date.between(min(days), max(days)))
        )
    }
    written = {
        (row.venue_id, row.weekday, row.starts_at): row.changed_at
        for row in session.scalars(select(AppliedGame).where(AppliedGame.venue_id.in_(ids)))
    }
    found = []
    for game in games:
        day, start = game.scheduled.as_scheduled
        stamp = stamps.get((game.venue.id, day))
        times = [game.venue.updated_at, stamp.changed_at if stamp is not None else None]
        if not game.scheduled.make_up:
            times.append(written.get((game.venue.id, day.isoweekday(), start)))
        sequence = game.venue.calendar_sequence + (stamp.sequence if stamp is not None else 0)
        found.append(Revision(max(t for t in times if t is not None), sequence))
    return found


def schedules_by_venue(
    session: Session, venue_ids: Sequence[int], first: date, last: date
) -> tuple[dict[int, list[RegularGame]], dict[int, list[ScheduleChange]]]:
    """The venues' regular games as applied (R2) and the exceptions that bear on the games from
    `first` to `last`: those dated in the range, those moving a game into it, and a cancellation
    of a game moved into it (which keeps it where it was). Two or three queries."""
    regulars: dict[int, list[RegularGame]] = defaultdict(list)
    excepted: dict[int, list[ScheduleChange]] = defaultdict(list)
    for row in session.scalars(select(AppliedGame).where(AppliedGame.venue_id.in_(venue_ids))):
        regulars[row.venue_id].append(RegularGame(row.weekday, row.starts_at, row.sessions))
    ranged = select(ScheduleException).where(
        ScheduleException.venue_id.in_(venue_ids),
        or_(ScheduleException.date.between(first, last), ScheduleException.to_date.between(first, last)),
    )
    rows = list(session.scalars(ranged))
    sources = {(row.venue_id, row.date) for row in rows if not first <= row.date <= last}
    if sources:
        cancelled = select(ScheduleException).where(
            ScheduleException.venue_id.in_(sorted({venue for venue, _day in sources})),
            ScheduleException.kind == ExceptionKind.CANCELLED,
            ScheduleException.date.in_(sorted({day for _venue, day in sources})),
        )
        rows += [row for row in session.scalars(cancelled) if (row.venue_id, row.date) in sources]
    for exc in rows:
        excepted[exc.venue_id].extend(changes([exc]))
    return regulars, excepted


def reported_days(
    session: Session, venue_ids: Sequence[int], first: date, last: date
) -> set[tuple[int, date]]:
    """(venue, date) of every live regular report in the range."""
    rows = session.execute(
        select(Report.venue_id, Report.date).where(
            Report.venue_id.in_(venue_ids),
            Report.kind == ReportKind.REGULAR,
            Report.live,
            Report.date.between(first, last),
        )
    )
    return {(venue_id, day) for venue_id, day in rows}


def reported_sessions(
    session: Session, venue_ids: Sequence[int], first: date, last: date
) -> dict[tuple[int, date], int]:
    """(venue, date) of every live regular report in the range: how many sessions were played
    there (the reports, or the highest session number among them, whichever is more)."""
    rows = session.execute(
        select(Report.venue_id, Report.date, func.count(), func.max(Report.session))
        .where(
            Report.venue_id.in_(venue_ids),
            Report.kind == ReportKind.REGULAR,
            Report.live,
            Report.date.between(first, last),
        )
        .group_by(Report.venue_id, Report.date)
    )
    return {(venue_id, day): max(count, highest) for venue_id, day, count, highest in rows}


def venues_where(session: Session, region_id: int | None, venue_id: int | None) -> list[Venue]:
    query = select(Venue).where(Venue.active.is_(True))
    if region_id is not None:
        query = query.where(Venue.region_id == region_id)
    if venue_id is not None:
        query = query.where(Venue.id == venue_id)
    return list(session.scalars(query.order_by(Venue.name, Venue.id)))


def games_between(
    session: Session,
    first: date,
    last: date,
    *,
    region_id: int | None = None,
    venue_id: int | None = None,
    played: bool = False,
) -> list[Game]:
    """Every scheduled game of the active venues (of a region, or one venue) from `first` to
    `last` inside a season covering the venue (R2: a game outside every season is no game of
    the league, so no list or calendar feed holds one), by date, time and venue name: its
    season, whether a live regular report is in, and whether it is missing (its date before the
    venue's today, on or after its first day, not cancelled, no report: R2, R17). With `played`,
    also each game a venue played that no schedule or exception gave (R2: reported all the
    same), marked unscheduled, after the day's scheduled games (the list of games; a calendar
    feed holds only games with a start)."""
    venues = venues_where(session, region_id, venue_id)
    ids = [venue.id for venue in venues]
    regulars, excepted = schedules_by_venue(session, ids, first, last)
    reported = reported_sessions(session, ids, first, last)
    played_at: dict[int, dict[date, int]] = defaultdict(dict)
    for (where, day), sessions in reported.items():
        played_at[where][day] = sessions
    seasons = overlapping_seasons(session, first, last, sorted({v.region_id for v in venues}))
    games = []
    for venue in venues:
        zone = wall_clock.venue_zone(session, venue)
        today = wall_clock.at_venue(session, venue)
        since = wall_clock.venue_since(session, venue)
        given = scheduled_games(regulars[venue.id], excepted[venue.id], first, last)
        if played:
            given += played_games(given, played_at[venue.id])
        for game in given:
            season = _season_on(seasons, venue, game.date)
            if season is None:
                continue
            done = (venue.id, game.date) in reported
            missing = is_missing(game, today, done, since)
            games.append(Game(venue, venue.region, game, zone, season, done, missing))
    return sorted(
        games,
        key=lambda g: (
            g.scheduled.date,
            g.scheduled.unscheduled,
            g.scheduled.starts_at,
            g.venue.name.casefold(),
            g.venue.id,
        ),
    )


def _season_on(seasons: Sequence[Season], venue: Venue, day: date) -> Season | None:
    for season in seasons:
        if season.starts_on <= day <= season.ends_on and season.covers_region(venue.region_id):
            return season
    return None


def weekly_missing(session: Session, season: Season, monday: date) -> list[Venue]:
    """Active venues of the season with no live regular report in the week from `monday`, by
    name: the office chases them. The demo's venues only in the demo's own season (a season
    naming no region covers the demo's too, but nobody chases the demo)."""
    sunday = monday + timedelta(days=6)
    reported = select(Report.venue_id).where(
        Report.season_id == season.id,
        Report.kind == ReportKind.REGULAR,
        Report.live,
        Report.date.between(monday, sunday),
    )
    query = chased_venues(session, season).where(Venue.id.not_in(reported))
    return list(session.scalars(query.order_by(Venue.name, Venue.id)))


def chased_venues(session: Session, season: Season) -> Select[Any]:
    """The active venues of the season whose reports the office chases (the demo's only in the
    demo's own season)."""
    query = venues_of(season).where(Venue.active.is_(True))
    if not demo_season(session, season):
        query = query.where(not_(Venue.in_demo))
    return query


@dataclass(frozen=True)
class MissingVenue:
    """A venue whose report of a week the office chases: `scheduled` when it has regular games
    (then `nights` are the ones that passed without a report), else the weekly rule's."""

    venue: Venue
    scheduled: bool
    nights: tuple[date, ...] = ()

    def __getattr__(self, name: str) -> object:
        return getattr(self.venue, name)


def missing_reports(session: Session, season: Season, monday: date) -> list[MissingVenue]:
    """The venues of the season to chase for the week from `monday`: a venue with a schedule
    when a game of that week (exceptions applied, inside the season) has passed in its own zone
    (its date before the venue's today, R2a) with no live regular report that game, a game
    before the venue was added excepted (R2, R17); a venue without one when it has no live
    regular report that week (the weekly rule)."""
    sunday = monday + timedelta(days=6)
    venues = list(session.scalars(chased_venues(session, season).order_by(Venue.name, Venue.id)))
    ids = [venue.id for venue in venues]
    first, last = max(monday, season.starts_on), min(sunday, season.ends_on)
    regulars, excepted = schedules_by_venue(session, ids, first, last)
    unreported = {venue.id for venue in weekly_missing(session, season, monday)}
    reported = reported_days(session, ids, monday, sunday)
    found = []
    for venue in venues:
        if not regulars[venue.id]:
            if venue.id in unreported:
                found.append(MissingVenue(venue, scheduled=False))
            continue
        today, since = wall_clock.at_venue(session, venue), wall_clock.venue_since(session, venue)
        week = scheduled_games(regulars[venue.id], excepted[venue.id], first, last)
        missed = tuple(n.date for n in week if is_missing(n, today, (venue.id, n.date) in reported, since))
        if missed:
            found.append(MissingVenue(venue, scheduled=True, nights=tuple(sorted(set(missed)))))
    return found


@dataclass(frozen=True)
class HostGames:
    """A host's venues' games around today: tonight's games, and the games of the last week
    that passed without a report (the latest first), each on its venue's clock (R2a)."""

    tonight: list[Game]
    missing: list[Game]


def host_games(session: Session, venues: Sequence[Venue]) -> HostGames:
    tonight: list[Game] = []
    missing: list[Game] = []
    for venue in venues:
        today = wall_clock.at_venue(session, venue)
        week = games_between(session, today - timedelta(days=6), today, venue_id=venue.id)
        tonight += [g for g in week if g.scheduled.date == today and not g.scheduled.cancelled]
        missing += [g for g in week if g.missing]
    missing.sort(key=lambda g: (g.scheduled.date, g.scheduled.starts_at), reverse=True)
    return HostGames(tonight, missing)
