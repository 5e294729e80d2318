"""Two look-alike players are different people (R5, R18): the office says so once, and the
pair is no longer offered as a possible duplicate (player_queries.duplicate_candidates). Audited
on both players."""

from __future__ import annotations

from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.players import DistinctPlayers, Player
from models.services.access import may_tell_players_apart
from models.services.audit_log.writes import record_each, snapshot
from models.services.locks import hold_writes, take_players
from models.services.players.distinct_checks import check_distinct


def record_distinct(
    session: Session, actor: Actor, player: Player, other_id: int, reason: str
) -> DistinctPlayers:
    """R5: record that `player` and `other_id` are two people (the office; the reason is kept).
    Refused when the other player does not exist or is this one (422), when either was merged
    away (409 R17), and when the pair was recorded already (409 R17a).

    R17a: both players are locked (the lower id first, as a merge locks them) and every other
    writer held off before the checks, so of two requests for one pair the second sees the first,
    and a merge of either waits for it; the pair's unique constraint is the last guard."""
    may_tell_players_apart(actor)
    locked = take_players(session, (player.id, other_id))
    hold_writes(session)
    player = locked[player.id]
    other = check_distinct(session, player, locked.get(other_id), other_id)
    low, high = sorted((player.id, other.id))
    pair = DistinctPlayers(
        low_id=low, high_id=high, reason=reason, recorded_by=actor.name, recorded_by_key_id=actor.key_id
    )
    session.add(pair)
    session.flush()
    after = snapshot(pair)
    record_each(
        session,
        actor,
        "player.not_duplicate",
        "player",
        [(low, None, after), (high, None, after)],
        reason=reason,
    )
    return pair
