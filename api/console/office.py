"""The office's own pages in the console: API keys (a host key made and shown once, a key
revoked once confirmed), and possible duplicate players merged, told apart (two people), or
merges undone (R5, R17). The services refuse anyone but the office themselves. The audit log's
page is api/console/audit_log.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import flash, redirect, request, url_for

from api import db
from api.console.base import (
    bp,
    current,
    hidden_id,
    page,
    refused_form,
    signed_in_only,
    token_missing,
    venue_label,
    with_reason,
)
from api.console.forms import KeyForm, MergeForm, NotDuplicateForm, RevokeForm, UndoForm
from api.console.players import duplicate_fixes
from api.words import FORMS, in_words, said_to_people
from models.entities import ApiKey, Player
from models.errors import LeagueError
from models.infra.clock import utcnow
from models.services.access import is_own_key, may_merge_players, may_revoke_keys, may_tell_players_apart
from models.services.api_keys.writes import create_key, get_key, list_keys, revoke_key
from models.services.lookup import get_or_raise
from models.services.paging import PageRequest
from models.services.player_merges.queries import get_merge, list_merges
from models.services.player_merges.writes import merge_players, undo_merge
from models.services.players.distinct import record_distinct
from models.services.players.queries import duplicate_candidates, players_by_id, venues_of_players
from models.services.venues.queries import venues_of_actor


@bp.route("/keys", methods=["GET", "POST"])
@signed_in_only
def keys() -> Any:
    """Every key with its venues by name (never a secret but the new one's, once), a host key made
    for a venue; each key but the one signed in with offered for revoking."""
    session, actor = db.session(), current()
    listed = list_keys(session, actor, PageRequest(1, 500)).items
    form = KeyForm()
    venues = venues_of_actor(session, actor)
    form.venue_id.choices = [(str(v.id), venue_label(v)) for v in venues]
    made, status = None, 200
    if request.method == "POST":
        if not form.validate_on_submit():
            if token_missing(form):
                return refused_form()
            status = 400
        else:
            try:
                venue = hidden_id(form.venue_id.data)
                made = create_key(
                    session, actor, form.name.data.strip(), "host", [] if venue is None else [venue]
                )
            except LeagueError as refusal:
                form.name.errors = said_to_people(refusal, FORMS["key"])
                status = refusal.status
            else:
                listed = list_keys(session, actor, PageRequest(1, 500)).items
                # The page shows the new key's secret, once, with an empty form: its name is
                # not offered again, so a second click makes no second key by mistake.
                form = KeyForm(formdata=None)
                form.venue_id.choices = [(str(v.id), venue_label(v)) for v in venues]
    context = {
        "form": form,
        "keys": listed,
        "made": made,
        "venue_names": {v.id: venue_label(v) for v in venues},
        "own": {key.id for key in listed if is_own_key(actor, key.id)},
    }
    return page("console/keys.html", status, **context)


def key_holder(key: ApiKey, names: dict[int, str]) -> str:
    """Whose a key is, in words: "office", or "host of The Crown and The Anchor"."""
    if not key.venue_ids:
        return in_words(key.role, "role")
    venues = [names.get(venue_id, f"venue {venue_id}") for venue_id in key.venue_ids]
    listed = venues[0] if len(venues) == 1 else ", ".join(venues[:-1]) + " and " + venues[-1]
    return f"{in_words(key.role, 'role')} of {listed}"


@bp.route("/keys/<id:key_id>/revoke", methods=["GET", "POST"])
@signed_in_only
def revoke(key_id: int) -> Any:
    """A key revoked once the office confirms, naming it; never the key signed in with (the
    service refuses it, as the API does)."""
    session, actor = db.session(), current()
    may_revoke_keys(actor)
    key = get_key(session, actor, key_id)
    form = RevokeForm()
    names = {v.id: venue_label(v) for v in venues_of_actor(session, actor)}
    context: dict[str, Any] = {
        "key": key,
        "holder": key_holder(key, names),
        "form": form,
        "own": is_own_key(actor, key.id),
    }
    if request.method == "GET":
        return page("console/revoke_key.html", **context)
    if not form.validate_on_submit():
        return refused_form()
    try:
        revoke_key(session, actor, key)
    except LeagueError as refusal:  # R17a: revoked already (another tab, someone else); or its own
        return page("console/revoke_key.html", refusal.status, refusal=said_to_people(refusal), **context)
    flash(f"Revoked: key {key.id} ({key.name}). It no longer works, in the API or here.")
    return redirect(url_for("console.keys"))


@bp.route("/duplicates")
@signed_in_only
def duplicates() -> Any:
    """R5, R17: players registered in the last 60 days whose names closely match others, each
    pair once with what tells them apart (emails, membership numbers, venues), to merge (the newer
    into the older, or as the office judges) or to tell apart (two people: not offered again),
    and the latest merges, to undo."""
    session = db.session()
    merges = list_merges(session, current(), PageRequest(1, 20)).items
    candidates = duplicate_candidates(session, utcnow() - timedelta(days=60))
    names = players_by_id(session, {m.survivor_id for m in merges} | {m.duplicate_id for m in merges})
    shown = {p.id for player, alike in candidates for p in (player, *alike)}
    return page(
        "console/duplicates.html",
        candidates=candidates,
        venues=venues_of_players(session, shown),
        fixes=duplicate_fixes(candidates),
        merges=merges,
        names=names,
        merge=MergeForm(formdata=None),
        apart=NotDuplicateForm(formdata=None),
        undo=UndoForm(formdata=None),
    )


@bp.route("/players/<id:player_id>/merge", methods=["POST"])
@signed_in_only
def merge(player_id: int) -> Any:
    """R17: the duplicate's results, sanctions and details move to this player; undoable."""
    session, actor = db.session(), current()
    may_merge_players(actor)
    survivor = get_or_raise(session, Player, player_id, "player")
    form = MergeForm()
    missing = "Not merged: give the reason they are the same person (it is kept with the merge)."

    def merged(reason: str) -> str:
        duplicate = hidden_id(form.duplicate_id.data)
        if duplicate is None:
            return missing
        done = merge_players(session, actor, survivor, duplicate, reason)
        into = f"{survivor.display_name} ({survivor.id})"
        return f"Merged: player {done.duplicate_id} into {into}, merge {done.id}."

    return with_reason(form, url_for("console.duplicates"), missing, merged, "Not merged: ")


@bp.route("/players/<id:player_id>/not-duplicate", methods=["POST"])
@signed_in_only
def not_duplicate(player_id: int) -> Any:
    """R5: the two players are different people; the pair is not offered again. Audited."""
    session, actor = db.session(), current()
    may_tell_players_apart(actor)
    player = get_or_raise(session, Player, player_id, "player")
    form = NotDuplicateForm()
    missing = "Not recorded: give the reason they are two people (it is kept with the record)."

    def told_apart(reason: str) -> str:
        other = hidden_id(form.other_id.data)
        if other is None:
            return missing
        done = record_distinct(session, actor, player, other, reason)
        low, high = done.player_ids
        return f"Recorded: players {low} and {high} are two people; they are no longer offered as duplicates."

    return with_reason(form, url_for("console.duplicates"), missing, told_apart, "Not recorded: ")


@bp.route("/merges/<id:merge_id>/undo", methods=["POST"])
@signed_in_only
def undo(merge_id: int) -> Any:
    session, actor = db.session(), current()
    done = get_merge(session, actor, merge_id)

    def undone(reason: str) -> str:
        undo_merge(session, actor, done, reason)
        return f"Undone: merge {done.id}; player {done.duplicate_id} is on their own again."

    missing = "Not undone: give the reason (it is kept with the merge)."
    return with_reason(UndoForm(), url_for("console.duplicates"), missing, undone, "Not undone: ")
