"""Players (R5): register and change them; lookups and R19 visibility are in player_queries."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import Venue
from models.entities.players import Player
from models.errors import Conflict, Problem, RuleViolation
from models.rules.notices import DUPLICATES_LISTED, Notice, possible_duplicate
from models.rules.players import (
    date_of_birth_problem,
    default_display_name,
    display_key,
    normalise_email,
    normalise_name,
    parse_membership_number,
)
from models.services import wall_clock
from models.services.access import may_change_player, may_register_player, sees_identifier_owner
from models.services.audit_log.writes import record_each, record_update, snapshot
from models.services.locks import hold_writes, take_players
from models.services.lookup import require_exists
from models.services.players.erasures import refuse_if_erased
from models.services.players.queries import name_index


def _normalise(
    session: Session, data: dict[str, Any], current: Player | None, today: date | None = None
) -> dict[str, Any]:
    """Derive and cross-check fields: email case, membership number vs. date of birth, neither
    after today (R2a: `today` where the player is registered, else at their home venue, else in
    the league)."""
    data = dict(data)
    if data.get("email") is not None:
        data["email"] = normalise_email(data["email"])
    number = data.get("membership_number", current.membership_number if current else None)
    dob = data.get("date_of_birth", current.date_of_birth if current else None)
    if today is None:
        home = data.get("home_venue_id", current.home_venue_id if current else None)
        today = wall_clock.at(session, home)
    if data.get("date_of_birth") is not None:
        problem = date_of_birth_problem(data["date_of_birth"], today)
        if problem is not None:
            raise RuleViolation.at("date_of_birth", problem)
    if number is not None:
        try:
            born = parse_membership_number(number, today=today)
        except ValueError as exc:
            raise RuleViolation.at("membership_number", str(exc), rule="R5") from None
        if dob is None:
            data["date_of_birth"] = born
        elif dob != born:
            message = (
                f"The membership number starts with {born.isoformat()} but the date of birth "
                f"is {dob.isoformat()}: the number is the date of birth and a PIN."
            )
            raise RuleViolation.at("membership_number", message, rule="R5")
    if "full_name" in data:
        data["full_name"] = " ".join(data["full_name"].split())
        data["name_key"] = normalise_name(data["full_name"])
    return data


def _refuse_taken(
    session: Session, actor: Actor, rows: Sequence[dict[str, Any]], player_id: int | None
) -> None:
    """Emails and membership numbers belong to one player each (one query per field). Called with
    the writers' lock held (`hold_writes`), so that what it finds free stays free until the insert
    (two registrations of one new email at once: the second is refused here, never by the unique
    index, whose error would put the email in the database's log).

    R19: a host is not told whose the value is (that would tell whom the league knows); the
    refusal counts against the host's key as an unknown identifier does (`identifier_miss`).
    The office is told the player."""
    for field, column in (("email", Player.email), ("membership_number", Player.membership_number)):
        values = {row[field] for row in rows if row.get(field) is not None}
        if not values:
            continue
        query = select(Player.id).where(column.in_(values))
        if player_id is not None:
            query = query.where(Player.id != player_id)
        owner = session.scalar(query.order_by(Player.id).limit(1))
        if owner is None:
            continue
        if sees_identifier_owner(actor):
            said = f"Already belongs to player {owner}."
        else:
            word = "email" if field == "email" else "membership number"
            said = (
                f"Already registered to a player: they are not registered twice; a report names "
                f"them by this {word}."
            )
        raise Conflict(
            f"{field}: {said[0].lower()}{said[1:]}",
            problems=[Problem(field, said, identifier_miss=True)],
        )


def create_player(
    session: Session, actor: Actor, data: dict[str, Any], path: str | None = None
) -> tuple[Player, list[Notice]]:
    """Register a player; returns it and a notice naming possible duplicates (R5), if any.
    `path` is where the request named this player (`results.3.new_player`), for the notice."""
    home = data.get("home_venue_id")
    may_register_player(actor, home)
    require_exists(session, Venue, home, "home_venue_id", "venue")
    ((player, notices),) = register_players(session, actor, [(data, path)])
    return player, notices


def register_players(
    session: Session,
    actor: Actor,
    news: Sequence[tuple[dict[str, Any], str | None]],
    today: date | None = None,
) -> list[tuple[Player, list[Notice]]]:
    """Register players, each with the path that named it (for its notice), in one statement:
    a report may register thousands. Each gets a notice naming the players its name closely
    matches, those registered before it here included (R5): the league's own players, or for a
    demo player (the demo's loader's) the demo's, never one with the other (`name_index`)."""
    if not news:
        return []  # (an INSERT given no rows would try to store one of defaults)
    prepared = [_normalise(session, data, None, today) for data, _path in news]
    hold_writes(session)
    _refuse_taken(session, actor, prepared, None)
    for data in prepared:
        if not data.get("display_name"):
            data["display_name"] = default_display_name(data["full_name"])
        data["display_key"] = display_key(data["display_name"])
    sides = {bool(data.get("demo")) for data in prepared}
    indexes = {
        side: name_index(
            session, [data["name_key"] for data in prepared if bool(data.get("demo")) is side], demo=side
        )
        for side in sides
    }
    players = session.scalars(insert(Player).returning(Player, sort_by_parameter_order=True), prepared).all()
    record_each(session, actor, "player.create", "player", [(p.id, None, snapshot(p)) for p in players])
    matched = []
    for player in players:
        index = indexes[bool(player.demo)]
        matched.append(index.matches(player.name_key, most=DUPLICATES_LISTED))
        index.add(player.id, player.name_key)
    # R5: the look-alikes named as a host knows them, by display name and number (one query).
    wanted = sorted({i for found in matched for i in found.closest})
    names: dict[int, str] = {}
    if wanted:
        query = select(Player.id, Player.display_name).where(Player.id.in_(wanted))
        names = {row.id: row.display_name for row in session.execute(query)}
    registered = []
    for player, (_data, path), found in zip(players, news, matched, strict=True):
        notices = []
        if found.total:
            notices.append(
                possible_duplicate(
                    player.id,
                    player.display_name,
                    *found,
                    path,
                    names={i: names[i] for i in found.closest if i in names},
                )
            )
        registered.append((player, notices))
    return registered


def update_player(session: Session, actor: Actor, player: Player, changes: dict[str, Any]) -> Player:
    """Change a player's record (the office; audited). The row is locked first, as a merge locks
    it (locks.py), so the two never wait on each other crosswise."""
    may_change_player(actor)
    player = take_players(session, [player.id])[player.id]
    refuse_if_erased(session, [player.id], "player_id", "changed")
    before = snapshot(player)
    changes = _normalise(session, changes, player)
    if "home_venue_id" in changes:
        require_exists(session, Venue, changes["home_venue_id"], "home_venue_id", "venue")
    hold_writes(session)  # after the player's row: the order of locks.py
    _refuse_taken(session, actor, [changes], player.id)
    if "display_name" in changes and not changes["display_name"]:
        changes["display_name"] = default_display_name(changes.get("full_name", player.full_name))
    if "display_name" in changes:
        changes["display_key"] = display_key(changes["display_name"])
    for key, value in changes.items():
        setattr(player, key, value)
    session.flush()
    record_update(session, actor, "player.update", "player", player.id, before=before, after=snapshot(player))
    return player
