"""Looking player merges up (R17): the office's list of merges, and one merge."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.merges import PlayerMerge
from models.errors import NotFound
from models.services.access import require_office
from models.services.paging import Page, PageRequest, paginate


def list_merges(
    session: Session, actor: Actor, page: PageRequest, player_id: int | None = None
) -> Page[PlayerMerge]:
    """Merges, newest first; those of a player (either side): for the office."""
    require_office(actor, "reads player merges", rule="R17")
    query = select(PlayerMerge).order_by(PlayerMerge.id.desc())
    if player_id is not None:
        query = query.where((PlayerMerge.survivor_id == player_id) | (PlayerMerge.duplicate_id == player_id))
    return paginate(session, query, page)


def get_merge(session: Session, actor: Actor, merge_id: int) -> PlayerMerge:
    """One merge: for the office."""
    require_office(actor, "reads player merges", rule="R17")
    found = session.get(PlayerMerge, merge_id)
    if found is None:
        raise NotFound(f"There is no player merge with id {merge_id}.")
    return found
