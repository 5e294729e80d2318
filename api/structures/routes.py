"""Blind structures (R22): the office keeps them; a venue names one, or a night is opened with
one; where none is named, the league's, else 001's built in (2,000 chips, 20-minute levels)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import db
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by
from api.contract import ID, conflicts, links
from api.schemas import patch_of
from api.structures.schemas import StructureIn, StructureList, StructureOut, StructurePatch
from models.entities import Structure
from models.services.lookup import get_or_raise
from models.services.structures.writes import built_in, create_structure, list_structures, update_structure

blp = Blueprint(
    "structures", __name__, url_prefix="/api/v1/structures", description="Blind structures (R22)."
)


@blp.route("")
@cached_by(DATA_VERSION, why="structures: no scope covers them")
class StructuresViews(MethodView):
    @blp.doc(operationId="list_structures")
    @blp.response(200, StructureList)
    def get(self) -> dict[str, Any]:
        """List the league's blind structures, and the built-in one"""
        return {"items": list_structures(db.session()), "built_in": built_in()}

    @blp.doc(operationId="create_structure")
    @office_only
    @conflicts
    @links(GetStructure=("get_structure", {"structure_id": ID}))
    @blp.arguments(StructureIn)
    @blp.response(201, StructureOut)
    def post(self, data: dict[str, Any]) -> Structure:
        """Keep a blind structure (office; R22): blinds never fall, levels 1-120 minutes"""
        return create_structure(db.session(), current_actor(), data)


@blp.route("/<id:structure_id>")
@cached_by(DATA_VERSION, why="structures: no scope covers them")
class StructureByIdViews(MethodView):
    @blp.doc(operationId="get_structure")
    @blp.response(200, StructureOut)
    def get(self, structure_id: int) -> Structure:
        """One blind structure"""
        return get_or_raise(db.session(), Structure, structure_id, "structure")

    @blp.doc(operationId="update_structure")
    @office_only
    @conflicts
    @blp.arguments(patch_of(StructurePatch))
    @blp.response(200, StructureOut)
    def patch(self, changes: dict[str, Any], structure_id: int) -> Structure:
        """Change a blind structure (office; R22): nights already open keep theirs"""
        return update_structure(db.session(), current_actor(), structure_id, changes)
