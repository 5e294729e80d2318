"""Issuing and lifting sanctions (R15), each audited (R18). Nothing is ever deleted: a lifted
sanction keeps its record, with who lifted it, when and why."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.sanctions import Sanction
from models.errors import Conflict, Problem
from models.infra.clock import utcnow
from models.rules.notices import Notice, results_stand
from models.services import wall_clock
from models.services.access import may_issue_sanction, may_lift_sanction
from models.services.audit_log.personal_text import scrub_erased
from models.services.audit_log.writes import record, snapshot
from models.services.sanctions.checks import check_sanction
from models.services.sanctions.queries import no_such_sanction, results_inside, sees_sanction
from models.services.webhooks.tell import sanction_told


def issue_sanction(session: Session, actor: Actor, data: dict[str, Any]) -> tuple[Sanction, list[Notice]]:
    """R15: record a reminder, warning, suspension or venue ban. The first day defaults to today;
    no last day is permanent. A suspension lasts at least the league's minimum, counting both days.

    R16: a sanction recorded after the fact undoes no stored result: they stand, and the notices
    (`results_stand`) name the live reports of the player that fall inside it."""
    may_issue_sanction(actor, data["kind"], data.get("venue_id"))
    terms = check_sanction(session, data)
    sanction = Sanction(
        player_id=data["player_id"],
        kind=terms.kind,
        category=terms.category,
        venue_id=terms.venue_id,
        first_day=terms.first_day,
        last_day=terms.last_day,
        reason=data["reason"],
        issued_by=actor.name,
        issued_by_role=actor.role,
        issued_by_key_id=actor.key_id,
    )
    session.add(sanction)
    session.flush()
    record(
        session,
        actor,
        "sanction.create",
        "sanction",
        sanction.id,
        after=snapshot(sanction),
        reason=sanction.reason,
    )
    sanction_told(session, "sanction.recorded", sanction)  # R23: staff only
    inside = results_inside(session, sanction.player_id, sanction.terms)
    return sanction, [results_stand(sanction.kind, sanction.player_id, inside)] if inside else []


def may_lift(actor: Actor, sanction: Sanction) -> None:
    """R15: the office lifts any sanction; a host only a ban from their own venue. A sanction the
    caller may not see is answered as a missing one (R19), not refused (`access.may_lift_sanction`)."""
    if not sees_sanction(actor, sanction):
        raise no_such_sanction(sanction.id)
    may_lift_sanction(actor, sanction.kind, sanction.venue_id)


def lift_sanction(session: Session, actor: Actor, sanction: Sanction, reason: str) -> Sanction:
    """R15: end a sanction early, from today on; the record stays with who lifted it and why.
    R17a: lifted once, however many lifts race: one conditional write, and the losers, finding
    no row still unlifted, are refused (409) naming when and by whom it was lifted."""
    may_lift(actor, sanction)
    lift = {
        "lifted_at": utcnow(),
        "lifted_on": wall_clock.for_sanction(session, sanction),
        "lifted_by": actor.name,
        "lifted_by_key_id": actor.key_id,
        "lift_reason": scrub_erased(session, reason),  # R21 (a Core UPDATE: the flush's scrub misses it)
    }
    won = session.execute(
        update(Sanction)
        .where(Sanction.id == sanction.id, Sanction.lifted_at.is_(None))
        .values(**lift)
        .returning(Sanction.id)
        .execution_options(synchronize_session=False)
    ).first()
    session.refresh(sanction)
    if won is None:
        raise Conflict(
            f"Sanction {sanction.id} was already lifted on {sanction.lifted_on}.",
            rule="R17a",
            problems=[Problem("reason", f"Already lifted by {sanction.lifted_by}.", "R17a")],
        )
    before = {**snapshot(sanction), **{name: None for name in lift}}
    record(
        session,
        actor,
        "sanction.lift",
        "sanction",
        sanction.id,
        before=before,
        after=snapshot(sanction),
        reason=reason,
    )
    sanction_told(session, "sanction.lifted", sanction)  # R23: staff only
    return sanction
