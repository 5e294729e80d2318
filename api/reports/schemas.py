"""Schemas of tournaments: the shape of what comes in and goes out."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.fields import Day, Id, Name, QueryBool, QueryId, StrictInt, Text, UtcDateTime
from api.pagination import PageArgs
from api.reports.sheets import WORKBOOK_TYPES
from api.schemas import Answer, PlayerRef, TellsPlayersApart, WarningOut, label_field
from models.entities import REPORT_KINDS, STATUSES
from models.rules.drafts import FIRST_SESSION, LAST_SESSION

MAX_ENTRANTS = 10_000
SHEET_ONLY = "A spreadsheet body only (CSV, .xlsx, .ods)."


IDENTIFIERS = ("player_id", "membership_number", "email", "new_player")


class NewPlayerIn(Schema):
    full_name = Name(max_length=200, required=True)
    email = fields.Email(required=True, validate=validate.Length(max=254))
    date_of_birth = Day(allow_none=True)
    membership_number = fields.String(allow_none=True, validate=validate.Length(max=12))
    display_name = Name(max_length=120)

    # A date of birth after today (the venue's, R2a) is refused with the report's checks.


KNOCKER_FIELDS = ("knocked_out_by", "knocked_out_by_place", "knocked_out_by_name")


class ResultIn(Schema):
    place = StrictInt(required=True, validate=validate.Range(min=1, max=MAX_ENTRANTS))
    player_id = Id()
    membership_number = fields.String(validate=validate.Length(min=1, max=40))
    email = fields.Email(validate=validate.Length(max=254))
    full_name = Name(
        max_length=200,
        metadata={
            "description": "With email: register the player if the email is new. Alone (a sign-in "
            "sheet): the one player of that name who has played at the venue this season (R5)."
        },
    )
    new_player = fields.Nested(NewPlayerIn)
    status = fields.String(load_default="played", validate=validate.OneOf(STATUSES))
    knocked_out_by = Id(
        allow_none=True,
        metadata={
            "description": "R8a: the player id of the entrant who knocked this one out (someone who "
            "finished higher; the winner has none). Or name them by `knocked_out_by_place` or "
            "`knocked_out_by_name`."
        },
    )
    knocked_out_by_place = StrictInt(
        validate=validate.Range(min=1, max=MAX_ENTRANTS),
        metadata={"description": "R8a: the knocker named by their place in this report."},
    )
    knocked_out_by_name = Text(
        max_length=254,
        metadata={
            "description": "R8a: the knocker named as a row names a player (a spreadsheet's "
            "'Knocked out by' column): their full name, display name, email or membership number, "
            "matched among this report's entrants."
        },
    )

    @validates_schema
    def _one_knocker(self, data: dict[str, Any], **_kwargs: Any) -> None:
        named = [name for name in KNOCKER_FIELDS if data.get(name) is not None]
        if len(named) > 1:
            raise ValidationError(f"Name the knocker once (found {', '.join(named)}).", "knocked_out_by")

    @validates_schema
    def _one_player(self, data: dict[str, Any], **_kwargs: Any) -> None:
        named = [name for name in IDENTIFIERS if name in data]
        if not named and "full_name" in data:
            return  # a name alone, as on a sign-in sheet (R5)
        if len(named) != 1:
            raise ValidationError(
                "Name the player by exactly one of player_id, membership_number, email, new_player "
                f"or full_name alone (found {', '.join(named) or 'none'})."
            )
        if "full_name" in data and "email" not in data:
            raise ValidationError(
                "full_name goes alone, or with email (to register the player if the email is new).",
                "full_name",
            )


class ReportIn(Schema):
    venue_id = Id(required=True)
    date = Day(required=True)
    session = StrictInt(load_default=1, validate=validate.Range(min=FIRST_SESSION, max=LAST_SESSION))
    kind = fields.String(load_default="regular", validate=validate.OneOf(REPORT_KINDS))
    season_id = Id(allow_none=True, metadata={"description": "Playoffs and championships name it."})
    results = fields.List(
        fields.Nested(ResultIn), required=True, validate=validate.Length(min=1, max=MAX_ENTRANTS)
    )
    override_reason = Text(
        max_length=2000,
        metadata={
            "description": "Office only: let suspended or banned players' results stand (R16), audited."
        },
    )
    reason = Text(
        max_length=2000,
        metadata={
            "description": "Office only, required for a night a host may no longer report (R17): more "
            "than the season's correction_days ago, or in a season whose qualifier lists are "
            "published. Audited."
        },
    )


class CorrectionIn(ReportIn):
    """The report's results again; venue, date, session and kind left out keep the stored ones."""

    venue_id = Id()
    date = Day()
    session = StrictInt(validate=validate.Range(min=FIRST_SESSION, max=LAST_SESSION))
    kind = fields.String(validate=validate.OneOf(REPORT_KINDS))
    reason = Text(max_length=2000, required=True)


class VoidIn(Schema):
    reason = Text(max_length=2000, required=True)


class CsvQuery(Schema):
    """For a spreadsheet body only (CSV or a workbook): the report's fields that are not rows (a
    JSON body has them)."""

    venue_id = QueryId(metadata={"description": SHEET_ONLY})
    date = Day(metadata={"description": SHEET_ONLY})
    session = fields.Integer(metadata={"description": SHEET_ONLY})
    kind = fields.String(metadata={"description": SHEET_ONLY})
    season_id = QueryId(metadata={"description": SHEET_ONLY})
    reason = fields.String(
        metadata={
            "description": "Spreadsheet body only: a correction's reason (PUT), or the office's reason "
            "for a late report (POST, R17)."
        }
    )
    override_reason = fields.String(
        metadata={"description": "Spreadsheet body only: override sanctions (R16)."}
    )
    dry_run = QueryBool(
        load_default=False,
        metadata={
            "description": "Check the report completely and answer what would be stored; store nothing."
        },
    )


class ResultOut(Answer):
    place = fields.Integer()
    player = fields.Nested(PlayerRef)
    status = fields.String(validate=validate.OneOf(STATUSES))
    placement_points = fields.Integer()
    participation_points = fields.Integer()
    knocked_out_by = fields.Integer(
        attribute="knocked_out_by_id",
        allow_none=True,
        metadata={"description": "R8a: the player id of who knocked this one out."},
    )
    knockouts = fields.Integer(metadata={"description": "R8a: players this one knocked out."})
    knockout_points = fields.Integer(
        metadata={"description": "R8a: what those knockouts earned (bounties included): part of `points`."}
    )
    points = fields.Integer()


class ReportOut(TellsPlayersApart):
    """A report as its caller sees it (`report_queries.SeenReport`)."""

    id = fields.Integer()
    venue_id = fields.Integer()
    season_id = fields.Integer()
    date = Day()
    session = fields.Integer()
    kind = fields.String(validate=validate.OneOf(REPORT_KINDS))
    entrants = fields.Integer()
    version = fields.Integer()
    voided = fields.Boolean()
    voided_at = UtcDateTime(allow_none=True)
    void_reason = fields.String(allow_none=True)
    reported_by = fields.String(
        metadata={
            "description": "Who reported it: the key's name for the office and the venue's hosts, "
            "else the role only (host or office; R19)."
        },
    )
    reported_by_role = fields.String(
        validate=validate.OneOf(("host", "office")),
        metadata={"description": "Who reported it, as anyone may see it."},
    )
    created_at = UtcDateTime()
    updated_at = UtcDateTime()
    results = fields.List(fields.Nested(ResultOut))


class ReportWritten(ReportOut):
    warnings = fields.List(fields.Nested(WarningOut))


class DryRunPlayer(Answer):
    """A row's player in a dry run: a player the report would register has no id yet."""

    id = fields.Integer(allow_none=True, metadata={"description": "Null for a new player: none is stored."})
    display_name = fields.String()
    label = label_field()
    new = fields.Boolean(metadata={"description": "True: the report would register this player (R5)."})


class DryRunResult(ResultOut):
    player = fields.Nested(DryRunPlayer)


class ReportDryRun(Answer):
    """A dry run's answer (`?dry_run=1`): the report as it would be stored, and nothing was. It
    has no id, version or timestamps (the keys are absent: nothing was stored, so there are none),
    and its new players have no id (`id` null, `new` true); its warnings name no id of theirs."""

    dry_run = fields.Boolean(
        validate=validate.Equal(True),
        metadata={"description": "Always true: checked only, nothing was stored."},
    )
    venue_id = fields.Integer()
    season_id = fields.Integer()
    date = Day()
    session = fields.Integer()
    kind = fields.String(validate=validate.OneOf(REPORT_KINDS))
    entrants = fields.Integer()
    reported_by = fields.String(
        metadata={
            "description": "Who would report it: the key's name for the office and the venue's hosts, "
            "else the role only (host or office; R19)."
        },
    )
    reported_by_role = fields.String(validate=validate.OneOf(("host", "office")))
    results = fields.List(fields.Nested(DryRunResult))
    warnings = fields.List(fields.Nested(WarningOut))


class ReportQuery(PageArgs):
    venue_id = QueryId()
    season_id = QueryId()
    kind = fields.String(validate=validate.OneOf(REPORT_KINDS))
    from_ = Day(data_key="from", metadata={"description": "On or after this date."})
    to = Day(metadata={"description": "On or before this date."})
    include_voided = QueryBool(
        load_default=False,
        metadata={"description": "Office: list voided reports too."},
    )


REPORT_BODY: dict[str, Any] = {
    "required": True,
    "content": {
        "application/json": {
            "schema": ReportIn,
            "example": {
                "venue_id": 3,
                "date": "2026-03-04",
                "session": 1,
                "kind": "regular",
                "results": [
                    {"place": 1, "player_id": 17},
                    {"place": 2, "membership_number": "198507211234"},
                    {"place": 3, "email": "sam@example.org", "status": "declared_withdrawal"},
                    {"place": 4, "new_player": {"full_name": "Ann Lee", "email": "ann@example.org"}},
                ],
            },
        },
        "text/csv": {
            # Raw content (a spreadsheet's export), so generated clients send it as a file.
            "schema": {"type": "string", "format": "binary"},
            "example": "place,status,player_id,email,full_name\n1,,17,,\n2,,,ann@example.org,Ann Lee\n",
        },
        # A workbook as the spreadsheet saved it (Excel's .xlsx, LibreOffice's .ods), raw.
        **{workbook: {"schema": {"type": "string", "format": "binary"}} for workbook in WORKBOOK_TYPES},
    },
}
