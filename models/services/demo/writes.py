"""A small demo league, so a new install's docs and standings show something real. It lives in
its own region, "Demo", so a league's own seasons never overlap it; its region and its players
are flagged `demo`, so that it stays in its corner (its players and sanctions never show at a
venue of another region), and `remove_demo` takes it out again (the audit log keeps the record
of both, as it keeps everything)."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from models.actor import Actor, Role
from models.entities.api_keys import ApiKey, ApiKeyVenue, ConsoleSignIn
from models.entities.idempotency import IdempotentRequest
from models.entities.league import PointsChart, Region, Season, Venue
from models.entities.merges import PlayerMerge
from models.entities.nights import Night, NightAction, NightEntry
from models.entities.players import DistinctPlayers, Player
from models.entities.qualifiers import Disqualification, QualifierPublication
from models.entities.reports import Report, Result
from models.entities.sanctions import Sanction
from models.entities.schedules import ScheduleException, VenueGame
from models.entities.standings import StandingLine
from models.errors import Conflict
from models.services import wall_clock
from models.services.audit_log.writes import record
from models.services.demo.checks import check_removal
from models.services.demo.queries import DemoRemoval, removal_plan
from models.services.locks import hold_writes, take_chart, take_players, take_season
from models.services.nights.actions import apply_action
from models.services.nights.opening import open_night
from models.services.players.writes import create_player
from models.services.points_charts.writes import create_chart
from models.services.ratings import writes as ratings
from models.services.regions.writes import create_region
from models.services.reports.writes import submit_report
from models.services.sanctions.writes import issue_sanction
from models.services.seasons.writes import create_season
from models.services.venues.schedules import set_schedule
from models.services.venues.writes import create_venue

DEMO = Actor(role=Role.SYSTEM, name="demo loader")
DEMO_REGION = "Demo"
DEMO_CHART = "Demo host binder"
DEMO_EMAIL_DOMAIN = "demo.example.org"

FIRST = [
    "Ann",
    "Ben",
    "Cara",
    "Dev",
    "Eli",
    "Fay",
    "Gus",
    "Hana",
    "Ivan",
    "Jo",
    "Kai",
    "Lena",
    "Max",
    "Nia",
    "Omar",
    "Pia",
    "Quinn",
    "Rosa",
    "Sam",
]
LAST = [
    "Lee",
    "Novak",
    "Okafor",
    "Patel",
    "Quist",
    "Rossi",
    "Silva",
    "Tanaka",
    "Ueda",
    "Vance",
    "Walsh",
    "Young",
    "Zhang",
    "Keane",
]
VENUES = [
    ("The Crown", "Riverton"),
    ("Red Lion", "Riverton"),
    ("Dockside Tap", "Port Ellis"),
    ("The Foundry", "Millbrook"),
]
# Each venue's regular night: the weekday its weekly results fall on (the season starts on a
# Monday, the venues play Tuesday to Friday in turn: `_play_weeks`), and its start.
STARTS = ["19:00", "19:30", "20:00", "19:00"]


def demo_season_dates(today: date) -> tuple[date, date]:
    """A 12-week season running now: started on the Monday eight weeks ago."""
    monday = today - timedelta(days=today.weekday())
    starts = monday - timedelta(weeks=8)
    return starts, starts + timedelta(weeks=12) - timedelta(days=1)


def load_demo(session: Session, only_if_empty: bool = True, today: date | None = None) -> bool:
    if only_if_empty and session.scalar(select(func.count()).select_from(Region)):
        return False
    rng = random.Random(2026)
    region = create_region(session, DEMO, DEMO_REGION, demo=True)
    venues: list[Venue] = [
        create_venue(session, DEMO, {"name": name, "region_id": region.id, "city": city, "active": True})
        for name, city in VENUES
    ]
    chart = create_chart(
        session,
        DEMO,
        {
            "name": DEMO_CHART,
            "kind": "bands",
            "bands": [
                {"min_entrants": 2, "max_entrants": 9, "points": [30, 20, 10]},
                {"min_entrants": 10, "max_entrants": 19, "points": [50, 40, 30, 20, 10]},
                {"min_entrants": 20, "max_entrants": 200, "points": [70, 60, 50, 40, 30, 20, 10]},
            ],
        },
    )
    # R2a: the demo's dates are the league's (venues have no zone of their own yet).
    today = today or wall_clock.in_league(session)
    starts, ends = demo_season_dates(today)
    create_season(
        session,
        DEMO,
        {
            "name": f"Demo Fall {starts.year}",
            "region_ids": [region.id],
            "starts_on": starts,
            "ends_on": ends,
            "championship_date": ends + timedelta(days=20),
            "points_chart_id": chart.id,
            "participation_points": 5,
            "attendance_bonus": [{"events": 4, "points": 10}, {"events": 8, "points": 25}],
        },
    )
    names = sorted({(rng.choice(FIRST), rng.choice(LAST)) for _ in range(60)})[:36]
    players: list[Player] = []
    for index, (first, last) in enumerate(names):
        born = date(1960, 1, 1) + timedelta(days=rng.randrange(0, 365 * 45))
        player, _ = create_player(
            session,
            DEMO,
            {
                "full_name": f"{first} {last}",
                "email": f"{first}.{last}.{index}@{DEMO_EMAIL_DOMAIN}".lower(),
                "date_of_birth": born,
                "membership_number": born.strftime("%Y%m%d") + f"{rng.randrange(10000):04d}",
                "home_venue_id": venues[index % len(venues)].id,
                "demo": True,
            },
        )
        players.append(player)
    _schedules(session, venues)
    # R20: the weeks are written venue by venue, out of date order: rated once, at the end.
    with ratings.deferred(session):
        _play_weeks(session, rng, venues, players, starts, today)
    _discipline(session, venues, players, today)
    _night_in_progress(session, venues[1], players)
    return True


def _night_in_progress(session: Session, venue: Venue, players: list[Player]) -> None:
    """R22: tonight's game under way at one venue, so the live page and the night's answer show
    something on first run: ten players signed in and seated, the clock running, two out."""
    night = open_night(session, DEMO, venue.id)
    playing = [p for p in players if p.home_venue_id == venue.id][:10]
    playing += [p for p in players if p not in playing and p.id != players[7].id][: 10 - len(playing)]
    actions: list[dict[str, Any]] = [{"type": "sign_in", "player": {"player_id": p.id}} for p in playing]
    actions += [
        {"type": "seat"},
        {"type": "clock", "clock": "start"},
        {"type": "bust", "players": [{"player_id": playing[9].id}], "knocked_out_by": playing[0].id},
        {"type": "bust", "players": [{"player_id": playing[8].id}], "knocked_out_by": playing[1].id},
    ]
    for number, action in enumerate(actions):
        body = {"action_id": f"demo-{number:04d}", "sequence": night.sequence, **action}
        night = apply_action(session, DEMO, night.id, body).night


def _schedules(session: Session, venues: list[Venue]) -> None:
    """Each venue's regular night, so the games, calendars and week page show something."""
    for offset, venue in enumerate(venues):
        night = {"weekday": offset + 2, "starts_at": STARTS[offset % len(STARTS)], "sessions": 1}
        set_schedule(session, DEMO, venue, [night])


def _discipline(session: Session, venues: list[Venue], players: list[Player], today: date) -> None:
    """A few records for the door list and the office's ladder (R15): a warning, a suspension
    running now, and a ban from The Crown."""
    for data in (
        {
            "player_id": players[3].id,
            "kind": "warning",
            "category": "bad_etiquette",
            "first_day": today - timedelta(days=20),
        },
        {
            "player_id": players[7].id,
            "kind": "suspension",
            "category": "berating",
            "first_day": today - timedelta(days=3),
            "last_day": today + timedelta(days=11),
        },
        {
            "player_id": players[11].id,
            "kind": "venue_ban",
            "category": "outside_alcohol",
            "venue_id": venues[0].id,
        },
    ):
        issue_sanction(session, DEMO, {**data, "reason": "Demo league record."})


def _play_weeks(
    session: Session,
    rng: random.Random,
    venues: list[Venue],
    players: list[Player],
    starts: date,
    today: date,
) -> None:
    """Weekly results at each venue from the season's start until yesterday. Most entrants are
    regulars of the venue; some travel (so a player can stand at several venues, R1)."""
    statuses = ["played"] * 26 + ["declared_withdrawal", "absent", "no_show"]
    for offset, venue in enumerate(venues):
        regulars = [p for p in players if p.home_venue_id == venue.id]
        visitors = [p for p in players if p.home_venue_id != venue.id]
        day = starts + timedelta(days=offset + 1)
        while day < today:
            field = regulars[:] + rng.sample(visitors, rng.randrange(2, 8))
            field = rng.sample(field, min(len(field), rng.randrange(8, 15)))
            submit_report(
                session,
                DEMO,
                {
                    "venue_id": venue.id,
                    "date": day,
                    "session": 1,
                    "kind": "regular",
                    "results": [
                        {"place": place, "player_id": p.id, "status": rng.choice(statuses)}
                        for place, p in enumerate(field, start=1)
                    ],
                },
            )
            day += timedelta(weeks=1)


def remove_demo(
    session: Session, expected: DemoRemoval | None = None, by: Actor | None = None
) -> DemoRemoval | None:
    """Delete the demo league: its region, venues, seasons, reports, the players it registered
    (unless they have played elsewhere since: those stay, no longer the demo's), their sanctions,
    the host keys of its venues only (a key of other venues too keeps those), and its chart.
    Returns what was removed; None when there is no demo. The audit log keeps its entries:
    nothing deletes those, and its entry of the removal names `by` (the office's key, from the
    console; the demo's own name, from the command).

    Refused, changing nothing, when it would undo a merge of a player it keeps (R17, naming the
    merge), or when the demo changed since `expected` (what the caller was shown and confirmed).
    R17a: the demo's seasons, then its chart, then its players (the lower id first), then the
    data version row are locked before anything is read again or deleted: the order of
    models/services/locks.py, so no writer waits on it crosswise."""
    plan = removal_plan(session)
    if plan is None:
        return None
    _lock(session, plan)
    locked = removal_plan(session)
    if locked != (expected or plan):
        raise Conflict(
            "The demo league changed since it was listed (a report, a player, a key): nothing was "
            "removed; run the command again."
        )
    assert locked is not None
    check_removal(session, locked)
    earliest = ratings.earliest_of_reports(session, locked.reports)
    _delete(session, locked)
    # R20: the demo's rating history went with its reports; the players it kept are rated again
    # from its first report on, without it.
    ratings.replay_from(session, earliest, whole=True)
    removed = {
        "venues": list(locked.venues),
        "seasons": list(locked.seasons),
        "players": list(locked.players),
    }
    record(session, by or DEMO, "demo.remove", "region", locked.regions[0], before=removed)
    return locked


def _lock(session: Session, plan: DemoRemoval) -> None:
    """The removal's locks, in the order of locks.py: seasons, chart, players, the data version."""
    charts = set()
    for season_id in plan.seasons:
        season = take_season(session, session.get_one(Season, season_id))
        if season.points_chart_id is not None:
            charts.add(season.points_chart_id)
    for chart_id in sorted(charts):
        take_chart(session, session.get_one(PointsChart, chart_id))
    take_players(session, plan.players)
    hold_writes(session)


def _delete(session: Session, plan: DemoRemoval) -> None:
    """Everything of the plan, in an order the foreign keys allow."""
    venues, seasons, leaving, keys = plan.venues, plan.seasons, plan.players, plan.keys
    for statement in (
        delete(StandingLine).where(
            or_(
                StandingLine.venue_id.in_(venues),
                StandingLine.season_id.in_(seasons),
                StandingLine.player_id.in_(leaving),
            )
        ),
        delete(NightAction).where(
            NightAction.night_id.in_(select(Night.id).where(Night.venue_id.in_(venues)))
        ),
        delete(NightEntry).where(NightEntry.night_id.in_(select(Night.id).where(Night.venue_id.in_(venues)))),
        delete(Night).where(Night.venue_id.in_(venues)),
        delete(Result).where(Result.tournament_id.in_(plan.reports)),
        delete(Report).where(Report.id.in_(plan.reports)),
        delete(Disqualification).where(Disqualification.season_id.in_(seasons)),
        delete(QualifierPublication).where(QualifierPublication.season_id.in_(seasons)),
        delete(Sanction).where(Sanction.id.in_(plan.sanctions)),
        # Only merges among the players leaving, or undone ones (check_removal refused the rest).
        delete(PlayerMerge).where(
            or_(PlayerMerge.survivor_id.in_(leaving), PlayerMerge.duplicate_id.in_(leaving))
        ),
        delete(DistinctPlayers).where(
            or_(DistinctPlayers.low_id.in_(leaving), DistinctPlayers.high_id.in_(leaving))
        ),
        update(Player).where(Player.home_venue_id.in_(venues)).values(home_venue_id=None),
        update(Player).where(Player.id.in_(leaving)).values(merged_into_id=None),
        delete(Player).where(Player.id.in_(leaving)),
        update(Player).where(Player.id.in_(plan.kept_players)).values(demo=False),
        delete(ConsoleSignIn).where(ConsoleSignIn.api_key_id.in_(keys)),
        delete(IdempotentRequest).where(IdempotentRequest.api_key_id.in_(keys)),
        delete(ApiKeyVenue).where(ApiKeyVenue.venue_id.in_(venues)),
        delete(VenueGame).where(VenueGame.venue_id.in_(venues)),
        delete(ScheduleException).where(ScheduleException.venue_id.in_(venues)),
        delete(ApiKey).where(ApiKey.id.in_(keys)),
    ):
        session.execute(statement)
    for season_id in seasons:
        session.delete(session.get_one(Season, season_id))
    session.flush()
    session.execute(delete(Venue).where(Venue.id.in_(venues)))
    session.execute(delete(Region).where(Region.id.in_(plan.regions)))
    chart = session.scalar(select(PointsChart).where(PointsChart.name == DEMO_CHART))
    if (
        chart is not None
        and session.scalar(select(Season.id).where(Season.points_chart_id == chart.id)) is None
    ):
        session.delete(chart)
    session.flush()
