"""A venue's reports in the console: tonight's results from a spreadsheet (CSV, .xlsx or .ods),
previewed (a dry run: nothing stored), then confirmed; a report voided; the recent reports (each
saying until when the caller may correct or void it, R17) and the standings. Sheets are read by
the API's own intake, so every check, refusal and audit entry is the API's. Rows typed by hand,
and corrections, are in `typed.py`, previewed here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Response, flash, redirect, request, url_for

from api import db
from api.console.base import (
    asked_day,
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
from api.console.forms import AgainForm, ConfirmForm, ReportForm, VoidForm
from api.console.players import name_fixes
from api.console.refusals import told
from api.people_dates import people_date
from api.reports.csv_body import CsvReport
from api.reports.intake import CORRECTION_IN, dry_run, from_sheet, refusals
from api.reports.sheets import CSV_TYPE, read_sheet, upload_type
from api.words import in_words
from models.entities import Report, Result, Venue
from models.errors import LeagueError
from models.rules.notices import Notice, unregistered
from models.rules.players import player_labels
from models.rules.reports import EntrantStatus
from models.services import wall_clock
from models.services.access import changes_any_time, overrides_sanctions
from models.services.lookup import get_or_raise
from models.services.paging import PageRequest
from models.services.players.queries import players_by_id
from models.services.reports.queries import ReportFilters, get_report, list_reports, report_to_change
from models.services.reports.writes import (
    Written,
    change_window,
    correct_report,
    submit_report,
    void_report,
)
from models.services.seasons.queries import list_seasons, season_for
from models.services.standings.queries import VenueStandings, standings_of, venue_standings

# R6: a report's rows as the recent reports mark them, in a host's words ("played" unmarked).
STATUS_MARKS = {
    EntrantStatus.DECLARED_WITHDRAWAL: "W/D",
    EntrantStatus.ABSENT: "absent",
    EntrantStatus.NO_SHOW: "no-show",
}


@dataclass(frozen=True)
class Upload:
    """A sheet as it came: its bytes, and the type they are read as (a workbook by its file
    name's ending, else CSV)."""

    body: bytes
    mimetype: str = CSV_TYPE


@dataclass(frozen=True)
class Correction:
    """What a correction adds to a sheet: the report corrected, the version read, and why."""

    report: Report
    version: int | None
    reason: str


@bp.route("/venues/<id:venue_id>/report", methods=["GET", "POST"])
@signed_in_only
def report(venue_id: int) -> Any:
    """Tonight's results: a spreadsheet (CSV, .xlsx, .ods), previewed (a dry run: nothing stored),
    then confirmed."""
    venue = hosted_venue(venue_id)
    form = ReportForm()
    today = wall_clock.at_venue(db.session(), venue)  # tonight, at the venue (R2a)
    if request.method == "GET":
        form.date.data = asked_day(today)  # a missed night's link asks for that night (R17)
        return page("console/report.html", venue=venue, form=form, today=today)
    if not form.validate_on_submit():
        return (
            refused_form()
            if token_missing(form)
            else page("console/report.html", 400, venue=venue, form=form, today=today)
        )
    if form.sheet.data:
        upload = Upload(form.sheet.data.read(), upload_type(form.sheet.data.filename or ""))
    else:
        upload = Upload((form.pasted.data or "").encode())
    if not upload.body.strip():
        form.sheet.errors = ["Choose the spreadsheet (CSV, .xlsx or .ods), or paste its rows below."]
        return page("console/report.html", 400, venue=venue, form=form, today=today)
    fields = sheet_fields(
        venue,
        form.date.data,
        form.session.data,
        form.kind.data,
        form.late_reason.data,
        form.override_reason.data if overrides_sanctions(current()) else None,
    )
    return preview_sheet(venue, fields, upload)


def _write(
    fields: dict[str, str], upload: Upload, correction: Correction | None
) -> tuple[Written, CsvReport]:
    """The sheet stored as a new report, or as the correction of one: the API's own intake and
    services. A refusal names the sheet's rows and columns."""
    session, actor = db.session(), current()
    if correction is None:
        data, sheet = from_sheet(session, actor, upload.body, fields, mimetype=upload.mimetype)
    else:
        corrected = {**fields, "reason": correction.reason}
        data, sheet = from_sheet(session, actor, upload.body, corrected, CORRECTION_IN, upload.mimetype)
        data.pop("reason", None)
    with refusals(actor, sheet):
        if correction is None:
            written = submit_report(session, actor, data)
        else:
            written = correct_report(
                session, actor, correction.report, data, correction.reason, correction.version
            )
    return written._replace(notices=[*sheet.notices, *written.notices]), sheet


# What a page does with a refusal of its sheet: the upload's page (refused.html), unless told.
OnRefusal = Callable[[LeagueError], Response]
# A corrected report's stored rows by place: (player id, status, display name).
StoredRows = dict[int, tuple[int, str, str]]
NOBODY = (0, "", "")


def preview_sheet(
    venue: Venue,
    fields: dict[str, str],
    sheet: Upload | bytes,
    correction: Correction | None = None,
    on_refusal: OnRefusal | None = None,
) -> Response:
    """The report as it would be stored (the intake's dry run), or its refusal under the rows it
    concerns; nothing is stored either way. A correction's rows that differ from the stored
    report are marked, and the players it leaves out named."""
    session = db.session()
    stored = _stored(correction)
    upload = sheet if isinstance(sheet, Upload) else Upload(sheet)

    def previewed() -> tuple[list[dict[str, Any]], list[Notice], str]:
        written, read = _write(fields, upload, correction)
        # A dry run: its warnings name no id of a player it would register (none is stored).
        notices = [unregistered(notice, written.registered) for notice in written.notices]
        results = written.report.results
        # R19: numbered where two players of the report share a display name.
        labels = player_labels((result.player.id, result.player.display_name) for result in results)
        return [_previewed_row(result, stored, labels) for result in results], notices, read.text

    try:
        rows, notices, sheet_text = dry_run(session, previewed)
    except LeagueError as refusal:
        if on_refusal is not None:
            return on_refusal(refusal)
        return _refused(venue, fields, upload, correction, refusal)
    # The dry run is rolled back: a player it registered no longer exists (new when stored).
    existing = players_by_id(session, {row["player_id"] for row in rows})
    for row in rows:
        row["new"] = row["player_id"] not in existing
    kept = {row["player_id"] for row in rows}
    dropped = [(place, name) for place, (player, _status, name) in stored.items() if player not in kept]
    confirm = ConfirmForm(formdata=None, **{name: fields[name] for name in ("date", "session", "kind")})
    confirm.csv.data = sheet_text  # the sheet as CSV (a workbook's, or a CSV decoded)
    if correction is not None:
        confirm.report_id.data = str(correction.report.id)
        confirm.version.data = str(correction.version or "")
        confirm.reason.data = correction.reason
    else:
        confirm.reason.data = fields.get("reason", "")  # the office's, for a late night (R17)
    confirm.override_reason.data = fields.get("override_reason", "")  # the office's (R16)
    context: dict[str, Any] = {"venue": venue, "fields": fields, "notices": notices, "dropped": dropped}
    return page("console/preview.html", rows=rows, confirm=confirm, correction=correction, **context)


def _stored(correction: Correction | None) -> StoredRows:
    """A corrected report's rows as stored, read before the dry run replaces them: by place, the
    player's id, the status and the player's name."""
    if correction is None:
        return {}
    return {r.place: (r.player_id, r.status, r.player.display_name) for r in correction.report.results}


def _previewed_row(result: Result, stored: StoredRows, labels: dict[int, str]) -> dict[str, Any]:
    """A row of the preview; in a correction's, whether it differs from the stored report's row
    at its place (another player or another status)."""
    knocker = result.knocked_out_by_id
    return {
        "place": result.place,
        "player_id": result.player_id,
        "name": labels[result.player_id],
        "status": in_words(result.status, "status"),
        "knocked_out_by": labels.get(knocker, "") if knocker is not None else "",  # R8a
        "knockouts": result.knockouts,
        "points": result.points,
        "changed": bool(stored) and stored.get(result.place, NOBODY)[:2] != (result.player_id, result.status),
    }


def _refused(
    venue: Venue,
    fields: dict[str, str],
    upload: Upload,
    correction: Correction | None,
    refusal: LeagueError,
) -> Response:
    """The refusal of a sheet: each reason in full under its row (by the `results.N` paths), in
    the sheet's words; what no row is blamed for (the date, the session) is the lead."""
    try:
        sheet = read_sheet(upload.body, upload.mimetype)
    except LeagueError:
        sheet = None
    sheet_rows: list[dict[str, Any]] = sheet.results if sheet else []
    ids = {int(str(r["player_id"])) for r in sheet_rows if _digits(str(r.get("player_id", "")))}
    names = {player_id: p.display_name for player_id, p in players_by_id(db.session(), ids).items()}
    refused = told(refusal, len(sheet_rows), fields, "upload the sheet again")
    again = late = None
    pasted = sheet.text if sheet else upload.body.decode("utf-8", "replace")
    if refused.next_session is not None and correction is None:
        again = AgainForm(formdata=None, date=fields["date"], kind=fields["kind"])
        again.session.data = str(refused.next_session)
        again.pasted.data = pasted
        again.late_reason.data = fields.get("reason", "")
        again.override_reason.data = fields.get("override_reason", "")
    elif (
        (refused.asks_reason or refused.asks_override) and correction is None and changes_any_time(current())
    ):
        # The office reports a night past the hosts' window (R17), or lets a suspended or banned
        # player stand (R16), with its reason: asked here, the same sheet posted again with it.
        late = AgainForm(formdata=None, date=fields["date"], kind=fields["kind"])
        late.session.data = fields["session"]
        late.pasted.data = pasted
        late.late_reason.data = fields.get("reason", "")
        late.override_reason.data = fields.get("override_reason", "")
    context: dict[str, Any] = {"venue": venue, "fields": fields, "refused": refused, "sheet": sheet}
    context |= {"names": names, "correction": correction, "again": again, "late": late}
    return page("console/refused.html", refusal.status, **context)


@bp.route("/venues/<id:venue_id>/report/confirm", methods=["POST"])
@signed_in_only
def confirm(venue_id: int) -> Any:
    """Store the previewed report (or correction): the same checks again, then the write."""
    venue = hosted_venue(venue_id)
    form = ConfirmForm()
    if not form.validate_on_submit():
        return refused_form()
    late = None if form.report_id.data else form.reason.data
    override = form.override_reason.data if overrides_sanctions(current()) else None
    fields = sheet_fields(venue, form.date.data, form.session.data, form.kind.data, late, override)
    correction = None
    if form.report_id.data:
        report_id = hidden_id(form.report_id.data)
        if report_id is None:
            return refused_form()
        corrected = get_report(db.session(), current(), report_id)
        correction = Correction(corrected, hidden_id(form.version.data), form.reason.data or "")
    upload = Upload(form.csv.data.encode())
    try:
        report = _write(fields, upload, correction)[0].report
    except LeagueError:
        # Something changed since the preview (a suspension, another report): preview again.
        return preview_sheet(venue, fields, upload, correction)
    done = "Corrected" if correction else "Stored"
    flash(f"{done}: report {report.id}, {report.entrants} entrants on {people_date(report.date)}.")
    return redirect(url_for("console.standings", venue_id=venue.id, season_id=report.season_id))


@bp.route("/venues/<id:venue_id>/standings")
@signed_in_only
def standings(venue_id: int) -> Any:
    """The venue's standings (R11) in its current season, or in the season chosen
    (`?season_id=`: any season that covers the venue, offered in a list), with a print layout."""
    session = db.session()
    venue = get_or_raise(session, Venue, venue_id, "venue")
    seasons = list_seasons(session, PageRequest(1, 1000), region_id=venue.region_id).items
    asked = hidden_id(request.args.get("season_id"))
    last = None
    if asked is not None:
        table: VenueStandings | None = standings_of(session, asked, venue.id)  # 404 unless it covers it
        season = table.season if table else None
    else:
        today = wall_clock.at_venue(session, venue)
        season = season_for(session, venue, today)
        if season is None:
            # Between seasons: the last season that ran here, said to be over.
            season = max((s for s in seasons if s.ends_on < today), key=lambda s: s.ends_on, default=None)
            last = season
        table = venue_standings(session, season, venue) if season is not None else None
    # R19: rows of one display name show their numbers; the office may set one a name of its own.
    fixes = name_fixes((row.player_id, row.display_name) for row in table.rows) if table else []
    context: dict[str, Any] = {"venue": venue, "season": season, "table": table, "fixes": fixes}
    context["over"] = asked is None and last is not None
    context["seasons"] = seasons
    return page("console/standings.html", **context)


@bp.route("/venues/<id:venue_id>/reports")
@signed_in_only
def reports(venue_id: int) -> Any:
    """R17: the venue's recent reports, newest first, each one line (its night, session, entrants
    and winner) that opens on its rows, each row's status marked (R6); void one, with a reason.
    Correct and Void are offered where the caller may use them: a host's until the last day of the
    season's correction window (shown), the office's any time (`change_window`)."""
    session, actor = db.session(), current()
    venue = hosted_venue(venue_id)
    found = list_reports(session, actor, ReportFilters(venue_id=venue.id), PageRequest(1, 20)).items
    today = wall_clock.at_venue(session, venue)  # R2a: the window is counted on the venue's clock
    windows = {seen.id: change_window(actor, seen.report, today) for seen in found}
    # R19: as the API's list labels them: numbered where two players of the page share a name.
    labels = player_labels(
        (r.player.id, r.player.display_name) for seen in found for r in seen.report.results
    )
    return page(
        "console/reports.html",
        venue=venue,
        reports=found,
        windows=windows,
        labels=labels,
        marks=STATUS_MARKS,
        void=VoidForm(formdata=None),
    )


@bp.route("/reports/<id:tournament_id>/void", methods=["POST"])
@signed_in_only
def void(tournament_id: int) -> Any:
    session, actor = db.session(), current()
    report = report_to_change(session, actor, tournament_id)  # voided already: told so (R17a)
    form = VoidForm()

    def voided(reason: str) -> str:
        void_report(session, actor, report, reason, hidden_id(form.version.data))
        return f"Voided: report {report.id} of {people_date(report.date)}. It no longer counts anywhere."

    not_voided = f"Report {report.id} was not voided: "
    back = url_for("console.reports", venue_id=report.venue_id)
    return with_reason(
        form, back, not_voided + "give the reason (it is kept with the record).", voided, not_voided
    )


def _digits(text: str) -> bool:
    """ASCII digits ("²".isdigit() is true, and int() refuses it)."""
    return text.isascii() and text.isdigit()
