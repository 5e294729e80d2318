"""A season's disqualifications in the console (R13): the list, withdrawn ones too; a player
disqualified, chosen from the season's players or found by name, by the API's schema and service
(api/console/api_forms.py); a disqualification withdrawn with a reason, after a page naming the
player. A disqualified player is skipped in every qualifier list of the season; results stand."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for
from sqlalchemy.orm import Session

from api import db
from api.console.api_forms import ApiForm, Choices
from api.console.base import bp, current, page, refused_form, signed_in_only
from api.console.forms import SearchForm, TokenForm
from api.qualifiers.schemas import DisqualificationIn, WithdrawIn
from api.words import FORMS
from models.actor import Actor
from models.entities import Season
from models.rules.players import player_labels
from models.services import wall_clock
from models.services.access import may_disqualify, may_withdraw_disqualification
from models.services.lookup import get_or_raise
from models.services.paging import PageRequest
from models.services.players.queries import players_by_id, search_players
from models.services.qualifiers.queries import disqualifications_of, get_disqualification
from models.services.qualifiers.writes import disqualify, withdraw_disqualification
from models.services.standings.queries import season_standings


@bp.route("/seasons/<id:season_id>/disqualifications", methods=["GET", "POST"])
@signed_in_only
def disqualifications(season_id: int) -> Any:
    """R13: the season's disqualifications, oldest first, and a player disqualified."""
    session, actor = db.session(), current()
    may_disqualify(actor)
    season = get_or_raise(session, Season, season_id, "season")
    search = SearchForm(request.args)
    token = TokenForm()
    choices = player_choices(session, actor, season, (search.q.data or "").strip())
    form = ApiForm(DisqualificationIn(), FORMS["disqualification"], choices={"player_id": choices})
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        made = form.submit(
            request.form, lambda data: disqualify(session, actor, season, data["player_id"], data["reason"])
        )
        if made is not None:
            flash(
                f"Disqualified: {made.player.display_name} (player {made.player_id}) for {season.name}. "
                "Their results stand; they are skipped in every qualifier list of the season."
            )
            return redirect(url_for("console.disqualifications", season_id=season.id))
        status = form.status
    listed = disqualifications_of(session, season, PageRequest(1, 1000)).items
    labels = player_labels((item.player_id, item.player.display_name) for item in listed)
    inputs = form.inputs(request.form if request.method == "POST" else None)
    context = {"form": form, "inputs": inputs, "token": token, "search": search, "choices": choices}
    context |= {"season": season, "listed": listed, "labels": labels}
    return page("console/disqualifications.html", status, **context)


def player_choices(session: Session, actor: Actor, season: Season, text: str) -> Choices:
    """The players offered: those whose names match `text` (the office's search), else every
    player with a result in the season; by name, each with their number and full name (R19: the
    office sees it), so two of one name are told apart."""
    if text:
        found = search_players(session, actor, PageRequest(1, 50), text).items
        return [(str(p["id"]), _label(p["display_name"], p["id"], p.get("full_name"))) for p in found]
    as_of = max(season.ends_on, wall_clock.in_league(session))
    names = {
        row.player_id: row.display_name
        for table in season_standings(session, season, as_of).values()
        for row in table.rows
    }
    players = players_by_id(session, names)
    ordered = sorted(names.items(), key=lambda item: (item[1].casefold(), item[0]))
    return [(str(i), _label(name, i, players[i].full_name if i in players else None)) for i, name in ordered]


def _label(display_name: str, player_id: int, full_name: str | None) -> str:
    named = f" ({full_name})" if full_name and full_name != display_name else ""
    return f"{display_name}{named}, player {player_id}"


@bp.route(
    "/seasons/<id:season_id>/disqualifications/<id:disqualification_id>/withdraw", methods=["GET", "POST"]
)
@signed_in_only
def withdraw(season_id: int, disqualification_id: int) -> Any:
    """R13, R17a: a page naming the player whose disqualification is withdrawn, with the reason
    asked; once withdrawn, the player may qualify again and the record stays."""
    session, actor = db.session(), current()
    may_withdraw_disqualification(actor)
    season = get_or_raise(session, Season, season_id, "season")
    item = get_disqualification(session, season.id, disqualification_id)
    token, form = TokenForm(), ApiForm(WithdrawIn(), FORMS["withdraw"])
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        done = form.submit(
            request.form, lambda data: withdraw_disqualification(session, actor, item, data["reason"])
        )
        if done is not None:
            flash(f"Withdrawn: the disqualification of {item.player.display_name}. They may qualify again.")
            return redirect(url_for("console.disqualifications", season_id=season.id))
        status = form.status
    inputs = form.inputs(request.form if request.method == "POST" else None)
    context = {"form": form, "inputs": inputs, "token": token}
    return page("console/withdraw.html", status, season=season, item=item, **context)
