"""The checks of a new sanction that need the database (R15): the player and the venue it names
exist (a player merged away is named by its final survivor's id, R17), and a suspension lasts at least the
league's minimum (league settings). sanctions.py runs them before it writes."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from models.entities.league import Venue
from models.entities.players import Player
from models.errors import Problem, refuse
from models.rules.sanctions import Terms, terms_problems
from models.services import wall_clock
from models.services.lookup import league_settings
from models.services.players.survivors import merged_away_problem


def check_sanction(session: Session, data: dict[str, Any]) -> Terms:
    """R15: every problem of a sanction as asked, refused whole; or its terms (the first day
    defaults to today)."""
    problems: list[Problem] = []
    player = session.get(Player, data["player_id"])
    if player is None:
        problems.append(Problem("player_id", f"There is no player with id {data['player_id']}."))
    else:
        # R17: the id names the final survivor, who holds the record's sanctions and results:
        # the sanction is issued to that one, by its own id (R16 is checked on it).
        merged = merged_away_problem(session, player, "player_id", "sanction")
        problems += [merged] if merged else []
    venue_id = data.get("venue_id")
    if venue_id is not None and session.get(Venue, venue_id) is None:
        problems.append(Problem("venue_id", f"There is no venue with id {venue_id}."))
    terms = Terms(
        kind=data["kind"],
        category=data["category"],
        first_day=data.get("first_day") or wall_clock.at(session, venue_id),
        last_day=data.get("last_day"),
        venue_id=venue_id,
    )
    problems += terms_problems(terms, league_settings(session).minimums)
    refuse("The sanction cannot be recorded as asked", problems)
    return terms
