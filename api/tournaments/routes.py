"""Result reports: hosts post (JSON or CSV), retry safely, correct and void (R2-R7, R17, R18)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Response, g, json, request
from flask.views import MethodView
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import BadRequest

from api import db
from api.auth import current_actor, host_or_office
from api.blueprint import Blueprint
from api.contract import ID, conflicts, links, preconditioned
from api.errors import flatten_messages
from api.fields import utc_timestamp
from api.idempotency import idempotent
from api.pagination import page_request, page_schema
from api.tournaments.csv_body import CsvReport, parse_report_csv
from api.tournaments.schemas import (
    REPORT_BODY,
    CorrectionIn,
    CsvQuery,
    ReportIn,
    ReportOut,
    ReportQuery,
    ReportWritten,
    VoidIn,
    reporter_as_seen,
    reporter_role,
)
from models.entities import Tournament
from models.errors import InvalidInput, LeagueError, Problem, Stale, refuse
from models.rules.notices import Notice
from models.services.paging import Page
from models.services.report_checks import rule_problems
from models.services.report_queries import ReportFilters, get_report, list_reports
from models.services.reports import correct_report, submit_report, void_report

blp = Blueprint(
    "tournaments",
    __name__,
    url_prefix="/api/v1/tournaments",
    description="Result reports (R2-R7, R17).",
)


# Schemas are made once: making one copies its fields, nested ones too (a report's rows).
REPORT_IN, CORRECTION_IN = ReportIn(), CorrectionIn()
CSV_QUERY_FIELDS = frozenset(CsvQuery().fields)


def _load(schema: Schema) -> tuple[dict[str, Any], CsvReport | None]:
    """The report from a JSON body, or from a CSV body plus the query string (with the sheet,
    to name its rows and columns in any refusal)."""
    sheet: CsvReport | None = None
    if request.mimetype == "text/csv":
        query = {k: v for k, v in request.args.items() if k in CSV_QUERY_FIELDS and k != "dry_run"}
        sheet = parse_report_csv(request.get_data())
        raw: Any = {**_typed(query), "results": sheet.results}
    elif not request.get_data():
        raw = {}  # nothing sent: every required field is named as missing
    else:
        raw = request.get_json(silent=True)
        if raw is None:
            raise BadRequest("The body is not valid JSON.")
    if not isinstance(raw, dict):
        raise InvalidInput.at("body", "The body must be a JSON object.")
    return loaded(schema, raw, sheet), sheet


def report_from_csv(
    csv: bytes, fields: dict[str, Any], schema: Schema = REPORT_IN
) -> tuple[dict[str, Any], CsvReport]:
    """A report (or with CORRECTION_IN a correction) from a spreadsheet's CSV and the fields a
    query string would give (venue_id, date, session, kind, reason): the web console's upload,
    read and refused exactly as the API's."""
    sheet = parse_report_csv(csv)
    return loaded(schema, {**_typed(fields), "results": sheet.results}, sheet), sheet


def loaded(schema: Schema, raw: dict[str, Any], sheet: CsvReport | None) -> dict[str, Any]:
    """The report as the schema loads it; refused whole, naming every problem, when it cannot."""
    try:
        data: dict[str, Any] = schema.load(raw)
    except ValidationError as exc:
        problems = [
            Problem(path, text) for path, texts in flatten_messages(exc.messages).items() for text in texts
        ]
        with named_by(sheet):
            refuse("The report is refused whole", [*problems, *_rules_too(schema, raw, problems)])
        raise
    return data


def _rules_too(schema: Schema, raw: dict[str, Any], problems: list[Problem]) -> list[Problem]:
    """When only some result rows are malformed, the league's rules are checked on the rest too,
    so one answer names every problem (never one round for the format, another for the rules)."""
    rows = raw.get("results")
    located = [p.path.split(".") for p in problems]
    if not isinstance(rows, list) or not all(
        len(parts) >= 2 and parts[0] == "results" and parts[1].isdigit() and int(parts[1]) < len(rows)
        for parts in located
    ):
        return []
    unreadable: set[int] = set()
    places_readable = True
    sane = [dict(row) if isinstance(row, dict) else {} for row in rows]
    for parts in located:
        index, field_name = int(parts[1]), (parts[2] if len(parts) > 2 else None)
        if field_name == "place":
            places_readable = False
            sane[index]["place"] = 1
        elif field_name == "status":
            sane[index].pop("status", None)
        else:
            unreadable.add(index)
    for index in unreadable:
        place = sane[index].get("place")
        sane[index] = {"place": place if isinstance(place, int) and place >= 1 else 1, "player_id": 1}
    try:
        report = schema.load({**raw, "results": sane})
    except ValidationError:
        return []
    report.pop("reason", None)
    if "venue_id" not in report or "date" not in report:
        return []  # a correction naming neither: its stored report's are checked once it is well formed
    report = {"session": 1, "kind": "regular", **report}
    return rule_problems(db.session(), current_actor(), report, frozenset(unreadable), places_readable)


@contextmanager
def named_by(sheet: CsvReport | None) -> Iterator[None]:
    """A refusal of a CSV report names the spreadsheet's rows and columns."""
    try:
        yield
    except LeagueError as exc:
        if sheet is None:
            raise
        raise sheet.relabel(exc) from None


def _typed(query: dict[str, str]) -> dict[str, Any]:
    """Query strings are text; the schema wants JSON types for ids and session."""
    typed: dict[str, Any] = dict(query)
    for name in ("venue_id", "session", "season_id"):
        if name in typed and typed[name].isdigit():
            typed[name] = int(typed[name])
    return typed


def _written(tournament: Tournament, notices: list[Notice]) -> dict[str, Any]:
    """ReportWritten, written directly (every report answers it: the schema's per-field dump of
    its rows was a large share of a report's cost). A test holds it to the schema's dump."""
    return {
        "id": tournament.id,
        "venue_id": tournament.venue_id,
        "season_id": tournament.season_id,
        "date": tournament.date.isoformat(),
        "session": tournament.session,
        "kind": tournament.kind,
        "entrants": tournament.entrants,
        "version": tournament.version,
        "voided": tournament.voided,
        "voided_at": utc_timestamp(tournament.voided_at),
        "void_reason": tournament.void_reason,
        "reported_by": reporter_as_seen(tournament, current_actor()),
        "reported_by_role": reporter_role(tournament),
        "created_at": utc_timestamp(tournament.created_at),
        "updated_at": utc_timestamp(tournament.updated_at),
        "results": [
            {
                "place": result.place,
                "player": {"id": result.player.id, "display_name": result.player.display_name},
                "status": result.status,
                "placement_points": result.placement_points,
                "participation_points": result.participation_points,
                "points": result.points,
            }
            for result in tournament.results
        ],
        "warnings": [
            {
                "code": notice.code,
                "message": notice.message,
                "player_ids": list(notice.player_ids),
                "rule": notice.rule,
            }
            for notice in notices
        ],
    }


def _answer(tournament: Tournament, notices: list[Notice], status: int, **extra: Any) -> Response:
    body = {**_written(tournament, notices), **extra}
    response = Response(json.dumps(body), status=status, mimetype="application/json")
    if not extra.get("dry_run"):
        response.set_etag(version_tag(tournament))
    return response


def version_tag(report: Tournament) -> str:
    """The report's version as an entity tag: `r<id>v<version>` (a GET adds its answer's key)."""
    return f"r{report.id}v{report.version}"


VERSION_TAG = re.compile(r"^r(\d+)v(\d+)(?:\.|$)")


def expected_version(report_id: int) -> int | None:
    """The version of the report that `If-Match` names (None without the header, or with `*`);
    a 412 when it names no version of this report."""
    tags = request.if_match
    if not request.headers.get("If-Match") or tags.star_tag:
        return None
    for tag in [*tags.as_set(include_weak=True)]:
        match = VERSION_TAG.match(tag)
        if match and int(match.group(1)) == report_id:
            return int(match.group(2))
    raise Stale(
        f"If-Match names no version of report {report_id}: send the ETag a GET of the report gave.",
        problems=[Problem("If-Match", "Not an ETag of this report.")],
    )


def _dry_run(write: Callable[[], tuple[Tournament, list[Notice]]]) -> Response:
    """`?dry_run=1`: the write runs whole inside a savepoint that is then rolled back, so the
    answer is exactly what would be stored (points, warnings, new players) and nothing is."""
    session = db.session()
    savepoint = session.begin_nested()
    try:
        tournament, notices = write()
        answer = _answer(tournament, notices, 200, dry_run=True)
    finally:
        savepoint.rollback()
    return answer


@blp.route("")
class TournamentsViews(MethodView):
    @blp.doc(operationId="list_reports")
    @blp.arguments(ReportQuery, location="query")
    @blp.response(200, page_schema(ReportOut, "ReportPage"))
    def get(self, args: dict[str, Any]) -> Page[Tournament]:
        """List reports, newest first"""
        page = page_request(args)
        return list_reports(db.session(), current_actor(), ReportFilters(**args), page)

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
    @blp.alt_response(200, schema=ReportWritten, description="dry_run: what would be stored (nothing was)")
    def post(self, query: dict[str, Any]) -> Any:
        """Report a tournament's finishing order (host of the venue, or office)

        JSON as below, or `text/csv` with `venue_id` and `date` (and `session`, `kind`,
        `season_id`) in the query and the columns `place`, `status` and whichever of
        `player_id`, `membership_number`, `email`, `full_name` name the player.
        The whole report is refused on any problem: nothing is stored, no player created.
        `?dry_run=1` checks it completely and answers (200) what would be stored, storing nothing.
        """
        report, sheet = _load(REPORT_IN)

        def write() -> tuple[Tournament, list[Notice]]:
            with named_by(sheet):
                tournament, notices = submit_report(db.session(), current_actor(), report)
            return tournament, [*(sheet.notices if sheet else []), *notices]

        if query.get("dry_run"):
            return _dry_run(write)
        return _answer(*write(), 201)


@blp.route("/<id:tournament_id>")
class TournamentByIdViews(MethodView):
    @blp.doc(operationId="get_report")
    @blp.response(200, ReportOut)
    def get(self, tournament_id: int) -> Any:
        """A report with each result's points (a voided one: the office only)

        Its ETag names the report's version: sent back in `If-Match` with a correction or a
        void, the change is refused (412) if the report changed since it was read.
        """
        report = get_report(db.session(), current_actor(), tournament_id)
        # The version for If-Match, and the answer's cache key: the answer also changes with
        # things the version does not count (a player's new display name).
        return report, 200, {"ETag": f'"{version_tag(report)}.{g.get("cache_key", "")[:24]}"'}

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
    @blp.response(200, ReportWritten)
    def put(self, query: dict[str, Any], tournament_id: int) -> Any:
        """Correct a report: its results again, plus a reason (R17)

        Venue, date, session and kind left out keep the stored report's. Hosts within the
        season's correction_days of the tournament date; the office any time. `?dry_run=1`
        answers (200) what would be stored, storing nothing.
        """
        session, actor = db.session(), current_actor()
        tournament = get_report(session, actor, tournament_id)
        data, sheet = _load(CORRECTION_IN)
        reason = data.pop("reason")
        expected = expected_version(tournament_id)

        def write() -> tuple[Tournament, list[Notice]]:
            with named_by(sheet):
                corrected, notices = correct_report(session, actor, tournament, data, reason, expected)
            return corrected, [*(sheet.notices if sheet else []), *notices]

        if query.get("dry_run"):
            return _dry_run(write)
        return _answer(*write(), 200)


@blp.route("/<id:tournament_id>/void")
class TournamentVoidViews(MethodView):
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
        tournament = get_report(session, actor, tournament_id)
        voided = void_report(session, actor, tournament, data["reason"], expected_version(tournament_id))
        return voided, 200, {"ETag": f'"{version_tag(voided)}"'}
