"""The office's webhooks in the console (R23): every subscription with what it hears and how its
deliveries go; a new one made by the API's schema and service (its secret shown on that page,
once); each one's page with its delivery log (state, tries, last error, next try), a test ping,
pause and resume, and deletion after a page that names it."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, redirect, request, url_for

from api import db
from api.console.api_forms import ApiForm
from api.console.base import bp, current, page, refused_form, signed_in_only
from api.console.forms import TokenForm
from api.webhooks.schemas import WebhookIn
from api.words import FORMS, choices, in_words
from models.entities import WEBHOOK_FORMATS
from models.rules.webhooks import EVENT_KINDS, default_events
from models.services.access import may_manage_webhooks
from models.services.paging import PageRequest
from models.services.regions.queries import list_regions
from models.services.venues.queries import list_venues
from models.services.webhooks.webhooks import (
    create_webhook,
    delete_webhook,
    deliveries_page,
    get_webhook,
    list_webhooks,
    ping,
    update_webhook,
)

FORMAT_WORDS = {"json": "JSON (the event, signed)", "discord": "Discord message", "slack": "Slack message"}


def asked_format() -> str:
    """The format the page's link asked for (`?format=discord`), else json."""
    asked = request.args.get("format", "json")
    return asked if asked in WEBHOOK_FORMATS else "json"


def _form(session: Any, fmt: str) -> ApiForm:
    """The new webhook's form, its boxes ticked as the API's default for `fmt` (R23)."""
    venues = list_venues(session, PageRequest(1, 1000)).items
    regions = list_regions(session, PageRequest(1, 500)).items
    return ApiForm(
        WebhookIn(),
        FORMS["webhook"],
        values={"format": fmt, "events": default_events(fmt)},
        choices={
            "events": [
                (kind, in_words(kind, "event_kind")) for kind in EVENT_KINDS if kind != "webhook.ping"
            ],
            "venue_id": [(str(v.id), v.name) for v in venues],
            "region_id": [(str(r.id), r.name) for r in regions],
            "format": choices("webhook_format", WEBHOOK_FORMATS),
        },
    )


def _allow() -> bool:
    return bool(current_app.config.get("WEBHOOKS_ALLOW_PRIVATE"))


@bp.route("/webhooks", methods=["GET", "POST"])
@signed_in_only
def webhooks() -> Any:
    """R23: every subscription, and a new one (its secret shown here, once), its boxes ticked as
    its format wants (`?format=discord`: a chat's)."""
    session, actor = db.session(), current()
    may_manage_webhooks(actor)
    fmt = asked_format()
    token, form = TokenForm(), _form(session, fmt)
    made, status = None, 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        made = form.submit(request.form, lambda data: create_webhook(session, actor, data, _allow()))
        status = 201 if made is not None else form.status
    inputs = form.inputs(request.form if request.method == "POST" and made is None else None)
    context = {
        "hooks": list_webhooks(session, actor),
        "made": made,
        "form": form,
        "inputs": inputs,
        "token": token,
        "format": fmt,
        "formats": [(f, FORMAT_WORDS[f]) for f in WEBHOOK_FORMATS],
    }
    return page("console/webhooks.html", status, **context)


@bp.route("/webhooks/<int:webhook_id>", methods=["GET", "POST"])
@signed_in_only
def webhook_page(webhook_id: int) -> Any:
    """R23: one subscription's delivery log; ping, pause, resume, delete."""
    session, actor = db.session(), current()
    hook = get_webhook(session, actor, webhook_id)
    token = TokenForm()
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        what = request.form.get("do")
        if what == "ping":
            ping(session, actor, webhook_id)
            flash("A test event is on its way: the log below shows how it went.")
        elif what in ("pause", "resume"):
            update_webhook(session, actor, webhook_id, {"paused": what == "pause"}, _allow())
            flash("Paused: nothing is sent until it is resumed." if what == "pause" else "Resumed.")
        elif what == "delete" and request.form.get("sure") == "yes":
            delete_webhook(session, actor, webhook_id)
            flash(f"Webhook {webhook_id} deleted, with its log.")
            return redirect(url_for("console.webhooks"))
        return redirect(url_for("console.webhook_page", webhook_id=webhook_id))
    log = deliveries_page(session, actor, webhook_id, PageRequest(1, 50))
    context = {"hook": hook, "log": log, "token": token, "asked_delete": request.args.get("delete") == "1"}
    return page("console/webhook.html", 200, **context)
