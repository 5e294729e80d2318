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
from models.errors import Conflict, Problem, RuleViolation
from models.infra import sealing
from models.infra.clock import utcnow
from models.rules.structures import adjusted, clock_at, said_period, skipped, stepped_back
from models.services.access import may_run_night
from models.services.audit_log.writes import record
from models.services.nights import players_out, sign_ins
from models.services.nights.runs import Applied, Handler, NightMoved, Run, entries_of, take_night
from models.services.structures.writes import as_json

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


CLOCK_MOVES = ("skip", "back", "adjust")


def clock(run: Run, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """R22: the host starts, pauses and resumes the clock; the server keeps when play started
    and how long it was paused, so every page counts from the same instants. The host may also
    move it: to the next level (`skip`), back to the one before (`back`), or minutes added to the
    level being played or taken off it (`adjust`, `adjust_minutes`); each move is audited (R18)."""
    night, what = run.night, body["clock"]
    started, paused = night.clock_started_at is not None, night.clock_paused_at is not None
    if what in CLOCK_MOVES:
        return _moved(run, what, body.get("adjust_minutes"))
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


def _where(run: Run) -> dict[str, Any]:
    """Where the clock stands, as the audit log and the host read it."""
    at = clock_at(run.rules, run.played)
    return {
        "level": at.period.level,
        "is_break": at.period.is_break,
        "period": said_period(at.period),
        "minutes": at.period.minutes,
        "seconds_left": at.seconds_left,
        "seconds_played": int(run.played),
    }


def _moved(run: Run, what: str, minutes: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
    night = run.night
    if night.clock_started_at is None:
        raise _clock_refused("The clock is not started: start it, then move it.")
    before = _where(run)
    if what == "adjust":
        assert minutes is not None
        changed = adjusted(run.rules, run.played, minutes)
        if isinstance(changed, Problem):
            raise RuleViolation(changed.message, rule="R22", problems=[changed])
        # The night plays its structure so from now: the levels after this one start later (or
        # sooner); the structure the office keeps is not changed.
        fresh = as_json(changed, None, "")
        night.structure = {**night.structure, "levels": fresh["levels"], "breaks": fresh["breaks"]}
    else:
        seconds = skipped(run.rules, run.played) if what == "skip" else stepped_back(run.rules, run.played)
        if isinstance(seconds, Problem):
            raise RuleViolation(seconds.message, rule="R22", problems=[seconds])
        night.clock_moved_seconds += seconds
    run.session.flush()
    after = _where(run)
    kept_body: dict[str, Any] = {"clock": what}
    if what == "adjust":
        kept_body["adjust_minutes"] = minutes
    record(
        run.session,
        run.actor,
        f"night.clock_{what}",
        "night",
        night.id,
        before=before,
        after={**after, **({"adjust_minutes": minutes} if what == "adjust" else {})},
    )
    effect = {"level": after["level"], "is_break": after["is_break"], "before": before, "after": after}
    return kept_body, effect


def _clock_refused(message: str) -> Conflict:
    return Conflict(message, rule="R22", problems=[Problem("clock", message, "R22")])
