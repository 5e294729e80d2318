"""Merging duplicate players (R5, R17, R18): the office moves a duplicate's results, sanctions,
disqualifications, home venue and membership details to the player who survives, and can undo it
exactly. Each merge and undo is audited. Standings, qualifiers and profiles follow at once: both
players' standing lines are recomputed from the results where they now stand."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from models.actor import Actor
from models.entities.league import Season
from models.entities.merges import PlayerMerge
from models.entities.players import Player
from models.entities.qualifiers import Disqualification
from models.entities.reports import Result
from models.entities.sanctions import Sanction
from models.infra.clock import utcnow
from models.services.access import may_merge_players
from models.services.audit_log.writes import plain, record, snapshot
from models.services.locks import hold_writes, take_players
from models.services.player_merges.checks import check_merge, check_undo
from models.services.players.erasures import refuse_if_erased
from models.services.ratings.writes import earliest_of_results, replay_from
from models.services.reports.knockouts import settle_bounties
from models.services.standings.line_queries import places_of_results
from models.services.standings.lines import refresh_places
from models.services.webhooks.tell import standings_told

# Fields the survivor takes from the duplicate when it has none of its own.
TAKEN_FIELDS = ("email", "date_of_birth", "membership_number", "home_venue_id")
# Unique fields: the duplicate gives them up, so the survivor can hold them.
UNIQUE_FIELDS = ("email", "membership_number")


def merge_players(
    session: Session, actor: Actor, survivor: Player, duplicate_id: int, reason: str
) -> PlayerMerge:
    """R17: merge `duplicate_id` into `survivor`. Refused (409) when both have a result in one
    tournament, or are both disqualified for one season; the record of the duplicate stays
    (pointing at the survivor) so the merge can be undone."""
    may_merge_players(actor)
    # R17a: both players locked (the lower id first) and every other writer held off before the
    # checks, so of two merges of one record, or crosswise, the second sees the first.
    locked = take_players(session, (survivor.id, duplicate_id))
    hold_writes(session)
    refuse_if_erased(session, (survivor.id, duplicate_id), "duplicate_id", "merged")
    duplicate = check_merge(session, survivor, locked.get(duplicate_id), duplicate_id)
    before = {"survivor": snapshot(survivor), "duplicate": snapshot(duplicate)}
    moved = _records_of(session, duplicate.id)
    _move(session, moved, survivor.id, (survivor.id, duplicate.id))
    taken = {
        name: getattr(duplicate, name)
        for name in TAKEN_FIELDS
        if getattr(survivor, name) is None and getattr(duplicate, name) is not None
    }
    for name in UNIQUE_FIELDS:
        if name in taken:
            setattr(duplicate, name, None)
    session.flush()
    for name, value in taken.items():
        setattr(survivor, name, value)
    moved["fields"] = {name: plain(value) for name, value in taken.items()}
    duplicate.merged_into_id = survivor.id
    merge = PlayerMerge(
        survivor_id=survivor.id,
        duplicate_id=duplicate.id,
        reason=reason,
        merged_by=actor.name,
        merged_by_key_id=actor.key_id,
        moved=moved,
    )
    session.add(merge)
    session.flush()
    session.expire_all()
    record(
        session,
        actor,
        "player.merge",
        "player",
        survivor.id,
        before=before,
        after={"merge_id": merge.id, "moved": moved, "survivor": snapshot(session.get(Player, survivor.id))},
        reason=reason,
    )
    return merge


def _records_of(session: Session, player_id: int) -> dict[str, Any]:
    """What a merge moves from the duplicate, by id (kept with the merge, so its undo moves back
    exactly these): results, sanctions, disqualifications; the fields taken are added later."""
    records: dict[str, Any] = {}
    for name, entity in (
        ("results", Result),
        ("sanctions", Sanction),
        ("disqualifications", Disqualification),
    ):
        found = select(entity.id).where(entity.player_id == player_id).order_by(entity.id)
        records[name] = list(session.scalars(found))
    # R8a: the results whose knocker the duplicate was.
    knocked = select(Result.id).where(Result.knocked_out_by_id == player_id).order_by(Result.id)
    records["knocked_by"] = list(session.scalars(knocked))
    records["fields"] = {}
    return records


def _move(session: Session, moved: dict[str, Any], to: int, players: tuple[int, int]) -> None:
    """Give the moved results, sanctions and disqualifications to player `to`; both players'
    standing lines where the results count are recomputed (R1, R9-R11), and the ratings from
    the earliest moved result on (R20)."""
    for entity, ids in (
        (Result, moved["results"]),
        (Sanction, moved["sanctions"]),
        (Disqualification, moved["disqualifications"]),
    ):
        if ids:
            session.execute(update(entity).where(entity.id.in_(ids)).values(player_id=to))
    knocked = moved.get("knocked_by", [])  # merges made before R8a kept none
    if knocked:
        session.execute(update(Result).where(Result.id.in_(knocked)).values(knocked_out_by_id=to))
    places = places_of_results(session, [*moved["results"], *knocked])
    refresh_places(session, places, set(players))
    standings_told(session, places)  # R23
    # R8a: the leaders a bounty was on may have changed with the lines.
    for season_id, venue_id in sorted(places):
        season = session.get(Season, season_id)
        if season is not None and season.knockout_rule.has_bounty:
            refresh_places(session, {(season_id, venue_id)}, settle_bounties(session, season, venue_id))
    # R20: the moved results are rated under their new player from the earliest of them on.
    replay_from(session, earliest_of_results(session, moved["results"]), players=players)


def undo_merge(session: Session, actor: Actor, merge: PlayerMerge, reason: str) -> PlayerMerge:
    """R17: restore both players exactly as they were before the merge. Refused (409), saying
    what, when it was undone already or something since depends on it: a moved result was
    replaced by a correction, a field the survivor took was changed, or the survivor was merged
    away in a later merge (undo that one first)."""
    may_merge_players(actor)
    # R17a: as a merge, both players locked and every other writer held off before the checks;
    # the merge read again, so of ten undos at once, the nine after the first see it undone.
    locked = take_players(session, (merge.survivor_id, merge.duplicate_id))
    hold_writes(session)
    session.refresh(merge)
    survivor, duplicate = locked[merge.survivor_id], locked[merge.duplicate_id]
    check_undo(session, merge, survivor, duplicate)
    moved = merge.moved
    before = {"survivor": snapshot(survivor), "duplicate": snapshot(duplicate)}
    # The duplicate is a player again before anything moves back to it (the database refuses a
    # result for a player merged away).
    duplicate.merged_into_id = None
    session.flush()
    _move(session, moved, duplicate.id, (survivor.id, duplicate.id))
    original = {name: getattr(survivor, name) for name in moved["fields"]}
    for name in moved["fields"]:
        setattr(survivor, name, None)
    session.flush()
    for name, value in original.items():
        setattr(duplicate, name, value)
    merge.undone_at = utcnow()
    merge.undone_by = actor.name
    merge.undo_reason = reason
    session.flush()
    session.expire_all()
    record(
        session,
        actor,
        "player.merge_undo",
        "player",
        merge.survivor_id,
        before=before,
        after={
            "merge_id": merge.id,
            "survivor": snapshot(session.get(Player, merge.survivor_id)),
            "duplicate": snapshot(session.get(Player, merge.duplicate_id)),
        },
        reason=reason,
    )
    return merge
