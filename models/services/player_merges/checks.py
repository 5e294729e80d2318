"""The checks of a merge and of its undo that need the database (R17): who may be merged into
whom, and what since depends on a merge being undone. player_merges.py locks the players and runs them
before it writes."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities.merges import PlayerMerge
from models.entities.players import Player
from models.entities.qualifiers import Disqualification
from models.entities.reports import Result
from models.errors import Conflict, Problem, refuse
from models.services.audit_log.writes import plain
from models.services.player_merges.queries import later_merge
from models.services.players.survivors import merged_away


def shared_tournaments(session: Session, a: int, b: int) -> list[int]:
    """Tournaments (voided ones too) where both players have a result: they cannot be one person."""
    mine = select(Result.tournament_id).where(Result.player_id == a)
    return sorted(
        session.scalars(
            select(Result.tournament_id).where(Result.player_id == b, Result.tournament_id.in_(mine))
        )
    )


def shared_disqualifications(session: Session, a: int, b: int) -> list[int]:
    """Seasons both players are disqualified for: the survivor may hold one per season."""
    standing = select(Disqualification.season_id).where(
        Disqualification.player_id == a, Disqualification.withdrawn_at.is_(None)
    )
    return sorted(
        session.scalars(
            select(Disqualification.season_id).where(
                Disqualification.player_id == b,
                Disqualification.withdrawn_at.is_(None),
                Disqualification.season_id.in_(standing),
            )
        )
    )


def check_merge(session: Session, survivor: Player, duplicate: Player | None, duplicate_id: int) -> Player:
    """R17: the duplicate exists and is not the survivor (else 422); neither was merged away: a
    record merged away is neither a survivor nor merged again until that merge is undone (409,
    naming where it went); then they are refused (409) when both have a result in one tournament,
    or are both disqualified for one season. Returns the duplicate. Both players are locked
    (merges.py), so what this finds holds until the merge commits."""
    if duplicate is None:
        refuse(
            "The players cannot be merged",
            [Problem("duplicate_id", f"There is no player with id {duplicate_id}.")],
        )
    assert duplicate is not None
    if duplicate.id == survivor.id:
        refuse(
            "The players cannot be merged",
            [Problem("duplicate_id", "A player cannot be merged into themselves.", "R17")],
        )
    problems: list[Problem] = []
    if duplicate.merged_into_id is not None:
        where = merged_away(session, duplicate)
        problems.append(
            Problem("duplicate_id", f"Player {duplicate.id} was already merged into {where}.", "R17")
        )
    if survivor.merged_into_id is not None:
        where = merged_away(session, survivor)
        problems.append(
            Problem("survivor", f"Player {survivor.id} was merged into {where}: not a survivor.", "R17")
        )
    if problems:
        raise Conflict(
            "A record merged away is neither a survivor nor merged again until its merge is undone: "
            + " ".join(p.message for p in problems),
            rule="R17",
            problems=problems,
        )
    shared = shared_tournaments(session, survivor.id, duplicate.id)
    if shared:
        raise Conflict(
            f"Players {survivor.id} and {duplicate.id} both have results in tournament(s) "
            f"{', '.join(map(str, shared))}: they are two people, not one.",
            rule="R17",
            problems=[
                Problem("duplicate_id", f"Both played in tournament(s) {', '.join(map(str, shared))}.", "R17")
            ],
        )
    seasons = shared_disqualifications(session, survivor.id, duplicate.id)
    if seasons:
        raise Conflict(
            f"Both players are disqualified for season(s) {', '.join(map(str, seasons))}; "
            "withdraw one first.",
            rule="R17",
            problems=[Problem("duplicate_id", "Both disqualified for the same season.", "R17")],
        )
    return duplicate


def check_undo(session: Session, merge: PlayerMerge, survivor: Player, duplicate: Player) -> None:
    """R17: a merge is undone once (409 naming it), and only while nothing since depends on it:
    the survivor merged away in a later merge (undo that one first: merges undo in the reverse
    order they were made), a moved result replaced by a correction, a taken field changed. Refused
    (409) saying what. Both players are locked and every other writer waits (merges.py)."""
    if merge.undone:
        raise Conflict(
            f"Merge {merge.id} was already undone on {merge.undone_at:%Y-%m-%d} by {merge.undone_by}.",
            rule="R17",
            problems=[Problem("merge", f"Merge {merge.id} was already undone.", "R17")],
        )
    moved = merge.moved
    blockers: list[str] = []
    if survivor.merged_into_id is not None:
        later = later_merge(session, survivor.id)
        blockers.append(
            f"player {survivor.id} was since merged into {merged_away(session, survivor)}"
            + (f" (merge {later.id}): undo that merge first" if later is not None else "")
        )
    elif duplicate.merged_into_id != survivor.id:
        blockers.append(f"player {duplicate.id} is no longer merged into player {survivor.id}")
    else:
        still = set(
            session.scalars(
                select(Result.id).where(Result.id.in_(moved["results"]), Result.player_id == survivor.id)
            )
        )
        gone = sorted(set(moved["results"]) - still)
        if gone:
            reports = sorted(set(session.scalars(select(Result.tournament_id).where(Result.id.in_(gone)))))
            blockers.append(
                f"{len(gone)} moved result(s) were since replaced by a correction"
                + (f" (tournaments {', '.join(map(str, reports))})" if reports else "")
            )
    for name, value in moved["fields"].items():
        if plain(getattr(survivor, name)) != value:
            blockers.append(f"player {survivor.id}'s {name} was changed since the merge")
    if blockers:
        raise Conflict(
            f"Merge {merge.id} cannot be undone: {'; '.join(blockers)}.",
            rule="R17",
            problems=[Problem("merge", blocker, "R17") for blocker in blockers],
        )
