"""R17: the player a merged-away id names now (the end of its chain of merges), and how a
refusal says where a merged-away record went. Every resource that names players by id asks here;
the merges themselves (models/services/player_merges/) write the chains these read."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement, Select, select
from sqlalchemy.orm import Session, aliased

from models.entities.players import Player
from models.errors import Problem


def final_survivors(session: Session, player_ids: Iterable[int]) -> dict[int, int]:
    """R17: for each of these players that was merged away, the player its id names now: the
    end of its chain of merges (B merged into A, then A into C: B names C), however long. Players
    not merged away are left out. A few queries: one per link of the longest chain."""
    into: dict[int, int | None] = {}
    wanted = set(player_ids)
    while wanted:
        rows = session.execute(select(Player.id, Player.merged_into_id).where(Player.id.in_(sorted(wanted))))
        into.update({player_id: merged_into for player_id, merged_into in rows})
        wanted = {merged_into for merged_into in into.values() if merged_into is not None} - set(into)

    def end(player_id: int) -> int:
        seen = {player_id}
        while (next_id := into.get(player_id)) is not None and next_id not in seen:
            seen.add(next_id)
            player_id = next_id
        return player_id

    return {player_id: end(player_id) for player_id, merged_into in into.items() if merged_into is not None}


def final_survivor(session: Session, player: Player) -> int:
    """R17: the id of the player this one's id names now (its own, unless it was merged away)."""
    if player.merged_into_id is None:
        return player.id
    return final_survivors(session, [player.id])[player.id]


def survivors_matching(condition: ColumnElement[bool]) -> Select[tuple[int]]:
    """R17: the ids of the final survivors of the records merged away that meet `condition` (on
    Player's columns): a recursive walk down each one's chain of merges, in SQL."""
    chain = (
        select(Player.id.label("id"), Player.merged_into_id.label("into"))
        .where(Player.merged_into_id.is_not(None), condition)
        .cte("merge_chain", recursive=True)
    )
    step = aliased(Player)
    chain = chain.union_all(select(step.id, step.merged_into_id).join(chain, step.id == chain.c.into))
    return select(chain.c.id).where(chain.c.into.is_(None))


def merged_away(session: Session, player: Player) -> str:
    """R17: where a merged-away player went: "player 7", or "player 7 (now part of player 9)"
    when that one was merged away too."""
    assert player.merged_into_id is not None
    final = final_survivor(session, player)
    now = f" (now part of player {final})" if final != player.merged_into_id else ""
    return f"player {player.merged_into_id}{now}"


def merged_away_problem(session: Session, player: Player, path: str, doing: str) -> Problem | None:
    """R17: a sanction or a disqualification names a player by its own id: for a record merged
    away, however many merges ago, the problem naming the final survivor (whose record holds its
    results and sanctions) to `doing` instead; None for a player not merged away."""
    if player.merged_into_id is None:
        return None
    final = final_survivor(session, player)
    message = (
        f"Player {player.id} was merged away: their record is now player {final}'s; {doing} player {final}."
    )
    return Problem(path, message, "R17")
