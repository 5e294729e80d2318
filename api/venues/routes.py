"""Venues: each is its own league (R1)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import db
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.contract import ID, conflicts, links
from api.pagination import page_request, page_schema
from api.schemas import patch_of
from api.venues.schemas import VenueIn, VenueOut, VenuePatch, VenueQuery
from models.entities import Venue
from models.services.league import create_venue, update_venue
from models.services.league_queries import list_venues
from models.services.lookup import get_or_raise
from models.services.paging import Page

blp = Blueprint("venues", __name__, url_prefix="/api/v1/venues", description="Venues (R1).")


@blp.route("")
class VenuesViews(MethodView):
    @blp.doc(operationId="list_venues")
    @blp.arguments(VenueQuery, location="query")
    @blp.response(200, page_schema(VenueOut, "VenuePage"))
    def get(self, args: dict[str, Any]) -> Page[Venue]:
        """List venues, by name; filter by region, active, or a name search"""
        page = page_request(args)
        return list_venues(
            db.session(), page, region_id=args.get("region_id"), active=args.get("active"), text=args.get("q")
        )

    @blp.doc(operationId="create_venue")
    @office_only
    @conflicts
    @links(
        GetVenue=("get_venue", {"venue_id": ID}),
        UpdateVenue=("update_venue", {"venue_id": ID}),
    )
    @blp.arguments(VenueIn)
    @blp.response(201, VenueOut)
    def post(self, data: dict[str, Any]) -> Venue:
        """Create a venue (office)"""
        return create_venue(db.session(), current_actor(), data)


@blp.route("/<id:venue_id>")
class VenueByIdViews(MethodView):
    @blp.doc(operationId="get_venue")
    @blp.response(200, VenueOut)
    def get(self, venue_id: int) -> Venue:
        """One venue"""
        return get_or_raise(db.session(), Venue, venue_id, "venue")

    @blp.doc(operationId="update_venue")
    @office_only
    @conflicts
    @blp.arguments(patch_of(VenuePatch))
    @blp.response(200, VenueOut)
    def patch(self, changes: dict[str, Any], venue_id: int) -> Venue:
        """Change a venue (office)"""
        session = db.session()
        venue = get_or_raise(session, Venue, venue_id, "venue")
        return update_venue(session, current_actor(), venue, changes)
