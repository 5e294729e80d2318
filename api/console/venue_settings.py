"""One venue's settings in the console (R2, R2a, R22): its details and its re-entry (the
office's), its regular nights and the nights cancelled, moved or added (its hosts' too). Each
section is its own form of the API's schema, handed to the API's service
(api/console/api_forms.py); a night changed is taken back after the page names it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import flash, redirect, request, url_for
from sqlalchemy.orm import Session

from api import db
from api.console.api_forms import ApiForm
from api.console.base import (
    bp,
    current,
    hidden_id,
    hosted_venue,
    page,
    refused_form,
    signed_in_only,
    zone_names,
)
from api.console.forms import TokenForm
from api.console.venues import WEEKDAY_CHOICES, regular_games, venue_choices
from api.people_dates import people_date, people_hour
from api.schemas import patch_of
from api.venues.schemas import ExceptionIn, ReEntryIn, ScheduleIn, VenueOut, VenuePatch
from api.words import FORMS, venue_labels
from models.actor import Actor
from models.entities import ScheduleException, Venue
from models.errors import NotFound
from models.rules.nights import said_re_entry
from models.rules.schedules import ExceptionKind
from models.services import wall_clock
from models.services.access import may_set_schedule, may_set_up_league, sets_up_league
from models.services.paging import PageRequest
from models.services.regions.queries import list_regions
from models.services.venues.schedules import add_exception, delete_exception, list_exceptions, set_schedule
from models.services.venues.writes import update_venue

KIND_CHOICES = [
    (ExceptionKind.CANCELLED.value, "Cancelled: no game that night"),
    (ExceptionKind.MOVED.value, "Moved to another date"),
    (ExceptionKind.ADDED.value, "A make-up night (an extra night)"),
]
# Where each section's form posts: the page, at the section (shown there again when refused).
ANCHORS = {"details": "details", "re_entry": "re-entry", "nights": "nights", "change": "changes"}


def said_change(change: ScheduleException) -> str:
    """A night changed, as the page names it: "the cancellation of Tue 8 Dec"."""
    if change.kind == ExceptionKind.MOVED:
        return f"the move of {people_date(change.date)} to {people_date(change.to_date)}"
    if change.kind == ExceptionKind.ADDED:
        return f"the make-up night of {people_date(change.date)} at {people_hour(change.starts_at)}"
    return f"the cancellation of {people_date(change.date)}"


@dataclass
class Sections:
    """The page's forms: the venue's details and its re-entry (the office's), its regular nights,
    and a night changed."""

    details: ApiForm
    re_entry: ApiForm
    nights: ApiForm
    change: ApiForm


def sections_of(session: Session, venue: Venue, league_zone: str) -> Sections:
    answered = VenueOut().dump(venue)  # the form shows the venue as the API answers it
    regions = list_regions(session, PageRequest(1, 500)).items
    details = ApiForm(
        patch_of(VenuePatch),
        venue_labels(league_zone),
        values=answered,
        choices=venue_choices(session, regions),
        changes_only=True,
    )
    nights = ApiForm(
        ScheduleIn(),
        FORMS["venue_nights"],
        values={"schedule": answered["schedule"]},
        choices={"schedule.weekday": WEEKDAY_CHOICES},
    )
    change = ApiForm(ExceptionIn(), FORMS["night_change"], choices={"kind": KIND_CHOICES})
    re_entry = ApiForm(ReEntryIn(), FORMS["re_entry"], values=answered["re_entry"])
    return Sections(details, re_entry, nights, change)


Saving = Callable[[Session, Actor, Venue, Sections], str | None]


def save_details(session: Session, actor: Actor, venue: Venue, forms: Sections) -> str | None:
    """The venue's name, region, city, zone and whether it plays: the office's (the API's PATCH)."""
    may_set_up_league(actor)
    saved = forms.details.submit(request.form, lambda changes: update_venue(session, actor, venue, changes))
    return None if saved is None else f"{venue.name}: the details are saved."


def save_re_entry(session: Session, actor: Actor, venue: Venue, forms: Sections) -> str | None:
    """R22 (002): whether its nights allow re-entry, and until which break: the office's (the API's
    PATCH of `re_entry`); a night already open keeps what it was opened with."""
    may_set_up_league(actor)
    saved = forms.re_entry.submit(
        request.form, lambda data: update_venue(session, actor, venue, {"re_entry": data})
    )
    return None if saved is None else f"{venue.name}: {said_re_entry(venue.re_entry)}."


def save_nights(session: Session, actor: Actor, venue: Venue, forms: Sections) -> str | None:
    """R2: the regular nights, whole (the API's PUT of the schedule)."""
    saved = forms.nights.submit(
        request.form, lambda data: set_schedule(session, actor, venue, data["schedule"])
    )
    if saved is None:
        return None
    return f"{venue.name}: regular nights saved ({regular_games(saved) or 'none'})."


def save_change(session: Session, actor: Actor, venue: Venue, forms: Sections) -> str | None:
    """R2: a night cancelled, moved or added."""
    made = forms.change.submit(request.form, lambda data: add_exception(session, actor, venue, data))
    return None if made is None else f"Added: {said_change(made)}."


SAVERS: dict[str, Saving] = {
    "details": save_details,
    "re_entry": save_re_entry,
    "nights": save_nights,
    "change": save_change,
}


def take_back(session: Session, actor: Actor, venue: Venue) -> Any:
    """A night changed, taken back once the page named it (the API's DELETE)."""
    wanted = hidden_id(request.form.get("exception_id"))
    if wanted is None:
        return refused_form()
    found = {row.id: row for row in list_exceptions(session, actor, venue)}.get(wanted)
    said = said_change(found) if found is not None else ""
    try:
        delete_exception(session, actor, venue, wanted)
    except NotFound:
        flash("Nothing taken back: that change is no longer on the schedule.")
    else:
        flash(f"Taken back: {said}.")
    return redirect(url_for("console.venue_settings", venue_id=venue.id))


@bp.route("/venues/<id:venue_id>/settings", methods=["GET", "POST"])
@signed_in_only
def venue_settings(venue_id: int) -> Any:
    """R2, R2a: a venue's details (the office's), regular nights and changed nights (its hosts'
    too), each section its own form; a refusal is shown beside its field, nothing saved."""
    session, actor = db.session(), current()
    venue = hosted_venue(venue_id, may_set_schedule)
    league_zone = wall_clock.league_zone(session)
    forms = sections_of(session, venue, league_zone)
    token, status, posted = TokenForm(), 200, ""
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        action = request.form.get("action", "")
        if action == "take_back":
            return take_back(session, actor, venue)
        if action not in SAVERS:
            return refused_form()
        said = SAVERS[action](session, actor, venue, forms)
        if said is not None:
            flash(said)
            return redirect(url_for("console.venue_settings", venue_id=venue.id))
        status, posted = 422, action
    changes = list_exceptions(session, actor, venue)
    asked = hidden_id(request.args.get("take_back"))  # the confirmation step of a take-back
    confirming = next((row for row in changes if row.id == asked), None)

    def inputs(name: str) -> Any:
        form: ApiForm = getattr(forms, name)
        return form.inputs(request.form if posted == name else None)

    context = {
        "venue": venue,
        "region": venue.region,
        "zone": venue.timezone or league_zone,
        "own_zone": venue.timezone is not None,
        "office": sets_up_league(actor),
        "sections": forms,
        "inputs": {name: inputs(name) for name in ANCHORS},
        "anchors": ANCHORS,
        "changes": changes,
        "re_entry_said": said_re_entry(venue.re_entry),
        "confirming": confirming,
        "said_change": said_change,
        "token": token,
        "zones": zone_names(),
    }
    return page("console/venue_settings.html", status, **context)
