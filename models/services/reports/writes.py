"""Writing result reports (R2-R8, R17, R18): store a checked report scored, correct it, void it.
Each write checks the whole report first (report_checks), so nothing is written unless all of
it passes; each is audited with the state before and after. What a write stores beside the
report (its results scored, the standings refreshed, its snapshot and notices) is stored.py's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Select, bindparam, insert, select, update
from sqlalchemy.orm import Session, object_session

from models.actor import Actor
from models.entities.base import table_of
from models.entities.reports import Report, live_in
from models.errors import Conflict, Forbidden, Problem, Stale
from models.infra.clock import utcnow
from models.rules.drafts import ReportDraft
from models.rules.reports import ReportKind, last_day_to_change
from models.services import wall_clock
from models.services.access import changes_any_time, may_change_report
from models.services.audit_log.personal_text import scrub_erased
from models.services.audit_log.writes import record
from models.services.ratings.writes import point_of, rate_new_report, replay_from
from models.services.reports.checks import CheckedReport, check_report
from models.services.reports.stored import (
    Counted,
    Written,
    counted,
    placed_notices,
    refresh_standings,
    report_snapshot,
    scored_results,
    settle_bounties_at,
    standing_places,
    store_results,
    twins,
)
from models.services.standings.lines import add_results
from models.services.webhooks.tell import previous_of, report_told, standings_told


def _slot_query() -> Select[int]:
    """A live report holding a venue, date and session, but one: on the table, built once."""
    reports = table_of(Report)
    return select(reports.c.id).where(
        reports.c.venue_id == bindparam("venue_id"),
        reports.c.date == bindparam("date"),
        reports.c.session == bindparam("session"),
        live_in(reports.c),
        reports.c.id != bindparam("exclude_id"),
    )


SLOT = _slot_query()


def refuse_taken_slot(session: Session, report: ReportDraft, exclude_id: int | None) -> None:
    """One live report per venue, date and session (a 409); the database's unique index is the
    last guard when two arrive at once."""
    slot = {name: report[name] for name in ("venue_id", "date", "session")}
    clash = session.connection().execute(SLOT, {**slot, "exclude_id": exclude_id or 0}).scalar()
    if clash is not None:
        raise Conflict(
            f"Report {clash} already holds venue {report['venue_id']}, {report['date'].isoformat()}, "
            f"session {report['session']}: correct it (PUT) or use another session number.",
            problems=[Problem("session", f"Already reported as report {clash}.")],
        )


def submit_report(session: Session, actor: Actor, draft: ReportDraft) -> Written:
    """Store a new report; returns it, its notices (e.g. possible duplicate players, R5) and the
    players it registered."""
    checked = check_report(session, actor, draft)
    refuse_taken_slot(session, draft, None)
    registered: dict[int, str] = {}
    results = scored_results(session, actor, checked, registered)
    session.flush()  # new players first
    # One INSERT … RETURNING the stored row (the unit of work's bookkeeping costs more).
    report = session.scalars(
        insert(Report).returning(Report),
        [
            {
                "venue_id": checked.venue.id,
                "season_id": checked.season.id,
                "date": draft["date"],
                "session": draft["session"],
                "kind": draft["kind"],
                "entrants": len(checked.rows),
                "reported_by": actor.name,
                "reported_by_key_id": actor.key_id,
                "reported_by_role": actor.role,
            }
        ],
    ).one()
    store_results(session, report, results)
    if report.kind == ReportKind.REGULAR:
        add_results(session, checked.season, report.venue_id, [result for result, _ in results])
        settle_bounties_at(session, [report])
    rate_new_report(session, report, [result for result, _ in results])
    record(
        session,
        actor,
        "tournament.create",
        "tournament",
        report.id,
        after=report_snapshot(report),
        reason=checked.late_reason,
    )
    record_override(session, actor, report, checked)
    told(session, "report.posted", report, [report])
    checked.notices.extend(twins(session, report))
    return Written(report, placed_notices(checked), registered)


def record_override(session: Session, actor: Actor, report: Report, checked: CheckedReport) -> None:
    """R16, R18: an override of sanctions is kept in the audit log with its reason."""
    if not checked.overridden:
        return
    record(
        session,
        actor,
        "tournament.override",
        "tournament",
        report.id,
        after={
            "overridden": [
                {
                    "place": checked.rows[b.row]["place"],
                    "player_id": b.player_id,
                    "sanction_id": b.sanction_id,
                }
                for b in checked.overridden
            ]
        },
        reason=checked.override_reason,
    )


@dataclass(frozen=True)
class ChangeWindow:
    """R17: whether an actor may correct or void a report today, and until when. `last_day` is
    a host's last day to change it (a date on the venue's wall clock, R2a), None for the office
    (any time) and for a host of another venue; `refusal` says why not, naming who still can."""

    allowed: bool
    last_day: date | None = None
    refusal: str | None = None


def change_window(actor: Actor, report: Report, today: date | None = None) -> ChangeWindow:
    """R17, never raising: the office any time; a host of the report's venue until the season's
    correction_days after the tournament date, on the venue's `today` (read when not given)."""
    try:
        may_change_report(actor, report.venue_id)
    except Forbidden as refused:
        return ChangeWindow(False, refusal=refused.message)
    if changes_any_time(actor):
        return ChangeWindow(True)
    days = report.season.correction_days
    last_day = last_day_to_change(report.date, days)
    if (today or _today_at(report)) > last_day:
        return ChangeWindow(False, last_day, _window_closed(days, last_day))
    return ChangeWindow(True, last_day)


def may_change(actor: Actor, report: Report) -> None:
    """R17: the office any time; a host of the report's venue within the season's correction_days."""
    window = change_window(actor, report)
    if not window.allowed:
        raise Forbidden(window.refusal or "", rule="R17")


def _today_at(report: Report) -> date:
    session = object_session(report)
    assert session is not None, "a stored report is read in a session"
    return wall_clock.at_venue(session, report.venue_id)


def _window_closed(days: int, last_day: date) -> str:
    return (
        f"A host may change a report within {days} days of the tournament "
        f"(until {last_day.isoformat()}); only the league office can change it now."
    )


def _within_window(days: int, day: date, today: date) -> None:
    """R17, R2a: `today` is the date on the report's venue's wall clock."""
    last_day = last_day_to_change(day, days)
    if today > last_day:
        raise Forbidden(_window_closed(days, last_day), rule="R17")


def refuse_stale(report: Report, expected_version: int | None) -> None:
    """A change made against a version read earlier is refused once the report has moved on
    (two hosts correcting at once: the second is told, not silently overwritten)."""
    if expected_version is not None and expected_version != report.version:
        raise Stale(
            f"Report {report.id} is at version {report.version} since you read version "
            f"{expected_version}: read it again and redo your change.",
            problems=[Problem("If-Match", f"Version {expected_version} is no longer current.")],
        )


def refusal_of(report: Report, doing: str, expected_version: int | None) -> Conflict | Stale:
    """R17a: why a void or a correction of this report (as it is now) cannot be made: it is
    voided (409), or it moved on from the version the caller read: 412 when the caller said which
    (If-Match), 409 otherwise (a change made at the same moment won)."""
    if report.voided:
        assert report.voided_at is not None
        message = (
            f"Report {report.id} was already voided on {report.voided_at:%Y-%m-%d} by "
            f"{report.voided_by}"
            + (
                "."
                if doing == "voided"
                else "; a voided report is not corrected: report the tournament anew."
            )
        )
        return Conflict(message, rule="R17a", problems=[Problem("", "The report is voided.", "R17a")])
    if expected_version is not None:
        return Stale(
            f"Report {report.id} is at version {report.version} since you read version "
            f"{expected_version}: read it again and redo your change.",
            problems=[Problem("If-Match", f"Version {expected_version} is no longer current.")],
        )
    return Conflict(
        f"Report {report.id} was corrected at the same moment (now version {report.version}), "
        f"so it was not {doing}: read it again and redo your change.",
        rule="R17a",
        problems=[Problem("", f"Now at version {report.version}.", "R17a")],
    )


def _claim(
    session: Session,
    report: Report,
    read_version: int,
    expected_version: int | None,
    doing: str,
    values: dict[str, Any],
) -> None:
    """R17a: write `values` on the report only if it is still live at the version read (one
    conditional UPDATE: of racing voids and corrections, one finds the row); then read the report
    again, results too, as it now is. Refused as `refusal_of` says when the row was gone."""
    won = session.execute(
        update(Report)
        .where(
            Report.id == report.id,
            Report.version == read_version,
            Report.voided_at.is_(None),
        )
        .values(**values)
        .returning(Report.id)
        .execution_options(synchronize_session=False)
    ).first()
    session.refresh(report)
    session.expire(report, ["results"])
    if won is None:
        raise refusal_of(report, doing, expected_version)


def claim_version(session: Session, report: Report, read_version: int, expected_version: int | None) -> None:
    """R17a: a correction's first write: version read + 1, if the report is still live at the
    version read; what it replaces is then read again (a merge may have moved its results)."""
    _claim(session, report, read_version, expected_version, "corrected", {"version": read_version + 1})


def correct_report(
    session: Session,
    actor: Actor,
    report: Report,
    draft: ReportDraft,
    reason: str,
    expected_version: int | None = None,
) -> Written:
    """R17: replace a report's results (and venue, date, session or kind, where given; the
    stored ones otherwise); points are recomputed. With `expected_version` (the version the
    caller read), refused (Stale) when the report has moved on since.

    R17a: made against the version read, once. The new version is claimed by the first write, a
    conditional one (`claim_version`): a void or another correction that won meanwhile leaves
    this one nothing to claim, and it is refused (409, or 412 with If-Match). What the
    correction replaces is read again once it is claimed."""
    if report.voided:
        raise refusal_of(report, "corrected", expected_version)
    may_change(actor, report)
    refuse_stale(report, expected_version)
    read_version = report.version
    draft = _with_stored(report, draft)
    # R16: refused only for the players the correction adds to the stored report.
    checked = check_report(session, actor, draft, report)
    if not changes_any_time(actor) and draft["date"] != report.date:
        # A host may move a report only to a date that is itself still in the window.
        _within_window(
            checked.season.correction_days, draft["date"], wall_clock.at_venue(session, draft["venue_id"])
        )
    refuse_taken_slot(session, draft, report.id)
    claim_version(session, report, read_version, expected_version)
    before = {**report_snapshot(report), "version": read_version}
    was = previous_of(session, report)  # R23: what its event says it was
    counted_before = counted(report)
    rated_before = point_of(report)
    players_before = {r.player_id for r in report.results}
    # Old results go first: the new ones reuse places and players (unique per report).
    report.results.clear()
    session.flush()
    report.venue_id = checked.venue.id
    report.season_id = checked.season.id
    report.date = draft["date"]
    report.session = draft["session"]
    report.kind = draft["kind"]
    report.entrants = len(checked.rows)
    registered: dict[int, str] = {}
    results = scored_results(session, actor, checked, registered)
    session.flush()
    session.refresh(report)
    store_results(session, report, results)
    players = players_before | {result["player_id"] for result, _ in results}
    refresh_standings(session, [counted_before, report], players)
    settle_bounties_at(session, [counted_before, report])
    # R20: from wherever the report was or now is in the rating order, the earlier.
    replay_from(session, min(rated_before, point_of(report)), players=players)
    record(
        session,
        actor,
        "tournament.correct",
        "tournament",
        report.id,
        before=before,
        after=report_snapshot(report),
        reason=reason,
    )
    record_override(session, actor, report, checked)
    told(session, "report.corrected", report, [counted_before, report], was)
    return Written(report, placed_notices(checked), registered)


def told(
    session: Session,
    kind: str,
    report: Report,
    counted_at: list[Report | Counted],
    previous: dict[str, Any] | None = None,
) -> None:
    """R23: the report's event (a correction's with what it was), and standings.changed where it
    counts (or counted), beside it: a chat channel hearing both is told the report alone."""
    event = report_told(session, kind, report, previous)
    standings_told(session, standing_places(counted_at), beside=event)


def _with_stored(report: Report, correction: ReportDraft) -> ReportDraft:
    """The correction as a whole report: the venue, date, session and kind it leaves out are the
    stored report's (and a playoff's season)."""
    stored = ReportDraft(
        venue_id=report.venue_id,
        date=report.date,
        session=report.session,
        kind=report.kind,
        results=correction["results"],
    )
    draft = ReportDraft(**{**stored, **correction})
    if draft["kind"] != ReportKind.REGULAR:
        draft.setdefault("season_id", report.season_id)
    return draft


def void_report(
    session: Session, actor: Actor, report: Report, reason: str, expected_version: int | None = None
) -> Report:
    """R17: a voided report counts nowhere; it stays readable by the office. With
    `expected_version`, refused (Stale) when the report has moved on since it was read.

    R17a: voided once, and only the version read: one conditional write, and a void or a
    correction that won meanwhile leaves this one no row to void (409, or 412 with If-Match)."""
    if report.voided:
        raise refusal_of(report, "voided", expected_version)
    may_change(actor, report)
    refuse_stale(report, expected_version)
    # R21: an erased player's value in the reason is stored as "[erased]" (a Core UPDATE: the
    # ORM's flush, which scrubs the other free text, does not see it).
    voided = {"voided_at": utcnow(), "voided_by": actor.name, "void_reason": scrub_erased(session, reason)}
    _claim(session, report, report.version, expected_version, "voided", voided)
    before = {**report_snapshot(report), "voided": False, "void_reason": None}
    refresh_standings(session, [report], {r.player_id for r in report.results})
    settle_bounties_at(session, [report])
    # R20: as if it had never been rated
    replay_from(session, point_of(report), players={r.player_id for r in report.results})
    record(
        session,
        actor,
        "tournament.void",
        "tournament",
        report.id,
        before=before,
        after=report_snapshot(report),
        reason=reason,
    )
    told(session, "report.voided", report, [report])
    return report
