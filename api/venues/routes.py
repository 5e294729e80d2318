"""Venues: each is its own league (R1)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import db
from api.auth import current_actor, host_or_office, office_only
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by
from api.contract import ID, conflicts, links
from api.pagination import page_request, page_schema
from api.schemas import patch_of
from api.venues.schemas import (
    ExceptionIn,
    ExceptionList,
    ExceptionOut,
    ScheduleIn,
    VenueIn,
    VenueOut,
    VenuePatch,
    VenueQuery,
)
from models.entities import ScheduleException, Venue
from models.services.lookup import get_or_raise
from models.services.paging import Page
from models.services.venues.queries import list_venues
from models.services.venues.schedules import add_exception, delete_exception, list_exceptions, set_schedule
from models.services.venues.writes import create_venue, update_venue

blp = Blueprint("venues", __name__, url_prefix="/api/v1/venues", description="Venues (R1).")


@blp.route("")
@cached_by(DATA_VERSION, why="venues with their schedules (venue_nights: no scope)")
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
@cached_by(DATA_VERSION, why="venues with their schedules (venue_nights: no scope)")
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


@blp.route("/<id:venue_id>/schedule")
class VenueScheduleViews(MethodView):
    @blp.doc(operationId="set_venue_schedule")
    @host_or_office
    @blp.arguments(ScheduleIn)
    @blp.response(200, VenueOut)
    def put(self, data: dict[str, Any], venue_id: int) -> Venue:
        """Set a venue's regular nights, whole (office, or a host of the venue)"""
        session = db.session()
        venue = get_or_raise(session, Venue, venue_id, "venue")
        set_schedule(session, current_actor(), venue, data["schedule"])
        return venue


@blp.route("/<id:venue_id>/schedule-exceptions")
@cached_by(DATA_VERSION, why="a venue's schedule exceptions: no scope covers them")
class ScheduleExceptionsViews(MethodView):
    @blp.doc(operationId="list_schedule_exceptions")
    @host_or_office
    @blp.response(200, ExceptionList)
    def get(self, venue_id: int) -> dict[str, Any]:
        """A venue's nights cancelled, moved or added (office, or a host of the venue)"""
        session = db.session()
        venue = get_or_raise(session, Venue, venue_id, "venue")
        items = list_exceptions(session, current_actor(), venue)
        return {"items": items, "total": len(items)}

    @blp.doc(operationId="create_schedule_exception")
    @host_or_office
    @blp.arguments(ExceptionIn)
    @blp.response(201, ExceptionOut)
    def post(self, data: dict[str, Any], venue_id: int) -> ScheduleException:
        """Cancel, move or add a night (office, or a host of the venue; R2: inside a season)"""
        session = db.session()
        venue = get_or_raise(session, Venue, venue_id, "venue")
        return add_exception(session, current_actor(), venue, data)


@blp.route("/<id:venue_id>/schedule-exceptions/<id:exception_id>")
class ScheduleExceptionViews(MethodView):
    @blp.doc(operationId="delete_schedule_exception")
    @host_or_office
    @blp.response(204)
    def delete(self, venue_id: int, exception_id: int) -> None:
        """Take a schedule exception back (office, or a host of the venue)"""
        session = db.session()
        venue = get_or_raise(session, Venue, venue_id, "venue")
        delete_exception(session, current_actor(), venue, exception_id)
