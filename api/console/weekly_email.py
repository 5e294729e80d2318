"""The weekly email in the console (R23), phone-first: at the door a host finds a player by name
and records that they asked for the weekly email, with one button; the office sees and changes it
on the same page. The same services as the API's consent (`PUT` and `DELETE
/api/v1/players/{id}/email-consent`): the office, or a host of a venue where the player plays,
audited without the address."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for
from flask_wtf import FlaskForm
from wtforms import HiddenField
from wtforms.validators import AnyOf

from api import db
from api.console.base import bp, current, page, refused_form, signed_in_only
from api.console.forms import SearchForm
from api.words import said_to_people, tell
from models.entities import Player
from models.errors import LeagueError
from models.services.emails.consents import consent_of, give_consent, withdraw_consent
from models.services.lookup import get_or_raise
from models.services.paging import PageRequest
from models.services.players.queries import search_players


class WeeklyEmailForm(FlaskForm):
    """One button: `yes` records the consent, `no` withdraws it."""

    wants = HiddenField(validators=[AnyOf(["yes", "no"])])


@bp.route("/weekly-email")
@signed_in_only
def weekly_email_search() -> Any:
    """A host (or the office) finds the player by part of a name, to open their weekly email page."""
    session, actor = db.session(), current()
    search = SearchForm(request.args)
    found = search_players(session, actor, PageRequest(1, 30), search.q.data) if search.q.data else None
    return page("console/weekly_email_search.html", search=search, found=found)


@bp.route("/players/<id:player_id>/weekly-email", methods=["GET", "POST"])
@signed_in_only
def weekly_email(player_id: int) -> Any:
    """Whether the player gets the weekly email, and the one button that changes it."""
    session, actor = db.session(), current()
    player = get_or_raise(session, Player, player_id, "player")
    state = consent_of(session, actor, player.id)  # the office, or a host of the player's venues
    form = WeeklyEmailForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            return refused_form()
        try:
            if form.wants.data == "yes":
                give_consent(session, actor, player.id)
                flash(f"Recorded: {player.display_name} gets the weekly email, from the next one.")
            else:
                withdraw_consent(session, actor, player.id)
                flash(f"Stopped: {player.display_name} gets no more weekly emails.")
        except LeagueError as refusal:
            tell(said_to_people(refusal), "Not recorded: ")
        return redirect(url_for("console.weekly_email", player_id=player.id))
    return page("console/weekly_email.html", player=player, state=state, form=form)
