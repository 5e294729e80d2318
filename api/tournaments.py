"""Result reports: hosts post (JSON or CSV), retry safely, correct and void (R2-R7, R17, R18)."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate, validates, validates_schema
from sqlalchemy import select
from sqlalchemy.orm import selectinload
from werkzeug.exceptions import BadRequest

from api import db
from api.auth import current_actor, host_or_office
from api.errors import flatten_messages
from api.fields import Id, QueryId, StrictInt, Text, UtcDateTime
from api.idempotency import idempotent
from api.pagination import PageArgs, page_schema, paginate
from api.report_csv import parse_report_csv
from api.schemas import PlayerRef, WarningOut
from models import STATUSES, TOURNAMENT_KINDS, Result, Tournament
from models.clock import today
from models.errors import InvalidInput
from models.services.reports import correct_report, get_report, submit_report, void_report

blp = Blueprint(
    "tournaments",
    __name__,
    url_prefix="/api/v1/tournaments",
    description="Result reports (R2-R7, R17).",
)

MAX_ENTRANTS = 10_000
IDENTIFIERS = ("player_id", "membership_number", "email", "new_player")


class NewPlayerIn(Schema):
    full_name = Text(max_length=200, required=True)
    email = fields.Email(required=True, validate=validate.Length(max=254))
    date_of_birth = fields.Date(allow_none=True)
    membership_number = fields.String(allow_none=True, validate=validate.Length(max=12))
    display_name = Text(max_length=120)

    @validates("date_of_birth")
    def _born_in_the_past(self, value: date | None, **_kwargs: Any) -> None:
        if value is not None and not date(1900, 1, 1) <= value <= today():
            raise ValidationError("Must be a date between 1900-01-01 and today.")


class ResultIn(Schema):
    place = StrictInt(required=True, validate=validate.Range(min=1, max=MAX_ENTRANTS))
    player_id = Id()
    membership_number = fields.String(validate=validate.Length(min=1, max=40))
    email = fields.Email(validate=validate.Length(max=254))
    full_name = Text(
        max_length=200,
        metadata={"description": "With email: register the player if the email is new (R5)."},
    )
    new_player = fields.Nested(NewPlayerIn)
    status = fields.String(load_default="played", validate=validate.OneOf(STATUSES))

    @validates_schema
    def _one_player(self, data: dict[str, Any], **_kwargs: Any) -> None:
        named = [name for name in IDENTIFIERS if name in data]
        if len(named) != 1:
            raise ValidationError(
                "Name the player by exactly one of player_id, membership_number, email or "
                f"new_player (found {', '.join(named) or 'none'})."
            )
        if "full_name" in data and "email" not in data:
            raise ValidationError("full_name registers a player only together with email.", "full_name")


class ReportIn(Schema):
    venue_id = Id(required=True)
    date = fields.Date(required=True)
    session = StrictInt(load_default=1, validate=validate.Range(min=1, max=99))
    kind = fields.String(load_default="regular", validate=validate.OneOf(TOURNAMENT_KINDS))
    season_id = Id(allow_none=True, metadata={"description": "Playoffs and championships name it."})
    results = fields.List(
        fields.Nested(ResultIn), required=True, validate=validate.Length(min=1, max=MAX_ENTRANTS)
    )


class CorrectionIn(ReportIn):
    """The whole report again; `session` and `kind` left out keep the stored report's."""

    session = StrictInt(validate=validate.Range(min=1, max=99))
    kind = fields.String(validate=validate.OneOf(TOURNAMENT_KINDS))
    reason = Text(max_length=2000, required=True)


class VoidIn(Schema):
    reason = Text(max_length=2000, required=True)


class CsvQuery(Schema):
    """For a text/csv body: the report's fields that are not rows."""

    venue_id = QueryId()
    date = fields.Date()
    session = fields.Integer()
    kind = fields.String()
    season_id = QueryId()
    reason = fields.String(metadata={"description": "PUT as CSV: the correction's reason."})


class ResultOut(Schema):
    place = fields.Integer()
    player = fields.Nested(PlayerRef)
    status = fields.String()
    placement_points = fields.Integer()
    participation_points = fields.Integer()
    points = fields.Integer()


class ReportOut(Schema):
    id = fields.Integer()
    venue_id = fields.Integer()
    season_id = fields.Integer()
    date = fields.Date()
    session = fields.Integer()
    kind = fields.String()
    entrants = fields.Integer()
    version = fields.Integer()
    voided = fields.Boolean()
    voided_at = UtcDateTime(allow_none=True)
    void_reason = fields.String(allow_none=True)
    reported_by = fields.String()
    created_at = UtcDateTime()
    updated_at = UtcDateTime()
    results = fields.List(fields.Nested(ResultOut))


class ReportWritten(ReportOut):
    warnings = fields.List(fields.Nested(WarningOut))


class ReportQuery(PageArgs):
    venue_id = QueryId()
    season_id = QueryId()
    kind = fields.String(validate=validate.OneOf(TOURNAMENT_KINDS))
    from_ = fields.Date(data_key="from", metadata={"description": "On or after this date."})
    to = fields.Date(metadata={"description": "On or before this date."})
    include_voided = fields.Boolean(
        load_default=False, metadata={"description": "Office: list voided reports too."}
    )


REPORT_BODY = {
    "required": True,
    "content": {
        "application/json": {"schema": ReportIn},
        "text/csv": {
            "schema": {"type": "string"},
            "example": "place,status,player_id,email,full_name\n1,,17,,\n2,,,ann@example.org,Ann Lee\n",
        },
    },
}


def _load(schema: Schema, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report from a JSON body, or from a CSV body plus the query string."""
    if request.mimetype == "text/csv":
        query = {k: v for k, v in request.args.items() if k in CsvQuery().fields}
        raw: Any = {**_typed(query), "results": parse_report_csv(request.get_data())}
    elif not request.get_data():
        raw = {}  # nothing sent: every required field is named as missing
    else:
        raw = request.get_json(silent=True)
        if raw is None:
            raise BadRequest("The body is not valid JSON.")
    if not isinstance(raw, dict):
        raise InvalidInput("The body must be a JSON object.", errors={"body": ["Not an object."]})
    try:
        data: dict[str, Any] = schema.load({**raw, **(extra or {})})
    except ValidationError as exc:
        problems = flatten_messages(exc.messages)
        raise InvalidInput(
            "; ".join(f"{k}: {v[0]}" for k, v in list(problems.items())[:5]), errors=problems
        ) from None
    return data


def _typed(query: dict[str, str]) -> dict[str, Any]:
    """Query strings are text; the schema wants JSON types for ids and session."""
    typed: dict[str, Any] = dict(query)
    for name in ("venue_id", "session", "season_id"):
        if name in typed and typed[name].isdigit():
            typed[name] = int(typed[name])
    return typed


def _written(tournament: Tournament, warnings: list[dict[str, Any]]) -> dict[str, Any]:
    # The raw values: blp.response dumps them with ReportWritten (dumping twice fails on dates).
    return {**{name: getattr(tournament, name) for name in ReportOut().fields}, "warnings": warnings}


@blp.route("")
class TournamentsViews(MethodView):
    @blp.arguments(ReportQuery, location="query")
    @blp.response(200, page_schema(ReportOut, "ReportPage"))
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """List reports, newest first"""
        query = select(Tournament).options(selectinload(Tournament.results).selectinload(Result.player))
        if not (args["include_voided"] and current_actor().is_office):
            query = query.where(Tournament.voided_at.is_(None))
        for name in ("venue_id", "season_id", "kind"):
            if name in args:
                query = query.where(getattr(Tournament, name) == args[name])
        if "from_" in args:
            query = query.where(Tournament.date >= args["from_"])
        if "to" in args:
            query = query.where(Tournament.date <= args["to"])
        query = query.order_by(Tournament.date.desc(), Tournament.session.desc(), Tournament.id.desc())
        return paginate(db.session(), query, args)

    @host_or_office
    @idempotent
    @blp.arguments(CsvQuery, location="query")
    @blp.doc(requestBody=REPORT_BODY)
    @blp.response(201, ReportWritten)
    def post(self, _query: dict[str, Any]) -> dict[str, Any]:
        """Report a tournament's finishing order (host of the venue, or office)

        JSON as below, or `text/csv` with `venue_id` and `date` (and `session`, `kind`,
        `season_id`) in the query and the columns `place`, `status` and whichever of
        `player_id`, `membership_number`, `email`, `full_name` name the player.
        The whole report is refused on any problem: nothing is stored, no player created.
        """
        tournament, warnings = submit_report(db.session(), current_actor(), _load(ReportIn()))
        return _written(tournament, warnings)


@blp.route("/<id:tournament_id>")
class TournamentByIdViews(MethodView):
    @blp.response(200, ReportOut)
    def get(self, tournament_id: int) -> Tournament:
        """A report with each result's points (voided ones: office and the venue's hosts)"""
        return get_report(db.session(), current_actor(), tournament_id)

    @host_or_office
    @blp.arguments(CsvQuery, location="query")
    @blp.doc(
        requestBody={
            **REPORT_BODY,
            "content": {**REPORT_BODY["content"], "application/json": {"schema": CorrectionIn}},
        }
    )
    @blp.response(200, ReportWritten)
    def put(self, _query: dict[str, Any], tournament_id: int) -> dict[str, Any]:
        """Correct a report: the whole report again, plus a reason (R17)

        Hosts within the season's correction_days of the tournament date; the office any time.
        """
        session, actor = db.session(), current_actor()
        tournament = get_report(session, actor, tournament_id)
        data = _load(CorrectionIn())
        reason = data.pop("reason")
        tournament, warnings = correct_report(session, actor, tournament, data, reason)
        return _written(tournament, warnings)


@blp.route("/<id:tournament_id>/void")
class TournamentVoidViews(MethodView):
    @host_or_office
    @blp.arguments(VoidIn)
    @blp.response(200, ReportOut)
    def post(self, data: dict[str, Any], tournament_id: int) -> Tournament:
        """Void a report, with a reason: it then counts nowhere (R17)"""
        session, actor = db.session(), current_actor()
        tournament = get_report(session, actor, tournament_id)
        return void_report(session, actor, tournament, data["reason"])
