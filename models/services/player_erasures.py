"""R21: erase a player's personal data on their request (the office). The personal fields go, the
display name becomes "Former player N" (or the office's choice), the player's audit log key is
deleted, so every personal value the log holds about them reads "[erased]" from then on, and
the results, standings, qualifiers, ratings and sanctions stand. Cannot be undone; once per
player (R17a). Erasing a record also erases the records merged into it and the one it was merged
into (they hold the same person's data): the whole group, from its final survivor."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, time
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.data_rights import Erasure, PlayerKey
from models.entities.discipline import Sanction
from models.entities.merges import PlayerMerge
from models.entities.players import DistinctPlayers, Player
from models.entities.qualification import Disqualification, QualifierPublication
from models.entities.service import IdempotentRequest
from models.entities.tournaments import Result, Tournament
from models.errors import Conflict, Problem, RuleViolation
from models.infra.clock import utcnow
from models.rules.discipline import add_months
from models.rules.personal import ERASED, LEAST_CONTAINED, former_player_name
from models.rules.players import display_key
from models.services import wall_clock
from models.services.access import require_office
from models.services.audit import record
from models.services.audit_keys import shred
from models.services.league_settings import league_settings
from models.services.locks import hold_writes, take_players
from models.services.lookup import get_or_raise
from models.services.player_merge_queries import final_survivor


@dataclass(frozen=True)
class Erased:
    player_id: int
    erased_ids: list[int]
    display_name: str
    erased_at: datetime


def refuse_if_erased(session: Session, player_ids: Iterable[int], field: str, doing: str) -> None:
    """R21: an erased record holds no personal data and gets none again (its audit key is gone,
    so nothing new about it could be sealed): no change of its record, no merge of it."""
    erased = session.scalar(
        select(Erasure.player_id)
        .where(Erasure.player_id.in_(list(player_ids)))
        .order_by(Erasure.player_id)
        .limit(1)
    )
    if erased is not None:
        raise Conflict(
            f"Player {erased}'s personal data was erased (R21): the record cannot be {doing}.",
            rule="R21",
            problems=[Problem(field, f"Player {erased} was erased.", "R21")],
        )


def merge_group(session: Session, player_id: int) -> list[int]:
    """The player's final survivor and every record merged into it, however many merges ago."""
    player = get_or_raise(session, Player, player_id, "player")
    group = {final_survivor(session, player)}
    frontier = set(group)
    while frontier:
        frontier = set(session.scalars(select(Player.id).where(Player.merged_into_id.in_(frontier)))) - group
        group |= frontier
    return sorted(group)


def _old_values(players: Iterable[Player]) -> set[str]:
    values: set[str] = set()
    for p in players:
        for value in (p.full_name, p.display_name, p.email, p.membership_number, p.name_key, p.display_key):
            if value:
                values.add(value)
        if p.date_of_birth is not None:
            values.add(p.date_of_birth.isoformat())
    return values


def scrub(text: str | None, values: Iterable[str], instead: str = ERASED) -> str | None:
    """Free text with every one of these personal values replaced by "[erased]" (or `instead`)."""
    if not text:
        return text
    for value in sorted(values, key=len, reverse=True):
        if text.casefold() == value.casefold():
            return instead
        if len(value) >= LEAST_CONTAINED:
            text = re.sub(re.escape(value), lambda _match: instead, text, flags=re.IGNORECASE)
    return text


def _scrub_json(node: Any, group: set[int], values: set[str], display_name: str) -> Any:
    """A frozen answer (a publication's lists) with the group's players renamed and any other
    text holding one of their values scrubbed."""
    if isinstance(node, dict):
        about = any(node.get(key) in group for key in ("id", "player_id")) and "display_name" in node
        out: dict[str, Any] = {}
        for key, value in node.items():
            if about and key in ("display_name", "label"):
                out[key] = display_name
            elif about and key == "full_name":
                out[key] = None
            else:
                out[key] = _scrub_json(value, group, values, display_name)
        return out
    if isinstance(node, list):
        return [_scrub_json(value, group, values, display_name) for value in node]
    if isinstance(node, str):
        return scrub(node, values)
    return node


def check_display_name(session: Session, group: list[int], display_name: str, old: set[str]) -> None:
    """R21: the office's display name for an erased player is no one's personal value: neither
    one of the erased values nor another player's full name, email or membership number."""
    wanted = display_name.casefold()
    clash = any(value.casefold() == wanted for value in old)
    if not clash:
        clash = (
            session.scalar(
                select(Player.id)
                .where(
                    Player.id.not_in(group),
                    or_(
                        func.lower(Player.full_name) == wanted,
                        Player.email == wanted,
                        Player.membership_number == display_name,
                    ),
                )
                .limit(1)
            )
            is not None
        )
    if clash:
        raise RuleViolation.at(
            "display_name",
            "A personal value (a full name, email or membership number, or this player's own): "
            "an erased player's display name must name no one.",
            rule="R21",
        )


def erase_player(
    session: Session, actor: Actor, player_id: int, reason: str, display_name: str | None = None
) -> Erased:
    """R21: erase the personal data of the player's group (the office; audited without the
    erased values). A group erased already is refused (409, R17a): the players are locked first
    (the lower id first, as a merge locks them) and every other writer held off, so of two
    erasures the second sees the first; the erasures' unique player id is the last guard."""
    require_office(actor, "erases a player's personal data", rule="R21")
    group = merge_group(session, player_id)
    locked = take_players(session, group)
    hold_writes(session)
    group = merge_group(session, player_id)  # as it is now that no merge can run
    done = session.scalar(select(Erasure).where(Erasure.player_id.in_(group)).limit(1))
    if done is not None:
        raise Conflict(
            f"Player {done.player_id}'s personal data was erased on {done.erased_at:%Y-%m-%d}: "
            "an erasure cannot be undone or repeated.",
            rule="R17a",
            problems=[Problem("player_id", "Erased already.", "R17a")],
        )
    players = [locked.get(pid) or session.get(Player, pid) for pid in group]
    return _apply(session, actor, [p for p in players if p is not None], reason, display_name)


def _apply(
    session: Session,
    actor: Actor,
    players: list[Player],
    reason: str,
    display_name: str | None = None,
    action: str = "player.erase",
) -> Erased:
    """Erase these records of one person (a group), list each once, shred their keys, audit."""
    group = [p.id for p in players]
    old = _old_values(players)
    survivor = _survivor_of(players)
    new_name = display_name.strip() if display_name and display_name.strip() else None
    if new_name is not None:
        check_display_name(session, group, new_name, old)
    erased_at = utcnow()
    listed = set(session.scalars(select(Erasure.player_id).where(Erasure.player_id.in_(group))))
    for p in players:
        name = new_name if new_name is not None and p.id == survivor else former_player_name(p.id)
        p.full_name = ""
        p.name_key = ""
        p.email = None
        p.date_of_birth = None
        p.membership_number = None
        p.display_name = name
        p.display_key = display_key(name)
        if p.id not in listed:
            session.add(
                Erasure(
                    player_id=p.id, erased_at=erased_at, erased_by=actor.name, erased_by_key_id=actor.key_id
                )
            )
    session.flush()
    shown = new_name or former_player_name(survivor)
    _scrub_records(session, set(group), old, shown)
    shred(session, group)
    record(
        session,
        actor,
        action,
        "player",
        survivor,
        after={"player_id": survivor, "erased_ids": group, "display_name": shown},
        reason=scrub(reason, old),
    )
    return Erased(survivor, group, shown, erased_at)


def erased_ids(session: Session) -> list[int]:
    """Every player erased, by id: the list to keep beside the backups."""
    return list(session.scalars(select(Erasure.player_id).order_by(Erasure.player_id)))


def _still_held(session: Session, player: Player) -> bool:
    """Whether a record holds anything erasure removes: a personal field, a real name, a key."""
    if (
        player.email
        or player.date_of_birth
        or player.membership_number
        or player.full_name
        or player.name_key
    ):
        return True
    return session.get(PlayerKey, player.id) is not None


def reapply_erasures(session: Session, actor: Actor, also: Iterable[int] = ()) -> list[int]:
    """R21 after a restore: erase again every player of the list of erasures (the database's own,
    and `also`: ids kept from before the restore) who holds personal data again; audited as
    `player.erase_reapplied`. Ids naming no player are passed over. The ids erased again."""
    require_office(actor, "re-applies erasures", rule="R21")
    hold_writes(session)
    wanted = sorted(set(erased_ids(session)) | set(also))
    again: list[int] = []
    done: set[int] = set()
    for player_id in wanted:
        if player_id in done or session.get(Player, player_id) is None:
            continue
        group = merge_group(session, player_id)
        done |= set(group)
        players = [p for p in (session.get(Player, pid) for pid in group) if p is not None]
        holding = [p for p in players if _still_held(session, p)]
        listed = set(session.scalars(select(Erasure.player_id).where(Erasure.player_id.in_(group))))
        if not holding and listed >= set(group):
            continue
        erased = _apply(
            session,
            actor,
            players,
            "Erased before a backup was restored: applied again.",
            action="player.erase_reapplied",
        )
        again += erased.erased_ids
    return again


def inactive_players(session: Session, months: int) -> list[int]:
    """R21 retention: players (not merged away, not erased, not the demo's) with no result in a
    report dated within the last `months` months, on the league's clock, and registered before
    that: the final survivors, by id."""
    since = add_months(wall_clock.in_league(session), -months)
    recent = (
        select(Result.player_id)
        .join(Tournament, Tournament.id == Result.tournament_id)
        .where(Tournament.date >= since)
    )
    erased = select(Erasure.player_id)
    return list(
        session.scalars(
            select(Player.id)
            .where(
                Player.merged_into_id.is_(None),
                Player.demo.is_(False),
                Player.id.not_in(recent),
                Player.id.not_in(erased),
                Player.created_at < datetime.combine(since, time()),
            )
            .order_by(Player.id)
        )
    )


def erase_inactive(session: Session, actor: Actor, *, dry_run: bool = False) -> tuple[int | None, list[int]]:
    """R21 retention: with the league's `erase_inactive_after_months` set, erase each inactive
    player (audited, as `player.erase`); a dry run only lists them. (The setting, the ids.)"""
    require_office(actor, "erases inactive players", rule="R21")
    months = league_settings(session).erase_inactive_after_months
    if months is None:
        return None, []
    ids = inactive_players(session, months)
    if dry_run or not ids:
        return months, ids
    hold_writes(session)
    erased: list[int] = []
    for player_id in inactive_players(session, months):
        group = merge_group(session, player_id)
        players = [p for p in (session.get(Player, pid) for pid in group) if p is not None]
        reason = f"No result in {months} months (the league's retention setting)."
        erased += _apply(session, actor, players, reason).erased_ids
    return months, erased


def _survivor_of(players: Sequence[Player | None]) -> int:
    return next(p.id for p in players if p is not None and p.merged_into_id is None)


def _scrub_records(session: Session, group: set[int], old: set[str], display_name: str) -> None:
    """The personal values other records hold about the group: a merge's fields taken (for its
    undo), the free text of merges, sanctions, disqualifications and pairs told apart, the frozen
    qualifier lists, and stored first answers of idempotent requests."""
    ids = list(group)
    for merge in session.scalars(
        select(PlayerMerge).where(or_(PlayerMerge.survivor_id.in_(ids), PlayerMerge.duplicate_id.in_(ids)))
    ):
        moved = dict(merge.moved or {})
        if moved.get("fields"):
            moved["fields"] = {name: None for name in moved["fields"]}
            merge.moved = moved
        merge.reason = scrub(merge.reason, old) or ""
        merge.undo_reason = scrub(merge.undo_reason, old)
    for sanction in session.scalars(select(Sanction).where(Sanction.player_id.in_(ids))):
        sanction.reason = scrub(sanction.reason, old) or ""
        sanction.lift_reason = scrub(sanction.lift_reason, old)
    for item in session.scalars(select(Disqualification).where(Disqualification.player_id.in_(ids))):
        item.reason = scrub(item.reason, old) or ""
        item.withdraw_reason = scrub(item.withdraw_reason, old)
    for pair in session.scalars(
        select(DistinctPlayers).where(or_(DistinctPlayers.low_id.in_(ids), DistinctPlayers.high_id.in_(ids)))
    ):
        pair.reason = scrub(pair.reason, old) or ""
    for publication in session.scalars(select(QualifierPublication)):
        lists = _scrub_json(publication.lists, group, old, display_name)
        if lists != publication.lists:
            publication.lists = lists
    folded = [value.casefold() for value in old if len(value) >= LEAST_CONTAINED]
    for stored in session.scalars(select(IdempotentRequest)):
        text = repr(stored.response_body).casefold()
        if any(value in text for value in folded) or any(f"'{value.casefold()}'" in text for value in old):
            session.delete(stored)
    session.flush()
