"""The checks of a merge and of its undo that need the database (R17): who may be merged into
whom, and what since depends on a merge being undone. player_merges.py runs them before it writes."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities.merges import PlayerMerge
from models.entities.players import Player
from models.entities.qualification import Disqualification
from models.entities.tournaments import Result
from models.errors import Conflict, Problem, refuse
from models.services.audit import plain


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


def check_merge(session: Session, survivor: Player, duplicate_id: int) -> Player:
    """R17: the duplicate exists, is not the survivor, and neither was merged away (refused
    whole); then they are refused (409) when both have a result in one tournament, or are both
    disqualified for one season. Returns the duplicate."""
    problems: list[Problem] = []
    duplicate = session.get(Player, duplicate_id)
    if duplicate is None:
        problems.append(Problem("duplicate_id", f"There is no player with id {duplicate_id}."))
    elif duplicate.id == survivor.id:
        problems.append(Problem("duplicate_id", "A player cannot be merged into themselves.", "R17"))
    elif duplicate.merged_into_id is not None:
        problems.append(
            Problem(
                "duplicate_id",
                f"Player {duplicate.id} was already merged into player {duplicate.merged_into_id}.",
                "R17",
            )
        )
    if survivor.merged_into_id is not None:
        problems.append(
            Problem(
                "survivor",
                f"Player {survivor.id} was merged into player {survivor.merged_into_id}; merge into that.",
                "R17",
            )
        )
    refuse("The players cannot be merged", problems)
    assert duplicate is not None
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


def check_undo(session: Session, merge: PlayerMerge) -> tuple[Player, Player]:
    """R17: a merge is undone once, and only while nothing since depends on it (a moved result
    replaced by a correction, a taken field changed, a player merged again): refused (409),
    saying what. Returns (the survivor, the duplicate)."""
    if merge.undone:
        raise Conflict(f"Merge {merge.id} was already undone.", rule="R17")
    survivor = session.get(Player, merge.survivor_id)
    duplicate = session.get(Player, merge.duplicate_id)
    assert survivor is not None and duplicate is not None
    moved = merge.moved
    blockers: list[str] = []
    if survivor.merged_into_id is not None:
        blockers.append(f"player {survivor.id} was since merged into player {survivor.merged_into_id}")
    if duplicate.merged_into_id != survivor.id:
        blockers.append(f"player {duplicate.id} is no longer merged into player {survivor.id}")
    still = set(
        session.scalars(
            select(Result.id).where(Result.id.in_(moved["results"]), Result.player_id == survivor.id)
        )
    )
    gone = sorted(set(moved["results"]) - still)
    if gone:
        tournaments = sorted(set(session.scalars(select(Result.tournament_id).where(Result.id.in_(gone)))))
        blockers.append(
            f"{len(gone)} moved result(s) were since replaced by a correction"
            + (f" (tournaments {', '.join(map(str, tournaments))})" if tournaments else "")
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
    return survivor, duplicate
