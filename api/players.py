"""Players (R5): created by hosts and the office; personal fields shown only as R19 allows."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate, validates
from sqlalchemy.orm import Session

from api import db
from api.auth import current_actor, host_or_office, office_only
from api.fields import Id, Text, UtcDateTime
from api.pagination import PageArgs, page_schema, paginate
from api.schemas import WarningOut
from models import Player
from models.actor import Actor
from models.services.league import get_or_404
from models.services.players import (
    create_player,
    may_see_personal,
    search_players,
    update_player,
)
from models.services.standings import player_seasons

blp = Blueprint("players", __name__, url_prefix="/api/v1/players", description="Players (R5, R19).")


class PlayerIn(Schema):
    full_name = Text(max_length=200, required=True)
    email = fields.Email(required=True, validate=validate.Length(max=254))
    date_of_birth = fields.Date(allow_none=True)
    membership_number = fields.String(
        allow_none=True,
        metadata={"description": "Date of birth YYYYMMDD followed by a 4-digit PIN (R5)."},
    )
    display_name = Text(max_length=120, metadata={"description": "Default: first name, last initial."})
    home_venue_id = Id(allow_none=True)

    @validates("date_of_birth")
    def _born_in_the_past(self, value: date | None, **_kwargs: Any) -> None:
        if value is not None and not date(1900, 1, 1) <= value <= date.today():
            raise ValidationError("Must be a date between 1900-01-01 and today.")


class PlayerPatch(PlayerIn):
    email = fields.Email(allow_none=True, validate=validate.Length(max=254))


class PlayerOut(Schema):
    """Personal fields (full_name, email, date_of_birth, membership_number, pin) appear only for
    the office, and for hosts of the player's venues (R19)."""

    id = fields.Integer()
    display_name = fields.String()
    home_venue_id = fields.Integer(allow_none=True)
    full_name = fields.String()
    email = fields.String(allow_none=True)
    date_of_birth = fields.Date(allow_none=True)
    membership_number = fields.String(allow_none=True)
    pin = fields.String(allow_none=True)
    created_at = UtcDateTime()
    updated_at = UtcDateTime()


class PlayerCreated(PlayerOut):
    warnings = fields.List(fields.Nested(WarningOut))


class PlayerResultOut(Schema):
    tournament_id = fields.Integer()
    date = fields.Date()
    session = fields.Integer()
    kind = fields.String()
    entrants = fields.Integer()
    place = fields.Integer()
    status = fields.String()
    placement_points = fields.Integer()
    participation_points = fields.Integer()
    points = fields.Integer()


class PlayerSeasonOut(Schema):
    season_id = fields.Integer()
    season_name = fields.String()
    venue_id = fields.Integer()
    venue_name = fields.String()
    rank = fields.Integer(allow_none=True, metadata={"description": "In the venue's standings (R11)."})
    tied = fields.Boolean()
    points = fields.Integer()
    played = fields.Integer()
    results = fields.List(fields.Nested(PlayerResultOut))


class PlayerProfileOut(PlayerOut):
    seasons = fields.List(
        fields.Nested(PlayerSeasonOut),
        metadata={"description": "Per season and venue (each venue its own league, R1)."},
    )


class PlayerQuery(PageArgs):
    q = fields.String(
        validate=validate.Length(max=200),
        metadata={"description": "Part of a display name (staff also match full names, emails)."},
    )


PUBLIC_FIELDS = ("id", "display_name", "home_venue_id")
PERSONAL_FIELDS = (
    "full_name",
    "email",
    "date_of_birth",
    "membership_number",
    "pin",
    "created_at",
    "updated_at",
)


def player_view(session: Session, actor: Actor, player: Player) -> dict[str, Any]:
    """R19: what this caller may see of a player."""
    fields_shown = PUBLIC_FIELDS
    if may_see_personal(session, actor, player):
        fields_shown = PUBLIC_FIELDS + PERSONAL_FIELDS
    return {name: getattr(player, name) for name in fields_shown}


def duplicate_warnings(duplicates: list[int]) -> list[dict[str, Any]]:
    if not duplicates:
        return []
    return [
        {
            "code": "possible_duplicate",
            "message": "R5: the name closely matches existing players; the office can merge them.",
            "player_ids": duplicates,
        }
    ]


@blp.route("")
class PlayersViews(MethodView):
    @blp.arguments(PlayerQuery, location="query")
    @blp.response(200, page_schema(PlayerOut, "PlayerPage"))
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """Search players by name"""
        session, actor = db.session(), current_actor()
        page = paginate(session, search_players(args.get("q"), actor), args)
        page["items"] = [player_view(session, actor, p) for p in page["items"]]
        return page

    @host_or_office
    @blp.arguments(PlayerIn)
    @blp.response(201, PlayerCreated)
    def post(self, data: dict[str, Any]) -> dict[str, Any]:
        """Register a player (host or office); lists possible duplicates in warnings (R5)"""
        session, actor = db.session(), current_actor()
        player, duplicates = create_player(session, actor, data)
        view = {name: getattr(player, name) for name in PUBLIC_FIELDS + PERSONAL_FIELDS}
        view["warnings"] = duplicate_warnings(duplicates)
        return view


@blp.route("/<id:player_id>")
class PlayerByIdViews(MethodView):
    @blp.response(200, PlayerProfileOut)
    def get(self, player_id: int) -> dict[str, Any]:
        """A player's profile and per-venue season results"""
        session = db.session()
        player = get_or_404(session, Player, player_id, "player")
        return {**player_view(session, current_actor(), player), "seasons": player_seasons(session, player)}

    @office_only
    @blp.arguments(PlayerPatch(partial=True))
    @blp.response(200, PlayerOut)
    def patch(self, changes: dict[str, Any], player_id: int) -> dict[str, Any]:
        """Change a player's record (office; audited)"""
        session, actor = db.session(), current_actor()
        player = get_or_404(session, Player, player_id, "player")
        return player_view(session, actor, update_player(session, actor, player, changes))
