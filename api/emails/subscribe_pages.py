"""Pages for people (R19, R23, R24): asking for the weekly email, and confirming it by the link
the email carries. Outside the API's spec, in the style of the unsubscribe page (pages.py).

- `GET /email/subscribe`: a form (`emails/subscribe_form.html`, a partial any page of the
  service may include); `POST /email/subscribe` does what `POST /api/v1/email-subscriptions`
  does, with the same service and the same allowance per address, and answers the same page
  whether or not the address is a player's.
- `GET /email/confirm/<token>`: a page whose one button posts the confirmation, so a mail
  scanner that opens every link confirms nothing; `POST` records the consent. A forged, damaged
  or expired link (400), or one used already or no longer valid (410), changes nothing and says
  so.

Cross-site posts are refused (CSRF; 403): a browser says where a form was sent from
(`Sec-Fetch-Site`, else `Origin`), and only this site's own pages may post here. The
confirmation's link is a secret of its own besides (128 random bits, signed)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, g, request
from marshmallow import ValidationError
from werkzeug.exceptions import TooManyRequests

from api import db, throttle
from api.console.base import console_css
from api.emails.routes import ASKED
from api.emails.schemas import EmailSubscriptionIn
from api.html import html_page
from api.words import said_to_people
from models.infra.clock import utcnow
from models.rules.emails import BadToken, token_confirmation
from models.services.emails.subscriptions import (
    Confirmed,
    ask_for_weekly_email,
    confirm_by_link,
    confirmation_open,
)

subscribe_pages = Blueprint("email_subscribe", __name__, template_folder="templates")

# Far longer than any token the league makes: a longer one is not read.
MOST_TOKEN = 300
CROSS_SITE = "This form can only be sent from the league's own pages."


def _page(template: str, status: int, **context: Any) -> Response:
    response = html_page(
        template,
        console_css(),  # the console's look: a field and a button a thumb can use
        status,
        frame_ancestors="'none'",
        forms="'self'",
        theme="light",
        **context,
    )
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"  # a confirmation's link is a secret
    return response


def _cross_site() -> bool:
    """Whether a browser sent this POST from another site's page (CSRF). Browsers say where a
    request comes from: `Sec-Fetch-Site` (same-origin, or none: typed by the person), else
    `Origin`, which must name this host. A request with neither is no browser's form."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = request.headers.get("Origin")
    return origin is not None and urlsplit(origin).netloc != request.host


@subscribe_pages.get("/email/subscribe")
def subscribe_form() -> Response:
    """The form: an email address, and a button that sends a link to confirm."""
    return _page("emails/subscribe.html", 200)


@subscribe_pages.post("/email/subscribe")
def subscribe() -> Response:
    """R19, R23: as the API's `POST /api/v1/email-subscriptions`: the same answer whether or not
    the address is a player's, the same work, the same allowance per address."""
    if _cross_site():
        return _page("emails/subscribe.html", 403, refused=CROSS_SITE)
    typed = request.form.get("email")
    try:
        data = EmailSubscriptionIn().load({} if typed is None else {"email": typed})
    except ValidationError as error:
        messages = error.normalized_messages().get("email", ["Not a valid email address."])
        said = said_to_people({"email": messages if isinstance(messages, list) else [str(messages)]})
        problem = " ".join(said)
        return _page("emails/subscribe.html", 422, problem=problem, email=(typed or "")[:254])
    try:
        throttle.count_subscription_request()
    except TooManyRequests as too_many:
        page = _page("emails/subscribe.html", 429, refused=too_many.description)
        if too_many.retry_after is not None:
            page.headers["Retry-After"] = str(too_many.retry_after)
        return page
    ask_for_weekly_email(db.session(), data["email"], utcnow())
    return _page("emails/subscribe.html", 200, asked=ASKED)


def _code(token: str) -> str | BadToken:
    if len(token) > MOST_TOKEN:
        return BadToken("The link is damaged.")
    try:
        return token_confirmation(str(current_app.config["SECRET_KEY"]), token, utcnow())
    except BadToken as bad:
        return bad


@subscribe_pages.get("/email/confirm/<token>")
def confirm_page(token: str) -> Response:
    """The page a person opens from the confirmation email: one button confirms."""
    code = _code(token)
    if isinstance(code, BadToken):
        return _page("emails/confirm.html", 400, bad=code)
    if not confirmation_open(db.session(), code):
        return _page("emails/confirm.html", 410, outcome=Confirmed.GONE)
    return _page("emails/confirm.html", 200)


@subscribe_pages.post("/email/confirm/<token>")
def confirm(token: str) -> Response:
    """R23: the player's consent, recorded as their own (audited); the link is spent."""
    if _cross_site():
        return _page("emails/confirm.html", 403, refused=CROSS_SITE)
    code = _code(token)
    if isinstance(code, BadToken):
        return _page("emails/confirm.html", 400, bad=code)
    outcome = confirm_by_link(db.session(), code, g.get("request_id"))
    return _page("emails/confirm.html", 410 if outcome == Confirmed.GONE else 200, outcome=outcome)
