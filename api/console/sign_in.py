"""Signing in with an API key (it becomes a server-side sign-in: the browser holds only a random
token, in an HttpOnly, SameSite=Lax cookie, Secure over HTTPS), signing out, and the home page."""

from __future__ import annotations

from typing import Any

from flask import current_app, g, redirect, request, url_for

from api import db, throttle
from api.console.base import COOKIE, bp, current, page, refused_form, signed_in_only, token_missing
from api.console.forms import SignInForm, SignOutForm
from models.services.console_sign_ins import sign_in, sign_out
from models.services.league_queries import venues_of_actor


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in_page() -> Any:
    form = SignInForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            return refused_form() if token_missing(form) else page("console/sign_in.html", 400, form=form)
        # Sign-ins are counted as wrong API keys are: per address, and an address that sent
        # too many waits (429) before its next key is even looked at.
        address = request.remote_addr or "unknown"
        throttle.refuse_when_over("RATELIMIT_AUTH_FAILURES", address)
        hours = int(current_app.config["CONSOLE_SESSION_HOURS"])
        opened = sign_in(db.session(), form.key.data.strip(), hours, g.get("request_id"))
        if opened is None:
            throttle.take("RATELIMIT_AUTH_FAILURES", address)
            form.key.errors = ["That key is not valid, or it was revoked. Ask the league office for yours."]
            return page("console/sign_in.html", 401, form=form)
        token, _actor = opened
        target = request.args.get("next", "")
        response = redirect(target if target.startswith("/console/") else url_for("console.home"))
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
    response = redirect(url_for("console.sign_in_page"))
    response.delete_cookie(COOKIE, path="/console/", httponly=True, samesite="Lax", secure=request.is_secure)
    return response


@bp.route("/")
@signed_in_only
def home() -> Any:
    return page("console/home.html", venues=venues_of_actor(db.session(), current()))
