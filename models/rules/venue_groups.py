"""R14: the venues in groups linked by players who stand at more than one. Qualification
(rules/qualifiers.py) assigns each group alone: a player may qualify only where they stand, so no
group's outcome depends on another's, and after a report only the groups it touches are linked and
assigned again."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from models.rules.qualifiers import Standing


def linked_venues(orders: Mapping[int, Sequence[Standing]]) -> list[list[int]]:
    """R14: the venues in groups linked by players who stand at more than one (a player at A and
    B links them, one at B and C links C too). Qualification assigns each group alone: a player
    may qualify only where they stand, so no group's outcome depends on another's. Each group's
    venues in the order given; groups by their first venue."""
    parent: dict[int, int] = {venue: venue for venue in orders}

    def root(venue: int) -> int:
        while parent[venue] != venue:
            parent[venue] = parent[parent[venue]]
            venue = parent[venue]
        return venue

    seen: dict[int, int] = {}  # player -> a venue they stand at
    for venue, order in orders.items():
        for standing in order:
            other = seen.setdefault(standing.player_id, venue)
            if other != venue:
                a, b = root(other), root(venue)
                if a != b:
                    parent[b] = a
    groups: dict[int, list[int]] = {}
    for venue in orders:
        groups.setdefault(root(venue), []).append(venue)
    return list(groups.values())


class Linking(NamedTuple):
    """`linked_venues`' groups as a lookup, for relinking after some venues' orders changed: each
    venue's group, and for each player who stands somewhere, the group of those venues (kept as
    it was when the player was last seen: a player who since left every order may name a group
    that is no more, which only widens the next relinking)."""

    groups: list[tuple[int, ...]]
    of_venue: dict[int, tuple[int, ...]]
    of_player: dict[int, tuple[int, ...]]


def linking(orders: Mapping[int, Sequence[Standing]]) -> Linking:
    """`linked_venues` of these orders, as a `Linking`."""
    return _linked(orders, linked_venues(orders), {}, {})


def relink(orders: Mapping[int, Sequence[Standing]], changed: Collection[int], before: Linking) -> Linking:
    """The same groups as `linking(orders)`, from `before`: the linking of orders that differ
    from these at the `changed` venues only (a venue added or gone counts as changed). Only the
    groups a changed venue touches are linked again: its own, and those of the players it holds
    now (a player standing at a venue of another group joins the two). Every other group keeps
    its venues: no link into it or out of it can have changed."""
    touched = {before.of_venue[v] for v in changed if v in before.of_venue}
    for venue_id in changed:
        for standing in orders.get(venue_id, ()):
            group = before.of_player.get(standing.player_id)
            if group is not None:
                # The group as it stands now: a player's may be one since split.
                touched.update(before.of_venue[v] for v in group if v in before.of_venue)
    again = {venue_id for group in touched for venue_id in group} | set(changed)
    of_venue = {v: group for v, group in before.of_venue.items() if v in orders}
    of_player = dict(before.of_player)
    return _linked(
        orders, linked_venues({v: order for v, order in orders.items() if v in again}), of_venue, of_player
    )


def _linked(
    orders: Mapping[int, Sequence[Standing]],
    groups: list[list[int]],
    of_venue: dict[int, tuple[int, ...]],
    of_player: dict[int, tuple[int, ...]],
) -> Linking:
    for group in groups:
        key = tuple(group)
        for venue_id in key:
            of_venue[venue_id] = key
            for standing in orders[venue_id]:
                of_player[standing.player_id] = key
    # In `linked_venues`' order: by each group's first venue in the order given.
    ordered = list(dict.fromkeys(of_venue[venue_id] for venue_id in orders))
    return Linking(ordered, of_venue, of_player)
