"""R19, R21: which values of an audit entry are personal, and whose; how an erased player is
named. Pure: the sealing itself (a key per player) is done by the caller's `seal`."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from datetime import date
from typing import Any

from models.rules.mentions import holds, value_forms

# The personal fields of R19 as a player's record and its snapshots name them, with the display
# name (often the person's name) and the keys derived from names (R5's search and look-alikes).
PERSONAL_KEYS = frozenset(
    {
        "full_name",
        "display_name",
        "email",
        "date_of_birth",
        "membership_number",
        "pin",
        "name_key",
        "display_key",
    }
)
# The keys under which an entry's before and after hold free text someone wrote.
FREE_TEXT_KEYS = frozenset(
    {"reason", "lift_reason", "withdraw_reason", "undo_reason", "void_reason", "note", "late_reason"}
)
# Keys whose integer value names a player, wherever they appear in an entry.
PLAYER_ID_KEYS = frozenset({"player_id", "survivor_id", "duplicate_id", "low_id", "high_id"})
# What the log shows where a value was sealed under a key that is gone (R21).
ERASED = "[erased]"
# What a player's data export shows where an entry holds another player's personal value.
WITHHELD = "[another player's]"
# A sealed value in an entry's JSON: {"sealed": [player ids, in sealing order], "v": "..."}.
SEALED = "sealed"
# A free-text value shorter than this is sealed only when it equals a personal value, not when it
# merely contains one (a display name "Al" is in "Alpha's Bar").
LEAST_CONTAINED = 4

Seal = Callable[[Any, list[int]], Any]


def former_player_name(player_id: int) -> str:
    """R21: an erased player's display name unless the office gives another."""
    return f"Former player {player_id}"


def is_sealed(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {SEALED, "v"}


def _owner_of(node: Mapping[str, Any], inherited: int | None) -> int | None:
    """The player a dict of personal values is about: its player_id, else its id (a player's
    snapshot), else the player of the entry (or dict) around it."""
    if PERSONAL_KEYS.isdisjoint(node):
        return inherited
    for key in ("player_id", "id"):
        value = node.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return inherited


def players_named(entity: str, entity_id: int | None, parts: Iterable[Any]) -> set[int]:
    """Every player an entry names: its own id (an entry about a player), the ids under
    PLAYER_ID_KEYS, and the owners of its personal values."""
    named: set[int] = set()
    top = entity_id if entity == "player" else None
    if top is not None:
        named.add(top)

    def walk(node: Any, owner: int | None) -> None:
        if isinstance(node, dict):
            if is_sealed(node):
                return
            mine = _owner_of(node, owner)
            if mine is not None and not PERSONAL_KEYS.isdisjoint(node):
                named.add(mine)
            for key, value in node.items():
                if key in PLAYER_ID_KEYS and isinstance(value, int) and not isinstance(value, bool):
                    named.add(value)
                walk(value, mine)
        elif isinstance(node, list):
            for value in node:
                walk(value, owner)

    for part in parts:
        walk(part, top)
    return named


def personal_values(entity: str, entity_id: int | None, parts: Iterable[Any]) -> dict[int, set[str]]:
    """The personal values an entry itself carries, by the player they are about."""
    found: dict[int, set[str]] = {}
    top = entity_id if entity == "player" else None

    def walk(node: Any, owner: int | None) -> None:
        if isinstance(node, dict):
            if is_sealed(node):
                return
            mine = _owner_of(node, owner)
            for key, value in node.items():
                if key in PERSONAL_KEYS and mine is not None and value not in (None, ""):
                    found.setdefault(mine, set()).add(str(value))
                else:
                    walk(value, mine)
        elif isinstance(node, list):
            for value in node:
                walk(value, owner)

    for part in parts:
        walk(part, top)
    return found


def record_values(
    full_name: str | None,
    display_name: str | None,
    email: str | None,
    date_of_birth: date | None,
    membership_number: str | None,
) -> set[str]:
    """A player's personal values as an entry might carry them (a PIN is within the number)."""
    values = {full_name, display_name, email, membership_number}
    if date_of_birth is not None:
        values.add(date_of_birth.isoformat())
    return {value for value in values if value}


def mentions(text: str, value: str, *, anyhow: bool = False) -> bool:
    """Whether the text holds the value as written (in any case); `anyhow`, in another spelling
    too (`models.rules.mentions`: accents, punctuation, look-alike letters, a date's other forms),
    which is looked for in free text only (a reason, a note: FREE_TEXT_KEYS)."""
    return _holds_folded(text, text.casefold(), value, value.casefold(), anyhow)


def seal_tree(
    node: Any,
    owner: int | None,
    values: Mapping[int, Collection[str]],
    sealable: Collection[int],
    seal: Seal,
    free: bool = False,
) -> Any:
    """A copy of `node` with every personal value about a sealable player replaced by
    `seal(value, [player])`: the values under PERSONAL_KEYS (by their owner), and any other text
    that holds one of `values` (sealed under each player it names, so erasing any of them shreds
    it; free text, `free` or under FREE_TEXT_KEYS, in any spelling). Values about players not
    sealable (erased: nothing personal is left) stay as they are."""
    # Each value folded once for the whole tree (a report's entry holds hundreds of texts).
    folded = {
        player: [(value, value.casefold()) for value in held]
        for player, held in values.items()
        if player in sealable
    }
    return _sealed(node, owner, folded, sealable, seal, free)


def _sealed(
    node: Any,
    owner: int | None,
    folded: Mapping[int, list[tuple[str, str]]],
    sealable: Collection[int],
    seal: Seal,
    free: bool,
) -> Any:
    if isinstance(node, dict):
        if is_sealed(node):
            return node
        mine = _owner_of(node, owner)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in PERSONAL_KEYS and value not in (None, "") and mine is not None and mine in sealable:
                out[key] = seal(value, [mine])
            else:
                out[key] = _sealed(value, mine, folded, sealable, seal, key in FREE_TEXT_KEYS)
        return out
    if isinstance(node, list):
        return [_sealed(value, owner, folded, sealable, seal, free) for value in node]
    if isinstance(node, str) and node:
        text = node.casefold()
        owners = sorted(
            player
            for player, held in folded.items()
            if any(_holds_folded(node, text, value, wanted, free) for value, wanted in held)
        )
        if owners:
            return seal(node, owners)
    return node


def _holds_folded(node: str, text: str, value: str, wanted: str, anyhow: bool) -> bool:
    """`mentions(node, value, anyhow=anyhow)`, with both already folded (`text`, `wanted`)."""
    if text == wanted or (len(wanted) >= LEAST_CONTAINED and wanted in text):
        return True
    return anyhow and holds(node, value_forms(value))


def sealed_owners(node: Any) -> set[int]:
    """Every player whose key a (sealed) entry's values need."""
    owners: set[int] = set()
    if is_sealed(node):
        owners.update(int(player) for player in node[SEALED])
    elif isinstance(node, dict):
        for value in node.values():
            owners |= sealed_owners(value)
    elif isinstance(node, list):
        for value in node:
            owners |= sealed_owners(value)
    return owners


def open_tree(node: Any, unseal: Callable[[dict[str, Any]], Any]) -> Any:
    """A copy of `node` with every sealed value replaced by `unseal(token)`."""
    if is_sealed(node):
        return unseal(node)
    if isinstance(node, dict):
        return {key: open_tree(value, unseal) for key, value in node.items()}
    if isinstance(node, list):
        return [open_tree(value, unseal) for value in node]
    return node
