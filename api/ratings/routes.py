"""Skill ratings (R20): the league-wide rating table, paginated, by region and experience."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import db
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by
from api.pagination import page_request
from api.ratings.schemas import RatingsQuery, RatingTableOut
from models.services.paging import page_of
from models.services.ratings.queries import rating_table

blp = Blueprint("ratings", __name__, url_prefix="/api/v1/ratings", description="Skill ratings (R20).")


@blp.route("")
@cached_by(DATA_VERSION, why="ratings: no scope covers player_ratings or rating_points")
class RatingsViews(MethodView):
    @blp.doc(operationId="list_ratings")
    @blp.arguments(RatingsQuery, location="query")
    @blp.response(200, RatingTableOut)
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """The league's rating table (R20): established players ranked, then provisional ones

        Every player's one league-wide rating (whatever venue they play at), computed from the
        finishing orders by the Plackett-Luce model. Refused (422, naming it) for an unknown
        `region_id` or a `min_tournaments` outside 0-1000.
        """
        request = page_request(args)
        table = rating_table(db.session(), args.get("region_id"), args["min_tournaments"])
        page = page_of(table, request)
        established = table.established
        return {
            "items": page.items,
            "total": page.total,
            "page": page.page,
            "per_page": page.per_page,
            "pages": page.pages,
            "established": established,
            "provisional": len(table) - established,
        }
