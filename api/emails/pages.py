"""The one-click unsubscribe of every message (R23, RFC 8058): `POST /unsubscribe/<token>`, as a
mail program sends it (form body `List-Unsubscribe=One-Click`, no key), withdraws the player's
consent at once (audited as withdrawn by the player, by the link); `GET` shows a page whose
button posts it, so a link scanner that opens every link unsubscribes no one. A POST whose body
does not say `List-Unsubscribe=One-Click` is refused (400) and changes nothing. The token is
signed with the app's secret and expires: a forged, damaged or expired one answers a page saying
so and changes nothing. It names the consent the message was sent under and withdraws that one
only: a player who consented again since keeps the new consent. Pages for people, not the API:
outside its spec."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, g, request

from api import db
from api.console.base import console_css
from api.html import html_page
from models.infra.clock import utcnow
from models.rules.emails import BadToken, LinkToken, read_token
from models.services.emails.consents import ByLink, withdraw_by_link

pages = Blueprint("email_pages", __name__, template_folder="templates")

# Far longer than any token the league makes: a longer one is not read.
MOST_TOKEN = 300


def _page(status: int, **context: Any) -> Response:
    response = html_page(
        "emails/unsubscribe.html",
        console_css(),  # the console's look: a button a thumb can press
        status,
        frame_ancestors="'none'",
        forms="'self'",
        theme="light",
        **context,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


# RFC 8058: the one-click POST's form body says this, and nothing else makes it one.
ONE_CLICK = ("List-Unsubscribe", "One-Click")


def _link(token: str) -> LinkToken | BadToken:
    if len(token) > MOST_TOKEN:
        return BadToken("The link is damaged.")
    try:
        return read_token(str(current_app.config["SECRET_KEY"]), token, utcnow())
    except BadToken as bad:
        return bad


@pages.get("/unsubscribe/<token>")
def unsubscribe_page(token: str) -> Response:
    """The page a person opens from the email: one button stops the weekly email."""
    link = _link(token)
    if isinstance(link, BadToken):
        return _page(400, bad=link)
    return _page(200, done=False)


@pages.post("/unsubscribe/<token>")
def unsubscribe(token: str) -> Response:
    """One click (RFC 8058): the consent the message was sent under withdrawn, nothing more sent.
    Only a form body saying `List-Unsubscribe=One-Click` is one."""
    link = _link(token)
    if isinstance(link, BadToken):
        return _page(400, bad=link)
    name, value = ONE_CLICK
    if request.form.get(name) != value:
        return _page(400, not_one_click=True)
    if withdraw_by_link(db.session(), link, g.get("request_id")) == ByLink.EARLIER:
        return _page(200, earlier=True)
    return _page(200, done=True)
