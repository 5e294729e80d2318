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

# The one client error GET /health gives, and not by itself: the service reads no key, query or body
# here (a probe's cache-busting query is answered 200), but its HTTP server (gunicorn) refuses a
# request line it will not read, before the service sees it (tests/api/test_gunicorn_reliability.py).
UNREAD = {
    "description": "URI Too Long: the HTTP server's own refusal of a request line over 4,094 bytes "
    "(a query that long), before the service reads it. Not problem+json: the server's short answer."
}


@blp.route("")
class HealthViews(MethodView):
    @blp.doc(operationId="get_health", responses={"414": UNREAD})
    @blp.response(200, HealthOut)
    @answers(HTTPStatus.SERVICE_UNAVAILABLE)
    def get(self) -> dict[str, Any]:
        """Is the service up and its database answering?"""
        try:
            db.session().execute(text("SELECT 1"))
        except SQLAlchemyError:
            abort(503, message="The database does not answer.")
        return {"status": "ok", "database": "ok"}
