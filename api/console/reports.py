"""A venue's reports in the console: tonight's results from a spreadsheet or typed in a row per
place, previewed (a dry run: nothing stored), then confirmed; a report corrected or voided; the
recent reports and the standings. Sheets are read by the API's own intake, so every check,
refusal and audit entry is the API's."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Any

from flask import Response, flash, redirect, request, url_for

from api import db
from api.console.base import (
    bp,
    current,
    hidden_id,
    hosted_venue,
    page,
    refused_form,
    sheet_fields,
    signed_in_only,
    token_missing,
    with_reason,
)
from api.console.forms import ConfirmForm, CorrectionForm, ReportForm, TypedRowsForm, VoidForm
from api.console.players import name_fixes
from api.tournaments.csv_body import parse_report_csv
from api.tournaments.intake import CORRECTION_IN, dry_run, from_csv, refusals
from models.entities import STATUSES, Tournament, Venue
from models.errors import LeagueError
from models.infra.clock import utcnow
from models.rules.notices import Notice
from models.rules.players import player_labels
from models.services import wall_clock
from models.services.lookup import get_or_raise
from models.services.paging import PageRequest
from models.services.player_queries import players_by_id, players_of_venue
from models.services.season_queries import season_for
from models.services.standings import venue_standings
from models.services.tournament_queries import ReportFilters, get_report, list_reports
from models.services.tournaments import correct_report, submit_report, void_report

# A refusal's path that names a row of the sheet ("results.3", "results.3.player_id").
ROW_PATH = re.compile(r"results\.\d+(\.|$)")
MOST_TYPED_ROWS = 200
PICKED = re.compile(r"\(#(\d{1,10})\)\s*$")


@dataclass(frozen=True)
class Correction:
    """What a correction adds to a sheet: the report corrected, the version read, and why."""

    report: Tournament
    version: int | None
    reason: str


@bp.route("/venues/<id:venue_id>/report", methods=["GET", "POST"])
@signed_in_only
def report(venue_id: int) -> Any:
    """Tonight's results: a spreadsheet's CSV, previewed (a dry run: nothing stored), then confirmed."""
    venue = hosted_venue(venue_id)
    form = ReportForm()
    if request.method == "GET":
        form.date.data = wall_clock.at_venue(db.session(), venue)  # tonight, at the venue (R2a)
        return page("console/report.html", venue=venue, form=form)
    if not form.validate_on_submit():
        return (
            refused_form()
            if token_missing(form)
            else page("console/report.html", 400, venue=venue, form=form)
        )
    sheet = form.sheet.data.read() if form.sheet.data else (form.pasted.data or "").encode()
    if not sheet.strip():
        form.sheet.errors = ["Choose the spreadsheet (saved as CSV), or paste its rows below."]
        return page("console/report.html", 400, venue=venue, form=form)
    return _preview(venue, sheet_fields(venue, form.date.data, form.session.data, form.kind.data), sheet)


def _write(
    fields: dict[str, str], sheet_csv: bytes, correction: Correction | None
) -> tuple[Tournament, list[Notice]]:
    """The sheet stored as a new report, or as the correction of one: the API's own intake and
    services. A refusal names the sheet's rows and columns."""
    session, actor = db.session(), current()
    if correction is None:
        data, sheet = from_csv(session, actor, sheet_csv, fields)
    else:
        data, sheet = from_csv(
            session, actor, sheet_csv, {**fields, "reason": correction.reason}, CORRECTION_IN
        )
        data.pop("reason", None)
    with refusals(actor, sheet):
        if correction is None:
            tournament, notices = submit_report(session, actor, data)
        else:
            tournament, notices = correct_report(
                session, actor, correction.report, data, correction.reason, correction.version
            )
    return tournament, [*sheet.notices, *notices]


def _preview(
    venue: Venue, fields: dict[str, str], sheet_csv: bytes, correction: Correction | None = None
) -> Response:
    """The report as it would be stored (the intake's dry run), or its refusal beside the rows it
    concerns; nothing is stored either way."""
    started = utcnow()

    def previewed() -> Response:
        tournament, notices = _write(fields, sheet_csv, correction)
        labels = player_labels(
            (result.player.id, result.player.display_name) for result in tournament.results
        )
        rows = [
            {
                "place": result.place,
                "name": labels[result.player.id],
                "status": result.status.replace("_", " "),
                "points": result.points,
                # Registered by this report (when it is stored).
                "new": result.player.created_at >= started,
            }
            for result in tournament.results
        ]
        confirm = ConfirmForm(formdata=None, **{name: fields[name] for name in ("date", "session", "kind")})
        confirm.csv.data = sheet_csv.decode("utf-8", "replace")
        if correction is not None:
            confirm.report_id.data = str(correction.report.id)
            confirm.version.data = str(correction.version or "")
            confirm.reason.data = correction.reason
        context: dict[str, Any] = {"venue": venue, "fields": fields, "notices": notices}
        context["correction"] = correction
        return page("console/preview.html", rows=rows, confirm=confirm, **context)

    try:
        return dry_run(db.session(), previewed)
    except LeagueError as refusal:
        return _refused(venue, fields, sheet_csv, correction, refusal)


def _refused(
    venue: Venue,
    fields: dict[str, str],
    sheet_csv: bytes,
    correction: Correction | None,
    refusal: LeagueError,
) -> Response:
    """The refusal beside the sheet's rows (by their `results.N` paths), in plainer words."""
    try:
        sheet = parse_report_csv(sheet_csv)
    except LeagueError:
        sheet = None
    sheet_rows: list[dict[str, Any]] = sheet.results if sheet else []
    ids = {int(str(r["player_id"])) for r in sheet_rows if str(r.get("player_id", "")).isdigit()}
    # What no row is blamed for (the date, the whole order) is said above the rows.
    general = [p for p in refusal.problems if not (sheet and ROW_PATH.match(p.path))]
    names = {player_id: p.display_name for player_id, p in players_by_id(db.session(), ids).items()}
    context: dict[str, Any] = {"venue": venue, "fields": fields, "refusal": refusal, "sheet": sheet}
    context["correction"] = correction
    return page("console/refused.html", refusal.status, names=names, plain=plain, general=general, **context)


# The API's words for developers, as a bar manager would say them.
PLAINER = (
    ("; the office may override with override_reason", "; only the league office can let them play"),
    ("override_reason", "the office's override"),
)


def plain(message: str) -> str:
    """A refusal's message for the console: without the row and column it is written beside."""
    said = message.split(": ", 1)[-1] if message.lower().startswith("row ") else message
    for api_words, words in PLAINER:
        said = said.replace(api_words, words)
    return said


@bp.route("/venues/<id:venue_id>/report/confirm", methods=["POST"])
@signed_in_only
def confirm(venue_id: int) -> Any:
    """Store the previewed report (or correction): the same checks again, then the write."""
    venue = hosted_venue(venue_id)
    form = ConfirmForm()
    if not form.validate_on_submit():
        return refused_form()
    fields = sheet_fields(venue, form.date.data, form.session.data, form.kind.data)
    correction = None
    if form.report_id.data:
        report_id = hidden_id(form.report_id.data)
        if report_id is None:
            return refused_form()
        corrected = get_report(db.session(), current(), report_id)
        correction = Correction(corrected, hidden_id(form.version.data), form.reason.data or "")
    sheet_csv = form.csv.data.encode()
    try:
        tournament, _notices = _write(fields, sheet_csv, correction)
    except LeagueError:
        # Something changed since the preview (a suspension, another report): preview again.
        return _preview(venue, fields, sheet_csv, correction)
    done = "Corrected" if correction else "Stored"
    flash(f"{done}: report {tournament.id}, {tournament.entrants} entrants on {tournament.date:%-d %B}.")
    return redirect(url_for("console.standings", venue_id=venue.id))


@bp.route("/reports/<id:tournament_id>/correct", methods=["GET", "POST"])
@signed_in_only
def correct(tournament_id: int) -> Any:
    """R17: a report's rows again (prefilled as a sheet), with the reason; previewed, then stored."""
    corrected = get_report(db.session(), current(), tournament_id)
    venue = hosted_venue(corrected.venue_id)
    form = CorrectionForm()
    if request.method == "GET":
        form.pasted.data = "place,player_id,status\n" + "".join(
            f"{r.place},{r.player_id},{r.status}\n" for r in corrected.results
        )
        form.version.data = str(corrected.version)
        return page("console/correct.html", venue=venue, report=corrected, form=form)
    if not form.validate_on_submit():
        if token_missing(form):
            return refused_form()
        return page("console/correct.html", 400, venue=venue, report=corrected, form=form)
    fields = sheet_fields(venue, corrected.date, corrected.session, corrected.kind)
    correction = Correction(corrected, hidden_id(form.version.data), form.reason.data.strip())
    return _preview(venue, fields, (form.pasted.data or "").encode(), correction)


@bp.route("/venues/<id:venue_id>/standings")
@signed_in_only
def standings(venue_id: int) -> Any:
    """The venue's standings in its current season, with a print layout."""
    session = db.session()
    venue = get_or_raise(session, Venue, venue_id, "venue")
    season = season_for(session, venue, wall_clock.at_venue(session, venue))
    table = venue_standings(session, season, venue) if season is not None else None
    # R19: rows of one display name show their numbers; the office may set one a name of its own.
    fixes = name_fixes((row.player_id, row.display_name) for row in table.rows) if table else []
    return page("console/standings.html", venue=venue, season=season, table=table, fixes=fixes)


@bp.route("/venues/<id:venue_id>/reports")
@signed_in_only
def reports(venue_id: int) -> Any:
    """R17: the venue's recent reports, newest first, each with its results; void one, with a
    reason (hosts within the season's correction window, the office any time: the service says)."""
    venue = hosted_venue(venue_id)
    found = list_reports(db.session(), current(), ReportFilters(venue_id=venue.id), PageRequest(1, 20))
    # R19: as the API's list labels them: numbered where two players of the page share a name.
    labels = player_labels(
        (r.player.id, r.player.display_name) for report in found.items for r in report.results
    )
    return page(
        "console/reports.html", venue=venue, reports=found.items, labels=labels, void=VoidForm(formdata=None)
    )


@bp.route("/reports/<id:tournament_id>/void", methods=["POST"])
@signed_in_only
def void(tournament_id: int) -> Any:
    session, actor = db.session(), current()
    tournament = get_report(session, actor, tournament_id)
    form = VoidForm()

    def voided(reason: str) -> str:
        void_report(session, actor, tournament, reason, hidden_id(form.version.data))
        return f"Voided: report {tournament.id} of {tournament.date:%-d %B}. It no longer counts anywhere."

    not_voided = f"Report {tournament.id} was not voided: "
    back = url_for("console.reports", venue_id=tournament.venue_id)
    return with_reason(
        form, back, not_voided + "give the reason (it is kept with the record).", voided, not_voided
    )


@bp.route("/venues/<id:venue_id>/rows", methods=["GET", "POST"])
@signed_in_only
def typed_rows(venue_id: int) -> Any:
    """Tonight's results typed in, a row per place: a player picked by name (the browser offers
    the venue's players as you type), or a new one's full name and email. Read as the same sheet
    an upload gives, previewed before anything is stored."""
    venue = hosted_venue(venue_id)
    asked = request.args.get("rows", "12")
    count = min(int(asked), MOST_TYPED_ROWS) if asked.isdigit() and int(asked) > 0 else 12
    form = TypedRowsForm()
    if request.method == "GET":
        form.date.data = wall_clock.at_venue(db.session(), venue)  # tonight, at the venue (R2a)
    if request.method == "GET" or not form.validate_on_submit():
        if request.method == "POST" and token_missing(form):
            return refused_form()
        status = 400 if request.method == "POST" else 200
        known = players_of_venue(db.session(), venue.id, 3000)
        context = {"venue": venue, "form": form, "count": count, "known": known, "statuses": STATUSES}
        return page("console/rows.html", status, **context)
    fields = sheet_fields(venue, form.date.data, form.session.data, form.kind.data)
    return _preview(venue, fields, _typed_sheet(request.form))


def _typed_sheet(posted: Any) -> bytes:
    """The typed rows as the CSV sheet an upload would give: a row per place, blank rows left out."""
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(["place", "player_id", "full_name", "email", "status"])
    place = 0
    for number in range(1, MOST_TYPED_ROWS + 1):
        who = (posted.get(f"player_{number}") or "").strip()
        email = (posted.get(f"email_{number}") or "").strip()
        if not who and not email:
            continue
        place += 1
        picked = PICKED.search(who)
        entrant_status = posted.get(f"status_{number}") or "played"
        if picked:
            out.writerow([place, picked.group(1), "", "", entrant_status])
        else:
            out.writerow([place, "", who, email, entrant_status])
    return buffer.getvalue().encode()
