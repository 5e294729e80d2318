"""API keys (office): list without secrets, create (the key is answered once), revoke."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate
from sqlalchemy import select

from api import db
from api.auth import current_actor, office_only
from api.fields import Id, Text, UtcDateTime
from api.pagination import PageArgs, page_schema, paginate
from models import ROLES, ApiKey
from models.services.keys import create_key, revoke_key
from models.services.league import get_or_404

blp = Blueprint("api_keys", __name__, url_prefix="/api/v1/api-keys", description="API keys.")


class KeyIn(Schema):
    name = Text(max_length=120, required=True)
    role = fields.String(required=True, validate=validate.OneOf(ROLES))
    venue_ids = fields.List(Id(), load_default=list, validate=validate.Length(max=1000))


class KeyOut(Schema):
    id = fields.Integer()
    name = fields.String()
    role = fields.String()
    venue_ids = fields.List(fields.Integer())
    key_prefix = fields.String(metadata={"description": "The key's first characters."})
    created_at = UtcDateTime()
    revoked_at = UtcDateTime(allow_none=True)


class KeyCreated(KeyOut):
    key = fields.String(metadata={"description": "The secret: shown this once, never again."})


@blp.route("")
class KeysViews(MethodView):
    @office_only
    @blp.arguments(PageArgs, location="query")
    @blp.response(200, page_schema(KeyOut, "ApiKeyPage"))
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """List keys (office); secrets are never shown"""
        return paginate(db.session(), select(ApiKey).order_by(ApiKey.id), args)

    @office_only
    @blp.arguments(KeyIn)
    @blp.response(201, KeyCreated)
    def post(self, data: dict[str, Any]) -> dict[str, Any]:
        """Create a key (office); the answer carries the key, once"""
        key, secret = create_key(db.session(), current_actor(), data["name"], data["role"], data["venue_ids"])
        # Raw values, not KeyOut().dump(key): the response schema dumps once (twice fails).
        shown = {name: getattr(key, name) for name in KeyOut().fields}
        return {**shown, "key": secret}


@blp.route("/<id:key_id>")
class KeyByIdViews(MethodView):
    @office_only
    @blp.response(200, KeyOut)
    def get(self, key_id: int) -> ApiKey:
        """One key (office)"""
        return get_or_404(db.session(), ApiKey, key_id, "API key")

    @office_only
    @blp.response(204)
    def delete(self, key_id: int) -> None:
        """Revoke a key (office); it answers 401 from then on"""
        session = db.session()
        revoke_key(session, current_actor(), get_or_404(session, ApiKey, key_id, "API key"))
