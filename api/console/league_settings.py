"""The league's settings in the console (R2a, R15, R21, R24): its name, time zone, the sanctions'
minimums, the most entrants a report may have, who may frame the embeds, how long inactive
players' data is kept, and how dates read for people; changed by the API's schema and service
(api/console/api_forms.py)."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for

from api import db
from api.console.api_forms import ApiForm
from api.console.base import bp, current, page, refused_form, signed_in_only, zone_names
from api.console.forms import TokenForm
from api.league_settings.schemas import LeagueSettingsOut, LeagueSettingsPatch
from models.services.access import may_set_up_league
from models.services.league_settings.writes import league_settings, update_league_settings
from models.services.structures.writes import list_structures

LABELS = {
    "name": ("The league's name", "As the website's front door shows it."),
    "timezone": (
        "Time zone",
        "Where the league's dates are read (a venue without a zone of its own uses it), e.g. "
        "America/Chicago. Empty: the server's default.",
    ),
    "min_suspension_days": ("Shortest suspension, in days", "Counting the first and the last day."),
    "min_outside_alcohol_months": ("Shortest suspension for outside alcohol, in months", ""),
    "max_entrants": ("Most entrants in one report", ""),
    "embed_frame_ancestors": (
        "Sites that may show the embedded standings",
        "* for any site, or the sites' addresses separated by spaces, or 'none'.",
    ),
    "erase_inactive_after_months": (
        "Erase inactive players after this many months",
        "Players with no result in this long have their personal data erased. Empty: never.",
    ),
    "structure_id": (
        "Blind structure of the league's nights",
        "Where a venue names none. Empty: the built-in one (2,000 chips, 20-minute levels).",
    ),
    "date_format": (
        "How dates read",
        "On the console, the embedded pages, the emails and the chat messages (R24): a pattern "
        "such as EEE d MMM y (Tue 1 Dec 2026) or d/M/y (1/12/2026), or short, medium, long, full.",
    ),
    "locale": ("Language and region of dates and times", "e.g. en_GB (19:00) or en_US (7:00 PM)."),
}


@bp.route("/league-settings", methods=["GET", "POST"])
@signed_in_only
def league_settings_page() -> Any:
    session, actor = db.session(), current()
    may_set_up_league(actor)
    settings = league_settings(session)
    token = TokenForm()
    form = ApiForm(
        LeagueSettingsPatch(),
        LABELS,
        values=LeagueSettingsOut().dump(settings),
        changes_only=True,
        choices={"structure_id": [(str(s.id), s.name) for s in list_structures(session)]},
    )
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        if (
            form.submit(request.form, lambda changes: update_league_settings(session, actor, changes))
            is not None
        ):
            flash("The league's settings are saved.")
            return redirect(url_for("console.league_settings_page"))
        status = 422
    inputs = form.inputs(request.form if request.method == "POST" else None)
    context = {"form": form, "inputs": inputs, "token": token, "zones": zone_names()}
    return page("console/league_settings.html", status, **context)
