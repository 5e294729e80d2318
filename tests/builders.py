"""The one league builder for the HTTP tests: `Scene` (a venue with a season around today, its host
and players; report bodies, posting, standings, counts), and the date and points helpers."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from babel.dates import format_date

from tests.support.league import Caller, League

TOURNAMENTS = "/api/v1/tournaments"
SEASONS = "/api/v1/seasons"

# What the `host_for` fixture gives: host_for(venue_id, ..., name=...) -> a host's Caller.
HostFor = Callable[..., Caller]
# One finisher of a report: a player id, or (player id, status).
Entrant = int | tuple[int, str]


def utc_today() -> date:
    """Today in a league on UTC: the tests' league, unless a test sets a zone (R2a; a test that
    does reckons its dates itself, as tests/support/local_dates.py does)."""
    return datetime.now(UTC).date()


def days_ago(n: int) -> date:
    """The day n days before today (n < 0: after it)."""
    return utc_today() - timedelta(days=n)


def iso(day: date) -> str:
    """The day as the API writes it (YYYY-MM-DD)."""
    return day.isoformat()


def said(day: date, year: bool = True) -> str:
    """The day as people read it in a league that kept the default words (R24: "EEE d MMM y" in
    en_GB): "Tue 1 Dec 2026"; without the year where a page leaves it out (a list's line on a
    phone): "Tue 1 Dec". Written with Babel itself, not through the service's DateWords."""
    return format_date(day, "EEE d MMM y" if year else "EEE d MMM", locale="en_GB")


def ago(n: int) -> str:
    """The day n days before today, as the API writes it."""
    return iso(days_ago(n))


def ended_season(ends: int = 10, championship: int | None = 5, **settings: Any) -> dict[str, Any]:
    """A season's dates: 80 days long, ended `ends` days ago, its championship `championship` days
    ago (None: no date), plus `settings`. Reckoned when called, in the test, as the test's other
    dates are: a run that passes midnight never mixes two todays."""
    dates = {"starts_on": ago(80), "ends_on": ago(ends), **settings}
    if championship is not None:
        dates["championship_date"] = ago(championship)
    return dates


def unique_name() -> str:
    """A name no other player's name is close to (R5 duplicate warnings stay out of the way)."""
    return f"Q{uuid.uuid4().hex[:9]} Z{uuid.uuid4().hex[:9]}"


def unique_email() -> str:
    """An email address no other player has."""
    return f"{uuid.uuid4().hex[:12]}@example.org"


def by_place(report: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The report's results keyed by place."""
    return {row["place"]: row for row in report["results"]}


def points_by_place(report: dict[str, Any]) -> list[tuple[int, int, int, int]]:
    """(place, placement, participation, points) of each result, in place order."""
    return [
        (r["place"], r["placement_points"], r["participation_points"], r["points"])
        for r in sorted(report["results"], key=lambda r: r["place"])
    ]


# R17: the reason the office gives for a night a host may no longer report (the builders' reports
# are of nights weeks ago).
OFFICE_LATE = "Entered from the host's paper sheet"


class Scene:
    """One venue in its own region, a season from 60 days ago to 30 days ahead covering that region
    (with any season settings given, which may also replace those), and a host key of the venue."""

    # Auto-dated reports (`report`, `padded`) go on 50, 49, 48, ... days ago.
    FIRST_AUTO_DAY_AGO = 50
    # `body` puts a report on this many days ago unless told otherwise.
    DEFAULT_DAY_AGO = 2

    def __init__(
        self, league: League, office: Caller, public: Caller, host_for: HostFor, **season: Any
    ) -> None:
        self.league, self.office, self.public, self.host_for = league, office, public, host_for
        self.region = league.region()
        self.venue = league.venue(self.region["id"])
        self.season = league.season(
            **{"region_ids": [self.region["id"]], "starts_on": ago(60), "ends_on": ago(-30), **season}
        )
        self.host = host_for(self.venue_id, name="Host: Crown")
        self.roster: list[dict[str, Any]] = []  # every player created here, as the API answered
        self._fillers: list[int] = []
        self._next_day_ago = self.FIRST_AUTO_DAY_AGO

    @property
    def venue_id(self) -> int:
        """The venue's id."""
        return int(self.venue["id"])

    @property
    def season_id(self) -> int:
        """The season's id."""
        return int(self.season["id"])

    # Players -------------------------------------------------------------------------------------

    def player(self, display_name: str | None = None) -> int:
        """A new player with a unique full name (and this display name, if given); its id."""
        fields = {} if display_name is None else {"display_name": display_name}
        created = self.league.player(unique_name(), **fields)
        self.roster.append(created)
        return int(created["id"])

    def players(self, *display_names: str) -> list[int]:
        """A new player for each display name given, in order; their ids."""
        return [self.player(name) for name in display_names]

    def add_players(self, n: int) -> list[int]:
        """n new players with unique names; their ids."""
        return [self.player() for _ in range(n)]

    def fillers(self, n: int) -> list[int]:
        """n players named "~filler k" (sorted after every protagonist), reused across reports."""
        while len(self._fillers) < n:
            self._fillers.append(self.player(f"~filler {len(self._fillers) + 1:02d}"))
        return self._fillers[:n]

    # Reports -------------------------------------------------------------------------------------

    def next_day(self) -> date:
        """A day no earlier auto-dated report of this scene took (50, 49, ... days ago)."""
        day = days_ago(self._next_day_ago)
        self._next_day_ago -= 1
        return day

    def body(
        self, order: Sequence[Entrant], day: date | None = None, venue_id: int | None = None, **extra: Any
    ) -> dict[str, Any]:
        """A report body placing `order` 1, 2, 3, ...: each a player id, or (player id, status);
        at this venue (or `venue_id`), on `day` (or DEFAULT_DAY_AGO days ago)."""
        results = []
        for place, item in enumerate(order, start=1):
            player_id, status = item if isinstance(item, tuple) else (item, None)
            row: dict[str, Any] = {"place": place, "player_id": player_id}
            if status is not None:
                row["status"] = status
            results.append(row)
        return {
            "venue_id": venue_id or self.venue_id,
            "date": iso(day or days_ago(self.DEFAULT_DAY_AGO)),
            "results": results,
            **extra,
        }

    def post(self, body: dict[str, Any], caller: Caller | None = None, **kwargs: Any) -> Any:
        """POST the report body as the caller (the host unless told); the response."""
        return (caller or self.host).post(TOURNAMENTS, json=body, **kwargs)

    def posted(self, body: dict[str, Any], caller: Caller | None = None) -> dict[str, Any]:
        """POST the report body as the caller (the host unless told); the stored report (a 201)."""
        response = self.post(body, caller)
        assert response.status_code == 201, response.get_json()
        data: dict[str, Any] = response.get_json()
        return data

    def report(self, order: Sequence[Entrant], day: date | None = None, **extra: Any) -> dict[str, Any]:
        """The office reports `order` (see `body`) on `day`, else on `next_day()`, with the reason
        R17 asks of the office for a night past the hosts' correction window; the stored report."""
        extra.setdefault("reason", OFFICE_LATE)
        return self.posted(self.body(order, day or self.next_day(), **extra), self.office)

    def padded(self, leaders: Sequence[Entrant], n: int, day: date | None = None) -> dict[str, Any]:
        """The office reports n entrants (see `report`): the leaders in order, then fillers."""
        ids = {item[0] if isinstance(item, tuple) else item for item in leaders}
        rest = [f for f in self.fillers(n + len(leaders)) if f not in ids][: n - len(leaders)]
        return self.report([*leaders, *rest], day)

    # Counts ----------------------------------------------------------------------------------------

    def stored_reports(self) -> int:
        """Every stored report, voided ones included (the office sees them)."""
        response = self.office.get(f"{TOURNAMENTS}?include_voided=true")
        assert response.status_code == 200
        return int(response.get_json()["total"])

    def listed_reports(self) -> int:
        """Reports the public sees."""
        return int(self.public.get(TOURNAMENTS).get_json()["total"])

    def player_count(self) -> int:
        """Every stored player."""
        return int(self.office.get("/api/v1/players").get_json()["total"])

    def counts(self) -> tuple[int, int]:
        """(stored reports, stored players)."""
        return self.stored_reports(), self.player_count()

    # The season and its standings ---------------------------------------------------------------

    def patch(self, **changes: Any) -> Any:
        """PATCH the season as the office (with a reason, which a rescoring change needs); the
        response."""
        return self.office.patch(
            f"{SEASONS}/{self.season_id}", json={"reason": "Set by the test.", **changes}
        )

    def path(self, venue_id: int | None = None) -> str:
        """The URL of the season's standings at this venue (or `venue_id`)."""
        return f"{SEASONS}/{self.season_id}/venues/{venue_id or self.venue_id}/standings"

    def standings(self, query: str = "", venue_id: int | None = None) -> dict[str, Any]:
        """The standings body the public gets (a 200, as JSON); `query` starts with "?"."""
        response = self.public.get(self.path(venue_id) + query)
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.mimetype == "application/json"
        data: dict[str, Any] = response.get_json()
        return data

    def rows(self, query: str = "") -> list[dict[str, Any]]:
        """The standings rows, in order."""
        rows: list[dict[str, Any]] = self.standings(query)["standings"]
        return rows

    def row(self, player_id: int, query: str = "") -> dict[str, Any]:
        """The one standings row of the player."""
        (row,) = [r for r in self.rows(query) if r["player"]["id"] == player_id]
        return row


# What the `make_scene` fixture gives: make_scene(**season_settings) -> a new Scene.
MakeScene = Callable[..., Scene]


# Sanctions (R15, R16) --------------------------------------------------------------------------

SANCTIONS = "/api/v1/sanctions"
AUDIT_LOG = "/api/v1/audit-log"


def sanction_body(
    player_id: int, kind: str = "suspension", category: str = "fighting", **fields: Any
) -> dict[str, Any]:
    """A sanction body: the player, kind and category, a reason, and any other fields given
    (first_day, last_day, venue_id, permanent, ...)."""
    return {"player_id": player_id, "kind": kind, "category": category, "reason": "Threw a chair.", **fields}


def sanctioned(
    caller: Caller, player_id: int, kind: str = "suspension", category: str = "fighting", **fields: Any
) -> dict[str, Any]:
    """POST a sanction (see `sanction_body`) as the caller; the sanction recorded (a 201)."""
    response = caller.post(SANCTIONS, json=sanction_body(player_id, kind, category, **fields))
    assert response.status_code == 201, response.get_data(as_text=True)
    data: dict[str, Any] = response.get_json()
    return data


def audit_entries(office: Caller, query: str) -> list[dict[str, Any]]:
    """The audit log entries the office reads with this query (e.g. "action=sanction.create")."""
    response = office.get(f"{AUDIT_LOG}?per_page=100&{query}")
    assert response.status_code == 200, response.get_data(as_text=True)
    items: list[dict[str, Any]] = response.get_json()["items"]
    return items


# Qualification (R3, R12-R14) --------------------------------------------------------------------


def qualifiers_path(season_id: int, venue_id: int | None = None) -> str:
    """The URL of a season's qualifier lists, or of one venue's list."""
    if venue_id is None:
        return f"{SEASONS}/{season_id}/qualifiers"
    return f"{SEASONS}/{season_id}/venues/{venue_id}/qualifiers"


def read_qualifiers(
    caller: Caller, season_id: int, venue_id: int | None = None, query: str = ""
) -> dict[str, Any]:
    """The qualifier lists (a 200, as JSON) of the season, or of one venue; `query` starts with "?"."""
    response = caller.get(qualifiers_path(season_id, venue_id) + query)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    data: dict[str, Any] = response.get_json()
    return data


def ids_of(items: Sequence[dict[str, Any]]) -> list[int]:
    """The player ids of qualifier, skipped or tied-out entries, in order."""
    return [int(item["player"]["id"]) for item in items]


def born(years: int, on: date) -> str:
    """The latest date of birth of someone who is `years` old on `on` (one day later: `years` - 1)."""
    try:
        day = on.replace(year=on.year - years)
    except ValueError:  # 29 February in a year without one
        day = date(on.year - years, 2, 28)
    return iso(day)


def day_after(day: str) -> str:
    """The day after an ISO date, as the API writes it."""
    return iso(date.fromisoformat(day) + timedelta(days=1))


def person(scene: Scene, display_name: str, **fields: Any) -> int:
    """A new player of the scene with this display name and any other fields (date_of_birth, ...)."""
    created = scene.league.player(unique_name(), display_name=display_name, **fields)
    scene.roster.append(created)
    return int(created["id"])


def stranger(scene: Scene) -> dict[str, Any]:
    """A player of another venue of the scene's region (home there, never played at the scene's),
    with a full name, email and membership number, as the office registered them (R19 probes)."""
    other = scene.league.venue(scene.region["id"])
    return scene.league.player(
        unique_name(), email=unique_email(), membership_number="198507214321", home_venue_id=other["id"]
    )
