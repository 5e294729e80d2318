"""Schemas of qualification: the shape of what comes in and goes out."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.csv_export import format_field
from api.fields import Day, ExactNumber, Id, Text, UtcDateTime
from api.schemas import Answer, PlayerRef, TellsPlayersApart
from models.rules.qualifiers import FLAGS, SKIP_REASONS, SkipReason

SKIP_REASON_WORDS = (
    "The first that applies of: "
    f"{', '.join(r for r in SKIP_REASONS if r != SkipReason.INELIGIBLE)} (R13). The public, and "
    "hosts of other venues, read underage, disqualified and suspended as ineligible (R19)."
)


class QualifiersCsvQuery(Schema):
    view = fields.String(validate=validate.OneOf(["official", "current"]))


class QualifiersQuery(Schema):
    view = fields.String(
        validate=validate.OneOf(["official", "current"]),
        metadata={
            "description": "official (default): the published lists once there are some; current: as now."
        },
    )
    format = format_field()


class QualifierOut(Answer):
    player = fields.Nested(PlayerRef)
    rank = fields.Integer(metadata={"description": "In the venue's standings (R11)."})
    points = fields.Integer()
    flags = fields.List(
        fields.String(validate=validate.OneOf(FLAGS)),
        metadata={"description": "age_unverified only to the office and the venue's hosts (R13, R19)."},
    )
    moved_up_past = fields.List(
        fields.Integer(), metadata={"description": "Skipped players ranked above: why this one moved up."}
    )


class SkippedOut(Answer):
    player = fields.Nested(PlayerRef)
    rank = fields.Integer()
    points = fields.Integer()
    reason = fields.String(
        validate=validate.OneOf(SKIP_REASONS),
        metadata={"description": SKIP_REASON_WORDS},
    )
    venue_id = fields.Integer(allow_none=True, metadata={"description": "qualified_elsewhere: where."})


class TiedOutOut(Answer):
    player = fields.Nested(PlayerRef)
    rank = fields.Integer()
    points = fields.Integer()
    flags = fields.List(fields.String(validate=validate.OneOf(FLAGS)))


class ChangeOut(Answer):
    player = fields.Nested(PlayerRef)
    venue_id = fields.Integer()


class ChangesOut(Answer):
    changed = fields.Boolean()
    would_come_in = fields.List(fields.Nested(ChangeOut))
    would_drop_out = fields.List(fields.Nested(ChangeOut))


class VenueListOut(Answer):
    venue_id = fields.Integer()
    venue_name = fields.String()
    region_id = fields.Integer()
    quota = fields.Integer(
        metadata={"description": "R12: max(1, round_half_up(cut_fraction x average attendance))."}
    )
    tournaments = fields.Integer()
    average_attendance = ExactNumber()
    qualifiers = fields.List(fields.Nested(QualifierOut), metadata={"description": "In standings order."})
    skipped = fields.List(
        fields.Nested(SkippedOut), metadata={"description": "Above the last qualifier (R13)."}
    )
    tied_out = fields.List(
        fields.Nested(TiedOutOut),
        metadata={"description": "Level at the cut with the last qualifier, not going."},
    )


class PublicationFields(Answer):
    season_id = fields.Integer()
    provisional = fields.Boolean(metadata={"description": "True while the season runs (R12)."})
    published = fields.Boolean(metadata={"description": "These are the lists the office published."})
    published_at = UtcDateTime(allow_none=True)
    published_on = Day(
        allow_none=True, metadata={"description": "The day it was published, in the league's zone (R2a)."}
    )
    note = fields.String(allow_none=True)
    changes = fields.Nested(
        ChangesOut,
        allow_none=True,
        metadata={"description": "Published lists: who would come in or drop out if published again now."},
    )


class VenueQualifiersOut(TellsPlayersApart, VenueListOut, PublicationFields):
    pass


class RegionQualifierOut(QualifierOut):
    venue_id = fields.Integer(metadata={"description": "Where the player qualified."})


class RegionListOut(Answer):
    region_id = fields.Integer()
    qualifiers = fields.List(fields.Nested(RegionQualifierOut))


class SeasonQualifiersOut(TellsPlayersApart, PublicationFields):
    venues = fields.List(fields.Nested(VenueListOut))
    regions = fields.List(
        fields.Nested(RegionListOut), metadata={"description": "Each region's playoff list (R3)."}
    )


class SettlementIn(Schema):
    venue_id = Id(required=True)
    player_id = Id(required=True, metadata={"description": "Who goes: a player in a tie at the cut there."})


class PublishIn(Schema):
    note = Text(max_length=2000, allow_none=True)
    settlements = fields.List(
        fields.Nested(SettlementIn),
        load_default=list,
        validate=validate.Length(max=1000),
        metadata={"description": "The league's draws: who goes in each tie at the cut (R12)."},
    )


class DisqualificationIn(Schema):
    player_id = Id(required=True)
    reason = Text(max_length=2000, required=True)


class WithdrawIn(Schema):
    reason = Text(max_length=2000, required=True)


class DisqualificationOut(Answer):
    id = fields.Integer()
    season_id = fields.Integer()
    player = fields.Nested(PlayerRef)
    player_id = fields.Integer()
    reason = fields.String()
    created_at = UtcDateTime()
    created_by = fields.String()
    withdrawn = fields.Boolean()
    withdrawn_at = UtcDateTime(allow_none=True)
    withdrawn_by = fields.String(allow_none=True)
    withdraw_reason = fields.String(allow_none=True)


CSV_COLUMNS = (
    "venue_id",
    "venue_name",
    "region_id",
    "status",
    "rank",
    "player_id",
    "display_name",
    "points",
    "flags",
    "reason",
    "elsewhere_venue_id",
)
