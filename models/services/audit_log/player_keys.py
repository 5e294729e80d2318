"""R21: the players' audit log keys. Personal values are sealed into an entry as it is written
(audit.record_each) and opened as the log is read (audit_queries); erasure shreds the keys."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from models.entities.data_rights import Erasure, PlayerKey
from models.entities.players import Player
from models.infra import sealing
from models.rules.personal import (
    ERASED,
    SEALED,
    WITHHELD,
    is_sealed,
    mentions,
    open_tree,
    personal_values,
    players_named,
    record_values,
    seal_tree,
    sealed_owners,
)
from models.services.audit_log.personal_text import free_texts, players_mentioned

# A session's unwrapped keys (session.info), so an entry's many values unwrap a key once.
_KEYS = "audit_data_keys"
# Text around it is looked up for the players an entry names by id only when they are this few
# (a sanction, a merge); a report naming hundreds carries no free text about any one of them.
MOST_LOOKED_UP = 20


def _cache(session: Session) -> dict[int, bytes]:
    cache: dict[int, bytes] = session.info.setdefault(_KEYS, {})
    return cache


def data_keys(session: Session, player_ids: Collection[int], *, create: bool = False) -> dict[int, bytes]:
    """The players' data keys that exist; with `create`, made for those that have none and were
    never erased (an erased player's key is never made again)."""
    cache = _cache(session)
    wanted = set(player_ids) - cache.keys()
    if wanted:
        keyring = sealing.current()
        rows = session.execute(
            select(PlayerKey.player_id, PlayerKey.wrapped_key).where(PlayerKey.player_id.in_(wanted))
        ).all()
        for player_id, wrapped in rows:
            cache[player_id] = keyring.unwrap(player_id, wrapped)
        missing = wanted - cache.keys()
        if create and missing:
            erased = set(session.scalars(select(Erasure.player_id).where(Erasure.player_id.in_(missing))))
            made = {player_id: keyring.new_data_key(player_id) for player_id in sorted(missing - erased)}
            if made:
                _insert_keys(session, {player_id: wrapped for player_id, (_key, wrapped) in made.items()})
                # Another transaction may have made one first: keep whichever is stored.
                for player_id, wrapped in session.execute(
                    select(PlayerKey.player_id, PlayerKey.wrapped_key).where(PlayerKey.player_id.in_(made))
                ):
                    cache[player_id] = keyring.unwrap(player_id, wrapped)
    return {player_id: cache[player_id] for player_id in player_ids if player_id in cache}


def _insert_keys(session: Session, wrapped: dict[int, bytes]) -> None:
    rows = [{"player_id": player_id, "wrapped_key": key} for player_id, key in wrapped.items()]
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    statement = dialect.insert(PlayerKey).on_conflict_do_nothing(index_elements=["player_id"])
    session.connection().execute(statement, rows)


def shred(session: Session, player_ids: Collection[int]) -> None:
    """Delete the players' keys: every value sealed under them is unreadable from now on."""
    session.execute(delete(PlayerKey).where(PlayerKey.player_id.in_(list(player_ids))))
    for player_id in player_ids:
        _cache(session).pop(player_id, None)


def record_values_of(session: Session, player_ids: Collection[int]) -> dict[int, set[str]]:
    """Each player's personal values as an entry might carry them."""
    rows = session.execute(
        select(
            Player.id,
            Player.full_name,
            Player.display_name,
            Player.email,
            Player.date_of_birth,
            Player.membership_number,
        ).where(Player.id.in_(list(player_ids)))
    ).all()
    return {row[0]: record_values(*row[1:]) for row in rows}


def seal_entries(
    session: Session, entity: str, rows: Sequence[tuple[int | None, Any, Any, str | None]]
) -> list[tuple[Any, Any, str | None]]:
    """Each (entity id, before, after, reason) as it is stored: every personal value about a
    player sealed under that player's key (R21)."""
    named = [players_named(entity, entity_id, (before, after)) for entity_id, before, after, _reason in rows]
    # The players an entry's free text names, whoever the entry is about (a sanction of another
    # player, a report's correction, a publication's note): their values in it are sealed too.
    texts = [
        [text for text in (reason,) if text] + [*free_texts(before), *free_texts(after)]
        for _entity_id, before, after, reason in rows
    ]
    mentioned = players_mentioned(session, {text for row in texts for text in row})
    in_text: list[dict[int, set[str]]] = []
    for ids, row in zip(named, texts, strict=True):
        held = {
            player: held
            for player, held in mentioned.items()
            if any(mentions(text, value, anyhow=True) for text in row for value in held)
        }
        ids.update(held)
        in_text.append(held)
    everyone = set().union(*named)
    if not everyone:
        return [(before, after, reason) for _entity_id, before, after, reason in rows]
    keys = data_keys(session, everyone, create=True)
    looked_up: dict[int, set[str]] = {}
    few = [ids for ids in named if len(ids) <= MOST_LOOKED_UP]
    if few:
        looked_up = record_values_of(session, set().union(*few) & keys.keys())

    def seal(value: Any, owners: list[int]) -> dict[str, Any]:
        return {SEALED: owners, "v": sealing.seal_value(keys, owners, value)}

    sealed = []
    for ids, held, (entity_id, before, after, reason) in zip(named, in_text, rows, strict=True):
        values = personal_values(entity, entity_id, (before, after))
        for player_id, found in held.items():
            values.setdefault(player_id, set()).update(found)
        if len(ids) <= MOST_LOOKED_UP:
            for player_id in ids:
                values.setdefault(player_id, set()).update(looked_up.get(player_id, ()))
        owner = entity_id if entity == "player" else None
        stored_reason = reason
        if reason:
            token = seal_tree(reason, owner, values, keys.keys(), seal, free=True)
            stored_reason = json.dumps(token) if is_sealed(token) else reason
        sealed.append(
            (
                seal_tree(before, owner, values, keys.keys(), seal),
                seal_tree(after, owner, values, keys.keys(), seal),
                stored_reason,
            )
        )
    return sealed


def sealed_reason(reason: str | None) -> dict[str, Any] | None:
    """The token a reason column holds when its text was sealed."""
    if reason and reason.startswith('{"' + SEALED + '"'):
        try:
            token = json.loads(reason)
        except ValueError:
            return None
        if is_sealed(token):
            return dict(token)
    return None


def opener(session: Session, parts: Sequence[Any], only: Collection[int] | None = None) -> Any:
    """A function that opens one entry's part (JSON, or a reason's text): each sealed value
    readable while its players' keys exist, ERASED once any is gone. With `only` (a player's
    data export), a value about any other player is WITHHELD."""
    owners: set[int] = set()
    for part in parts:
        token = sealed_reason(part) if isinstance(part, str) else None
        owners |= sealed_owners(token if token is not None else part)
    keys = data_keys(session, owners) if owners else {}

    def unseal(token: dict[str, Any]) -> Any:
        owners = [int(p) for p in token[SEALED]]
        if only is not None and not set(owners) <= set(only):
            return WITHHELD
        try:
            return sealing.open_value(keys, owners, token["v"])
        except sealing.Unreadable:
            return ERASED

    def open_part(part: Any) -> Any:
        if isinstance(part, str):
            token = sealed_reason(part)
            if token is None:
                return part
            value = unseal(token)
            return value if isinstance(value, str) else ERASED
        return open_tree(part, unseal)

    return open_part
