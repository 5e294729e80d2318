"""The league's games: every venue's scheduled games in a range of local dates (R2, R2a)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from flask.views import MethodView

from api import db
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by
from api.contract import answers
from api.games.schemas import GamePage, GamesQuery
from api.pagination import page_request
from models.services.games.queries import list_games

blp = Blueprint("games", __name__, url_prefix="/api/v1/games", description="Scheduled games (R2a).")


@blp.route("")
@cached_by(DATA_VERSION, why="the schedules' games (no scope covers schedules) and their reports")
class GamesViews(MethodView):
    @blp.doc(operationId="list_games")
    @answers(HTTPStatus.NOT_FOUND)
    @blp.arguments(GamesQuery, location="query")
    @blp.response(200, GamePage)
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """The venues' scheduled games in a range of local dates (default: this week)

        Each game on its venue's wall clock (R2a), with its season, whether its report is in,
        and `missing` for a game before the venue's today without one (never one before the
        venue was added: R2, R17). Cancelled games are listed as cancelled, moved ones on their
        new date, make-up games as `make_up`, and a game played that no schedule or exception
        gave (its report is in) as `unscheduled`, without a start.
        """
        page = page_request(args)
        first, last, found = list_games(
            db.session(),
            page,
            args.get("first"),
            args.get("last"),
            region_id=args.get("region_id"),
            venue_id=args.get("venue_id"),
        )
        return {
            "starts_on": first,
            "ends_on": last,
            "items": found.items,
            "total": found.total,
            "page": found.page,
            "per_page": found.per_page,
            "pages": found.pages,
        }
