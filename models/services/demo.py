"""A small demo league, so a new install's docs and standings show something real."""

from __future__ import annotations

import random
from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import Region, Venue
from models.entities.players import Player
from models.infra import clock
from models.services.discipline import issue_sanction
from models.services.league import create_chart, create_region, create_venue
from models.services.players import create_player
from models.services.reports import submit_report
from models.services.seasons import create_season

DEMO = Actor(role="system", name="demo loader")

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


def demo_season_dates(today: date) -> tuple[date, date]:
    """A 12-week season running now: started on the Monday eight weeks ago."""
    monday = today - timedelta(days=today.weekday())
    starts = monday - timedelta(weeks=8)
    return starts, starts + timedelta(weeks=12) - timedelta(days=1)


def load_demo(session: Session, only_if_empty: bool = True, today: date | None = None) -> bool:
    if only_if_empty and session.scalar(select(func.count()).select_from(Region)):
        return False
    rng = random.Random(2026)
    region = create_region(session, DEMO, "River Valley")
    venues: list[Venue] = [
        create_venue(session, DEMO, {"name": name, "region_id": region.id, "city": city, "active": True})
        for name, city in VENUES
    ]
    chart = create_chart(
        session,
        DEMO,
        {
            "name": "Host binder 2026",
            "kind": "bands",
            "bands": [
                {"min_entrants": 2, "max_entrants": 9, "points": [30, 20, 10]},
                {"min_entrants": 10, "max_entrants": 19, "points": [50, 40, 30, 20, 10]},
                {"min_entrants": 20, "max_entrants": 200, "points": [70, 60, 50, 40, 30, 20, 10]},
            ],
        },
    )
    starts, ends = demo_season_dates(today or clock.today())
    create_season(
        session,
        DEMO,
        {
            "name": f"Fall {starts.year}",
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
                "email": f"{first}.{last}.{index}@example.org".lower(),
                "date_of_birth": born,
                "membership_number": born.strftime("%Y%m%d") + f"{rng.randrange(10000):04d}",
                "home_venue_id": venues[index % len(venues)].id,
            },
        )
        players.append(player)
    _play_weeks(session, rng, venues, players, starts, today or clock.today())
    _discipline(session, venues, players, today or clock.today())
    return True


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
