"""R5 and R19: how players are named, identified and told apart."""

from __future__ import annotations

import bisect
import heapq
import re
import unicodedata
from collections.abc import Iterable
from datetime import date
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
