"""The demo league in the console: the office sees what removing it deletes, and removes it after
confirming (the same service as `flask demo remove`). Refused, changing nothing, when the demo
changed since the page listed it, or when removing it would undo a merge (R17)."""

from __future__ import annotations

import hashlib
from typing import Any

from flask import flash, redirect, request, url_for

from api import db
from api.console.base import bp, current, page, refused_form, signed_in_only
from api.console.forms import TokenForm
from api.words import Said, said_to_people
from models.errors import LeagueError
from models.services.access import may_remove_demo
from models.services.demo.checks import check_removal
from models.services.demo.queries import DemoRemoval, removal_plan
from models.services.demo.writes import remove_demo

CHANGED = "The demo league changed since this page listed it: nothing was removed. Look again."
# What removing the demo deletes, by its counts' names: (one, many).
REMOVED = {
    "venues": ("venue", "venues"),
    "players": ("player", "players"),
    "reports": ("report", "reports"),
    "sanctions": ("sanction", "sanctions"),
    "keys": ("host key", "host keys"),
    "seasons": ("season", "seasons"),
}


def fingerprint(plan: DemoRemoval) -> str:
    """What the page listed, as a short digest: the post removes only that."""
    return hashlib.sha256(repr(plan).encode()).hexdigest()[:32]


@bp.route("/demo", methods=["GET", "POST"])
@signed_in_only
def demo() -> Any:
    session, actor = db.session(), current()
    may_remove_demo(actor)
    token = TokenForm()
    plan = removal_plan(session)
    refusal: list[Said] = []
    status = 200
    if request.method == "POST" and plan is not None:
        if not token.validate_on_submit():
            return refused_form()
        try:
            if request.form.get("listed") != fingerprint(plan):
                refusal = [Said(CHANGED)]
            else:
                remove_demo(session, expected=plan, by=actor)
                flash("The demo league is removed. Its entries stay in the audit log.")
                return redirect(url_for("console.home"))
        except LeagueError as refused:
            refusal = said_to_people(refused)
        status = 409
        plan = removal_plan(session)
    if plan is not None and not refusal:
        try:
            check_removal(session, plan)
        except LeagueError as refused:
            refusal = said_to_people(refused)
    context = {
        "plan": plan,
        "counts": plan.counts() if plan else {},
        "listed": fingerprint(plan) if plan else "",
    }
    return page("console/demo.html", status, token=token, refusal=refusal, removed=REMOVED, **context)
