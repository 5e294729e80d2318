"""Players in the console (R19): where the office sees two players of one display name (a
venue's standings, the possible duplicates), one click gives one of them a display name of
their own, suggested from the full names and changed as the API's PATCH changes it (audited).
A player's page offers the office everything held about the player as a download (R21)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from flask import Response, flash, jsonify, redirect, url_for
from marshmallow import ValidationError

from api import db
from api.cache.views import never_cached
from api.console.base import bp, current, hidden_id, refused_form, signed_in_only, token_missing
from api.console.forms import DisplayNameForm
from api.errors import flatten_messages
from api.players.schemas import DataExportOut, PlayerPatch
from api.schemas import patch_of
from models.entities import Player
from models.errors import LeagueError
from models.rules.players import distinct_display_name, numbered_players
from models.services.access import may_rename_player
from models.services.lookup import get_or_raise
from models.services.players.exports import data_export
from models.services.players.queries import distinct_name_suggestions
from models.services.players.writes import update_player

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
        flash(f"Not changed: {' '.join(form.display_name.errors)}")
        return redirect(back)
    before = player.display_name
    try:
        update_player(session, actor, player, PLAYER_PATCH.load({"display_name": form.display_name.data}))
    except ValidationError as invalid:
        flash(f"Not changed: {' '.join(m for ms in flatten_messages(invalid.messages).values() for m in ms)}")
    except LeagueError as refusal:
        flash(f"Not changed: {refusal.detail}")
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
