"""Signing in with an API key (it becomes a server-side sign-in: the browser holds only a random
token, in an HttpOnly, SameSite=Lax cookie, Secure over HTTPS), signing out, and the home page."""

from __future__ import annotations

import re
from typing import Any

from flask import current_app, g, redirect, request, url_for
from flask import session as signed_cookie
from werkzeug.exceptions import BadRequest

from api import db, throttle
from api.console.base import COOKIE, bp, current, page, refused_form, signed_in_only, token_missing
from api.console.forms import SignInForm, SignOutForm
from models.services.access import sets_up_league
from models.services.api_keys.sign_ins import sign_in, sign_out
from models.services.league_settings.first_run import demo_loaded, first_steps
from models.services.venues.queries import venues_of_actor
from models.services.venues.schedule_queries import HostGames, host_games

# Where a sign-in may lead: a page of the console, in printable ASCII (no control character could
# reach the Location header, no other site could be named).
NEXT_PAGE = re.compile(r"/console/[\x21-\x7e]*")


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in_page() -> Any:
    target = request.args.get("next", "")
    if target and not NEXT_PAGE.fullmatch(target):
        raise BadRequest("The sign-in link names a page that is not the console's: open /console/ instead.")
    form = SignInForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            return refused_form() if token_missing(form) else page("console/sign_in.html", 400, form=form)
        hours = int(current_app.config["CONSOLE_SESSION_HOURS"])
        opened = sign_in(db.session(), form.key.data.strip(), hours, g.get("request_id"))
        if opened is None:
            # Wrong keys are counted as the API counts them: per address, a valid key never.
            throttle.take("RATELIMIT_AUTH_FAILURES", request.remote_addr or "unknown")
            form.key.errors = ["That key is not valid, or it was revoked. Ask the league office for yours."]
            return page("console/sign_in.html", 401, form=form)
        token, _actor = opened
        renew_csrf_secret()  # a sign-in starts with a secret no one saw before it
        response = redirect(target or url_for("console.home"))
        response.set_cookie(
            COOKIE,
            token,
            max_age=hours * 3600,
            path="/console/",
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
        return response
    return page("console/sign_in.html", form=form)


@bp.route("/sign-out", methods=["POST"])
def sign_out_page() -> Any:
    form = SignOutForm()
    if not form.validate_on_submit():
        return refused_form()
    token = request.cookies.get(COOKIE, "")
    if token:
        sign_out(db.session(), token)
    renew_csrf_secret()
    response = redirect(url_for("console.sign_in_page"))
    response.delete_cookie(COOKIE, path="/console/", httponly=True, samesite="Lax", secure=request.is_secure)
    return response


def renew_csrf_secret() -> None:
    """Forget the CSRF tokens' secret (Flask's signed cookie holds it, and nothing else): the next
    form gets a new one, so no token from before a sign-in or sign-out works after it."""
    signed_cookie.pop(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), None)


# Each first step (models/services/league_settings/first_run.py): what the office reads, the page
# it is taken on, and what is left to do.
FIRST_STEPS: dict[str, tuple[str, str, str]] = {
    "timezone": (
        "The league's time zone",
        "console.league_settings_page",
        "set where your dates are read",
    ),
    "region": ("A region", "console.regions", "the area whose venues meet at one playoff"),
    "venues": (
        "Venues and their nights",
        "console.venues",
        "each venue, its time zone and weekly nights",
    ),
    "chart": ("A points chart", "console.charts", "what each place scores"),
    "season": ("A season", "console.season_new", "its dates, regions, chart and bonuses"),
    "host_key": ("Host keys", "console.keys", "one for each venue's host, to post results"),
}


@bp.route("/")
@signed_in_only
def home() -> Any:
    """A host's venues, led by a night that passed without its report (the latest first) and
    tonight's games there (R2a: each on its venue's clock); the office's pages, led by a new
    league's first steps until they are done, and by the demo league while it is loaded."""
    session, actor = db.session(), current()
    venues = venues_of_actor(session, actor)
    nights = host_games(session, venues) if actor.is_host else HostGames([], [])
    office: dict[str, Any] = {}
    if sets_up_league(actor):
        office = {"steps": first_steps(session), "demo": demo_loaded(session), "FIRST_STEPS": FIRST_STEPS}
    return page("console/home.html", venues=venues, nights=nights, **office)
