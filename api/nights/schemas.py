"""Schemas of a night (R22): opening it, one action of it, and its state."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.fields import ExactNumber, Id, StrictBool, StrictInt, Text, UtcDateTime
from api.reports.schemas import ResultIn
from api.schemas import Answer, PlayerRef, WarningOut
from api.structures.schemas import StructureBodyOut
from models.rules.nights import MOST_AT_A_TABLE
from models.rules.schedules import MOST_SESSIONS
from models.services.nights.actions import KINDS

MOST_ON_A_HAND = 50
CHIPS = validate.Range(min=0, max=10**9)


class NightOpenIn(Schema):
    session = StrictInt(
        validate=validate.Range(1, MOST_SESSIONS),
        metadata={
            "description": "Tonight's session (default 1); a scheduled night has as many as its "
            "schedule says."
        },
    )
    structure_id = Id(
        metadata={"description": "The blind structure; default: the venue's, else the league's."}
    )


class OutIn(Schema):
    player_id = Id(required=True)
    chips = StrictInt(
        validate=CHIPS, metadata={"description": "Chips before the hand (needed when several go out)."}
    )
    knocked_out_by = Id(
        metadata={
            "description": "Who knocked this player out (R8a): a player still in after the hand, never "
            "one going out on it, never a no-show. Default: the action's `knocked_out_by`."
        }
    )


class ChipsIn(Schema):
    player_id = Id(required=True)
    chips = StrictInt(required=True, validate=CHIPS)


# What each kind of action needs besides action_id, sequence and type.
NEEDS = {
    "sign_in": ("player",),
    "bust": ("players",),
    "withdraw": ("player_id",),
    "absent": ("player_id",),
    "no_show": ("player_id",),
    "re_enter": ("player_id",),
    "clock": ("clock",),
    "end_early": ("chips",),
}
OPTIONAL = {
    "sign_in": ("late", "override_reason"),
    "bust": ("knocked_out_by",),
    "report": ("override_reason",),
    "undo": ("player_id",),
    "clock": ("adjust_minutes",),
}
CLOCK = ("start", "pause", "resume", "skip", "back", "adjust")
MOST_MINUTES_MOVED = 120


class PlayerAtDoorIn(ResultIn):
    """A player at the door, named as a report's row names one (R5), or new_player."""

    class Meta:
        exclude = ("place", "status")


class ActionIn(Schema):
    action_id = fields.String(
        required=True,
        validate=validate.Regexp(
            r"^[A-Za-z0-9._:-]{8,64}$", error="8 to 64 letters, digits, '.', '_', ':' or '-'."
        ),
        metadata={
            "description": "Made by the phone (a UUID): a retry with the same id and body applies "
            "once; the same id with another body is a 409 (an id names one action)."
        },
    )
    sequence = StrictInt(
        required=True,
        validate=validate.Range(min=0),
        metadata={
            "description": "The night's `sequence` the action was made on: an older one is a 409 "
            "with the night."
        },
    )
    type = fields.String(required=True, validate=validate.OneOf(KINDS))
    player = fields.Nested(
        PlayerAtDoorIn,
        metadata={"description": "sign_in: the player, as a report's row names one (R5), or new_player."},
    )
    late = StrictBool(
        metadata={"description": "sign_in: a late entry the host allows past late registration."}
    )
    override_reason = Text(
        max_length=2000,
        metadata={"description": "sign_in, report: the office lets a sanctioned player play (R16)."},
    )
    players = fields.List(
        fields.Nested(OutIn),
        validate=validate.Length(min=1, max=MOST_ON_A_HAND),
        metadata={"description": "bust: the players out on one hand.", "maxItems": MOST_ON_A_HAND},
    )
    knocked_out_by = Id(
        metadata={
            "description": "bust: who knocked them out (R8a: a player still in, never a no-show), "
            "for every player of the hand whose row names no one."
        }
    )
    player_id = Id(
        metadata={
            "description": "withdraw, absent, no_show, re_enter: the player. undo: the one player of "
            "the last hand brought back (the others stay out, their places derived again, R4); "
            "without it the last action is taken back whole."
        }
    )
    clock = fields.String(
        validate=validate.OneOf(CLOCK),
        metadata={
            "description": "start, pause, resume; or the host moves it (audited, R18): skip (to the "
            "next level or break), back (to the start of the one before), adjust (adjust_minutes "
            "added to the level being played, or taken off it)."
        },
    )
    adjust_minutes = StrictInt(
        validate=[
            validate.Range(-MOST_MINUTES_MOVED, MOST_MINUTES_MOVED),
            validate.NoneOf((0,), error="Minutes added (more than 0) or taken off (less than 0)."),
        ],
        metadata={
            "description": "clock adjust: minutes added to the level being played (negative: taken "
            "off it; never past zero)."
        },
    )
    chips = fields.List(
        fields.Nested(ChipsIn),
        validate=validate.Length(min=1, max=MOST_AT_A_TABLE * 100),
        metadata={"description": "end_early: every player left, with their chips."},
    )

    @validates_schema
    def _fields_of_the_kind(self, data: dict[str, Any], **_kwargs: Any) -> None:
        kind = data.get("type")
        if kind is None:
            return
        needed = NEEDS.get(kind, ())
        missing = [name for name in needed if name not in data]
        if missing:
            raise ValidationError({name: [f"A {kind} action gives {name}."] for name in missing})
        allowed = {"action_id", "sequence", "type", *needed, *OPTIONAL.get(kind, ())}
        extra = sorted(set(data) - allowed)
        if extra:
            raise ValidationError({name: [f"Not a field of a {kind} action."] for name in extra})
        if kind == "clock" and (data.get("clock") == "adjust") != ("adjust_minutes" in data):
            said = (
                "A clock adjust gives adjust_minutes (added, or taken off when negative)."
                if data.get("clock") == "adjust"
                else "Only a clock adjust gives adjust_minutes."
            )
            raise ValidationError({"adjust_minutes": [said]})


class PeriodOut(Answer):
    is_break = fields.Boolean()
    level = fields.Integer(metadata={"description": "The level's number; a break's: the level it follows."})
    small_blind = fields.Integer()
    big_blind = fields.Integer()
    minutes = fields.Integer()
    note = fields.String()


class ClockOut(Answer):
    status = fields.String(metadata={"description": "not_started, running or paused."})
    started_at = UtcDateTime(allow_none=True)
    paused_at = UtcDateTime(allow_none=True)
    paused_seconds = fields.Float()
    period = fields.Nested(PeriodOut, metadata={"description": "The level (or break) being played."})
    next = fields.Nested(PeriodOut, allow_none=True)
    level_started_at = UtcDateTime(
        allow_none=True, metadata={"description": "Running: when this level started, as the server counts."}
    )
    level_ends_at = UtcDateTime(
        allow_none=True,
        metadata={"description": "Running: when it ends. A page counts down to it from the server's time."},
    )
    seconds_left = fields.Integer(
        allow_none=True, metadata={"description": "Paused or not started: what the clock shows."}
    )
    late_registration_open = fields.Boolean()
    late_registration_closes = fields.String()
    moved_seconds = fields.Float(
        metadata={
            "description": "Seconds of play the host's skips added, and steps back took away (R22); "
            "minutes added to a level or taken off it show in the night's structure."
        }
    )


class SeatOut(Answer):
    player_id = fields.Integer()
    label = fields.String(metadata={"description": "The display name, numbered where two share it (R19)."})
    status = fields.String(metadata={"description": "playing, out, declared_withdrawal, absent or no_show."})
    table = fields.Integer(allow_none=True)
    seat = fields.Integer(allow_none=True)
    place = fields.Integer(
        allow_none=True, metadata={"description": "Counted from the bottom as players go out."}
    )
    late = fields.Boolean()
    re_entered = fields.Boolean()
    chips_before = fields.Integer(allow_none=True)
    knocked_out_by = fields.Integer(allow_none=True)


class MoveOut(Answer):
    player_id = fields.Integer()
    source = fields.List(fields.Integer(), data_key="from", metadata={"description": "[table, seat]"})
    to = fields.List(fields.Integer(), metadata={"description": "[table, seat]"})


class ProblemOut(Answer):
    path = fields.String()
    message = fields.String()
    rule = fields.String(allow_none=True)


class TonightOut(Answer):
    place = fields.Integer(
        metadata={"description": "The place so far: while still in, the lowest place still open."}
    )
    points = fields.Integer(metadata={"description": "What the place brings tonight (R6-R8)."})
    still_in = fields.Boolean()


class ProjectedRowOut(Answer):
    rank = fields.Integer()
    tied = fields.Boolean()
    rank_before = fields.Integer(
        allow_none=True, metadata={"description": "The rank before tonight; null: new to the standings."}
    )
    player = fields.Nested(PlayerRef)
    points = fields.Integer()
    placement_points = fields.Integer()
    participation_points = fields.Integer()
    bonus_points = fields.Integer()
    played = fields.Integer()
    wins = fields.Integer()
    points_finishes = fields.Integer()
    best_finish = fields.Integer()
    average_finish = ExactNumber()
    tonight = fields.Nested(
        TonightOut, allow_none=True, metadata={"description": "Null: not playing tonight."}
    )


class ProjectionOut(Answer):
    season_id = fields.Integer()
    final = fields.Boolean(
        metadata={"description": "The night is the venue's report: these are the standings as they are."}
    )
    tournaments = fields.Integer(
        metadata={"description": "The venue's regular tournaments, tonight's counted."}
    )
    unscored = fields.String(
        allow_none=True,
        metadata={
            "description": "Why tonight brings no points yet (e.g. the chart has no band for the entrants)."
        },
    )
    standings = fields.List(fields.Nested(ProjectedRowOut))


class NightReEntryOut(Answer):
    allowed = fields.Boolean(metadata={"description": "The venue's setting, as the night was opened."})
    until_break = fields.Integer(
        allow_none=True,
        metadata={"description": "Re-entry at the structure's first N breaks; null: at any break."},
    )
    said = fields.String(
        metadata={
            "description": 'What tonight allows, in words: "Re-entry: allowed once, until the first break".'
        }
    )
    open_now = fields.Boolean(metadata={"description": "A player out may re-enter now (once, R22)."})


class UndoPlayerOut(Answer):
    player_id = fields.Integer()
    label = fields.String()


class UndoableOut(Answer):
    type = fields.String(
        attribute="kind", metadata={"description": "sign_in, bust, withdraw, absent, no_show or re_enter."}
    )
    sequence = fields.Integer()
    players = fields.List(
        fields.Nested(UndoPlayerOut),
        metadata={"description": "Who it concerns: of a hand, each can be brought back alone (`player_id`)."},
    )


class NightStateOut(Answer):
    id = fields.Integer()
    venue_id = fields.Integer()
    venue_name = fields.String()
    season_id = fields.Integer()
    date = fields.Date()
    session = fields.Integer()
    scheduled = fields.Boolean(metadata={"description": "From the venue's schedule; false: a make-up night."})
    state = fields.String(
        metadata={"description": "open, finished (its report refused, to post again) or reported."}
    )
    sequence = fields.Integer(
        metadata={"description": "Moves on with every action: send it with the next one."}
    )
    structure = fields.Nested(
        StructureBodyOut,
        metadata={"description": "As the night keeps it: a later change leaves it as it was."},
    )
    table_size = fields.Integer()
    clock = fields.Nested(ClockOut)
    entrants = fields.Integer()
    players_left = fields.Integer()
    re_entries = fields.Integer()
    average_stack = fields.Integer(allow_none=True)
    players = fields.List(
        fields.Nested(SeatOut), metadata={"description": "Those left by seat, then those out by place."}
    )
    moves = fields.List(
        fields.Nested(MoveOut), metadata={"description": "The last action's moves, to announce."}
    )
    tournament_id = fields.Integer(allow_none=True, metadata={"description": "The report the night became."})
    ended_by = fields.String(
        allow_none=True,
        metadata={
            "description": "last_player (one left: the winner) or chip_counts (ended early); null: open."
        },
    )
    re_entry = fields.Nested(NightReEntryOut, metadata={"description": "What tonight allows (R22)."})
    undoable = fields.Nested(
        UndoableOut,
        allow_none=True,
        metadata={"description": "What an undo takes back now; null: nothing (R22)."},
    )
    report_problems = fields.List(fields.Nested(ProblemOut), allow_none=True)
    projected_standings = fields.Nested(
        ProjectionOut,
        allow_none=True,
        metadata={
            "description": "The venue's standings as they would stand if the night ended now (R22): "
            "players out at their places, those still in at the lowest place still open. "
            "On the night's own answer; null in an action's."
        },
    )


class ActionOut(Answer):
    action_id = fields.String()
    sequence = fields.Integer()
    type = fields.String(attribute="kind")
    replayed = fields.Boolean(metadata={"description": "A retry: applied before, nothing changed now."})


class ActionAnswer(Answer):
    action = fields.Nested(ActionOut)
    night = fields.Nested(NightStateOut)
    warnings = fields.List(
        fields.Nested(WarningOut), metadata={"description": "E.g. a new player's possible duplicates (R5)."}
    )


class NightListed(Answer):
    id = fields.Integer()
    date = fields.Date()
    session = fields.Integer()
    state = fields.String()
    sequence = fields.Integer()
    tournament_id = fields.Integer(allow_none=True)


class VenueRef(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)


class OpenNightOut(Schema):
    """A night being played now (R22): where, which, and how far it has got."""

    id = fields.Integer(required=True)
    venue = fields.Nested(VenueRef, required=True)
    date = fields.Date(required=True, metadata={"description": "Its date on the venue's clock (R2a)."})
    session = fields.Integer(required=True)
    entrants = fields.Integer(required=True)
    players_left = fields.Integer(required=True)
    clock_started = fields.Boolean(required=True)


class OpenNightsOut(Schema):
    items = fields.List(fields.Nested(OpenNightOut), required=True)
    total = fields.Integer(required=True)
