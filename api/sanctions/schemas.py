"""Schemas of sanctions: the shape of what comes in and goes out."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, pre_load, validate, validates_schema

from api import db
from api.csv_export import format_field
from api.fields import Day, Id, QueryId, StrictBool, Text, UtcDateTime
from api.pagination import PageArgs
from api.schemas import Answer, PlayerRef, TellsPlayersApart, WarningOut
from models.actor import ACTOR_ROLES
from models.entities import REPORT_KINDS, Sanction
from models.rules.sanctions import CATEGORIES, DOOR_GROUPS, KINDS
from models.services import wall_clock

# Other names a caller may use for the days (the ones seasons use).
DAY_ALIASES = {"starts_on": "first_day", "ends_on": "last_day"}


class SanctionIn(Schema):
    player_id = Id(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    category = fields.String(required=True, validate=validate.OneOf(CATEGORIES))
    venue_id = Id(allow_none=True, metadata={"description": "A venue_ban's venue; no other kind names one."})
    first_day = Day(
        metadata={
            "description": "The first day it runs (default: today, R2a: at the venue for a "
            "venue_ban, else in the league's zone)."
        }
    )
    last_day = Day(
        allow_none=True,
        metadata={"description": "The last day it runs (both days count); absent or null: permanent."},
    )
    permanent = StrictBool(metadata={"description": "true: no last day (the same as leaving it out)."})
    reason = Text(max_length=2000, required=True)

    @pre_load
    def _day_aliases(self, data: Any, **_kwargs: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for alias, name in DAY_ALIASES.items():
            if alias in data and name not in data:
                data[name] = data.pop(alias)
        return data

    @validates_schema
    def _permanent_or_last_day(self, data: dict[str, Any], **_kwargs: Any) -> None:
        if data.get("permanent") is True and data.get("last_day") is not None:
            raise ValidationError("A permanent sanction has no last day.", "last_day")
        if data.get("permanent") is False and data.get("last_day") is None:
            raise ValidationError("Give the last day, or make it permanent.", "last_day")


class LiftIn(Schema):
    reason = Text(max_length=2000, required=True)


def _runs_today(sanction: Sanction) -> bool:
    sanction = getattr(sanction, "sanction", sanction)  # a sanction just issued, with its warnings
    return sanction.active_on(wall_clock.for_sanction(db.session(), sanction))


class SanctionOut(Answer):
    id = fields.Integer()
    player = fields.Nested(PlayerRef)
    player_id = fields.Integer()
    kind = fields.String(validate=validate.OneOf(KINDS))
    category = fields.String(validate=validate.OneOf(CATEGORIES))
    venue_id = fields.Integer(allow_none=True)
    first_day = Day()
    last_day = Day(allow_none=True)
    permanent = fields.Boolean()
    active = fields.Function(
        _runs_today,
        dump_only=True,
        metadata={
            "type": "boolean",
            "description": "Runs today (R15): begun, not over, not lifted. Today is the local date "
            "(R2a): a venue ban's at its venue, a league-wide sanction's in the league's zone.",
        },
    )
    reason = fields.String()
    issued_by = fields.String()
    issued_by_role = fields.String(validate=validate.OneOf(ACTOR_ROLES))
    issued_at = UtcDateTime()
    lifted = fields.Boolean()
    lifted_at = UtcDateTime(allow_none=True)
    lifted_on = Day(allow_none=True, metadata={"description": "From this day on it no longer runs."})
    lifted_by = fields.String(allow_none=True)
    lift_reason = fields.String(allow_none=True)


class StoredReportRef(Answer):
    """A stored report a warning names: what identifies it."""

    id = fields.Integer()
    venue_id = fields.Integer()
    date = Day()
    session = fields.Integer()
    kind = fields.String(validate=validate.OneOf(REPORT_KINDS))


class SanctionWarningOut(WarningOut):
    """A warning of a sanction recorded: `results_stand` (R16) names the stored live reports of
    the player that fall inside it (a suspension: at any venue; a ban: at its venue)."""

    reports = fields.List(
        fields.Nested(StoredReportRef),
        metadata={"description": "The stored reports it is about, by date (R16: their results stand)."},
    )


class SanctionIssued(SanctionOut):
    """A sanction just recorded, with what the office should know (R16)."""

    warnings = fields.List(
        fields.Nested(SanctionWarningOut),
        metadata={
            "description": "R16: a sanction recorded after the fact undoes no stored result: the "
            "reports of the player that fall inside it are named (code results_stand); their "
            "results stand."
        },
    )


class SanctionQuery(PageArgs):
    player_id = QueryId()
    kind = fields.String(validate=validate.OneOf(KINDS))
    category = fields.String(validate=validate.OneOf(CATEGORIES))
    venue_id = QueryId(metadata={"description": "Bans at this venue."})
    active_on = Day(metadata={"description": "Running on this day (begun, not over, not lifted)."})


class PlayerDisciplineOut(Answer):
    OPTIONAL = ("warnings_last_12_months", "suspensions_last_12_months")  # the office's only
    player_id = fields.Integer()
    display_name = fields.String()
    active = fields.List(fields.Integer(), metadata={"description": "Ids of the sanctions running today."})
    warnings_last_12_months = fields.Integer(metadata={"description": "Office only."})
    suspensions_last_12_months = fields.Integer(metadata={"description": "Office only."})
    sanctions = fields.List(fields.Nested(SanctionOut))


class DoorListCsvQuery(Schema):
    on = Day(metadata={"description": "The night (default: today on the venue's wall clock, R2a)."})


class DoorListQuery(Schema):
    on = Day(metadata={"description": "The night (default: today on the venue's wall clock, R2a)."})
    format = format_field()


class DoorPlayerOut(PlayerRef):
    """A barred player as the door sees them: the full name too, so the host can recognise them
    (R19: the one answer where a host reads the full name of a player who never played there)."""

    full_name = fields.String()


class BarredOut(Answer):
    player = fields.Nested(DoorPlayerOut)
    group = fields.String(
        validate=validate.OneOf(DOOR_GROUPS),
        metadata={
            "description": "venue: played here (a result in a live report); region: else played at "
            "another venue of this venue's region; league: everyone else. The list holds the "
            "groups in that order."
        },
    )
    last_day = Day(allow_none=True, metadata={"description": "Null: permanent."})
    permanent = fields.Boolean()
    sanction = fields.Nested(SanctionOut, metadata={"description": "The sanction that bars them longest."})
    sanction_ids = fields.List(fields.Integer(), metadata={"description": "Every sanction that bars them."})


class DoorListOut(TellsPlayersApart):
    venue_id = fields.Integer()
    on = Day()
    total = fields.Integer()
    barred = fields.List(
        fields.Nested(BarredOut),
        metadata={
            "description": "By group (venue, region, league), then display name, then player number (R16)."
        },
    )


DOOR_LIST_COLUMNS = (
    "display_name",
    "player_id",
    "kind",
    "category",
    "first_day",
    "last_day",
    "sanction_id",
    "full_name",
    "group",
)
