"""Looking player merges up (R17): the office's list of merges, one merge, and the player a merged-away
id names now (the end of its chain of merges)."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement, Select, select
from sqlalchemy.orm import Session, aliased

from models.actor import Actor
from models.entities.merges import PlayerMerge
from models.entities.players import Player
from models.errors import NotFound
from models.services.access import may_read_merges
from models.services.paging import Page, PageRequest, paginate


def list_merges(
    session: Session, actor: Actor, page: PageRequest, player_id: int | None = None
) -> Page[PlayerMerge]:
    """Merges, newest first; those of a player (either side): for the office."""
    may_read_merges(actor)
    query = select(PlayerMerge).order_by(PlayerMerge.id.desc())
    if player_id is not None:
        query = query.where((PlayerMerge.survivor_id == player_id) | (PlayerMerge.duplicate_id == player_id))
    return paginate(session, query, page)


def get_merge(session: Session, actor: Actor, merge_id: int) -> PlayerMerge:
    """One merge: for the office."""
    may_read_merges(actor)
    found = session.get(PlayerMerge, merge_id)
    if found is None:
        raise NotFound(f"There is no player merge with id {merge_id}.")
    return found


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


def later_merge(session: Session, player_id: int) -> PlayerMerge | None:
    """The live merge that merged this player away, if any."""
    return session.scalar(
        select(PlayerMerge).where(PlayerMerge.duplicate_id == player_id, PlayerMerge.undone_at.is_(None))
    )
