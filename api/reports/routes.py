"""Result reports: hosts post (JSON, or a spreadsheet: CSV, .xlsx, .ods), retry safely, correct
and void (R2-R7, R17, R18)."""

from __future__ import annotations

import re
from typing import Any

from flask import Response, g, json, request
from flask.views import MethodView
from marshmallow import Schema

from api import db
from api.auth import current_actor, host_or_office
from api.blueprint import Blueprint
from api.cache.views import a_report, cached_by, the_filtered_reports
from api.contract import ID, conflicts, links, preconditioned
from api.idempotency import idempotent
from api.pagination import page_request, page_schema
from api.reports.answers import dry_run_answer, written_answer
from api.reports.csv_body import CsvReport
from api.reports.intake import CORRECTION_IN, REPORT_IN, dry_run, from_body, refusals
from api.reports.pages import page_body
from api.reports.schemas import (
    REPORT_BODY,
    CorrectionIn,
    CsvQuery,
    ReportDryRun,
    ReportOut,
    ReportQuery,
    ReportWritten,
    VoidIn,
)
from models.entities import Report
from models.errors import InvalidInput, Problem, Stale
from models.rules.drafts import ReportDraft
from models.services.reports.queries import (
    ReportFilters,
    get_report,
    report_to_change,
    seen_by,
)
from models.services.reports.writes import Written, correct_report, submit_report, void_report

DRY_RUN = (
    "`?dry_run=1`: what would be stored, and nothing was: `dry_run` first, no id, version or "
    "timestamps, new players with a null id"
)
# A correction answers 200 stored or as a dry run: one of the two schemas (the dry run's has
# `dry_run` and no id; the stored report's has its id and version and no `dry_run`).
CORRECTED: dict[str, Any] = {
    "description": f"The corrected report; or, with {DRY_RUN}.",
    "content": {"application/json": {"schema": {"oneOf": [ReportWritten, ReportDryRun]}}},
}

blp = Blueprint(
    "tournaments",
    __name__,
    url_prefix="/api/v1/tournaments",
    description="Result reports (R2-R7, R17).",
)


def _load(schema: Schema) -> tuple[ReportDraft, CsvReport | None]:
    """The request's report (JSON, or a sheet with the query string), loaded as the intake reads it."""
    return from_body(
        db.session(),
        current_actor(),
        schema,
        request.mimetype,
        request.get_data(),
        request.args,
        lambda: request.get_json(silent=True),
    )


def _answer(written: Written, status: int) -> Response:
    response = Response(
        json.dumps(written_answer(current_actor(), written.report, written.notices)),
        status=status,
        mimetype="application/json",
    )
    response.set_etag(version_tag(written.report))
    return response


def _dry_answer(written: Written) -> Response:
    return Response(
        json.dumps(dry_run_answer(current_actor(), written)), status=200, mimetype="application/json"
    )


def version_tag(report: Report) -> str:
    """The report's version as an entity tag: `r<id>v<version>` (a GET adds its answer's key)."""
    return f"r{report.id}v{report.version}"


VERSION_TAG = re.compile(r"^r(\d+)v(\d+)(?:\.|$)")


def expected_version(report_id: int) -> int | None:
    """The version of the report that `If-Match` names (None without the header, or with `*`);
    a 412 when it names no version of this report."""
    tags = request.if_match
    if not request.headers.get("If-Match") or tags.star_tag:
        return None
    named = [tag for tag in tags.as_set(include_weak=True) if tag]
    if not named:
        # `""`, `W/""` or words that are no entity tag: the header says nothing to compare.
        raise InvalidInput.at("If-Match", 'Send the ETag a GET of the report gave, in quotes ("r12v3").')
    for tag in named:
        match = VERSION_TAG.match(tag)
        if match and int(match.group(1)) == report_id:
            return int(match.group(2))
    raise Stale(
        f"If-Match names no version of report {report_id}: send the ETag a GET of the report gave.",
        problems=[Problem("If-Match", "Not an ETag of this report.")],
    )


@blp.route("")
@cached_by(the_filtered_reports)
class ReportsViews(MethodView):
    @blp.doc(operationId="list_reports")
    @blp.arguments(ReportQuery, location="query")
    @blp.response(200, page_schema(ReportOut, "ReportPage", players=True))
    def get(self, args: dict[str, Any]) -> Response:
        """List reports, newest first"""
        page = page_request(args)  # takes the page's arguments out of `args`
        return page_body(db.session(), current_actor(), ReportFilters(**args), page)

    @blp.doc(operationId="post_report")
    @host_or_office
    @idempotent
    @conflicts
    @links(
        GetReport=("get_report", {"tournament_id": ID}),
        CorrectReport=("correct_report", {"tournament_id": ID}),
        VoidReport=("void_report", {"tournament_id": ID}),
    )
    @blp.arguments(CsvQuery, location="query")
    @blp.doc(requestBody=REPORT_BODY)
    @blp.response(201, ReportWritten)
    @blp.alt_response(200, schema=ReportDryRun, description=DRY_RUN)
    def post(self, query: dict[str, Any]) -> Any:
        """Report a tournament's finishing order (host of the venue, or office)

        JSON as below, or a spreadsheet with `venue_id` and `date` (and `session`, `kind`,
        `season_id`) in the query: `text/csv` (UTF-8, UTF-16 with its BOM, or Windows-1252),
        an Excel workbook (`application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`)
        or a LibreOffice one (`application/vnd.oasis.opendocument.spreadsheet`; either also as
        `application/octet-stream`), whose sheet named Results (else its first) is read. A
        header row names the columns: `place`, `status` and whichever of `player_id`,
        `membership_number`, `email`, `full_name` (or first and last name) name the player, in
        the words spreadsheets use ("Pos", "E-mail", "Surname"); places and statuses as hosts
        write them ("1st", "W/D", "no show"). Problems name the sheet's rows and columns.
        The whole report is refused on any problem: nothing is stored, no player created.
        `?dry_run=1` checks it completely and answers (200) what would be stored, storing nothing.
        Emails and membership numbers that name no player count against a host's key
        (R19, `RATELIMIT_UNKNOWN_IDENTIFIERS`): past it, 429 naming no row, and the key's reports
        naming any email or membership number are a 429 until the window ends. More rows than
        the league's `max_entrants` are refused by their count, none looked up.
        """
        actor = current_actor()
        report, sheet = _load(REPORT_IN)

        def write() -> Written:
            with refusals(actor, sheet):
                written = submit_report(db.session(), actor, report)
            return written._replace(notices=[*(sheet.notices if sheet else []), *written.notices])

        if query.get("dry_run"):
            return dry_run(db.session(), lambda: _dry_answer(write()))
        return _answer(write(), 201)


@blp.route("/<id:tournament_id>")
@cached_by(a_report)
class ReportByIdViews(MethodView):
    @blp.doc(operationId="get_report")
    @blp.response(200, ReportOut)
    def get(self, tournament_id: int) -> Any:
        """A report with each result's points (a voided one: the office only)

        Its ETag names the report's version: sent back in `If-Match` with a correction or a
        void, the change is refused (412) if the report changed since it was read.
        """
        actor = current_actor()
        report = get_report(db.session(), actor, tournament_id)
        # The version for If-Match, and the answer's cache key: the answer also changes with
        # things the version does not count (a player's new display name).
        return seen_by(actor, report), 200, {"ETag": f'"{version_tag(report)}.{g.get("cache_key", "")[:24]}"'}

    @host_or_office
    @conflicts
    @preconditioned
    @blp.arguments(CsvQuery, location="query")
    @blp.doc(
        requestBody={
            **REPORT_BODY,
            "content": {**REPORT_BODY["content"], "application/json": {"schema": CorrectionIn}},
        }
    )
    @blp.doc(operationId="correct_report")
    @blp.doc(responses={200: CORRECTED})
    def put(self, query: dict[str, Any], tournament_id: int) -> Any:
        """Correct a report: its results again, plus a reason (R17)

        Venue, date, session and kind left out keep the stored report's. Hosts within the
        season's correction_days of the tournament date; the office any time. `?dry_run=1`
        answers (200) what would be stored, storing nothing.
        """
        session, actor = db.session(), current_actor()
        report = report_to_change(session, actor, tournament_id)
        data, sheet = _load(CORRECTION_IN)
        reason = data.pop("reason")
        expected = expected_version(tournament_id)

        def write() -> Written:
            with refusals(actor, sheet):
                written = correct_report(session, actor, report, data, reason, expected)
            return written._replace(notices=[*(sheet.notices if sheet else []), *written.notices])

        if query.get("dry_run"):
            return dry_run(session, lambda: _dry_answer(write()))
        return _answer(write(), 200)


@blp.route("/<id:tournament_id>/void")
class ReportVoidViews(MethodView):
    @blp.doc(operationId="void_report")
    @host_or_office
    @conflicts
    @preconditioned
    @blp.arguments(VoidIn)
    @blp.response(200, ReportOut)
    def post(self, data: dict[str, Any], tournament_id: int) -> Any:
        """Void a report, with a reason: it then counts nowhere (R17)

        With `If-Match` (the report's ETag), refused (412) if the report changed since.
        """
        session, actor = db.session(), current_actor()
        report = report_to_change(session, actor, tournament_id)
        voided = void_report(session, actor, report, data["reason"], expected_version(tournament_id))
        return seen_by(actor, voided), 200, {"ETag": f'"{version_tag(voided)}"'}
