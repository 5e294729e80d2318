"""Reports' answers written by hand beside their schemas (schemas.ReportOut, ReportWritten,
ReportDryRun): every report written answers one, and a page of fifty reports holds a thousand
results; the schemas' per-field dump of the rows was most of their cost. A report's JSON is
written here once (`report_answer`): alone, in a page (pages.py), and after a write with its
warnings. tests/api/test_answers.py holds each to its schema's dump of the same report, for
each caller (R19: who reported it, and the players' labels)."""

from __future__ import annotations

from typing import Any

from api.fields import utc_timestamp
from api.schemas import Label
from models.actor import Actor
from models.entities import Report
from models.rules.notices import Notice, unregistered
from models.rules.players import player_labels
from models.services.reports.queries import SeenReport, reporter_role, reporter_seen_by, seen_by
from models.services.reports.stored import Written


def warnings(notices: list[Notice]) -> list[dict[str, Any]]:
    return [
        {
            "code": notice.code,
            "message": notice.message,
            "player_ids": list(notice.player_ids),
            "rule": notice.rule,
        }
        for notice in notices
    ]


def report_answer(seen: SeenReport, label: Label) -> dict[str, Any]:
    """ReportOut, written directly: a report as its caller sees it (`seen_by`; its results as
    ORM rows or as plain ones, `SeenWithRows`), its players labelled by `label` (R19: over the
    report alone, or over the whole page it is on)."""
    return {
        "id": seen.id,
        "venue_id": seen.venue_id,
        "season_id": seen.season_id,
        "date": seen.date.isoformat(),
        "session": seen.session,
        "kind": seen.kind,
        "entrants": seen.entrants,
        "version": seen.version,
        "voided": seen.voided,
        "voided_at": utc_timestamp(seen.voided_at),
        "void_reason": seen.void_reason,
        "reported_by": seen.reported_by,
        "reported_by_role": seen.reported_by_role,
        "created_at": utc_timestamp(seen.created_at),
        "updated_at": utc_timestamp(seen.updated_at),
        "results": [
            {
                "place": row.place,
                "player": {
                    "id": row.player.id,
                    "display_name": row.player.display_name,
                    "label": label(row.player.id, row.player.display_name),
                },
                "status": row.status,
                "placement_points": row.placement_points,
                "participation_points": row.participation_points,
                "knocked_out_by": row.knocked_out_by_id,
                "knockouts": row.knockouts,
                "knockout_points": row.knockout_points,
                "points": row.points,
            }
            for row in seen.results
        ],
    }


def _labels(report: Report) -> dict[int, str]:
    """R19: the report's players labelled over the report alone."""
    return player_labels((result.player.id, result.player.display_name) for result in report.results)


def written_answer(actor: Actor, report: Report, notices: list[Notice]) -> dict[str, Any]:
    """ReportWritten: the stored report as the writer sees it, and its warnings."""
    labels = _labels(report)
    answer = report_answer(seen_by(actor, report), lambda player_id, _name: labels[player_id])
    return {**answer, "warnings": warnings(notices)}


def _dry_run_results(report: Report, registered: dict[int, str]) -> list[dict[str, Any]]:
    """A dry run's rows: each player says whether the report would register them (`new`, with
    no id: none was stored)."""
    rows = []
    labels = _labels(report)
    for result in report.results:
        name = result.player.display_name
        new = result.player.id in registered
        rows.append(
            {
                "place": result.place,
                "player": {
                    "id": None if new else result.player.id,
                    "display_name": name,
                    # A player it would register has no number yet: their label is their name (R19).
                    "label": name if new else labels[result.player.id],
                    "new": new,
                },
                "status": result.status,
                "placement_points": result.placement_points,
                "participation_points": result.participation_points,
                # R8a: a knocker the report would register has no id yet either.
                "knocked_out_by": None
                if result.knocked_out_by_id in registered
                else result.knocked_out_by_id,
                "knockouts": result.knockouts,
                "knockout_points": result.knockout_points,
                "points": result.points,
            }
        )
    return rows


def dry_run_answer(actor: Actor, written: Written) -> dict[str, Any]:
    """ReportDryRun, written directly: what would be stored, said as a dry run from its first key;
    no id, version or timestamp (nothing was stored, so there are none), new players with no id,
    and warnings that name no id of theirs (`notices.unregistered`)."""
    report, registered = written.report, written.registered
    return {
        "dry_run": True,
        "venue_id": report.venue_id,
        "season_id": report.season_id,
        "date": report.date.isoformat(),
        "session": report.session,
        "kind": report.kind,
        "entrants": report.entrants,
        "reported_by": reporter_seen_by(actor, report),
        "reported_by_role": reporter_role(report),
        "results": _dry_run_results(report, registered),
        "warnings": warnings([unregistered(notice, registered) for notice in written.notices]),
    }
