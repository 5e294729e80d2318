"""Regions: the areas whose venues meet at a regional playoff (R3)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields
from sqlalchemy import select

from api import db
from api.auth import current_actor, office_only
from api.fields import Text, UtcDateTime
from api.pagination import PageArgs, page_schema, paginate
from models import Region
from models.services.league import create_region, get_or_404

blp = Blueprint("regions", __name__, url_prefix="/api/v1/regions", description="Regions (R3).")


class RegionIn(Schema):
    name = Text(max_length=120, required=True)


class RegionOut(Schema):
    id = fields.Integer()
    name = fields.String()
    created_at = UtcDateTime()


@blp.route("")
class RegionsViews(MethodView):
    @blp.arguments(PageArgs, location="query")
    @blp.response(200, page_schema(RegionOut, "RegionPage"))
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """List regions"""
        return paginate(db.session(), select(Region).order_by(Region.name), args)

    @office_only
    @blp.arguments(RegionIn)
    @blp.response(201, RegionOut)
    def post(self, data: dict[str, Any]) -> Region:
        """Create a region (office)"""
        return create_region(db.session(), current_actor(), data["name"])


@blp.route("/<id:region_id>")
class RegionByIdViews(MethodView):
    @blp.response(200, RegionOut)
    def get(self, region_id: int) -> Region:
        """One region"""
        return get_or_404(db.session(), Region, region_id, "region")
