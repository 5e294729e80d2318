"""Player merges (R17): the office lists merges and undoes one, restoring both players exactly."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import db
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by
from api.contract import conflicts
from api.pagination import page_request, page_schema
from api.player_merges.schemas import MergeOut, MergeQuery, UndoIn
from models.entities import PlayerMerge
from models.services.paging import Page
from models.services.player_merges.queries import get_merge, list_merges
from models.services.player_merges.writes import undo_merge

blp = Blueprint(
    "player_merges", __name__, url_prefix="/api/v1/player-merges", description="Player merges (R17)."
)


@blp.route("")
@cached_by(DATA_VERSION, why="merges and their players, as before: no read of every case proves one scope")
class MergesViews(MethodView):
    @blp.doc(operationId="list_player_merges")
    @office_only
    @blp.arguments(MergeQuery, location="query")
    @blp.response(200, page_schema(MergeOut, "PlayerMergePage"))
    def get(self, args: dict[str, Any]) -> Page[PlayerMerge]:
        """List player merges, newest first (office)"""
        page = page_request(args)
        return list_merges(db.session(), current_actor(), page, args.get("player_id"))


@blp.route("/<id:merge_id>")
@cached_by(DATA_VERSION, why="a merge and its players, as before: no read of every case proves one scope")
class MergeByIdViews(MethodView):
    @blp.doc(operationId="get_player_merge")
    @office_only
    @blp.response(200, MergeOut)
    def get(self, merge_id: int) -> PlayerMerge:
        """One player merge (office)"""
        return get_merge(db.session(), current_actor(), merge_id)


@blp.route("/<id:merge_id>/undo")
class MergeUndoViews(MethodView):
    @blp.doc(operationId="undo_player_merge")
    @office_only
    @conflicts
    @blp.arguments(UndoIn)
    @blp.response(200, MergeOut)
    def post(self, data: dict[str, Any], merge_id: int) -> PlayerMerge:
        """Undo a merge, with a reason (office; R17): both players as they were before

        Refused (409, saying what) when something since depends on the merge.
        """
        session, actor = db.session(), current_actor()
        return undo_merge(session, actor, get_merge(session, actor, merge_id), data["reason"])
