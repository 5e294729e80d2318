"""Checking a result report whole before anything is written (R2-R5, R7, R16): its venue and
season, its finishing order, who each row names, the chart, and the sanctions of its players.
Every problem is gathered and named in one refusal, so a host fixes the report in one go."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.discipline import LEAST_MAX_ENTRANTS
from models.entities.league import Season, Venue
from models.entities.players import Player
from models.entities.tournaments import Result, Tournament
from models.errors import Forbidden, Problem, refuse
from models.infra.clock import today
from models.rules.charts import NoBandForEntrants
from models.rules.discipline import Barred, barred_problem, barred_rows
from models.rules.notices import Notice, age_unverified, existing_player, merged_player, sanction_overridden
from models.rules.players import (
    age_on,
    normalise_email,
    normalise_name,
    parse_membership_number,
    similar_names,
)
from models.rules.reports import (
    TournamentKind,
    finishing_order_problems,
    repeated_entrants,
    shared_membership_numbers,
)
from models.services.discipline_queries import barring_sanctions
from models.services.league_settings import league_settings
from models.services.qualification_queries import qualified, season_qualification
from models.services.scoring import chart_rule
from models.services.season_queries import season_for

# How a result row may name its player (R5), in the order they are looked at.
IDENTIFIERS = ("player_id", "membership_number", "email", "new_player")


@dataclass
class Entrant:
    """Who one row names: a stored player, or a new one to register once all is checked."""

    player: Player | None = None
    new: dict[str, Any] | None = None
    # What makes two rows the same person (R4): the player's id, or a new player's email.
    key: str = ""


@dataclass
class CheckedReport:
    venue: Venue
    season: Season
    rows: list[dict[str, Any]]
    entrants: list[Entrant]
    notices: list[Notice] = field(default_factory=list)
    # R16: sanctioned players the office let play, with its reason (audited when written).
    overridden: list[Barred] = field(default_factory=list)
    override_reason: str | None = None


def may_report_for(actor: Actor, venue_id: int) -> None:
    """A host reports for their own venues; the office for any."""
    if not (actor.is_office or actor.hosts_venue(venue_id)):
        raise Forbidden(f"Your key does not host venue {venue_id}: a host reports for their own venues.")


def check_report(session: Session, actor: Actor, report: dict[str, Any]) -> CheckedReport:
    """Every check of a report; refuses it whole, naming every problem, or returns who it names."""
    problems, checked = _gather(session, actor, report, frozenset(), True)
    refuse("The report is refused whole", problems)
    assert checked is not None
    return checked


def rule_problems(
    session: Session,
    actor: Actor,
    report: dict[str, Any],
    unreadable_rows: frozenset[int],
    places_readable: bool,
) -> list[Problem]:
    """The league rules' problems of a report whose body is partly malformed, so that one answer
    names them together with the malformed fields: rows in `unreadable_rows` (their player could
    not be read) are left out of the player checks, and places out of R4 when any is unreadable."""
    problems, _checked = _gather(session, actor, report, unreadable_rows, places_readable)
    return problems


def _gather(
    session: Session,
    actor: Actor,
    report: dict[str, Any],
    unreadable: frozenset[int],
    places_readable: bool,
) -> tuple[list[Problem], CheckedReport | None]:
    problems: list[Problem] = []
    venue = session.get(Venue, report["venue_id"])
    season: Season | None = None
    if venue is None:
        problems.append(Problem("venue_id", f"There is no venue with id {report['venue_id']}."))
    else:
        may_report_for(actor, venue.id)
        season, season_problems = season_of_report(session, report, venue)
        problems += season_problems
    rows: list[dict[str, Any]] = report["results"]
    problems += too_many_entrants(session, len(rows))
    if places_readable:
        problems += finishing_order_problems([row["place"] for row in rows])
    readable = [row for index, row in enumerate(rows) if index not in unreadable]
    by_name = players_by_name(session, readable, venue, season)
    entrants, notices, player_problems = identify_players(session, rows, by_name, unreadable)
    problems += player_problems
    problems += shared_membership_numbers([(e.new or {}).get("membership_number") for e in entrants])
    problems += repeated_entrants(
        [(e.key, _naming_field(row)) for e, row in zip(entrants, rows, strict=True)]
    )
    if season is not None:
        problems += chart_problems(season, len(rows))
    if venue is not None and season is not None and report["kind"] != TournamentKind.REGULAR:
        eligibility, age_notices = playoff_problems(session, report, venue, season, entrants, unreadable)
        problems += eligibility
        notices += age_notices
    overridden: list[Barred] = []
    if venue is not None:
        barred = barred_entrants(session, entrants, venue.id, report["date"])
        overridden, sanction_problems = sanction_override(actor, barred, report.get("override_reason"))
        problems += sanction_problems
    if problems or venue is None or season is None:
        return problems, None
    notices += [sanction_overridden(b.row, b.player_id, b.sanction_id) for b in overridden]
    reason = report.get("override_reason") if overridden else None
    return problems, CheckedReport(venue, season, rows, entrants, notices, overridden, reason)


def too_many_entrants(session: Session, entrants: int) -> list[Problem]:
    """The league's most entrants per report (league settings; at least LEAST_MAX_ENTRANTS, so a
    report of that many or fewer needs no look)."""
    if entrants <= LEAST_MAX_ENTRANTS:
        return []
    most = league_settings(session).max_entrants
    if entrants <= most:
        return []
    message = f"At most {most} entrants per report (the league's max_entrants); this one has {entrants}."
    return [Problem("results", message)]


def barred_entrants(session: Session, entrants: list[Entrant], venue_id: int, day: date) -> list[Barred]:
    """R16: the rows whose player is suspended, or banned at the venue, on the day. One query for
    the whole report, whatever its size (new players have no sanctions)."""
    player_ids = [e.player.id if e.player is not None else None for e in entrants]
    sanctions = barring_sanctions(session, [pid for pid in player_ids if pid is not None])
    return barred_rows(player_ids, [(s.id, s.player_id, s.terms) for s in sanctions], venue_id, day)


def sanction_override(
    actor: Actor, barred: list[Barred], override_reason: str | None
) -> tuple[list[Barred], list[Problem]]:
    """R16: barred players refuse the report, unless the office overrides with a written reason;
    a host cannot override. Returns (what is overridden, the problems)."""
    if override_reason is not None and not actor.is_office:
        return [], [
            Problem("override_reason", "Only the office may override a sanction.", "R16"),
            *map(barred_problem, barred),
        ]
    if override_reason is not None:
        return barred, []
    return [], [barred_problem(b) for b in barred]


def season_of_report(
    session: Session, report: dict[str, Any], venue: Venue
) -> tuple[Season | None, list[Problem]]:
    """R2: a regular report's season covers its venue and contains its date; a playoff or
    championship names its season and is held after the season's last day (R3: a playoff at a
    venue the season covers). A date in the future is refused."""
    day: date = report["date"]
    if day > today():
        message = f"{day.isoformat()} is in the future; report a tournament once it is played."
        return None, [Problem("date", message, "R2")]
    if report["kind"] == TournamentKind.REGULAR:
        season = season_for(session, venue, day)
        if season is None:
            return None, [Problem("date", f"No season covers venue {venue.id} on {day.isoformat()}.", "R2")]
        if report.get("season_id") not in (None, season.id):
            message = f"The season of {day.isoformat()} at this venue is {season.id}."
            return None, [Problem("season_id", message, "R2")]
        return season, []
    if report.get("season_id") is None:
        return None, [Problem("season_id", f"A {report['kind']} report names its season.", "R2")]
    named = session.get(Season, report["season_id"])
    if named is None:
        return None, [Problem("season_id", f"There is no season with id {report['season_id']}.")]
    if day <= named.ends_on:
        message = f"A {report['kind']} is held after the season's last day ({named.ends_on.isoformat()})."
        return None, [Problem("date", message, "R2")]
    if report["kind"] == TournamentKind.PLAYOFF and not named.covers_region(venue.region_id):
        message = f"Season {named.id} does not cover venue {venue.id}'s region."
        return None, [Problem("venue_id", message, "R3")]
    return named, []


def playoff_problems(
    session: Session,
    report: dict[str, Any],
    venue: Venue,
    season: Season,
    entrants: list[Entrant],
    unreadable: frozenset[int] = frozenset(),
) -> tuple[list[Problem], list[Notice]]:
    """R3: a playoff takes only the season's qualifiers (the published lists once there are
    some) from venues of the playoff venue's region; a championship only qualifiers who are at
    least the season's min_age on its date. Each ineligible row is named, with why."""
    lists = season_qualification(session, season, changes=False).lists
    region_of_venue = {v["venue_id"]: v["region_id"] for v in lists}
    qualified_at = qualified(lists)
    problems: list[Problem] = []
    notices: list[Notice] = []
    for index, entrant in enumerate(entrants):
        if index in unreadable:
            continue
        at = f"results.{index}.player_id"
        player = entrant.player
        where = qualified_at.get(player.id) if player is not None else None
        if player is None or where is None:
            who = f"player {player.id}" if player is not None else "a new player"
            problems.append(Problem(at, f"{who.capitalize()} did not qualify in season {season.id}.", "R3"))
        elif report["kind"] == TournamentKind.PLAYOFF and region_of_venue[where] != venue.region_id:
            problems.append(
                Problem(
                    at,
                    f"Player {player.id} qualified at venue {where}, of region {region_of_venue[where]}; "
                    f"this playoff is for region {venue.region_id}.",
                    "R3",
                )
            )
        elif report["kind"] != TournamentKind.CHAMPIONSHIP:
            continue
        elif player.date_of_birth is None:
            notices.append(age_unverified(index, player.id))
        elif age_on(player.date_of_birth, report["date"]) < season.min_age:
            problems.append(
                Problem(
                    at,
                    f"Player {player.id} is under {season.min_age} on the championship date "
                    f"({report['date'].isoformat()}).",
                    "R3",
                )
            )
    return problems, notices


def chart_problems(season: Season, entrants: int) -> list[Problem]:
    """R7: a bands chart must have a band for the report's number of entrants."""
    try:
        chart_rule(season.points_chart).points_for(entrants)
    except NoBandForEntrants as exc:
        return [Problem("results", f"{str(exc).capitalize()}.", "R7")]
    return []


@dataclass
class _Named:
    """What one row names (R5): a stored player or a new one, else the problem; maybe a notice."""

    player: Player | None = None
    new: dict[str, Any] | None = None
    problem: Problem | None = None
    notice: Notice | None = None


def _name_only(row: dict[str, Any]) -> bool:
    return bool(row.get("full_name")) and not any(row.get(name) is not None for name in IDENTIFIERS)


@dataclass(frozen=True)
class NameMatches:
    """R5, for rows that give a name alone: the players of each name (normalised) who have played
    at the venue in the season, and those of that name who have not (listed as candidates)."""

    here: dict[str, list[Player]]
    elsewhere: dict[str, list[Player]]
    season_known: bool = True


def players_by_name(
    session: Session, rows: list[dict[str, Any]], venue: Venue | None, season: Season | None
) -> NameMatches:
    """R5: look up every name-only row of the report at once (two queries at most)."""
    keys = sorted({normalise_name(row["full_name"]) for row in rows if _name_only(row)})
    if not keys or venue is None or season is None:
        return NameMatches({}, {}, season_known=season is not None)
    played_here = (
        select(Result.player_id)
        .join(Tournament, Tournament.id == Result.tournament_id)
        .where(
            Tournament.venue_id == venue.id,
            Tournament.season_id == season.id,
            Tournament.live,
        )
    )
    named = (
        select(Player).where(Player.name_key.in_(keys), Player.merged_into_id.is_(None)).order_by(Player.id)
    )
    here: dict[str, list[Player]] = {}
    for player in session.scalars(named.where(Player.id.in_(played_here))):
        here.setdefault(player.name_key, []).append(player)
    elsewhere: dict[str, list[Player]] = {}
    if any(key not in here for key in keys):
        for player in session.scalars(named.where(Player.id.not_in(played_here))):
            elsewhere.setdefault(player.name_key, []).append(player)
    return NameMatches(here, elsewhere)


def _by_name(row: dict[str, Any], at: str, matches: NameMatches) -> _Named:
    """R5: a name alone names the one player of that name who has played at the venue in the
    season; none or several are refused, listing the candidates."""
    name = row["full_name"]
    if not matches.season_known:
        return _Named(
            problem=Problem(at, f"{name!r}: a name alone is looked up in the report's season.", "R5")
        )
    key = normalise_name(name)
    found = matches.here.get(key, [])
    if len(found) == 1:
        return _Named(player=found[0])
    if found:
        listed = ", ".join(f"{p.id} ({p.display_name})" for p in found)
        message = f"Several players named {name!r} have played here this season: {listed}; name one by id."
        return _Named(problem=Problem(at, message, "R5"))
    others = matches.elsewhere.get(key, [])
    hint = (
        f" Players of that name elsewhere: {', '.join(f'{p.id} ({p.display_name})' for p in others)}."
        if others
        else ""
    )
    message = (
        f"No player named {name!r} has played at this venue this season; name them by id, email or "
        f"membership number, or register them with new_player (full_name and email).{hint}"
    )
    return _Named(problem=Problem(at, message, "R5"))


def identify_players(
    session: Session,
    rows: list[dict[str, Any]],
    by_name: NameMatches | None = None,
    unreadable: frozenset[int] = frozenset(),
) -> tuple[list[Entrant], list[Notice], list[Problem]]:
    """R5: the player each row names, or the new player it registers; a player merged into
    another stands for the survivor (R17). Rows in `unreadable` name no one (their problem is
    already named)."""
    by_name = by_name or NameMatches({}, {})
    entrants: list[Entrant] = []
    notices: list[Notice] = []
    problems: list[Problem] = []
    named = _named_players(session, rows)
    for index, row in enumerate(rows):
        at = f"results.{index}"
        if index in unreadable:
            entrants.append(Entrant(key=f"row:{index}"))
            continue
        identified = _by_name(row, at, by_name) if _name_only(row) else _identify(row, at, named)
        notices += [identified.notice] if identified.notice else []
        problems += [identified.problem] if identified.problem else []
        found = identified.player
        if found is not None and found.merged_into_id is not None:
            notices.append(merged_player(at, found.id, found.merged_into_id))
            found = session.get(Player, found.merged_into_id)
        if identified.new is not None:
            entrants.append(Entrant(new=identified.new, key=f"email:{identified.new['email']}"))
        else:
            entrants.append(Entrant(player=found, key=f"id:{found.id}" if found else f"row:{index}"))
    return entrants, notices, problems


@dataclass(frozen=True)
class _Registered:
    """The players a report's rows name by id, email or membership number, each looked up once
    for the whole report (a report may have 10,000 rows)."""

    by_id: dict[int, Player]
    by_email: dict[str, Player]
    by_number: dict[str, Player]


def _named_players(session: Session, rows: list[dict[str, Any]]) -> _Registered:
    ids, emails, numbers = set(), set(), set()
    for row in rows:
        if isinstance(row.get("player_id"), int):
            ids.add(row["player_id"])
        new = row.get("new_player") or {}
        for email in (row.get("email"), new.get("email")):
            if isinstance(email, str):
                emails.add(normalise_email(email))
        for number in (row.get("membership_number"), new.get("membership_number")):
            if isinstance(number, str):
                numbers.add(number.strip())

    def load(column: Any, values: set[Any]) -> list[Player]:
        return list(session.scalars(select(Player).where(column.in_(sorted(values))))) if values else []

    return _Registered(
        {p.id: p for p in load(Player.id, ids)},
        {p.email: p for p in load(Player.email, emails) if p.email is not None},
        {p.membership_number: p for p in load(Player.membership_number, numbers) if p.membership_number},
    )


def _identify(row: dict[str, Any], at: str, named: _Registered) -> _Named:
    if row.get("player_id") is not None:
        found = named.by_id.get(row["player_id"])
        if found is None:
            return _Named(
                problem=Problem(f"{at}.player_id", f"There is no player with id {row['player_id']}.", "R5")
            )
        return _Named(player=found)
    if row.get("membership_number") is not None:
        number = row["membership_number"].strip()
        try:
            parse_membership_number(number, today=today())
        except ValueError as exc:
            return _Named(problem=Problem(f"{at}.membership_number", str(exc), "R5"))
        found = named.by_number.get(number)
        if found is None:
            message = f"No player has membership number {number}."
            return _Named(problem=Problem(f"{at}.membership_number", message, "R5"))
        return _Named(player=found)
    if row.get("email") is not None:
        email = normalise_email(row["email"])
        found = named.by_email.get(email)
        if found is None and row.get("full_name"):
            # An email with a full name: this player, registered now since the email is new.
            return _Named(new={"full_name": row["full_name"], "email": email})
        if found is None:
            message = (
                f"No player has the email {email}; to register them, send new_player "
                "with full_name and email."
            )
            return _Named(problem=Problem(f"{at}.email", message, "R5"))
        if row.get("full_name") and not _same_person(found, row["full_name"]):
            return _Named(problem=Problem(f"{at}.full_name", _not_that_player(found), "R5"))
        return _Named(player=found)
    if row.get("new_player") is not None:
        new = dict(row["new_player"])
        new["email"] = normalise_email(new["email"])
        found = named.by_email.get(new["email"])
        if found is None:
            return _Named(new=new, problem=_new_player_problem(new, f"{at}.new_player", named))
        if not _same_person(found, new["full_name"]):
            return _Named(problem=Problem(f"{at}.new_player.email", _not_that_player(found), "R5"))
        return _Named(player=found, notice=existing_player(at, new["email"], found.id))
    message = "Name the player by player_id, membership_number, email or new_player."
    return _Named(problem=Problem(at, message, "R5"))


def _naming_field(row: dict[str, Any]) -> str:
    """The field a row names its player by, for a problem's path."""
    return next((name for name in (*IDENTIFIERS, "full_name") if row.get(name) is not None), "player_id")


def _same_person(player: Player, full_name: str) -> bool:
    """R5: a name given with a registered email must closely match that player's name, or the
    points would land on someone else."""
    return bool(similar_names(normalise_name(full_name), [(player.id, player.name_key)]))


def _not_that_player(player: Player) -> str:
    return (
        f"This email is registered to player {player.id} ({player.display_name}), whose name "
        "does not match; check the email, or name that player by email alone."
    )


def _new_player_problem(new: dict[str, Any], at: str, named: _Registered) -> Problem | None:
    """R5: a new player's membership number is their date of birth and a PIN, and unused."""
    number = new.get("membership_number")
    if number is None:
        return None
    try:
        born = parse_membership_number(number, today=today())
    except ValueError as exc:
        return Problem(f"{at}.membership_number", str(exc), "R5")
    if new.get("date_of_birth") not in (None, born):
        return Problem(f"{at}.membership_number", "Does not start with the date of birth given.", "R5")
    owner = named.by_number.get(number)
    if owner is not None:
        return Problem(f"{at}.membership_number", f"Already belongs to player {owner.id}.", "R5")
    return None
