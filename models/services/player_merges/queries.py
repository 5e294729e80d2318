"""Looking player merges up (R17): the office's list of merges, one merge, the merge that took a
player away. The player a merged-away id names now is the players' (players/survivors.py)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.merges import PlayerMerge
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


def later_merge(session: Session, player_id: int) -> PlayerMerge | None:
    """The live merge that merged this player away, if any."""
    return session.scalar(
        select(PlayerMerge).where(PlayerMerge.duplicate_id == player_id, PlayerMerge.undone_at.is_(None))
    )
