"""The night as it happens, in the console (R22), phone-first: open tonight's game, then one page
runs it: the clock, sign-in at the door, the seat draw, the tables, bust-outs (several on one
hand with their chips), withdrawals, re-entries, the undo and the early end. Every button posts
one of the API's night actions (`ActionIn`, loaded by the API's schema) to the same service.

Each form carries an action id made when the page was drawn and the night's sequence it shows:
a post sent twice (a phone on pub Wi-Fi) is applied once, and a post made on an older page
(another phone moved the night) is refused with the night as it stands. The page's script
sends the forms in the background, keeps what could not be sent while offline (shown as
waiting), and sends it when the phone is back; without it the forms work as plain posts."""

from __future__ import annotations

import uuid
from datetime import UTC
from typing import Any

from flask import flash, redirect, request, url_for
from marshmallow import ValidationError
from werkzeug.datastructures import MultiDict

from api import db
from api.console.base import bp, current, hosted_venue, page, refused_form, signed_in_only
from api.console.forms import TokenForm
from api.console.night_script import NIGHT_SCRIPT
from api.errors import flatten_messages
from api.nights.schemas import ActionIn
from api.words import FORMS, said_to_people
from models.entities import Night
from models.errors import LeagueError, NotFound
from models.infra.clock import utcnow
from models.rules.structures import said_left, said_period
from models.services.access import may_run_night
from models.services.lookup import get_or_raise, league_settings
from models.services.nights.actions import apply_action
from models.services.nights.opening import open_night
from models.services.nights.queries import night_view, seen_lately, venue_night
from models.services.nights.runs import NightMoved
from models.services.players.queries import players_by_id
from models.services.structures.writes import list_structures

ACTION = ActionIn()
# What the host reads after each kind of action.
DONE = {
    "sign_in": "Signed in",
    "seat": "Seats drawn",
    "bust": "Out",
    "withdraw": "Withdrawn",
    "absent": "Marked absent",
    "no_show": "Marked a no-show",
    "re_enter": "Re-entered",
    "undo": "Undone",
    "clock": "Clock",
    "end_early": "Ended by chip counts",
    "report": "Report posted again",
}


@bp.route("/venues/<id:venue_id>/night", methods=["GET", "POST"])
@signed_in_only
def venue_night_page(venue_id: int) -> Any:
    """Tonight's game at the venue: its page when open, else a form that opens it (R22)."""
    session = db.session()
    venue = hosted_venue(venue_id, may_run_night)
    token = TokenForm()
    problems: dict[str, list[str]] = {}
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        try:
            chosen = request.form.get("structure_id") or None
            number = request.form.get("session") or None
            night = open_night(
                session,
                current(),
                venue.id,
                int(number) if number and number.isdigit() else None,
                int(chosen) if chosen and chosen.isdigit() else None,
            )
        except LeagueError as refused:
            problems = refused.errors or {"body": [refused.detail]}
        else:
            return redirect(url_for("console.night_page", night_id=night.id))
    else:
        try:
            night = venue_night(session, venue.id)
        except NotFound:
            night = None
        if night is not None and night.state == "open":
            return redirect(url_for("console.night_page", night_id=night.id))
    structures = list_structures(session)
    status = 422 if problems else 200
    return page(
        "console/night_open.html", status, venue=venue, token=token, problems=problems, structures=structures
    )


def _body(posted: MultiDict[str, str]) -> dict[str, Any]:
    """A form's post as the API's action body (before the API's schema loads it)."""
    kind = posted.get("type", "")
    body: dict[str, Any] = {
        "action_id": posted.get("action_id", ""),
        "sequence": _number(posted.get("sequence")),
        "type": kind,
    }
    if kind == "sign_in":
        body["player"] = _player(posted)
        if posted.get("late"):
            body["late"] = True
        if posted.get("override_reason", "").strip():
            body["override_reason"] = posted["override_reason"].strip()
    elif kind == "bust":
        body["players"] = [_out_row(posted, pid) for pid in posted.getlist("player_id")]
    elif kind in ("withdraw", "absent", "no_show", "re_enter"):
        body["player_id"] = _number(posted.get("player_id"))
    elif kind == "undo" and posted.get("player_id", "").strip():
        body["player_id"] = _number(posted.get("player_id"))  # one player of the hand back
    elif kind == "clock":
        body["clock"] = posted.get("clock", "")
        if body["clock"] == "adjust":
            body["adjust_minutes"] = _number(posted.get("adjust_minutes"))
    elif kind == "end_early":
        body["chips"] = [
            {"player_id": _number(key.removeprefix("chips_")), "chips": _number(value)}
            for key, value in posted.items()
            if key.startswith("chips_")
        ]
    elif kind == "report" and posted.get("override_reason", "").strip():
        body["override_reason"] = posted["override_reason"].strip()
    return body


def _out_row(posted: MultiDict[str, str], pid: str) -> dict[str, Any]:
    """One player out: their chips before the hand (several on one hand) and who knocked them
    out (R8a), as the form's fields of their row say."""
    row: dict[str, Any] = {"player_id": _number(pid)}
    chips = posted.get(f"chips_{pid}", "").strip()
    if chips:
        row["chips"] = _number(chips)
    knocker = posted.get(f"knocked_out_by_{pid}", "").strip()
    if knocker:
        row["knocked_out_by"] = _number(knocker)
    return row


def _number(text: str | None) -> Any:
    """A typed whole number (with its sign: minutes taken off the clock), else the text as sent,
    for the API's schema to refuse by its field."""
    text = (text or "").strip().replace("\u2212", "-")
    digits = text.removeprefix("-").removeprefix("+")
    return int(text) if digits.isdigit() and len(digits) <= 12 else text


def _player(posted: MultiDict[str, str]) -> dict[str, Any]:
    """Who signs in: a player chosen from the list (#id), a membership number, an email, a
    name the venue knows, or a new player (full name and email)."""
    chosen = posted.get("player", "").strip()
    email = posted.get("email", "").strip()
    if chosen.endswith(")") and "(#" in chosen:
        number = chosen.rsplit("(#", 1)[1].rstrip(")")
        if number.isdigit():
            return {"player_id": int(number)}
    if chosen.isdigit() and len(chosen) == 12:
        return {"membership_number": chosen}
    if "@" in chosen:
        return {"email": chosen}
    if chosen and email:
        return {"new_player": {"full_name": chosen, "email": email}}
    return {"full_name": chosen} if chosen else {}


@bp.route("/nights/<id:night_id>", methods=["GET", "POST"])
@signed_in_only
def night_page(night_id: int) -> Any:
    """The night (R22): a post is one action; the page after it says what it did (who moves
    where, after a bust-out), or why it was refused, beside the form."""
    session, actor = db.session(), current()
    night = get_or_raise(session, Night, night_id, "night")
    may_run_night(actor, night.venue_id)
    token = TokenForm()
    problems: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        if not token.validate_on_submit():
            return refused_form()
        body = _body(request.form)
        labels = {seat.player_id: seat.label for seat in night_view(session, night.id).players}
        try:
            applied = apply_action(session, actor, night.id, ACTION.load(body))
        except ValidationError as wrong:
            # Said for a person (api/words): each field by its label, each player by name, once.
            said = said_to_people(flatten_messages(wrong.messages), FORMS["night"], labels)
            problems, status = {"body": list(said)}, 422
        except NightMoved:
            problems = {
                "body": [
                    "Another phone changed the night since this page was drawn: here it is now. "
                    "Do it again if it is still needed."
                ]
            }
            status = 409
        except LeagueError as refused:
            said = said_to_people(refused, FORMS["night"], labels)
            problems, status = {"body": list(said)}, refused.status
        else:
            flash(_said(session, applied.action, applied.replayed))
            return redirect(url_for("console.night_page", night_id=night.id))
        session.rollback()
    view = night_view(session, night.id)
    known = _known_players(session, view)
    context = {
        "view": view,
        "token": token,
        "problems": problems,
        "failed": request.form.get("type") if problems else None,
        "action_id": uuid.uuid4().hex,
        "known": known,
        "now_ms": int(utcnow().replace(tzinfo=UTC).timestamp() * 1000),
        "script": NIGHT_SCRIPT,
        "still_in": [seat for seat in view.players if seat.status == "playing"],
        "labels": {seat.player_id: seat.label for seat in view.players},
        "said_period": said_period,
        "said_left": said_left,
        "said_names": said_names,
        "site_on": league_settings(session).site_enabled,
    }
    return page("console/night.html", status, **context)


def _said(session: Any, action: Any, replayed: bool) -> str:
    """What the action did, in the host's words (moves named, so the host can announce them)."""
    if replayed:
        return "Already done: that was sent twice, and counted once."
    kind, effect = action.kind, action.effect
    names = _names(session, effect)
    if kind == "clock":
        said = _clock_said(action.body, effect)
    elif kind == "undo":
        said = _undo_said(effect["undone"], names)
    else:
        said = DONE.get(kind, kind)
    moves = effect.get("moves") or []
    if moves:
        said += ". Move: " + "; ".join(
            f"{names.get(m['player_id'], m['player_id'])} from table {m['from'][0]} seat {m['from'][1]} "
            f"to table {m['to'][0]} seat {m['to'][1]}"
            for m in moves
        )
    return said + "."


def _names(session: Any, effect: dict[str, Any]) -> dict[int, str]:
    """The display names of the players an action's effect names (moved, brought back)."""
    undone = effect.get("undone") or {}
    wanted = {m["player_id"] for m in effect.get("moves") or []}
    wanted |= set(undone.get("players", [])) | set(undone.get("staying_out", []))
    if not wanted:
        return {}
    return {pid: player.display_name for pid, player in players_by_id(session, wanted).items()}


def said_names(names: list[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _undo_said(undone: dict[str, Any], names: dict[int, str]) -> str:
    """R22: who came back (or left again), as the confirmation named them."""
    back = [names.get(pid, f"Player {pid}") for pid in undone.get("players", [])]
    who = said_names(back) if back else "nobody"
    if undone["type"] == "sign_in":
        return f"Undone: {who}'s sign-in; {who} has left the night"
    if undone["type"] == "re_enter":
        return f"Undone: {who}'s re-entry; {who} is out again"
    said = f"Undone: {who} {'comes' if len(back) == 1 else 'come'} back in"
    staying = [names.get(pid, f"Player {pid}") for pid in undone.get("staying_out", [])]
    if staying:
        said += f"; {said_names(staying)} {'stays' if len(staying) == 1 else 'stay'} out"
    return said


def _clock_said(body: dict[str, Any], effect: dict[str, Any]) -> str:
    """R22: where the clock stands after the host moved it."""
    what = body.get("clock")
    if what in ("start", "pause", "resume"):
        return {"start": "Clock started", "pause": "Clock paused", "resume": "Clock running again"}[what]
    after = effect["after"]
    left = "" if after["seconds_left"] is None else f", {said_left(after['seconds_left'])} left"
    if what == "skip":
        return f"Clock moved on to {after['period']}{left}"
    if what == "back":
        return f"Clock moved back to {after['period']}{left}"
    minutes = int(body.get("adjust_minutes") or 0)
    count = f"{abs(minutes)} minute{'s' if abs(minutes) != 1 else ''}"
    done = f"{count} added to" if minutes > 0 else f"{count} taken off"
    return f"Clock: {done} {effect['before']['period']}{left}"


def _known_players(session: Any, view: Any) -> list[tuple[int, str]]:
    """The venue's players seen there lately, for the sign-in's list (not those in tonight)."""
    tonight = {seat.player_id for seat in view.players}
    return [
        (pid, f"{name} (#{pid})") for pid, name in seen_lately(session, view.venue.id) if pid not in tonight
    ]
