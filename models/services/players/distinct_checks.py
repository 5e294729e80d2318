"""The checks of "these two players are different people" that need the database (R5, R17,
R17a): the other player exists and is another, neither was merged away, and the pair was not
recorded already. distinct_players.py locks both players and runs them before it writes."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities.players import DistinctPlayers, Player
from models.errors import Conflict, Problem, refuse
from models.services.players.survivors import merged_away


def check_distinct(session: Session, player: Player, other: Player | None, other_id: int) -> Player:
    """The other player exists and is not this one (else 422 naming other_id); neither was merged
    away (R17, 409 naming where it went: a record merged away is part of another player now, and
    that player is the one to compare); the pair was not recorded already (R17a, 409 saying when
    and by whom). Returns the other player."""
    if other is None:
        refuse(
            "The players cannot be told apart",
            [Problem("other_id", f"There is no player with id {other_id}.")],
        )
    assert other is not None
    if other.id == player.id:
        refuse(
            "The players cannot be told apart",
            [Problem("other_id", "A player is always the same person as themselves: name another player.")],
        )
    problems = [
        Problem(path, f"Player {p.id} was merged into {merged_away(session, p)}: compare that player.", "R17")
        for path, p in (("player_id", player), ("other_id", other))
        if p.merged_into_id is not None
    ]
    if problems:
        raise Conflict(
            "A record merged away is part of another player now: " + " ".join(p.message for p in problems),
            rule="R17",
            problems=problems,
        )
    refuse_recorded(session, player.id, other.id)
    return other


def recorded_pair(session: Session, a: int, b: int) -> DistinctPlayers | None:
    """The record saying players a and b are two people, whichever order they come in."""
    low, high = sorted((a, b))
    return session.scalar(
        select(DistinctPlayers).where(DistinctPlayers.low_id == low, DistinctPlayers.high_id == high)
    )


def refuse_recorded(session: Session, a: int, b: int) -> None:
    """R17a: once means once: a pair already recorded is a 409 saying when and by whom."""
    found = recorded_pair(session, a, b)
    if found is None:
        return
    message = (
        f"Players {found.low_id} and {found.high_id} were already recorded as different people on "
        f"{found.recorded_at:%Y-%m-%d} by {found.recorded_by} (record {found.id})."
    )
    raise Conflict(message, rule="R17a", problems=[Problem("other_id", message, "R17a")])
