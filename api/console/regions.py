"""The office's regions in the console (R3): every region with its venues, and a new one, made by
the API's schema and service (api/console/api_forms.py)."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for

from api import db
from api.console.api_forms import ApiForm
from api.console.base import bp, current, page, refused_form, signed_in_only
from api.console.forms import TokenForm
from api.regions.schemas import RegionIn
from api.words import FORMS
from models.services.access import may_set_up_league
from models.services.paging import PageRequest
from models.services.regions.queries import list_regions
from models.services.regions.writes import create_region
from models.services.venues.queries import list_venues


@bp.route("/regions", methods=["GET", "POST"])
@signed_in_only
def regions() -> Any:
    """R3: the regions, each with its venues, and a new region."""
    session, actor = db.session(), current()
    may_set_up_league(actor)
    token, form = TokenForm(), ApiForm(RegionIn(), FORMS["region"])
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        made = form.submit(request.form, lambda data: create_region(session, actor, data["name"]))
        if made is not None:
            flash(f"Region {made.name} made. Next: its venues.")
            return redirect(url_for("console.regions"))
        status = 422
    listed = list_regions(session, PageRequest(1, 500)).items
    venues = list_venues(session, PageRequest(1, 1000)).items
    by_region = {region.id: [venue for venue in venues if venue.region_id == region.id] for region in listed}
    inputs = form.inputs(request.form if request.method == "POST" else None)
    context = {"regions": listed, "by_region": by_region, "form": form, "inputs": inputs, "token": token}
    return page("console/regions.html", status, **context)
