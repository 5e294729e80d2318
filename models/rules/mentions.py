"""R21: personal values written in free text (a reason, a note) and in a name, however they are
spelled: in any case, with or without accents and punctuation, in look-alike letters of another
script, or a date of birth in another common form. Pure: the caller supplies what is looked for.

A value is compared in its *compact* form: look-alike letters read as the Latin letters they
imitate, accents dropped, case folded, everything but letters and digits removed. "Zelda
Quixote-Marlowe.", "ZELDA QUIXOTE MARLOWE" and "Zеlda Quixote-Marlowe" (a Cyrillic e) are one
value: "zeldaquixotemarlowe"."""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from confusable_homoglyphs import confusables

# A value shorter than this (compact) is looked for only as a whole text, never within one (a
# display name "Al" is in "Alpha's Bar").
SHORTEST_WITHIN = 4
# The most words of free text read as one value (a full name, an address).
MOST_WORDS = 6
ERASED = "[erased]"
MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_WORD = re.compile(r"\S+")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
_NUMERIC_DATE = re.compile(r"(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})")
_WRITTEN_DATE = re.compile(r"(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})|([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})")


@lru_cache(maxsize=4096)
def _latin(char: str) -> str:
    """The Latin letter a letter of another script imitates (Greek Ζ, Cyrillic е), else itself."""
    found = confusables.is_confusable(char, preferred_aliases=["latin", "common"], greedy=True)
    if found:
        for glyph in found[0]["homoglyphs"]:
            if glyph["n"].startswith("LATIN") and len(glyph["c"]) == 1:
                return str(glyph["c"])
    return char


def skeleton(text: str) -> str:
    """Accents dropped, look-alike letters read as Latin ones, case folded."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(c if c.isascii() else _latin(c) for c in plain).casefold()


def words(text: str) -> list[str]:
    """The text's words (letters and digits), as `skeleton` reads them."""
    return [word for word in re.split(r"[\W_]+", skeleton(text)) if word]


@lru_cache(maxsize=65536)
def compact(text: str) -> str:
    """One form for every spelling of a value: `skeleton`, then letters and digits only."""
    return "".join(words(text))


def birth_forms(day: date) -> set[str]:
    """The compact forms a date of birth is written in: 1988-07-14, 14/07/1988, 07/14/1988,
    14.7.1988, 19880714, 14 July 1988, July 14, 1988."""
    y, m, d, month = f"{day.year:04d}", day.month, day.day, MONTHS[day.month - 1]
    forms = {f"{y}{m:02d}{d:02d}", f"{d:02d}{m:02d}{y}", f"{m:02d}{d:02d}{y}", f"{d}{m}{y}", f"{m}{d}{y}"}
    forms |= {f"{d}{month}{y}", f"{month}{d}{y}", f"{d}{month[:3]}{y}", f"{month[:3]}{d}{y}"}
    return forms


def dates_in(text: str) -> set[date]:
    """Every date the text writes in a common form (both readings of an ambiguous one)."""
    found: set[date] = set()
    for a, b, c in _NUMERIC_DATE.findall(text):
        for year, month, day in ((a, b, c), (c, b, a), (c, a, b)):
            _add_date(found, year, month, day)
    for match in re.finditer(r"(?<!\d)(\d{4})(\d{2})(\d{2})(?!\d)", text):
        _add_date(found, *match.groups())
    for d1, m1, y1, m2, d2, y2 in _WRITTEN_DATE.findall(text.casefold()):
        month_name, day, year = (m1, d1, y1) if m1 else (m2, d2, y2)
        number = next((i + 1 for i, name in enumerate(MONTHS) if name.startswith(month_name[:3])), None)
        if number is not None:
            _add_date(found, year, str(number), day)
    return found


def _add_date(found: set[date], year: str, month: str, day: str) -> None:
    if len(year) != 4:
        return
    with contextlib.suppress(ValueError):
        found.add(date(int(year), int(month), int(day)))


@dataclass(frozen=True)
class Span:
    """Words start..end (characters) of a text, and their compact form."""

    start: int
    end: int
    compact: str
    words: int


def spans(text: str, most_words: int = MOST_WORDS) -> Iterator[Span]:
    """Every run of 1 to `most_words` consecutive words of the text (a value may be written over
    several), with its compact form: the candidates a personal value is looked for among."""
    found = []
    for match in _WORD.finditer(text):  # a word without the punctuation around it: "(LG-0042),"
        start, end = match.span()
        while start < end and not text[start].isalnum():
            start += 1
        while end > start and not text[end - 1].isalnum():
            end -= 1
        if end - start > 2 and text[end - 2] in "'’" and text[end - 1] in "sS":
            end -= 2  # a possessive: "Marlowe's" is Marlowe
        found.append((start, end, compact(text[start:end])))
    for i in range(len(found)):
        joined = ""
        for j in range(i, min(i + most_words, len(found))):
            joined += found[j][2]
            if joined:
                yield Span(found[i][0], found[j][1], joined, j - i + 1)


@lru_cache(maxsize=4096)
def candidates(text: str) -> frozenset[str]:
    """The compact forms in the text a personal value could be: runs of words long enough to
    name someone, and the dates it writes (as 19880714)."""
    out = {span.compact for span in spans(text) if len(span.compact) >= SHORTEST_WITHIN}
    out |= {f"{day:%Y%m%d}" for day in dates_in(text)}
    return frozenset(out)


@lru_cache(maxsize=4096)
def value_forms(value: str | date) -> frozenset[str]:
    """The compact forms one personal value is looked for in (a date of birth, as a date or as
    ISO text, in its written forms)."""
    if isinstance(value, str) and _ISO_DAY.fullmatch(value):
        with contextlib.suppress(ValueError):
            value = date.fromisoformat(value)
    if isinstance(value, date):
        return frozenset(birth_forms(value))
    form = compact(value)
    return frozenset({form} if form else ())


def name_parts(value: str) -> set[str]:
    """The runs of two or more words of a name of three or more ("Zelda Quixote", "Quixote
    Marlowe" of "Zelda Quixote-Marlowe"): a part that still names the person. Not of an email,
    a number or a date (their runs name no one: "example.org")."""
    if "@" in value or any(c.isdigit() for c in value):
        return set()
    parts = words(value)
    return {" ".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 2, len(parts) + 1)} - {
        " ".join(parts)
    }


def replace_values(text: str, wanted: Callable[[str], bool], instead: str = ERASED) -> str:
    """The text with each run of words whose compact form is `wanted` (the longest first)
    replaced by `instead`, and each date written in it whose 19880714 form is wanted; a text
    that still holds a wanted value within a word becomes `instead` as a whole."""
    hits: list[tuple[int, int]] = []
    for span in sorted(spans(text), key=lambda s: -s.words):
        if len(span.compact) < SHORTEST_WITHIN:
            continue  # a short value ("Al") is one only as the whole text
        if wanted(span.compact) and not _overlaps(hits, span.start, span.end):
            hits.append((span.start, span.end))
    for match in _NUMERIC_DATE.finditer(text):
        written = any(wanted(f"{day:%Y%m%d}") for day in dates_in(match.group()))
        if written and not _overlaps(hits, match.start(), match.end()):
            hits.append((match.start(), match.end()))
    for start, end in sorted(hits, reverse=True):
        text = text[:start] + instead + text[end:]
    return text


def _overlaps(hits: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(start < b and a < end for a, b in hits)


def holds(text: str, forms: Iterable[str]) -> bool:
    """Whether the text writes one of these compact forms anywhere: as a run of words, as a
    date, or within one word (for forms of SHORTEST_WITHIN or more: "mail:zelda@example.org")."""
    wanted = set(forms)
    if not wanted:
        return False
    if candidates(text) & wanted or compact(text) in wanted:
        return True
    long = [form for form in wanted if len(form) >= SHORTEST_WITHIN]
    return any(form in compact(word) for word in _WORD.findall(text) for form in long)


def scrub_text(text: str | None, forms: Iterable[str], instead: str = ERASED) -> str | None:
    """Free text with every personal value of `forms` (compact) replaced by `instead`; a text
    that still holds one (within a word, say) is replaced whole."""
    if not text:
        return text
    wanted = set(forms)
    if not wanted:
        return text
    if compact(text) in wanted:
        return instead
    out = replace_values(text, wanted.__contains__, instead)
    return instead if holds(out.replace(instead, " "), wanted) else out


def names_someone(name: str, own: Iterable[str | date], others: Iterable[str]) -> bool:
    """R21: whether a display name names someone: a run of the words of one of the player's own
    values (a part of their name or email, their date of birth in any form), or one of another
    player's values (compact) as a whole."""
    wanted = compact(name)
    if not wanted:
        return False
    mine = words(name)
    for value in own:
        if isinstance(value, date):
            if wanted in birth_forms(value):
                return True
            continue
        theirs = words(value)
        if wanted == "".join(theirs):
            return True
        if len(wanted) >= SHORTEST_WITHIN - 1 and _is_run(mine, theirs):
            return True
    return any(wanted == compact(value) for value in others)


def _is_run(part: list[str], whole: list[str]) -> bool:
    """Whether `part` is a run of consecutive words of `whole`."""
    n = len(part)
    return 0 < n <= len(whole) and any(whole[i : i + n] == part for i in range(len(whole) - n + 1))
