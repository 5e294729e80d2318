"""League nights (R22): a host (or the office) opens tonight's game at a venue and runs it by
actions, each applied once (its `action_id`) and made on the night's `sequence` (an older one is
a 409 carrying the night as it stands); anyone reads a night, players by display name (R19)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Response
from flask.views import MethodView

from api import db, throttle
from api.auth import current_actor, host_or_office
from api.blueprint import Blueprint
from api.cache.views import a_nights_venue, cached_by, the_league
from api.contract import ID, conflicts, links
from api.errors import problem
from api.nights.answers import night_answer
from api.nights.schemas import ActionAnswer, ActionIn, NightListed, NightOpenIn, NightStateOut, OpenNightsOut
from api.pagination import PageArgs, page_request, page_schema
from models.entities import Night
from models.freshness.tables import NIGHT_TABLES
from models.services.nights.actions import apply_action
from models.services.nights.opening import open_night
from models.services.nights.projection import projected_standings
from models.services.nights.queries import (
    list_nights,
    night_version,
    night_view,
    nights_version,
    open_nights,
    open_nights_version,
)
from models.services.nights.runs import NightMoved
from models.services.paging import Page

blp = Blueprint("nights", __name__, url_prefix="/api/v1", description="League nights as they happen (R22).")


def the_venues_nights(view: Mapping[str, Any], _args: Mapping[str, str], session: Any) -> list[str]:
    """R22: a venue's list of nights moves with each of them."""
    return [str(row) for row in nights_version(session, view["venue_id"])]


def a_night(view: Mapping[str, Any], _args: Mapping[str, str], session: Any) -> list[str]:
    """R22: a night's answer moves with its own sequence and clock (no scope holds them)."""
    return night_version(session, view["night_id"])


def the_nights_venue(view: Mapping[str, Any], _args: Mapping[str, str], session: Any) -> Sequence[str]:
    """R22: the night's venue's standings in its season (`a_nights_venue`)."""
    return a_nights_venue(session.get(Night, view["night_id"]))


def the_open_nights(_view: Mapping[str, Any], _args: Mapping[str, str], session: Any) -> list[str]:
    """R22: the league's open nights move with any night opened or any action."""
    return [str(row) for row in open_nights_version(session)]


@blp.route("/nights")
@cached_by(the_league, also=the_open_nights, also_covers=NIGHT_TABLES)
class OpenNightsViews(MethodView):
    @blp.doc(operationId="list_open_nights")
    @blp.response(200, OpenNightsOut)
    def get(self) -> dict[str, Any]:
        """The league's nights being played now (R22), by venue name

        Each with its venue, date, session, entrants, players left and whether its clock has
        started: where a player can follow a game tonight (its live page is
        `/embed/venues/{venue_id}/night`).
        """
        nights = open_nights(db.session())
        items = [
            {
                "id": night.id,
                "venue": {"id": night.venue_id, "name": night.venue.name},
                "date": night.date,
                "session": night.session,
                "entrants": len(night.entries),
                "players_left": sum(entry.status == "playing" for entry in night.entries),
                "clock_started": night.clock_started_at is not None,
            }
            for night in nights
        ]
        return {"items": items, "total": len(items)}


@blp.route("/venues/<id:venue_id>/nights")
@cached_by(the_league, also=the_venues_nights, also_covers=NIGHT_TABLES)
class VenueNightsViews(MethodView):
    @blp.doc(operationId="list_nights")
    @blp.arguments(PageArgs, location="query")
    @blp.response(200, page_schema(NightListed, "NightPage"))
    def get(self, args: dict[str, Any], venue_id: int) -> Page[Night]:
        """A venue's nights, the latest first (R22)"""
        return list_nights(db.session(), venue_id, page_request(args))

    @blp.doc(operationId="open_night")
    @host_or_office
    @conflicts
    @links(GetNight=("get_night", {"night_id": ID}), ActOnNight=("act_on_night", {"night_id": ID}))
    @blp.arguments(NightOpenIn)
    @blp.response(201, NightStateOut)
    def post(self, data: dict[str, Any], venue_id: int) -> dict[str, Any]:
        """Open tonight's game at the venue (host of the venue, or office; R22), on its clock"""
        session = db.session()
        night = open_night(session, current_actor(), venue_id, data.get("session"), data.get("structure_id"))
        return night_answer(night_view(session, night.id))


@blp.route("/nights/<id:night_id>")
@cached_by(the_nights_venue, also=a_night, also_covers=NIGHT_TABLES)
class NightViews(MethodView):
    @blp.doc(operationId="get_night")
    @blp.response(200, NightStateOut)
    def get(self, night_id: int) -> dict[str, Any]:
        """A night as it stands: clock, players left, seats, places (R22; display names, R19)"""
        session = db.session()
        view = night_view(session, night_id)
        return night_answer(view, projected_standings(session, view.night))


@blp.route("/nights/<id:night_id>/actions")
class NightActionsViews(MethodView):
    @blp.doc(operationId="act_on_night")
    @host_or_office
    @conflicts
    @blp.arguments(ActionIn)
    @blp.response(200, ActionAnswer)
    def post(self, data: dict[str, Any], night_id: int) -> dict[str, Any] | Response:
        """One action of the night (host of the venue, or office; R22), applied once"""
        session, actor = db.session(), current_actor()
        # R19: a sign-in naming its player by email, number or name looks players up.
        throttle.refuse_when_naming_spent(actor, [data.get("player")])
        try:
            with throttle.counting_identifier_misses(actor):
                applied = apply_action(session, actor, night_id, data)
        except NightMoved as moved:
            night = NightStateOut().dump(night_answer(night_view(session, moved.night.id)))
            return problem(
                moved.status,
                moved.title,
                moved.detail,
                errors=moved.errors,
                rule=moved.rule,
                members={"night": night},
            )
        return {
            "action": {
                "action_id": applied.action.action_id,
                "sequence": applied.action.sequence,
                "kind": applied.action.kind,
                "replayed": applied.replayed,
            },
            "night": night_answer(night_view(session, night_id)),
            "warnings": applied.notices,
        }
