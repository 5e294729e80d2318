"""The check of the demo's removal that needs the database: it undoes no merge of a player it
keeps (demo.py runs it under the removal's locks, before it deletes anything)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from models.errors import Conflict, Problem
from models.services.demo.queries import DemoRemoval, merges_across


def check_removal(session: Session, plan: DemoRemoval) -> None:
    """R17: a merge in force that joins a demo player the removal deletes with a player it keeps
    would be undone by deleting the demo player: refused (409), naming each such merge and why."""
    problems = []
    for merge in merges_across(session, plan):
        demo, other = (
            (merge.survivor_id, merge.duplicate_id)
            if merge.survivor_id in plan.players
            else (merge.duplicate_id, merge.survivor_id)
        )
        problems.append(
            Problem(
                f"merges.{merge.id}",
                f"Merge {merge.id} joined player {merge.duplicate_id} into player {merge.survivor_id}: "
                f"player {demo} is the demo's and goes with it, player {other} is not and stays, so "
                f"removing the demo would undo the merge. Undo merge {merge.id} first "
                f"(POST /api/v1/player-merges/{merge.id}/undo), then remove the demo.",
                "R17",
            )
        )
    if problems:
        raise Conflict(
            "The demo is not removed: it would undo merges of players outside it. "
            + " ".join(p.message for p in problems),
            rule="R17",
            problems=problems,
        )
