"""Players (R5, R19): create, change, search, and who may see their personal fields."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.clock import today
from models.errors import Conflict, InvalidInput
from models.league import Venue
from models.players import Player
from models.rules.players import (
    default_display_name,
    normalise_email,
    normalise_name,
    parse_membership_number,
    similar_names,
)
from models.services.audit import record, snapshot
from models.services.league import require_exists


def player_venue_ids(session: Session, player: Player) -> set[int]:
    """The venues a player belongs to (R19): their home venue and wherever they have results."""
    from models.tournaments import Result, Tournament

    played = session.scalars(
        select(Tournament.venue_id)
        .join(Result, Result.tournament_id == Tournament.id)
        .where(Result.player_id == player.id)
        .distinct()
    )
    venues = set(played)
    if player.home_venue_id:
        venues.add(player.home_venue_id)
    return venues


def may_see_personal(session: Session, actor: Actor, player: Player) -> bool:
    """R19: the office always; a host for players of their own venues; the public never."""
    if actor.is_office:
        return True
    if actor.is_host:
        return bool(actor.venue_ids & player_venue_ids(session, player))
    return False


def _normalise(data: dict[str, Any], current: Player | None) -> dict[str, Any]:
    """Derive and cross-check fields: email case, membership number vs. date of birth."""
    data = dict(data)
    if data.get("email") is not None:
        data["email"] = normalise_email(data["email"])
    number = data.get("membership_number", current.membership_number if current else None)
    dob = data.get("date_of_birth", current.date_of_birth if current else None)
    if number is not None:
        try:
            born = parse_membership_number(number, today=today())
        except ValueError as exc:
            raise InvalidInput(str(exc), errors={"membership_number": [str(exc)]}) from None
        if dob is None:
            data["date_of_birth"] = born
        elif dob != born:
            message = (
                f"The membership number starts with {born.isoformat()} but the date of birth "
                f"is {dob.isoformat()} (R5: the number is the date of birth and a PIN)."
            )
            raise InvalidInput(message, rule="R5", errors={"membership_number": [message]})
    if "full_name" in data:
        data["full_name"] = " ".join(data["full_name"].split())
        data["name_key"] = normalise_name(data["full_name"])
    return data


def _refuse_taken(session: Session, data: dict[str, Any], player_id: int | None) -> None:
    for field, column in (("email", Player.email), ("membership_number", Player.membership_number)):
        value = data.get(field)
        if value is None:
            continue
        owner = session.scalar(select(Player.id).where(column == value))
        if owner is not None and owner != player_id:
            raise Conflict(
                f"{field}: already belongs to player {owner}.",
                errors={field: [f"Already belongs to player {owner}."]},
            )


def possible_duplicates(session: Session, name_key: str, exclude_id: int | None = None) -> list[int]:
    """R5: players whose normalised name closely matches (same words, or a small edit distance)."""
    first = name_key[:1]
    query = select(Player.id, Player.name_key).where(Player.merged_into_id.is_(None))
    if exclude_id is not None:
        query = query.where(Player.id != exclude_id)
    # A cheap prefilter: a close match shares the first letter, or is the same words reordered.
    words = name_key.split()
    conditions = [Player.name_key.startswith(first, autoescape=True)] + [
        Player.name_key.contains(word, autoescape=True) for word in words if len(word) > 2
    ]
    query = query.where(or_(*conditions))
    candidates = [(row.id, row.name_key) for row in session.execute(query)]
    return similar_names(name_key, candidates)


def create_player(session: Session, actor: Actor, data: dict[str, Any]) -> tuple[Player, list[int]]:
    """Create a player; returns it and the ids of possible duplicates (R5) for a warning."""
    data = _normalise(data, None)
    require_exists(session, Venue, data.get("home_venue_id"), "home_venue_id", "venue")
    _refuse_taken(session, data, None)
    if not data.get("display_name"):
        data["display_name"] = default_display_name(data["full_name"])
    duplicates = possible_duplicates(session, data["name_key"])
    player = Player(**data)
    session.add(player)
    session.flush()
    record(session, actor, "player.create", "player", player.id, after=snapshot(player))
    return player, duplicates


def update_player(session: Session, actor: Actor, player: Player, changes: dict[str, Any]) -> Player:
    before = snapshot(player)
    changes = _normalise(changes, player)
    if "home_venue_id" in changes:
        require_exists(session, Venue, changes["home_venue_id"], "home_venue_id", "venue")
    _refuse_taken(session, changes, player.id)
    if "display_name" in changes and not changes["display_name"]:
        changes["display_name"] = default_display_name(changes.get("full_name", player.full_name))
    for key, value in changes.items():
        setattr(player, key, value)
    session.flush()
    record(session, actor, "player.update", "player", player.id, before=before, after=snapshot(player))
    return player


def search_players(query_text: str | None, actor: Actor) -> Any:
    """A select of active (not merged) players matching a name (wildcards are literal)."""
    query = select(Player).where(Player.merged_into_id.is_(None))
    if query_text:
        text = query_text.strip().lower()
        matches = [func.lower(Player.display_name).contains(text, autoescape=True)]
        if actor.role != "public":
            # Staff find players by full name; only the office by email (R19).
            matches.append(Player.name_key.contains(normalise_name(text), autoescape=True))
        if actor.is_office:
            matches.append(Player.email.contains(text, autoescape=True))
        query = query.where(or_(*matches))
    return query.order_by(Player.display_name, Player.id)
