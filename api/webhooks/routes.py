"""Webhooks (R23): the office's subscriptions to the league's events, signed as Standard Webhooks
says, sent by the delivery worker (`flask --app app deliver`) after each change commits. The
subscriptions and their log are cached by the `outbox` scope (`the_outbox`), which the worker's
writes move: a delivery that failed, or a subscription it paused, is read as it is."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView

from api import db
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.cache.views import cached_by, the_outbox
from api.contract import ID, conflicts, links
from api.pagination import PageArgs, page_request, page_schema
from api.schemas import patch_of
from api.webhooks.schemas import DeliveryOut, WebhookIn, WebhookList, WebhookMade, WebhookOut, WebhookPatch
from models.entities import Webhook
from models.services.paging import Page
from models.services.webhooks.webhooks import (
    create_webhook,
    delete_webhook,
    deliveries_page,
    get_webhook,
    list_webhooks,
    ping,
    update_webhook,
)

blp = Blueprint("webhooks", __name__, url_prefix="/api/v1/webhooks", description="Webhooks (R23).")


def allow_private() -> bool:
    return bool(current_app.config.get("WEBHOOKS_ALLOW_PRIVATE"))


@blp.route("")
@cached_by(the_outbox)
class WebhooksViews(MethodView):
    @blp.doc(operationId="list_webhooks")
    @office_only
    @blp.response(200, WebhookList)
    def get(self) -> dict[str, Any]:
        """The league's webhook subscriptions (office)"""
        return {"items": list_webhooks(db.session(), current_actor())}

    @blp.doc(operationId="create_webhook")
    @office_only
    @conflicts
    @links(GetWebhook=("get_webhook", {"webhook_id": ID}))
    @blp.arguments(WebhookIn)
    @blp.response(201, WebhookMade)
    def post(self, data: dict[str, Any]) -> Webhook:
        """Subscribe a URL to events (office; R23); the answer shows its secret, once"""
        return create_webhook(db.session(), current_actor(), data, allow_private())


@blp.route("/<id:webhook_id>")
@cached_by(the_outbox)
class WebhookViews(MethodView):
    @blp.doc(operationId="get_webhook")
    @office_only
    @blp.response(200, WebhookOut)
    def get(self, webhook_id: int) -> Webhook:
        """One subscription (office)"""
        return get_webhook(db.session(), current_actor(), webhook_id)

    @blp.doc(operationId="update_webhook")
    @office_only
    @conflicts
    @blp.arguments(patch_of(WebhookPatch))
    @blp.response(200, WebhookOut)
    def patch(self, changes: dict[str, Any], webhook_id: int) -> Webhook:
        """Change, pause or resume a subscription (office; R23)"""
        return update_webhook(db.session(), current_actor(), webhook_id, changes, allow_private())

    @blp.doc(operationId="delete_webhook")
    @office_only
    @conflicts
    @blp.response(204)
    def delete(self, webhook_id: int) -> None:
        """Delete a subscription and its delivery log (office)"""
        delete_webhook(db.session(), current_actor(), webhook_id)


@blp.route("/<id:webhook_id>/ping")
class WebhookPingViews(MethodView):
    @blp.doc(operationId="ping_webhook")
    @office_only
    @conflicts
    @blp.response(202, DeliveryOut)
    def post(self, webhook_id: int) -> dict[str, Any]:
        """Send a test event to this subscription (office): the worker sends it like any other"""
        return ping(db.session(), current_actor(), webhook_id)


@blp.route("/<id:webhook_id>/deliveries")
@cached_by(the_outbox)
class WebhookDeliveriesViews(MethodView):
    @blp.doc(operationId="list_webhook_deliveries")
    @office_only
    @blp.arguments(PageArgs, location="query")
    @blp.response(200, page_schema(DeliveryOut, "DeliveryPage"))
    def get(self, args: dict[str, Any], webhook_id: int) -> Page[dict[str, Any]]:
        """The subscription's delivery log, the latest first (office): state, attempts, last
        error, next try"""
        return deliveries_page(db.session(), current_actor(), webhook_id, page_request(args))
