"""R5 and R19: how players are named, identified and told apart."""

from __future__ import annotations

import bisect
import heapq
import re
import unicodedata
from collections.abc import Iterable
from datetime import date
from functools import lru_cache
from itertools import islice
from typing import NamedTuple

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

# ASCII digits only (\d would take any script's digits) and \Z (a $ would let "...\n" through).
MEMBERSHIP_RE = re.compile(r"^(\d{4})(\d{2})(\d{2})(\d{4})\Z", re.ASCII)
# The stored widths of players.name_key and players.display_name: a derived value must fit.
NAME_KEY_MAX = 200
DISPLAY_NAME_MAX = 120


def normalise_name(full_name: str) -> str:
    """Lower case, accents, punctuation and repeated spaces removed: 'José  O'Neil' -> 'jose oneil'."""
    decomposed = unicodedata.normalize("NFKD", full_name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    plain = re.sub(r"[^\w\s]", "", plain)
    # NFKD and casefold can lengthen a name ('ß' -> 'ss'), so cap it to the stored width.
    return " ".join(plain.split())[:NAME_KEY_MAX].rstrip()


def display_key(display_name: str) -> str:
    """A display name normalised as names are, capped to the display name's stored width."""
    return normalise_name(display_name)[:DISPLAY_NAME_MAX].rstrip()


def normalise_email(email: str) -> str:
    return email.strip().lower()


def default_display_name(full_name: str) -> str:
    """R19: the public sees a display name; by default the first name and the last initial."""
    parts = full_name.split()
    if len(parts) < 2:
        return full_name.strip()[:DISPLAY_NAME_MAX]
    initial = parts[-1][0].upper()
    return f"{parts[0][: DISPLAY_NAME_MAX - len(initial) - 2]} {initial}."


# R19: telling apart players who share a display name ------------------------------------------


@lru_cache(maxsize=1 << 16)
def _shared_key(display_name: str) -> str:
    """`display_key`, remembered: every list an answer shows is labelled, and names recur."""
    return display_key(display_name)


def display_name_clashes(players: Iterable[tuple[int, str]]) -> list[list[int]]:
    """R19: the groups of players of one answer, given as (id, display name), who share a display
    name: compared as `display_key` compares them (case, accents, punctuation and spacing
    ignored, so "Crystal K." and "crystal k" are one name). The same player listed twice is no
    clash. Each group lists its ids in the order first met; groups in the order of their first."""
    groups: dict[str, dict[int, None]] = {}
    for player_id, name in players:
        groups.setdefault(_shared_key(name), {})[player_id] = None
    return [list(ids) for ids in groups.values() if len(ids) > 1]


def numbered_players(players: Iterable[tuple[int, str]]) -> set[int]:
    """R19: the players of one answer shown with their player number: those whose display name
    another player of the answer shares. Every other player is shown by display name alone."""
    return {player_id for ids in display_name_clashes(players) for player_id in ids}


def player_label(player_id: int, display_name: str, numbered: bool) -> str:
    """R19: how a player is shown in a list: the display name, and the player number where it
    is needed to tell them apart ("Crystal K. #48")."""
    return f"{display_name} #{player_id}" if numbered else display_name


def player_labels(players: Iterable[tuple[int, str]]) -> dict[int, str]:
    """R19: each player of one answer, given as (id, display name), with their label."""
    names = dict(players)
    numbered = numbered_players(names.items())
    return {
        player_id: player_label(player_id, name, player_id in numbered) for player_id, name in names.items()
    }


def distinct_display_name(full_name: str, others: Iterable[str], taken: Iterable[str]) -> str | None:
    """R19: a display name for the player named `full_name` that tells them apart from the players
    sharing their display name (`others`: those players' full names; `taken`: the display names
    in use among them, the player's own included), suggested to the office.

    The first name and the shortest prefix of the surname that no other surname starts with
    ("Crystal Kin." beside Crystal Kim), but never the whole surname: where only the whole one
    would tell them apart, the longest prefix short of it ("Crystal Ki." for Crystal Kim beside
    Crystal King), if it differs from every name taken. None when nothing short of the surname
    does (a one-word name, or "Ko" beside "Kolb": the office then renames the other player)."""
    parts = full_name.split()
    if len(parts) < 2:
        return None
    first, surname = parts[0], parts[-1]
    rivals = [normalise_name(other.split()[-1]) for other in others if other.split()]
    needed = next(
        (
            n
            for n in range(1, len(surname) + 1)
            if not any(rival.startswith(normalise_name(surname[:n])) for rival in rivals)
        ),
        len(surname) + 1,
    )
    in_use = {display_key(name) for name in taken}
    for n in range(max(1, min(needed, len(surname) - 1)), len(surname)):
        prefix = surname[:n]
        if not prefix[-1].isalnum():
            continue
        initials = f"{prefix[0].upper()}{prefix[1:]}"
        candidate = f"{first[: DISPLAY_NAME_MAX - len(initials) - 2]} {initials}."
        if display_key(candidate) not in in_use:
            return candidate
    return None


def date_of_birth_problem(born: date, today: date) -> str | None:
    """What is wrong with a date of birth: before 1900, or after today (the local today, R2a)."""
    if date(1900, 1, 1) <= born <= today:
        return None
    return f"Must be a date between 1900-01-01 and today ({today.isoformat()}); {born.isoformat()} is not."


def parse_membership_number(number: str, today: date | None = None) -> date:
    """R5 (002): a membership number is the date of birth YYYYMMDD followed by a 4-digit PIN.

    Returns the date of birth; raises ValueError naming what is wrong. Given `today`, a date of
    birth after it (or before 1900, as for a date of birth given on its own) is refused too.
    """
    match = MEMBERSHIP_RE.match(number)
    if not match:
        raise ValueError("A membership number is 12 digits: the date of birth (YYYYMMDD) and a 4-digit PIN.")
    year, month, day, _pin = match.groups()
    try:
        born = date(int(year), int(month), int(day))
    except ValueError:
        raise ValueError(
            f"The first 8 digits must be a real date of birth (YYYYMMDD); {year}-{month}-{day} is not."
        ) from None
    if today is not None and not date(1900, 1, 1) <= born <= today:
        raise ValueError(
            f"The first 8 digits must be a date of birth between 1900-01-01 and today; "
            f"{born.isoformat()} is not."
        )
    return born


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, exact up to `limit`; beyond it, any number above `limit`."""
    distance: int = Levenshtein.distance(a, b, score_cutoff=limit)
    return distance


def name_match_limit(name_key: str) -> int:
    """How many typos still count as 'closely matches': 1 for short names, 2 from 10 letters."""
    return 1 if len(name_key) < 10 else 2


def similar_names(name_key: str, candidates: Iterable[tuple[int, str]]) -> list[int]:
    """R5: ids of candidates whose normalised name equals or is a small edit away from name_key.

    Also matches the same words in another order ('Lee Ann' for 'Ann Lee').
    """
    limit = name_match_limit(name_key)
    words = sorted(name_key.split())
    found = []
    for candidate_id, key in candidates:
        if key == name_key or sorted(key.split()) == words or edit_distance(key, name_key, limit) <= limit:
            found.append(candidate_id)
    return found


# A word this long or longer, shared by two names, makes them worth comparing (see NameIndex).
SHARED_WORD_MIN = 3


class Matches(NamedTuple):
    """The closest look-alikes' ids (closest first, then by id) and how many there are in all."""

    closest: list[int]
    total: int


class NameIndex:
    """R5: the registered names a new name closely matches, found among many without comparing
    it with each.

    A name is compared (as `similar_names` compares) with the names that start with its first
    letter or share one of its words of 3 letters or more, and are within its typo limit in
    length (a longer or shorter name is further away than that); the same words in another order
    always match. Equal names are kept once, with all their ids, so a report of a thousand
    identical new names compares each with the others once, not a thousand times."""

    def __init__(self, names: Iterable[tuple[int, str]] = ()) -> None:
        self._ids: dict[str, list[int]] = {}  # each name's ids, in order
        # (first letter or shared word, length) -> the distinct names filed under it.
        self._buckets: dict[tuple[str, int], list[str]] = {}
        self._by_words: dict[tuple[str, ...], list[str]] = {}
        for player_id, key in names:
            self.add(player_id, key)

    def add(self, player_id: int, key: str) -> None:
        ids = self._ids.get(key)
        if ids is not None:
            bisect.insort(ids, player_id)
            return
        self._ids[key] = [player_id]
        for tag in _tags(key):
            self._buckets.setdefault((tag, len(key)), []).append(key)
        self._by_words.setdefault(tuple(sorted(key.split())), []).append(key)

    def matches(self, name_key: str, most: int | None = None) -> Matches:
        """The names close to name_key: at most `most` ids (all without it), and the count."""
        by_distance: dict[int, list[list[int]]] = {}
        for key, distance in self._distances(name_key).items():
            by_distance.setdefault(distance, []).append(self._ids[key])
        total = sum(len(ids) for lists in by_distance.values() for ids in lists)
        wanted = total if most is None else min(most, total)
        closest: list[int] = []
        for distance in sorted(by_distance):
            if len(closest) >= wanted:
                break
            closest += islice(heapq.merge(*by_distance[distance]), wanted - len(closest))
        return Matches(closest, total)

    def _distances(self, name_key: str) -> dict[str, int]:
        """Each close distinct name, with its distance (0 for the same words reordered)."""
        limit = name_match_limit(name_key)
        distances = dict.fromkeys(self._by_words.get(tuple(sorted(name_key.split())), ()), 0)
        for tag in _tags(name_key):
            for length in range(len(name_key) - limit, len(name_key) + limit + 1):
                bucket = self._buckets.get((tag, length))
                if bucket:
                    for key, distance, _ in process.extract(
                        name_key, bucket, scorer=Levenshtein.distance, score_cutoff=limit, limit=None
                    ):
                        distances.setdefault(key, distance)
        return distances


def _tags(key: str) -> set[str]:
    """What a name is filed under in a NameIndex: its first letter, and its longer words."""
    tags = {word for word in key.split() if len(word) >= SHARED_WORD_MIN}
    if key:
        tags.add(key[0])
    return tags


def age_on(date_of_birth: date, on: date) -> int:
    """Whole years of age on a date (a 29 February birthday counts from 1 March in other years)."""
    years = on.year - date_of_birth.year
    if (on.month, on.day) < (date_of_birth.month, date_of_birth.day):
        years -= 1
    return years
