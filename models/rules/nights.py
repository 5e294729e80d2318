"""The night's tables and its finishing order (R22, R4): the seat draw at tables of the venue's
size, a late entrant's open seat, the moves that keep tables within one player of each other as
players go out (001 §7) and break a table when the rest fit at one fewer; and the places, counted
from the bottom, of players out (several on one hand ordered by their chips before it, more
chips finishing higher, 000 and 001 §6), of a night ended early by chip counts (001 §8); and
re-entry as the venue allows it (002: once, at a break, until the break it says), in words.

Pure: the random source is handed in (the services pass `secrets.SystemRandom()`)."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from models.rules.structures import Structure, clock_at, periods, said_period

Seat = tuple[int, int]  # (table, seat), both from 1
MOST_AT_A_TABLE = 12


@dataclass(frozen=True)
class Move:
    player_id: int
    source: Seat
    to: Seat


def draw(players: Sequence[int], table_size: int, rng: random.Random) -> dict[int, Seat]:
    """R22: the seat draw. As few tables as hold everyone, their counts within one of each other;
    who sits where, and at which seat numbers, drawn from `rng`."""
    if not players:
        return {}
    tables = math.ceil(len(players) / table_size)
    order = list(players)
    rng.shuffle(order)
    at: dict[int, list[int]] = {table: [] for table in range(1, tables + 1)}
    for n, player in enumerate(order):
        at[n % tables + 1].append(player)
    seats: dict[int, Seat] = {}
    for table, sitting in at.items():
        for player, seat in zip(sitting, rng.sample(range(1, table_size + 1), len(sitting)), strict=True):
            seats[player] = (table, seat)
    return seats


def counts(seated: Mapping[int, Seat], tables: set[int] | None = None) -> dict[int, int]:
    found = dict.fromkeys(tables or (), 0)
    for table, _seat in seated.values():
        found[table] = found.get(table, 0) + 1
    return found


def open_seat(
    seated: Mapping[int, Seat], table_size: int, rng: random.Random, avoid: int | None = None
) -> Seat:
    """A random free seat at a table with the fewest players (`avoid`: not at this table); a new
    table when every table is full."""
    by_table = counts(seated)
    choices = {table: n for table, n in by_table.items() if n < table_size and table != avoid}
    if not choices:
        table = max(by_table, default=0) + 1
        return table, rng.randint(1, table_size)
    fewest = min(choices.values())
    table = rng.choice(sorted(t for t, n in choices.items() if n == fewest))
    taken = {seat for t, seat in seated.values() if t == table}
    return table, rng.choice([seat for seat in range(1, table_size + 1) if seat not in taken])


def balance(seated: Mapping[int, Seat], table_size: int, rng: random.Random) -> list[Move]:
    """R22 (001 §7): the moves after players went out. When the players left fit at one table
    fewer, the table with the fewest players breaks (the highest number of those), its players to
    open seats elsewhere; then, while one table has two or more players more than another, a
    player drawn from the fullest moves to an open seat at the emptiest."""
    now = dict(seated)
    moves: list[Move] = []
    while True:
        by_table = counts(now)
        tables = len(by_table)
        if tables > 1 and len(now) <= (tables - 1) * table_size:
            fewest = min(by_table.values())
            breaking = max(t for t, n in by_table.items() if n == fewest)
            leaving = sorted(p for p, (t, _s) in now.items() if t == breaking)
            for player in leaving:
                del now[player]
            for player in leaving:
                to = open_seat(now, table_size, rng)
                moves.append(Move(player, seated[player], to))
                now[player] = to
            continue
        if tables > 1 and max(by_table.values()) - min(by_table.values()) >= 2:
            most = max(by_table.values())
            fullest = min(t for t, n in by_table.items() if n == most)
            emptiest = min(by_table, key=lambda t: (by_table[t], t))
            player = rng.choice(sorted(p for p, (t, _s) in now.items() if t == fullest))
            taken = {seat for t, seat in now.values() if t == emptiest}
            to = (emptiest, rng.choice([s for s in range(1, table_size + 1) if s not in taken]))
            moves.append(Move(player, now[player], to))
            now[player] = to
            continue
        return moves


@dataclass(frozen=True)
class Out:
    """A player out: `hand` orders the eliminations (a later hand finishes higher), `rank` orders
    players out on one hand (0 finishes highest)."""

    player_id: int
    hand: int
    rank: int


def hand_order(chips: Sequence[tuple[int, int | None]]) -> list[int]:
    """Players out on one hand, best first: more chips before the hand finishes higher; equal or
    unknown chips keep the order given (the host's, R4)."""
    indexed = list(enumerate(chips))
    indexed.sort(key=lambda item: (-(item[1][1] or 0), item[0]))
    return [player for _n, (player, _chips) in indexed]


def places(entrants: int, out: Sequence[Out], left: Sequence[int] = ()) -> dict[int, int]:
    """R4: places from the bottom. Of `entrants`, the players out take the last places (an
    earlier hand lower; on one hand, by rank); `left`, the players still in, in their order
    (one winner; or chip counts at an early end), take places 1 to len(left)."""
    found = {player: n for n, player in enumerate(left, 1)}
    worst_first = sorted(out, key=lambda o: (o.hand, -o.rank))
    for n, gone in enumerate(worst_first):
        found[gone.player_id] = entrants - n
    return found


# Re-entry (R22, 002) -----------------------------------------------------------------------

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


@dataclass(frozen=True)
class ReEntry:
    """The venue's re-entry (R22): allowed or not, and at which breaks: the first `until_break`
    of the structure's (None: any)."""

    allowed: bool = True
    until_break: int | None = None


def said_break(number: int) -> str:
    """ "the first break", "the third break", "break 12"."""
    return f"the {ORDINALS[number - 1]} break" if 1 <= number <= len(ORDINALS) else f"break {number}"


def said_re_entry(rule: ReEntry) -> str:
    """What tonight allows, in a host's (and a player's) words."""
    if not rule.allowed:
        return "Re-entry: not tonight"
    if rule.until_break is None:
        return "Re-entry: allowed once, at any break"
    return f"Re-entry: allowed once, until {said_break(rule.until_break)}"


def break_number(structure: Structure, played: float) -> int | None:
    """The number (1-based) of the break being played, None when a level is."""
    at = clock_at(structure, played)
    if not at.period.is_break:
        return None
    return sum(period.is_break for period in periods(structure)[: at.index + 1])


def re_entry_closed(structure: Structure, rule: ReEntry, played: float) -> bool:
    """Past the last break re-entry is allowed at (a venue allowing it until the first break:
    from the level after it on)."""
    if not rule.allowed:
        return True
    if rule.until_break is None:
        return False
    breaks = [period for period in periods(structure) if period.is_break]
    if rule.until_break > len(breaks):
        return False
    last = breaks[rule.until_break - 1]
    return last.ends is not None and played >= last.ends


def re_entry_problem(structure: Structure, rule: ReEntry, played: float, started: bool) -> str | None:
    """R22 (002): why a player out cannot re-enter now, in words; None: they may (once)."""
    if not rule.allowed:
        return "Re-entry is not allowed tonight: the venue's nights have none."
    if re_entry_closed(structure, rule, played):
        assert rule.until_break is not None
        return (
            f"Re-entry closed at the end of {said_break(rule.until_break)}: the venue allows it "
            "until then, not after."
        )
    number = break_number(structure, played) if started else None
    if number is None:
        coming = next((p for p in periods(structure) if p.is_break and p.starts >= played), None)
        when = f": the next is {said_period(coming)}" if coming is not None else ""
        return f"A player re-enters at a break{when}."
    return None


def re_entry_open(structure: Structure, rule: ReEntry, played: float, started: bool) -> bool:
    return re_entry_problem(structure, rule, played, started) is None
