"""R5 and R19: how players are named, identified and told apart."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import date

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
    """Levenshtein distance, giving up early (returning limit + 1) once it exceeds `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


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


def age_on(date_of_birth: date, on: date) -> int:
    """Whole years of age on a date (a 29 February birthday counts from 1 March in other years)."""
    years = on.year - date_of_birth.year
    if (on.month, on.day) < (date_of_birth.month, date_of_birth.day):
        years -= 1
    return years
