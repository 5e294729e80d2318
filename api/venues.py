"""Venues: each is its own league (R1)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields
from sqlalchemy import func, select

from api import db
from api.auth import current_actor, office_only
from api.fields import Id, QueryId, Text, UtcDateTime
from api.pagination import PageArgs, page_schema, paginate
from models import Venue
from models.services.league import create_venue, get_or_404, update_venue

blp = Blueprint("venues", __name__, url_prefix="/api/v1/venues", description="Venues (R1).")


class VenueIn(Schema):
    name = Text(max_length=120, required=True)
    region_id = Id(required=True)
    city = Text(max_length=120, allow_none=True)
    active = fields.Boolean(load_default=True)


class VenuePatch(VenueIn):
    """A PATCH names only the fields it changes."""


class VenueOut(Schema):
    id = fields.Integer()
    name = fields.String()
    region_id = fields.Integer()
    city = fields.String(allow_none=True)
    active = fields.Boolean()
    created_at = UtcDateTime()
    updated_at = UtcDateTime()


class VenueQuery(PageArgs):
    region_id = QueryId()
    active = fields.Boolean()
    q = fields.String(metadata={"description": "Part of the venue's name or city."})


@blp.route("")
class VenuesViews(MethodView):
    @blp.arguments(VenueQuery, location="query")
    @blp.response(200, page_schema(VenueOut, "VenuePage"))
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """List venues, by name; filter by region, active, or a name search"""
        query = select(Venue).order_by(Venue.name, Venue.id)
        if "region_id" in args:
            query = query.where(Venue.region_id == args["region_id"])
        if "active" in args:
            query = query.where(Venue.active.is_(args["active"]))
        if args.get("q"):
            text = args["q"].strip().lower()
            query = query.where(
                func.lower(Venue.name).contains(text, autoescape=True)
                | func.lower(Venue.city).contains(text, autoescape=True)
            )
        return paginate(db.session(), query, args)

    @office_only
    @blp.arguments(VenueIn)
    @blp.response(201, VenueOut)
    def post(self, data: dict[str, Any]) -> Venue:
        """Create a venue (office)"""
        return create_venue(db.session(), current_actor(), data)


@blp.route("/<id:venue_id>")
class VenueByIdViews(MethodView):
    @blp.response(200, VenueOut)
    def get(self, venue_id: int) -> Venue:
        """One venue"""
        return get_or_404(db.session(), Venue, venue_id, "venue")

    @office_only
    @blp.arguments(VenuePatch(partial=True))
    @blp.response(200, VenueOut)
    def patch(self, changes: dict[str, Any], venue_id: int) -> Venue:
        """Change a venue (office)"""
        session = db.session()
        venue = get_or_404(session, Venue, venue_id, "venue")
        return update_venue(session, current_actor(), venue, changes)
