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
from api.words import FORMS
from models.services.access import may_set_up_league
from models.services.league_settings.writes import update_league_settings
from models.services.lookup import league_settings
from models.services.structures.writes import list_structures


@bp.route("/league-settings", methods=["GET", "POST"])
@signed_in_only
def league_settings_page() -> Any:
    session, actor = db.session(), current()
    may_set_up_league(actor)
    settings = league_settings(session)
    token = TokenForm()
    form = ApiForm(
        LeagueSettingsPatch(),
        FORMS["league_settings"],
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
