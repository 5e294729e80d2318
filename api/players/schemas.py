"""Schemas of players: the shape of what comes in and goes out."""

from __future__ import annotations

from typing import ClassVar

from marshmallow import Schema, fields, validate

from api.fields import Day, Id, Name, QueryId, QueryText, Text, UtcDateTime
from api.pagination import PageArgs
from api.qualifiers.schemas import SKIP_REASON_WORDS
from api.ratings.schemas import RatingOut
from api.schemas import Answer, PlayerRef, TellsPlayersApart, WarningOut, label_field
from models.entities.reports import REPORT_KINDS, STATUSES
from models.rules.qualifier_lists import LIST_STATUSES
from models.services.players.head_to_head import NEMESIS_AT_LEAST, SIDES
from models.services.players.queries import PERSONAL_FIELDS


class PlayerIn(Schema):
    full_name = Name(max_length=200, required=True)
    email = fields.Email(required=True, validate=validate.Length(max=254))
    date_of_birth = Day(allow_none=True)
    membership_number = fields.String(
        allow_none=True,
        metadata={"description": "Date of birth YYYYMMDD followed by a 4-digit PIN (R5)."},
    )
    display_name = Name(max_length=120, metadata={"description": "Default: first name, last initial."})
    home_venue_id = Id(allow_none=True)

    # A date of birth after today is refused where the player's venue is known (R2a).


class PlayerPatch(PlayerIn):
    email = fields.Email(allow_none=True, validate=validate.Length(max=254))


class PlayerOut(Answer):
    """Personal fields (full_name, email, date_of_birth, membership_number, pin) appear only for
    the office, and for hosts of the player's venues (R19)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = PERSONAL_FIELDS

    id = fields.Integer(metadata={"description": "The player number."})
    display_name = fields.String(metadata={"description": "As registered; two players may share one."})
    label = label_field()
    home_venue_id = fields.Integer(allow_none=True)
    merged_into_id = fields.Integer(
        allow_none=True, metadata={"description": "Set when this record was merged into another (R17)."}
    )
    full_name = fields.String()
    email = fields.String(allow_none=True)
    date_of_birth = Day(allow_none=True)
    membership_number = fields.String(allow_none=True)
    pin = fields.String(allow_none=True)
    created_at = UtcDateTime()
    updated_at = UtcDateTime()


class NotDuplicateIn(Schema):
    other_id = Id(
        required=True,
        metadata={"description": "The other player, whose name looks like this one's (R5)."},
    )
    reason = Text(max_length=2000, required=True, metadata={"description": "Why they are two people."})


class DistinctPlayersOut(Answer):
    """R5: the office's record that two players are different people: the pair is no longer
    offered as a possible duplicate."""

    id = fields.Integer()
    player_ids = fields.List(
        fields.Integer(), metadata={"description": "The two players, the lower id first."}
    )
    reason = fields.String()
    recorded_at = UtcDateTime()
    recorded_by = fields.String(metadata={"description": "The name of the office's key."})


class PlayerMerged(PlayerOut):
    merge_id = fields.Integer(
        metadata={"description": "Undo with POST /api/v1/player-merges/{merge_id}/undo."}
    )


class PlayerCreated(PlayerOut):
    warnings = fields.List(fields.Nested(WarningOut))


class PlayerResultOut(Answer):
    tournament_id = fields.Integer()
    date = Day()
    session = fields.Integer()
    kind = fields.String(validate=validate.OneOf(REPORT_KINDS))
    entrants = fields.Integer()
    place = fields.Integer()
    status = fields.String(validate=validate.OneOf(STATUSES))
    placement_points = fields.Integer()
    participation_points = fields.Integer()
    knockout_points = fields.Integer(metadata={"description": "R8a: for knockouts and bounties."})
    knockouts = fields.Integer(metadata={"description": "R8a: players knocked out that night."})
    knocked_out_by = fields.Integer(
        allow_none=True, metadata={"description": "R8a: the knocker's player id."}
    )
    points = fields.Integer()


class PlayerSeasonOut(Answer):
    season_id = fields.Integer()
    season_name = fields.String()
    venue_id = fields.Integer()
    venue_name = fields.String()
    rank = fields.Integer(allow_none=True, metadata={"description": "In the venue's standings (R11)."})
    tied = fields.Boolean()
    points = fields.Integer(metadata={"description": "The venue total (R7-R10), bonus included."})
    bonus_points = fields.Integer(metadata={"description": "The attendance bonus (R9)."})
    played = fields.Integer(metadata={"description": "Tournaments played (no-shows not counted)."})
    wins = fields.Integer()
    best_finish = fields.Integer(allow_none=True)
    knockouts = fields.Integer(
        metadata={"description": "Players this player knocked out in the regular tournaments here (R8a)."}
    )
    knocked_out = fields.Integer(
        metadata={"description": "Times this player was knocked out by a named player here (R8a)."}
    )
    results = fields.List(fields.Nested(PlayerResultOut))


class LadderOut(Answer):
    warnings_last_12_months = fields.Integer()
    suspensions_last_12_months = fields.Integer()


class VenueQualificationOut(Answer):
    venue_id = fields.Integer()
    status = fields.String(validate=validate.OneOf(LIST_STATUSES))
    reason = fields.String(allow_none=True, metadata={"description": f"Why skipped. {SKIP_REASON_WORDS}"})
    elsewhere_venue_id = fields.Integer(allow_none=True)


class SeasonQualificationOut(Answer):
    season_id = fields.Integer()
    qualified_at = fields.Integer(allow_none=True, metadata={"description": "The venue (R14), or null."})
    provisional = fields.Boolean()
    published = fields.Boolean()
    venues = fields.List(fields.Nested(VenueQualificationOut))


class NemesisOut(Answer):
    player = fields.Nested(PlayerRef)
    knockouts = fields.Integer(metadata={"description": "Times they knocked this player out."})


class PlayerProfileOut(PlayerOut):
    OPTIONAL: ClassVar[tuple[str, ...]] = (*PERSONAL_FIELDS, "discipline")
    qualification = fields.List(
        fields.Nested(SeasonQualificationOut),
        metadata={"description": "Where the player qualified in each season, or why not (R12-R14)."},
    )
    discipline = fields.Nested(
        LadderOut,
        metadata={"description": "Office only: warnings and suspensions in the last 12 months (R15)."},
    )
    seasons = fields.List(
        fields.Nested(PlayerSeasonOut),
        metadata={"description": "Per season and venue (each venue its own league, R1)."},
    )
    rating = fields.Nested(
        RatingOut,
        allow_none=True,
        metadata={
            "description": "The league-wide skill rating (R20; a merged-away player's survivor's); "
            "null if never rated. Its history: /players/{id}/rating-history."
        },
    )
    nemesis = fields.Nested(
        NemesisOut,
        allow_none=True,
        metadata={
            "description": f"R8a: who knocked this player out most often in live tournaments (any kind, "
            f"any venue), once at least {NEMESIS_AT_LEAST} times, else null; a tie goes to the one who "
            "did it last, then to the lower player number. The two: /players/{id}/head-to-head."
        },
    )


class HeadToHeadQuery(PageArgs):
    other = QueryId(
        required=True,
        metadata={"description": "The other player's number (a record merged away: its survivor, R17)."},
    )


class MeetingOut(Answer):
    """One live tournament both players played."""

    tournament_id = fields.Integer()
    date = Day()
    session = fields.Integer()
    venue_id = fields.Integer()
    venue_name = fields.String()
    kind = fields.String(validate=validate.OneOf(REPORT_KINDS))
    entrants = fields.Integer()
    player_place = fields.Integer()
    other_place = fields.Integer()
    finished_higher = fields.String(
        validate=validate.OneOf(SIDES), metadata={"description": "Who of the two finished higher."}
    )
    knockout = fields.String(
        allow_none=True,
        validate=validate.OneOf(SIDES),
        metadata={"description": "Who knocked the other out (R8a): player, other, or null (neither)."},
    )


class HeadToHeadOut(TellsPlayersApart):
    """Two players against each other: the live tournaments both played (any kind, any venue;
    no-shows left out), the totals over all of them, and one page of them, latest first."""

    player = fields.Nested(PlayerRef)
    other = fields.Nested(PlayerRef)
    tournaments = fields.Integer(metadata={"description": "Live tournaments both played (every page)."})
    player_finished_higher = fields.Integer()
    other_finished_higher = fields.Integer()
    player_knocked_out_other = fields.Integer(metadata={"description": "R8a."})
    other_knocked_out_player = fields.Integer(metadata={"description": "R8a."})
    meetings = fields.List(fields.Nested(MeetingOut), metadata={"description": "Latest first."})
    page = fields.Integer()
    per_page = fields.Integer()
    pages = fields.Integer()


class PlayerQuery(PageArgs):
    q = QueryText(
        max_length=200,
        metadata={"description": "Part of a display name (staff also match full names, emails)."},
    )


class EraseIn(Schema):
    reason = Text(
        max_length=2000,
        required=True,
        metadata={"description": "Why (the player's request, and how it came): kept in the audit log (R21)."},
    )
    display_name = Name(
        max_length=120,
        metadata={
            "description": 'The display name from now on; without it "Former player N" (N: the player '
            "number). It must name no one: no full name, email or membership number of any player."
        },
    )


class ErasedOut(Answer):
    player_id = fields.Integer(
        metadata={"description": "The record erased (the final survivor of its merges)."}
    )
    erased_ids = fields.List(
        fields.Integer(),
        metadata={"description": "Every record erased: this one and the records merged into it (R17)."},
    )
    display_name = fields.String()
    erased_at = UtcDateTime()


class DataExportOut(Answer):
    """Everything the league holds about the player (R21), as one JSON document."""

    player = fields.Dict(metadata={"description": "The record: personal fields, null once erased."})
    records = fields.List(fields.Dict(), metadata={"description": "It and every record merged into it."})
    results = fields.List(fields.Dict(), metadata={"description": "Results with their reports and points."})
    sanctions = fields.List(fields.Dict())
    disqualifications = fields.List(fields.Dict())
    merges = fields.List(fields.Dict())
    told_apart = fields.List(
        fields.Dict(), metadata={"description": "Look-alikes the office said are others."}
    )
    rating = fields.Dict(
        allow_none=True,
        metadata={"description": "The league-wide rating (R20) with its history; null if never rated."},
    )
    audit_log = fields.List(
        fields.Dict(),
        metadata={"description": 'Every audit entry naming the player; erased values read "[erased]".'},
    )


class DataExportQuery(Schema):
    download = fields.Boolean(
        metadata={"description": "True: answered as a file to save (Content-Disposition: attachment)."}
    )


class OpponentOut(Answer):
    player = fields.Nested(PlayerRef, required=True)
    meetings = fields.Integer(required=True, metadata={"description": "Live tournaments both played."})


class OpponentsOut(TellsPlayersApart):
    """Every player this one met in a live tournament both played (no-shows left out), most met
    first: whom to ask a head-to-head against (R8a, R19: display names only)."""

    player = fields.Nested(PlayerRef, required=True)
    opponents = fields.List(fields.Nested(OpponentOut), required=True)
