"""The office's venues in the console (R1, R2, R2a): every venue with its region, clock and
regular nights, and a new one, made by the API's schema and service (api/console/api_forms.py).
A venue's own settings page is in api/console/venue_settings.py."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from flask import flash, redirect, request, url_for
from sqlalchemy.orm import Session

from api import db
from api.console.api_forms import ApiForm, Choices
from api.console.base import bp, current, hidden_id, page, refused_form, signed_in_only, zone_names
from api.console.forms import TokenForm
from api.venues.schemas import VenueIn
from api.words import venue_labels
from models.entities import Region, VenueGame
from models.services import wall_clock
from models.services.access import may_set_up_league
from models.services.paging import PageRequest
from models.services.regions.queries import list_regions
from models.services.structures.writes import list_structures
from models.services.venues.queries import list_venues
from models.services.venues.writes import create_venue

# ISO weekdays, Monday 1: the names a schedule's select offers, and their first three letters.
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAY_CHOICES: Choices = [(str(number), name) for number, name in enumerate(DAY_NAMES, start=1)]


def venue_choices(session: Session, regions: Sequence[Region]) -> dict[str, Choices]:
    """A venue form's lists: its region, and the blind structure its nights play."""
    structures = [(str(s.id), s.name) for s in list_structures(session)]
    return {"region_id": region_choices(regions), "structure_id": structures}


def region_choices(regions: Sequence[Region]) -> Choices:
    return [(str(region.id), f"{region.name} (demo)" if region.demo else region.name) for region in regions]


def said_game(weekday: int, starts_at: str, sessions: int | None) -> str:
    """A regular night as the office reads it: "Tue 19:30 (2 sessions)", or "Tue 19:30"."""
    name = DAY_NAMES[weekday - 1][:3] if 1 <= weekday <= 7 else str(weekday)
    more = f" ({sessions} sessions)" if sessions and sessions > 1 else ""
    return f"{name} {starts_at}{more}"


@bp.app_template_filter("regular_nights")
def regular_games(nights: Iterable[VenueGame]) -> str:
    """A venue's regular nights, by weekday and start: "Tue 19:30 (2 sessions), Thu 20:00"."""
    ordered = sorted(nights, key=lambda night: (night.weekday, night.starts_at))
    return ", ".join(said_game(night.weekday, night.starts_at, night.sessions) for night in ordered)


@bp.route("/venues", methods=["GET", "POST"])
@signed_in_only
def venues() -> Any:
    """R1, R2a: every venue, and a new one (then its settings page, for its regular nights)."""
    session, actor = db.session(), current()
    may_set_up_league(actor)
    regions = list_regions(session, PageRequest(1, 500)).items
    league_zone = wall_clock.league_zone(session)
    asked = hidden_id(request.args.get("region_id"))  # a region's "add one" link
    chosen = {"region_id": asked} if asked in {region.id for region in regions} else {}
    token = TokenForm()
    form = ApiForm(
        VenueIn(),
        venue_labels(league_zone),
        values={"active": True, **chosen},
        choices=venue_choices(session, regions),
    )
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        made = form.submit(request.form, lambda data: create_venue(session, actor, data))
        if made is not None:
            flash(f"Venue {made.name} made. Next: its regular nights.")
            return redirect(url_for("console.venue_settings", venue_id=made.id))
        status = 422
    listed = list_venues(session, PageRequest(1, 1000)).items
    context = {
        "venues": listed,
        "region_names": {region.id: region.name for region in regions},
        "league_zone": league_zone,
        "form": form,
        "inputs": form.inputs(request.form if request.method == "POST" else None),
        "token": token,
        "zones": zone_names(),
        "regions": regions,
    }
    return page("console/venues.html", status, **context)
