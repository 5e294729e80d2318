"""The season a report counts in (R2), locked with its chart before any setting is read (R17a),
and who may play a playoff or the championship (R3): checks of a report that need the database,
which `report_checks` gathers with the others."""

from __future__ import annotations

from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models.actor import Actor, Role
from models.entities.league import Season, Venue
from models.entities.qualifiers import QualifierPublication
from models.errors import Conflict, Problem
from models.rules.drafts import ReportDraft
from models.rules.notices import Notice, late_report
from models.rules.qualifier_lists import playoff_eligibility
from models.rules.reports import ReportKind, last_day_to_change
from models.services import wall_clock
from models.services.access import may_report_late
from models.services.locks import share_scoring
from models.services.qualifiers.queries import season_qualification
from models.services.seasons.queries import season_for


def season_in_force(
    session: Session, report: ReportDraft, venue: Venue
) -> tuple[Season | None, list[Problem]]:
    """The report's season (R2) with its settings and chart as they are in force: both locked FOR
    SHARE and read again (locks.py), so a rescore waits for this report to commit, or this report
    waits for it and is scored with what it wrote (R7, R8, R17a). Looked for again once locked:
    a season PATCH that committed meanwhile may have moved its dates."""
    found, problems = season_of_report(session, report, venue)
    for _ in range(3):
        if found is None:
            return found, problems
        locked = share_scoring(session, found)
        found, problems = season_of_report(session, report, venue)
        if found is locked:
            return found, problems
    raise Conflict(
        "The seasons covering this report changed while it was checked; send it again.",
        rule="R17a",
    )


def season_of_report(
    session: Session, report: ReportDraft, venue: Venue
) -> tuple[Season | None, list[Problem]]:
    """R2: a regular report's season covers its venue and contains its date; a playoff or
    championship names its season and is held after the season's last day (R3: a playoff at a
    venue the season covers). A date in the future is refused."""
    day: date = report["date"]
    if day > wall_clock.at_venue(session, venue):
        message = f"{day.isoformat()} is in the future; report a tournament once it is played."
        return None, [Problem("date", message, "R2")]
    if report["kind"] == ReportKind.REGULAR:
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
    if report["kind"] == ReportKind.PLAYOFF and not named.covers_region(venue.region_id):
        message = f"Season {named.id} does not cover venue {venue.id}'s region."
        return None, [Problem("venue_id", message, "R3")]
    return named, []


def playoff_problems(
    session: Session,
    report: ReportDraft,
    venue: Venue,
    season: Season,
    players: list[tuple[int, date | None] | None],
    unreadable: frozenset[int] = frozenset(),
) -> tuple[list[Problem], list[Notice]]:
    """R3: a playoff takes only the season's qualifiers (the published lists once there are
    some) from venues of the playoff venue's region; a championship only qualifiers who are at
    least the season's min_age on its date. Each ineligible row is named, with why. `players`:
    each row's registered player (id, date of birth), or None for a new one."""
    lists = season_qualification(session, season, changes=False).lists
    return playoff_eligibility(
        report["kind"], report["date"], venue.region_id, season.id, season.min_age, lists, players, unreadable
    )


def late_report_checks(
    session: Session, actor: Actor, report: ReportDraft, venue: Venue, season: Season
) -> tuple[list[Problem], list[Notice]]:
    """R17: a host reports a night at most the season's correction_days after it (on the venue's
    wall clock, R2a), and never into a season whose qualifier lists are published (R12): past
    either, a host is refused (403, before any row is looked up) and the office reports it with
    a `reason` (audited), told that a published season's lists show the difference until it
    publishes again. The season is already locked FOR SHARE (`season_in_force`): a publication
    either committed before this read or waits for this report to commit."""
    if actor.role == Role.SYSTEM:
        return [], []
    day: date = report["date"]
    last_day = last_day_to_change(day, season.correction_days)
    late = wall_clock.at_venue(session, venue) > last_day
    published = session.scalar(
        select(func.max(QualifierPublication.published_at)).where(QualifierPublication.season_id == season.id)
    )
    if not late and published is None:
        return [], []
    why = []
    if late:
        why.append(
            f"the hosts' window of {season.correction_days} days for this night closed after "
            f"{last_day.isoformat()}"
        )
    if published is not None:
        why.append(f"the qualifier lists of {season.name} were published on {published:%Y-%m-%d}")
    said = " and ".join(why)
    may_report_late(actor, said)
    if not (report.get("reason") or "").strip():
        message = f"Give the reason this night is reported now (R17): {said}."
        return [Problem("reason", message, "R17")], []
    return [], [late_report(said, published is not None)]
