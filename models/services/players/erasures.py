"""R21: erase a player's personal data on their request (the office). The personal fields go, the
display name becomes "Former player N" (or the office's choice), the player's audit log key is
deleted, so every personal value the log holds about them reads "[erased]" from then on, and
the results, standings, qualifiers, ratings and sanctions stand. Cannot be undone; once per
player (R17a). Erasing a record also erases the records merged into it and the one it was merged
into (they hold the same person's data): the whole group, from its final survivor."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.audit import AuditEntry
from models.entities.data_rights import Erasure, PlayerKey
from models.entities.idempotency import IdempotentRequest
from models.entities.merges import PlayerMerge
from models.entities.nights import Night
from models.entities.outbox import OutboxEvent
from models.entities.players import Player
from models.entities.qualifiers import QualifierPublication
from models.entities.reports import Report, Result
from models.errors import Conflict, Problem, RuleViolation
from models.infra.clock import utcnow
from models.rules.mentions import compact, name_parts, names_someone, scrub_text
from models.rules.personal import ERASED, LEAST_CONTAINED, former_player_name, personal_values
from models.rules.players import display_key
from models.rules.sanctions import add_months
from models.services import wall_clock
from models.services.access import may_erase_inactive_players, may_erase_player, may_reapply_erasures
from models.services.audit_log.personal_text import FREE_TEXT, PURGE_ANSWERS, forget, forms_of
from models.services.audit_log.player_keys import shred
from models.services.audit_log.queries import read_entries
from models.services.audit_log.writes import record
from models.services.locks import hold_writes, take_players
from models.services.lookup import get_or_raise, league_settings
from models.services.players.email_data import forget_emails
from models.services.players.survivors import final_survivor


@dataclass(frozen=True)
class Erased:
    player_id: int
    erased_ids: list[int]
    display_name: str
    erased_at: datetime


def is_erased(session: Session, player_id: int) -> bool:
    """R21: whether the player's personal data was erased."""
    return session.scalar(select(Erasure.id).where(Erasure.player_id == player_id)) is not None


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


def _old_values(session: Session, players: Iterable[Player]) -> set[str]:
    """Every personal value the records hold or held: the fields now, and every earlier one the
    audit log's entries about them still read (a display name changed since, an old email)."""
    players = list(players)
    values: set[str] = set()
    for p in players:
        for value in (p.full_name, p.display_name, p.email, p.membership_number, p.name_key, p.display_key):
            if value:
                values.add(value)
        if p.date_of_birth is not None:
            values.add(p.date_of_birth.isoformat())
    group = {p.id for p in players}
    entries = session.scalars(
        select(AuditEntry).where(AuditEntry.entity == "player", AuditEntry.entity_id.in_(group))
    ).all()
    for entry in read_entries(session, entries):
        held = personal_values(entry.entity, entry.entity_id, (entry.before, entry.after))
        for player_id in group & held.keys():
            values |= {value for value in held[player_id] if value != ERASED}
    return values | {part for value in values for part in name_parts(value)}


def scrub(text: str | None, values: Iterable[str], instead: str = ERASED) -> str | None:
    """Free text with every one of these personal values, in any spelling, replaced by "[erased]"
    (or `instead`)."""
    return scrub_text(text, forms_of(values), instead)


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
    """R21: the office's display name for an erased player names no one, in any spelling
    (case, accents, punctuation, look-alike letters): not a part of one of the player's own
    values, held now or before (a name, an email's local part, a date of birth in any form),
    nor another player's full name, email or membership number."""
    own: list[str | date] = []
    for value in old:
        try:
            own.append(date.fromisoformat(value) if len(value) == 10 else value)
        except ValueError:
            own.append(value)
    wanted = compact(display_name)
    others = (
        value
        for row in session.execute(
            select(Player.full_name, Player.email, Player.membership_number).where(Player.id.not_in(group))
        )
        for value in row
        if value and compact(value) == wanted
    )
    if names_someone(display_name, own, others):
        raise RuleViolation.at(
            "display_name",
            "A personal value (a full name, email or membership number, or a part of this "
            "player's own, in any spelling): an erased player's display name must name no one.",
            rule="R21",
        )


def erase_player(
    session: Session, actor: Actor, player_id: int, reason: str, display_name: str | None = None
) -> Erased:
    """R21: erase the personal data of the player's group (the office; audited without the
    erased values). A group erased already is refused (409, R17a): the players are locked first
    (the lower id first, as a merge locks them) and every other writer held off, so of two
    erasures the second sees the first; the erasures' unique player id is the last guard."""
    may_erase_player(actor)
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
    old = _old_values(session, players)
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
    forget(session, old)
    # R23: their consent, their links, what was not sent, and requests naming any address of theirs
    forget_emails(session, group, [value for value in old if "@" in value])
    _scrub_records(session, set(group), old, shown)
    shred(session, group)
    session.info[PURGE_ANSWERS] = True  # stored answers may hold a value: gone once committed
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
    may_reapply_erasures(actor)
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
        select(Result.player_id).join(Report, Report.id == Result.tournament_id).where(Report.date >= since)
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
    may_erase_inactive_players(actor)
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
    undo), every free text the league keeps (whoever it is about: a reason, a note), the frozen
    qualifier lists, and the stored first answers of idempotent requests (scrubbed, not deleted:
    a retry still gets its first answer, R17a)."""
    ids = list(group)
    forms = forms_of(old)
    for merge in session.scalars(
        select(PlayerMerge).where(or_(PlayerMerge.survivor_id.in_(ids), PlayerMerge.duplicate_id.in_(ids)))
    ):
        moved = dict(merge.moved or {})
        if moved.get("fields"):
            moved["fields"] = {name: None for name in moved["fields"]}
            merge.moved = moved
    for entity, columns in FREE_TEXT.items():
        written = or_(*(getattr(entity, column).is_not(None) for column in columns))
        for row in session.scalars(select(entity).where(written)):
            for column in columns:
                text = getattr(row, column)
                kept = scrub_text(text, forms)
                if kept != text:
                    setattr(row, column, kept)
    _scrub_nights(session, forms)
    _scrub_frozen(session, group, old, display_name)
    long_forms = [form for form in forms if len(form) >= LEAST_CONTAINED]
    for stored in session.scalars(select(IdempotentRequest)):
        whole = compact(json.dumps(stored.response_body))
        if not any(form in whole for form in long_forms) and not _names_any(stored.response_body, group):
            continue
        body = _scrub_json(stored.response_body, group, old, display_name)
        if body != stored.response_body:
            stored.response_body = body
    session.flush()


def _scrub_frozen(session: Session, group: set[int], old: set[str], display_name: str) -> None:
    """The frozen qualifier lists, and the events told or still to tell (R23)."""
    for publication in session.scalars(select(QualifierPublication)):
        lists = _scrub_json(publication.lists, group, old, display_name)
        if lists != publication.lists:
            publication.lists = lists
    for told in session.scalars(select(OutboxEvent)):
        data = _scrub_json(told.data, group, old, display_name)
        if data != told.data:
            told.data = data


def _scrub_nights(session: Session, forms: set[str]) -> None:
    """R22: why a night's report was refused names its players (by display name)."""
    for night in session.scalars(select(Night).where(Night.state == "finished")):
        if not night.report_problems:
            continue
        problems = [{**p, "message": scrub_text(p["message"], forms)} for p in night.report_problems or []]
        if problems != night.report_problems:
            night.report_problems = problems


def _names_any(node: Any, group: set[int]) -> bool:
    """Whether a stored answer holds a player of the group (by id, beside a name)."""
    if isinstance(node, dict):
        if "display_name" in node and any(node.get(key) in group for key in ("id", "player_id")):
            return True
        return any(_names_any(value, group) for value in node.values())
    if isinstance(node, list):
        return any(_names_any(value, group) for value in node)
    return False
