"""One action of a night (R22), applied once. The night's row is locked first (before anything
else a write locks: locks.py), then:

- an action whose `action_id` the night holds already, with the same body, is a retry: nothing
  changes, and the answer is the night as it stands (a phone on pub Wi-Fi retries what it may
  have sent); with another body it is refused, 409 naming `action_id`: an id names one action.
  The action keeps a keyed digest of the body it was asked with (`asked`), never the body's
  personal values (a sign-in may name a player by email);
- an action made on another `sequence` than the night's was made on an older state (another
  phone moved the night meanwhile): refused, 409, with the night as it stands, to redo it on;
- else it is checked and applied whole, the sequence moves on by one, and the action is kept
  with what it did (seats before, moves), so the last one can be undone.

The kinds' own rules are in sign_ins.py (who comes in) and players_out.py (who goes out, the
undo, the early end, the report); runs.py holds what they work with."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities import NightAction
from models.errors import Conflict, Problem
from models.infra import sealing
from models.infra.clock import utcnow
from models.rules.structures import clock_at
from models.services.access import may_run_night
from models.services.nights import players_out, sign_ins
from models.services.nights.runs import Applied, Handler, NightMoved, Run, entries_of, take_night
from models.services.webhooks.events import emit

KINDS = (
    "sign_in",
    "seat",
    "bust",
    "withdraw",
    "absent",
    "no_show",
    "re_enter",
    "undo",
    "clock",
    "end_early",
    "report",
)


def apply_action(session: Session, actor: Actor, night_id: int, body: dict[str, Any]) -> Applied:
    """Apply one action (`body`: `action_id`, `sequence`, `type` and the kind's fields, as the
    API's schema loads them); see the module's docstring."""
    handlers: dict[str, Handler] = {
        "sign_in": sign_ins.sign_in,
        "seat": sign_ins.draw_seats,
        "bust": players_out.bust,
        "withdraw": players_out.one_out,
        "absent": players_out.one_out,
        "no_show": players_out.one_out,
        "re_enter": sign_ins.re_enter,
        "undo": players_out.undo,
        "clock": clock,
        "end_early": players_out.end_early,
        "report": players_out.report_again,
    }
    night = take_night(session, night_id)
    may_run_night(actor, night.venue_id)
    done = session.scalar(
        select(NightAction).where(
            NightAction.night_id == night.id, NightAction.action_id == body["action_id"]
        )
    )
    asked = asked_digest(body)
    if done is not None:
        if done.body.get("asked", asked) != asked:
            raise _id_taken(body["action_id"], done)
        return Applied(done, night, True, [])
    if body["sequence"] != night.sequence:
        raise NightMoved(night, body["sequence"])
    kind = body["type"]
    if night.state != "open" and kind != "report":
        raise Conflict(
            f"Night {night.id} is over: its report is {night.tournament_id or 'waiting to be posted'}.",
            rule="R22",
            problems=[Problem("type", "The night is over.", "R22")],
        )
    run = Run(session, actor, night, entries_of(session, night.id), utcnow())
    night.sequence += 1
    kept, effect = handlers[kind](run, {**body, "type": kind})
    action = NightAction(
        night_id=night.id,
        action_id=body["action_id"],
        sequence=night.sequence,
        kind=kind,
        body={"type": kind, **kept, "asked": asked},
        effect=effect,
        actor=actor.name,
        actor_key_id=actor.key_id,
    )
    session.add(action)
    session.flush()
    players_out.finish_if_one_left(run, kind)
    # For the refresher (not delivered): the night's answers are computed again once, for all.
    data = {"night_id": night.id, "venue_id": night.venue_id, "sequence": night.sequence}
    emit(session, "night.changed", data, night.venue_id)
    return Applied(action, night, False, run.notices)


def asked_digest(body: dict[str, Any]) -> str:
    """R22: what tells a retry from another action under the same id: the body as the schema
    loaded it (id, sequence, kind and fields), written canonically (so a phone that serialises
    its retry anew is still recognised), digested with the league's key (R19: a sign-in's email
    or name cannot be tested against it without the key)."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return sealing.current().digest(f"night action\0{canonical}")


def _id_taken(action_id: str, done: NightAction) -> Conflict:
    message = (
        f"The action id {action_id!r} names another action of this night (a {done.kind}, which made "
        f"state {done.sequence}): an action id names one action; send a new one with a new id."
    )
    return Conflict(message, rule="R22", problems=[Problem("action_id", message, "R22")])


def clock(run: Run, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """R22: the host starts, pauses and resumes the clock; the server keeps when play started
    and how long it was paused, so every page counts from the same instants."""
    night, what = run.night, body["clock"]
    started, paused = night.clock_started_at is not None, night.clock_paused_at is not None
    if what == "start":
        if started:
            raise _clock_refused("The clock is started already.")
        night.clock_started_at = run.now
    elif what == "pause":
        if not started or paused:
            raise _clock_refused("The clock is not running.")
        night.clock_paused_at = run.now
    else:
        if not paused or night.clock_paused_at is None:
            raise _clock_refused("The clock is not paused.")
        night.paused_seconds += (run.now - night.clock_paused_at).total_seconds()
        night.clock_paused_at = None
    at = clock_at(run.rules, run.played)
    return {"clock": what}, {"level": at.period.level, "is_break": at.period.is_break}


def _clock_refused(message: str) -> Conflict:
    return Conflict(message, rule="R22", problems=[Problem("clock", message, "R22")])
