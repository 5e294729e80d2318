"""API keys (office): list without secrets, create (the key is answered once), revoke."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import db
from api.api_keys.schemas import KeyCreated, KeyIn, KeyOut
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by
from api.contract import ID, conflicts, links
from api.pagination import PageArgs, page_request, page_schema
from models.entities import ApiKey
from models.services.api_keys.writes import create_key, get_key, list_keys, revoke_key
from models.services.paging import Page

blp = Blueprint("api_keys", __name__, url_prefix="/api/v1/api-keys", description="API keys.")


@blp.route("")
@cached_by(DATA_VERSION, why="API keys: no scope covers api_keys or api_key_venues")
class KeysViews(MethodView):
    @blp.doc(operationId="list_api_keys")
    @office_only
    @blp.arguments(PageArgs, location="query")
    @blp.response(200, page_schema(KeyOut, "ApiKeyPage"))
    def get(self, args: dict[str, Any]) -> Page[ApiKey]:
        """List keys (office); secrets are never shown"""
        return list_keys(db.session(), current_actor(), page_request(args))

    @blp.doc(operationId="create_api_key")
    @office_only
    @links(
        GetApiKey=("get_api_key", {"key_id": ID}),
    )
    @blp.arguments(KeyIn)
    @blp.response(201, KeyCreated)
    def post(self, data: dict[str, Any]) -> dict[str, Any]:
        """Create a key (office); the answer carries the key, once"""
        key, secret = create_key(db.session(), current_actor(), data["name"], data["role"], data["venue_ids"])
        # Raw values, not KeyOut().dump(key): the response schema dumps once (twice fails).
        shown = {name: getattr(key, name) for name in KeyOut().fields}
        return {**shown, "key": secret}


@blp.route("/<id:key_id>")
@cached_by(DATA_VERSION, why="API keys: no scope covers api_keys or api_key_venues")
class KeyByIdViews(MethodView):
    @blp.doc(operationId="get_api_key")
    @office_only
    @blp.response(200, KeyOut)
    def get(self, key_id: int) -> ApiKey:
        """One key (office)"""
        return get_key(db.session(), current_actor(), key_id)

    @blp.doc(operationId="revoke_api_key")
    @office_only
    @conflicts
    @blp.response(204)
    def delete(self, key_id: int) -> None:
        """Revoke a key (office); it answers 401 from then on

        Revoked once (R17a): revoking a revoked key is a 409 saying when it was revoked. Never
        the key making the request (a 403): the office would shut itself out.
        """
        session, actor = db.session(), current_actor()
        revoke_key(session, actor, get_key(session, actor, key_id))
