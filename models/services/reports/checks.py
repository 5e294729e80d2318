"""Checking a result report whole before anything is written (R2-R5, R7, R16): its venue and
season, its finishing order, who each row names, the chart, and the sanctions of its players.
Every problem is gathered and named in one refusal, so a host fixes the report in one go."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import Season, Venue
from models.entities.league_settings import LEAST_MAX_ENTRANTS
from models.entities.players import Player
from models.entities.reports import Report
from models.errors import Problem, refuse
from models.rules.charts import band_for_entrants
from models.rules.drafts import ReportDraft, ResultDraft
from models.rules.identification import (
    NameMatches,
    Registered,
    identify,
    name_keys,
    name_only,
    naming_field,
    wanted,
)
from models.rules.identification import by_name as identify_by_name
from models.rules.notices import Notice, merged_player, sanction_overridden, sanctioned_player_kept
from models.rules.notices import off_schedule as off_schedule_notice
from models.rules.players import NameIndex, normalise_email
from models.rules.reports import (
    ReportKind,
    finishing_order_problems,
    repeated_entrants,
    shared_membership_numbers,
    too_few_entrants,
)
from models.rules.sanctions import Barred, barred_rows, sanction_override, split_kept
from models.rules.schedules import off_schedule
from models.services import wall_clock
from models.services.access import may_post_report, overrides_sanctions, sees_players_elsewhere
from models.services.locks import hold_new_identifiers
from models.services.lookup import league_settings
from models.services.players.queries import played_live_at
from models.services.players.survivors import final_survivors
from models.services.reports.knockouts import knocker_rows
from models.services.reports.scoring import chart_rule
from models.services.reports.season_checks import late_report_checks, playoff_problems, season_in_force
from models.services.sanctions.queries import barring_sanctions
from models.services.venues.schedule_queries import changes, exceptions_of, regular, schedule_of

# R5: the near misses a refusal of a name alone offers ("did you mean …"), closest first.
NEAR_MISSES_SHOWN = 3


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
    rows: list[ResultDraft]
    entrants: list[Entrant]
    notices: list[Notice] = field(default_factory=list)
    # R16: sanctioned players the office let play, with its reason (audited when written).
    overridden: list[Barred] = field(default_factory=list)
    override_reason: str | None = None
    # R17: the office's reason for a night reported past the hosts' limit (audited when written).
    late_reason: str | None = None
    # R8a: each row's knocker, as the index of its row (None: nobody).
    knocked_by: list[int | None] = field(default_factory=list)


def check_report(
    session: Session, actor: Actor, report: ReportDraft, stored: Report | None = None
) -> CheckedReport:
    """Every check of a report; refuses it whole, naming every problem, or returns who it names.
    A correction passes the `stored` report it replaces (R16 refuses only the players it adds)."""
    problems, checked = _gather(session, actor, report, frozenset(), True, stored, new=stored is None)
    refuse("The report is refused whole", problems)
    assert checked is not None
    return checked


def rule_problems(
    session: Session,
    actor: Actor,
    report: ReportDraft,
    unreadable_rows: frozenset[int],
    places_readable: bool,
    new: bool = True,
) -> list[Problem]:
    """The league rules' problems of a report whose body is partly malformed, so that one answer
    names them together with the malformed fields: rows in `unreadable_rows` (their player could
    not be read) are left out of the player checks, and places out of R4 when any is unreadable.
    `new`: a new report (R17's limit on late reports), not a correction."""
    problems, _checked = _gather(session, actor, report, unreadable_rows, places_readable, new=new)
    return problems


def _gather(
    session: Session,
    actor: Actor,
    report: ReportDraft,
    unreadable: frozenset[int],
    places_readable: bool,
    stored: Report | None = None,
    *,
    new: bool,
) -> tuple[list[Problem], CheckedReport | None]:
    problems: list[Problem] = []
    late_notices: list[Notice] = []
    venue = session.get(Venue, report["venue_id"])
    season: Season | None = None
    if venue is None:
        problems.append(Problem("venue_id", f"There is no venue with id {report['venue_id']}."))
    else:
        may_post_report(actor, venue.id)
        season, season_problems = season_in_force(session, report, venue)
        problems += season_problems
        if season is not None and new:
            late, late_notices = late_report_checks(session, actor, report, venue, season)
            problems += late
            if report["kind"] == ReportKind.REGULAR:
                late_notices += schedule_notices(session, venue, report["date"])
    rows: list[ResultDraft] = report["results"]
    too_many = too_many_entrants(session, len(rows))
    if too_many:
        # R19: refused by its count alone; no row is looked up, so none is blamed by who it names.
        return [*problems, *too_many], None
    if places_readable:
        problems += finishing_order_problems([row["place"] for row in rows])
    else:
        problems += too_few_entrants(len(rows))
    unreadable = unreadable | names_unsought(rows, venue)
    readable = [row for index, row in enumerate(rows) if index not in unreadable]
    by_name = players_by_name(session, actor, readable, venue)
    today = wall_clock.at_venue(session, venue) if venue is not None else wall_clock.in_league(session)
    entrants, notices, player_problems = identify_players(session, rows, today, by_name, unreadable)
    problems += player_problems
    problems += shared_membership_numbers([(e.new or {}).get("membership_number") for e in entrants])
    problems += repeated_entrants([(e.key, naming_field(row)) for e, row in zip(entrants, rows, strict=True)])
    knocked_by = knocker_rows(session, rows, entrants, problems, places_readable and not unreadable)
    if season is not None:
        problems += band_for_entrants(chart_rule(season.points_chart), len(rows))
    if venue is not None and season is not None and report["kind"] != ReportKind.REGULAR:
        players = [(e.player.id, e.player.date_of_birth) if e.player else None for e in entrants]
        eligibility, age_notices = playoff_problems(session, report, venue, season, players, unreadable)
        problems += eligibility
        notices += age_notices
    overridden: list[Barred] = []
    if venue is not None:
        overridden, sanction_problems, kept = sanction_checks(
            session, actor, report, venue.id, entrants, stored
        )
        problems += sanction_problems
        notices += kept
    if problems or venue is None or season is None:
        return problems, None
    notices += [sanction_overridden(b.row, b.player_id, b.sanction_id) for b in overridden]
    reason = report.get("override_reason") if overridden else None
    late_reason = report.get("reason") or None
    checked = CheckedReport(
        venue, season, rows, entrants, [*late_notices, *notices], overridden, reason, late_reason, knocked_by
    )
    return problems, checked


def names_unsought(rows: list[ResultDraft], venue: Venue | None) -> frozenset[int]:
    """R5: without a venue a name alone cannot be looked up (it names one of the venue's
    players): those rows are left out of the player checks, so the one problem that left the
    venue unknown is said once, not once per row."""
    if venue is not None:
        return frozenset()
    return frozenset(index for index, row in enumerate(rows) if name_only(row))


def too_many_entrants(session: Session, entrants: int) -> list[Problem]:
    """The league's most entrants per report (league settings; at least LEAST_MAX_ENTRANTS, so a
    report of that many or fewer needs no look). A report over it is refused before any of its
    rows is looked up (R19: a dry run of 10,000 membership numbers must not say which exist)."""
    if entrants <= LEAST_MAX_ENTRANTS:
        return []
    most = league_settings(session).max_entrants
    if entrants <= most:
        return []
    message = f"At most {most} entrants per report (the league's max_entrants); this one has {entrants}."
    return [Problem("results", message)]


def sanction_checks(
    session: Session,
    actor: Actor,
    report: ReportDraft,
    venue_id: int,
    entrants: list[Entrant],
    stored: Report | None,
) -> tuple[list[Barred], list[Problem], list[Notice]]:
    """R16: the rows whose player is suspended, or banned at the venue, on the day refuse the
    report, unless the office overrides with a reason. A correction is refused only for the
    players it adds: a row of a player the `stored` report already held keeps its row, with a
    notice. One query for the whole report,
    whatever its size (new players have no sanctions). Returns (overridden, problems, notices)."""
    player_ids = [e.player.id if e.player is not None else None for e in entrants]
    held = stored_players(session, stored)
    sanctions = [
        (s.id, s.player_id, s.terms) for s in barring_sanctions(session, [p for p in player_ids if p])
    ]
    barred = [
        replace(b, who=labelled(entrants[b.row].player))
        for b in barred_rows(player_ids, sanctions, venue_id, report["date"])
    ]
    barred, kept = split_kept(barred, held)
    # R22: a night's report names the players the office let in at its door (audited there).
    admitted = report.get("admitted", {})
    barred = [b for b in barred if b.player_id not in admitted]
    overridden, problems = sanction_override(
        overrides_sanctions(actor), barred, report.get("override_reason")
    )
    return overridden, problems, [sanctioned_player_kept(b.row, b.player_id, b.sanction_id) for b in kept]


def schedule_notices(session: Session, venue: Venue, day: date) -> list[Notice]:
    """R2: a warning when the report's date is off the venue's schedule (`rules.off_schedule`)."""
    why = off_schedule(
        regular(schedule_of(session, venue.id)), changes(exceptions_of(session, venue.id)), day
    )
    return [] if why is None else [off_schedule_notice(why)]


def labelled(player: Player | None) -> str:
    """A player as a refusal names them to a host: display name and number ("Pete M. (#45)")."""
    return "" if player is None else f"{player.display_name} (#{player.id})"


def stored_players(session: Session, stored: Report | None) -> list[int]:
    """R16, R17: the players of a stored report (none without one), each as the final survivor of
    its merges, as a correction's rows name them."""
    if stored is None:
        return []
    ids = [result.player_id for result in stored.results]
    survivors = final_survivors(session, ids)
    return [survivors.get(player_id, player_id) for player_id in ids]


def players_by_name(
    session: Session, actor: Actor, rows: list[ResultDraft], venue: Venue | None
) -> NameMatches[Player]:
    """R5: look up every name-only row of the report at once among the players who have played
    at the venue, in any season (a regular is known by name on a season's first night). For the
    names none of them has: the venue's players a near miss away ("did you mean", the edit
    distances duplicates are found by), and, for the office only, the players of that name at
    other venues (R19: a host learns nothing of those)."""
    keys = name_keys(rows)
    if not keys or venue is None:
        return NameMatches({}, venue_known=venue is not None)
    played_here = played_live_at([venue.id])
    named = (
        select(Player).where(Player.name_key.in_(keys), Player.merged_into_id.is_(None)).order_by(Player.id)
    )
    here: dict[str, list[Player]] = {}
    for player in session.scalars(named.where(Player.id.in_(played_here))):
        here.setdefault(player.name_key, []).append(player)
    missed = [key for key in keys if key not in here]
    if not missed:
        return NameMatches(here)
    regulars = list(
        session.execute(
            select(Player.id, Player.name_key).where(
                Player.id.in_(played_here), Player.merged_into_id.is_(None)
            )
        )
    )
    index = NameIndex((row.id, row.name_key) for row in regulars)
    guesses = {key: index.matches(key, NEAR_MISSES_SHOWN).closest for key in missed}
    wanted_ids = sorted({player_id for ids in guesses.values() for player_id in ids})
    loaded = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(wanted_ids)))}
    near = {key: [loaded[i] for i in ids if i in loaded] for key, ids in guesses.items() if ids}
    elsewhere: dict[str, list[Player]] = {}
    if sees_players_elsewhere(actor):
        others = named.where(Player.name_key.in_(missed), Player.id.not_in(played_here))
        for player in session.scalars(others):
            elsewhere.setdefault(player.name_key, []).append(player)
    return NameMatches(here, near, elsewhere)


def identify_players(
    session: Session,
    rows: list[ResultDraft],
    today: date,
    by_name: NameMatches[Player] | None = None,
    unreadable: frozenset[int] = frozenset(),
) -> tuple[list[Entrant], list[Notice], list[Problem]]:
    """R5: the player each row names, or the new player it registers (rules/identification); a
    player merged away stands for the final survivor of its merges (R17: B merged into A, then A
    into C: a row naming B is C's). Rows in `unreadable` name no one (their problem is already
    named). `today` is the venue's (R2a): a date of birth after it is refused."""
    matches = by_name or NameMatches[Player]({})
    entrants: list[Entrant] = []
    notices: list[Notice] = []
    problems: list[Problem] = []
    hold_new_identifiers(session, _registering(rows, unreadable))
    named = _named_players(session, rows)
    survivors = final_survivors(
        session, [p.id for p in (*named.by_id.values(), *named.by_email.values(), *named.by_number.values())]
    )
    for index, row in enumerate(rows):
        at = f"results.{index}"
        if index in unreadable:
            entrants.append(Entrant(key=f"row:{index}"))
            continue
        identified = identify_by_name(row, at, matches) if name_only(row) else identify(row, at, named, today)
        notices += [identified.notice] if identified.notice else []
        problems += [identified.problem] if identified.problem else []
        found = identified.player
        if found is not None and found.id in survivors:
            # R17: an id merged away, however many merges ago, names the final survivor.
            notices.append(merged_player(at, found.id, survivors[found.id]))
            found = session.get(Player, survivors[found.id])
        if identified.new is not None:
            entrants.append(Entrant(new=identified.new, key=f"email:{identified.new['email']}"))
        else:
            entrants.append(Entrant(player=found, key=f"id:{found.id}" if found else f"row:{index}"))
    return entrants, notices, problems


def _registering(rows: list[ResultDraft], unreadable: frozenset[int]) -> list[str]:
    """The emails and membership numbers by which the rows may register a new player (R5): a
    new player's, or an email given with a full name."""
    keys = []
    for index, row in enumerate(rows):
        new = row.get("new_player")
        if index in unreadable:
            continue
        if new is not None:
            keys.append(f"email:{normalise_email(new['email'])}")
            if new.get("membership_number"):
                keys.append(f"number:{str(new['membership_number']).strip()}")
        elif row.get("email") is not None and row.get("full_name"):
            keys.append(f"email:{normalise_email(row['email'])}")
    return keys


def _named_players(session: Session, rows: list[ResultDraft]) -> Registered[Player]:
    """The players the rows name by id, email or membership number: one query each."""
    found = wanted(rows)

    def load(column: Any, values: set[Any]) -> list[Player]:
        return list(session.scalars(select(Player).where(column.in_(sorted(values))))) if values else []

    return Registered(
        {p.id: p for p in load(Player.id, found.ids)},
        {p.email: p for p in load(Player.email, found.emails) if p.email is not None},
        {
            p.membership_number: p
            for p in load(Player.membership_number, found.numbers)
            if p.membership_number
        },
    )
