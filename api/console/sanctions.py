"""Sanctions in the console (R15, R16): the office finds a player, issues a sanction with the
API's checks beside the fields, lifts one with a reason; a venue's hosts print the door list."""

from __future__ import annotations

from typing import Any, NamedTuple

from flask import flash, redirect, request, url_for
from marshmallow import ValidationError

from api import db
from api.console.base import (
    bp,
    current,
    hidden_id,
    hosted_venue,
    page,
    refused_form,
    signed_in_only,
    token_missing,
    venue_label,
    with_reason,
)
from api.console.forms import LiftForm, SanctionForm, SearchForm
from api.errors import flatten_messages
from api.sanctions.schemas import SanctionIn
from api.words import FORMS, Told, in_words, sentence, told
from models.entities import Player, Venue
from models.errors import LeagueError
from models.rules.personal import former_player_name
from models.rules.players import player_labels
from models.rules.sanctions import DoorGroup
from models.services import wall_clock
from models.services.access import may_manage_sanctions, may_read_door_list
from models.services.lookup import get_or_raise
from models.services.paging import PageRequest
from models.services.players.queries import search_players
from models.services.players.survivors import final_survivor
from models.services.ratings.queries import player_rating
from models.services.sanctions.queries import (
    BarredPlayer,
    SanctionFilters,
    door_list,
    get_sanction,
    list_sanctions,
)
from models.services.sanctions.writes import issue_sanction, lift_sanction
from models.services.venues.queries import venues_of_actor

SANCTION_IN = SanctionIn()


@bp.route("/sanctions")
@signed_in_only
def sanctions() -> Any:
    """Find a player to sanction (by name), and the sanctions issued lately."""
    session, actor = db.session(), current()
    may_manage_sanctions(actor)
    search = SearchForm(request.args)
    found = search_players(session, actor, PageRequest(1, 20), search.q.data) if search.q.data else None
    recent = list_sanctions(session, actor, SanctionFilters(), PageRequest(1, 30))
    # R19: as the API's list labels them: numbered where two players of the list share a name.
    labels = player_labels((s.player_id, s.player.display_name) for s in recent.items)
    return page("console/sanctions.html", search=search, found=found, recent=recent.items, labels=labels)


@bp.route("/players/<id:player_id>/sanctions", methods=["GET", "POST"])
@signed_in_only
def player_sanctions(player_id: int) -> Any:
    """R15: a player's sanctions, to lift one; and a new one, checked as the API checks it."""
    session, actor = db.session(), current()
    may_manage_sanctions(actor)
    player = get_or_raise(session, Player, player_id, "player")
    form = SanctionForm()
    venues = venues_of_actor(session, actor)
    form.venue_id.choices = [("", "—")] + [(str(v.id), venue_label(v)) for v in venues]
    refused = Told()
    status = 200
    fields = [item.name for item in form if item.name != "csrf_token"]
    if request.method == "POST":
        if not form.validate_on_submit():
            if token_missing(form):
                return refused_form()
            refused = told(dict(form.errors), FORMS["sanction"], fields=fields)
            status = 400
        else:
            try:
                issued, notices = issue_sanction(
                    session, actor, SANCTION_IN.load(_sanction_body(player, form))
                )
            except ValidationError as invalid:
                refused, status = (
                    told(flatten_messages(invalid.messages), FORMS["sanction"], fields=fields),
                    422,
                )
            except LeagueError as refusal:
                refused, status = told(refusal, FORMS["sanction"], fields=fields), refusal.status
            else:
                kind = in_words(issued.kind, "sanction_kind")
                flash(sentence(f"Issued: sanction {issued.id}, a {kind} of {player.display_name}"))
                for notice in notices:  # R16: the stored results inside it, which stand
                    flash(notice.message)
                return redirect(url_for("console.player_sanctions", player_id=player.id))
    listed = list_sanctions(session, actor, SanctionFilters(player_id=player.id), PageRequest(1, 100)).items
    return page(
        "console/player_sanctions.html",
        status,
        player=player,
        rating=player_rating(session, final_survivor(session, player)),  # R20
        form=form,
        refused=refused,
        sanctions=listed,
        lift=LiftForm(formdata=None),
    )


def _sanction_body(player: Player, form: SanctionForm) -> dict[str, Any]:
    """The form as the API's body: what was left empty is left out."""
    raw = {
        "player_id": player.id,
        "kind": form.kind.data,
        "category": form.category.data,
        "venue_id": hidden_id(form.venue_id.data),
        "first_day": form.first_day.data.isoformat() if form.first_day.data else None,
        "last_day": form.last_day.data.isoformat() if form.last_day.data else None,
        "reason": form.reason.data or "",
    }
    return {name: value for name, value in raw.items() if value is not None}


@bp.route("/sanctions/<id:sanction_id>/lift", methods=["POST"])
@signed_in_only
def lift(sanction_id: int) -> Any:
    """R15: end a sanction early, with the reason kept."""
    session, actor = db.session(), current()
    may_manage_sanctions(actor)
    sanction = get_sanction(session, actor, sanction_id)

    def lifted(reason: str) -> str:
        lift_sanction(session, actor, sanction, reason)
        return f"Lifted: sanction {sanction.id}."

    back = url_for("console.player_sanctions", player_id=sanction.player_id)
    missing = "Give the reason the sanction ends early: it is kept with the record."
    return with_reason(LiftForm(), back, missing, lifted, "")


class DoorSection(NamedTuple):
    group: str
    title: str
    lines: list[BarredPlayer]


def door_sections(venue: Venue, barred: list[BarredPlayer]) -> list[DoorSection]:
    """R16: the door list's three groups, in their order, each with its heading."""
    titles = {
        DoorGroup.VENUE: "Played here",
        DoorGroup.REGION: f"Played elsewhere in {venue.region.name}",
        DoorGroup.LEAGUE: "The rest of the league",
    }
    return [
        DoorSection(group, title, [line for line in barred if line.group == group])
        for group, title in titles.items()
    ]


@bp.route("/venues/<id:venue_id>/door-list")
@signed_in_only
def door(venue_id: int) -> Any:
    """R16: who may not play at the venue tonight, and why, by full name (R19: so the door can
    recognise them), display name and number, in three groups: printable on one sheet."""
    venue = hosted_venue(venue_id, may_read_door_list)
    session = db.session()
    tonight = wall_clock.at_venue(session, venue)  # R2a: the venue's night, whatever UTC says
    barred = door_list(session, current(), venue.id, tonight)
    return page(
        "console/door_list.html",
        venue=venue,
        day=tonight,
        barred=barred,
        sections=door_sections(venue, barred),
        erased_name=former_player_name,  # R21: the name that says the number already
    )
