"""Regions: the areas whose venues meet at a regional playoff (R3)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import db
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.cache.views import cached_by, the_league
from api.contract import ID, conflicts, links
from api.pagination import PageArgs, page_request, page_schema
from api.regions.schemas import RegionIn, RegionOut
from models.entities import Region
from models.services.lookup import get_or_raise
from models.services.paging import Page
from models.services.regions.queries import list_regions
from models.services.regions.writes import create_region

blp = Blueprint("regions", __name__, url_prefix="/api/v1/regions", description="Regions (R3).")


@blp.route("")
@cached_by(the_league)
class RegionsViews(MethodView):
    @blp.doc(operationId="list_regions")
    @blp.arguments(PageArgs, location="query")
    @blp.response(200, page_schema(RegionOut, "RegionPage"))
    def get(self, args: dict[str, Any]) -> Page[Region]:
        """List regions"""
        return list_regions(db.session(), page_request(args))

    @blp.doc(operationId="create_region")
    @office_only
    @conflicts
    @links(
        GetRegion=("get_region", {"region_id": ID}),
    )
    @blp.arguments(RegionIn)
    @blp.response(201, RegionOut)
    def post(self, data: dict[str, Any]) -> Region:
        """Create a region (office)"""
        return create_region(db.session(), current_actor(), data["name"])


@blp.route("/<id:region_id>")
@cached_by(the_league)
class RegionByIdViews(MethodView):
    @blp.doc(operationId="get_region")
    @blp.response(200, RegionOut)
    def get(self, region_id: int) -> Region:
        """One region"""
        return get_or_raise(db.session(), Region, region_id, "region")
