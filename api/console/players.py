"""Players in the console (R19): where the office sees two players of one display name (a
venue's standings, the possible duplicates), one click gives one of them a display name of
their own, suggested from the full names and changed as the API's PATCH changes it (audited).
The office finds a player by name; the player's page changes their record by the API's own
schema (api/console/api_forms.py), offers everything held about them as a download, and erases
their personal data after a page that names what goes (R21)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from flask import Response, flash, jsonify, redirect, request, url_for
from marshmallow import ValidationError

from api import db
from api.cache.views import never_cached
from api.console.api_forms import ApiForm
from api.console.base import (
    bp,
    current,
    hidden_id,
    page,
    refused_form,
    signed_in_only,
    token_missing,
    venue_label,
)
from api.console.forms import DisplayNameForm, SearchForm, TokenForm
from api.errors import flatten_messages
from api.players.schemas import DataExportOut, EraseIn, PlayerOut, PlayerPatch
from api.schemas import patch_of
from api.words import FORMS, said_to_people, tell
from models.entities import Player
from models.errors import LeagueError
from models.rules.players import distinct_display_name, numbered_players
from models.services.access import may_change_player, may_erase_player, may_rename_player
from models.services.lookup import get_or_raise
from models.services.paging import PageRequest
from models.services.players.erasures import erase_player, is_erased
from models.services.players.exports import data_export
from models.services.players.queries import distinct_name_suggestions, search_players
from models.services.players.writes import update_player
from models.services.venues.queries import venues_of_actor

PLAYER_PATCH = patch_of(PlayerPatch)


class NameFix(NamedTuple):
    player: Player
    form: DisplayNameForm


def name_fixes(players: Iterable[tuple[int, str]]) -> list[NameFix]:
    """For the office: a form for each player of a page's list (id, display name) who shares
    their display name with another player of it, prefilled with a name that tells them apart
    (empty where only the whole surname would). Nobody else gets any (R19)."""
    return [
        NameFix(player, DisplayNameForm(formdata=None, display_name=suggestion or ""))
        for player, suggestion in distinct_name_suggestions(db.session(), current(), players)
    ]


def duplicate_fixes(candidates: Iterable[tuple[Player, list[Player]]]) -> dict[int, NameFix]:
    """For the office's possible duplicates (R5): each new player whose display name one of
    their look-alikes shares, with a form prefilled with a name that tells them apart, for when
    the office finds they are two people, not one to merge (R19)."""
    fixes = {}
    for player, alike in candidates:
        numbered = numbered_players(
            [(player.id, player.display_name), *((o.id, o.display_name) for o in alike)]
        )
        sharing = [other for other in alike if other.id in numbered]
        if player.id in numbered:
            taken = [player.display_name, *(other.display_name for other in sharing)]
            suggestion = distinct_display_name(player.full_name, [o.full_name for o in sharing], taken)
            fixes[player.id] = NameFix(player, DisplayNameForm(formdata=None, display_name=suggestion or ""))
    return fixes


@bp.route("/players/<id:player_id>/display-name", methods=["POST"])
@signed_in_only
def display_name(player_id: int) -> Any:
    """R19: the office sets a player's display name (the API's PATCH, audited), then goes back
    to the venue's standings it came from, else to the possible duplicates."""
    session, actor = db.session(), current()
    may_rename_player(actor)
    player = get_or_raise(session, Player, player_id, "player")
    form = DisplayNameForm()
    venue_id = hidden_id(form.venue_id.data)
    back = url_for("console.standings", venue_id=venue_id) if venue_id else url_for("console.duplicates")
    if not form.validate_on_submit():
        if token_missing(form):
            return refused_form()
        tell(
            said_to_people({"display_name": list(form.display_name.errors)}),
            "Not changed: ",
        )
        return redirect(back)
    before = player.display_name
    try:
        update_player(session, actor, player, PLAYER_PATCH.load({"display_name": form.display_name.data}))
    except ValidationError as invalid:
        tell(said_to_people(flatten_messages(invalid.messages)), "Not changed: ")
    except LeagueError as refusal:
        tell(said_to_people(refusal), "Not changed: ")
    else:
        flash(f"Player {player.id} is now shown as {player.display_name} (was {before}).")
    return redirect(back)


@bp.route("/players/<id:player_id>/data-export")
@never_cached
@signed_in_only
def data_export_download(player_id: int) -> Response:
    """R21: the player's data export (the API's, audited alike) as a file to save (the office)."""
    session, actor = db.session(), current()
    document = data_export(session, actor, player_id)
    response = jsonify(DataExportOut().dump(document))
    response.headers["Cache-Control"] = "no-store"
    response.headers["Content-Disposition"] = f'attachment; filename="player-{player_id}-data.json"'
    return response


@bp.route("/players")
@signed_in_only
def players() -> Any:
    """The office finds a player by part of a name, to open their page."""
    session, actor = db.session(), current()
    may_change_player(actor)
    search = SearchForm(request.args)
    found = search_players(session, actor, PageRequest(1, 30), search.q.data) if search.q.data else None
    return page("console/players.html", search=search, found=found)


@bp.route("/players/<id:player_id>", methods=["GET", "POST"])
@signed_in_only
def player(player_id: int) -> Any:
    """A player's record (the office), changed as the API's PATCH changes it (audited): only the
    fields changed are sent; one emptied is sent as null, refused beside it where none is taken."""
    session, actor = db.session(), current()
    may_change_player(actor)
    record = get_or_raise(session, Player, player_id, "player")
    token = TokenForm()
    venues = [(str(v.id), venue_label(v)) for v in venues_of_actor(session, actor)]
    form = ApiForm(
        PLAYER_PATCH,
        FORMS["player"],
        values=PlayerOut().dump(record),
        choices={"home_venue_id": venues},
        changes_only=True,
    )
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        if form.submit(request.form, lambda changes: update_player(session, actor, record, changes)):
            flash(f"Player {record.id}'s record is saved.")
            return redirect(url_for("console.player", player_id=record.id))
        status = form.status
    inputs = form.inputs(request.form if request.method == "POST" else None)
    erased = is_erased(session, record.id)
    context = {"player": record, "form": form, "inputs": inputs, "token": token, "erased": erased}
    return page("console/player.html", status, **context)


@bp.route("/players/<id:player_id>/erase", methods=["GET", "POST"])
@signed_in_only
def erase(player_id: int) -> Any:
    """R21: what erasing the player's personal data removes and what stays, then the erasure
    (the API's, audited without the erased values), with a reason; it cannot be undone."""
    session, actor = db.session(), current()
    may_erase_player(actor)
    record = get_or_raise(session, Player, player_id, "player")
    token = TokenForm()
    form = ApiForm(EraseIn(), FORMS["erase"])
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        done = form.submit(
            request.form,
            lambda data: erase_player(session, actor, record.id, data["reason"], data.get("display_name")),
        )
        if done is not None:
            ids = ", ".join(str(n) for n in done.erased_ids)
            flash(f"Erased: the personal data of player {ids}, now shown as {done.display_name}.")
            return redirect(url_for("console.player", player_id=done.player_id))
        status = form.status
    inputs = form.inputs(request.form if request.method == "POST" else None)
    context = {"player": record, "form": form, "inputs": inputs, "token": token}
    return page("console/erase.html", status, **context)
