"""GET /health: 200 when the database answers."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from flask.views import MethodView
from flask_smorest import abort
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from api import db
from api.blueprint import Blueprint
from api.contract import answers
from api.health.schemas import HealthOut

blp = Blueprint("health", __name__, url_prefix="/health", description="Service health.")


@blp.route("")
class HealthViews(MethodView):
    @blp.doc(operationId="get_health")
    @blp.response(200, HealthOut)
    @answers(HTTPStatus.SERVICE_UNAVAILABLE)
    def get(self) -> dict[str, Any]:
        """Is the service up and its database answering?"""
        try:
            db.session().execute(text("SELECT 1"))
        except SQLAlchemyError:
            abort(503, message="The database does not answer.")
        return {"status": "ok", "database": "ok"}
