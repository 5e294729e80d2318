"""R3-R6: a report's kind, a complete finishing order with each player once, and what each
entrant status earns (R7, R8); R17: the last day a host may still change a report."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from enum import StrEnum

from models.errors import Problem
from models.rules.charts import Chart
from models.rules.knockouts import OFF, Knockouts, knockouts_earned


class ReportKind(StrEnum):
    """R3: a regular tournament counts in its venue's standings; a playoff and the championship
    take the season's qualifiers."""

    REGULAR = "regular"
    PLAYOFF = "playoff"
    CHAMPIONSHIP = "championship"


class EntrantStatus(StrEnum):
    """R6: how an entrant's tournament ended."""

    PLAYED = "played"
    DECLARED_WITHDRAWAL = "declared_withdrawal"
    ABSENT = "absent"
    NO_SHOW = "no_show"


# R6 in a host's words: how a sheet's status cell says each status, matched ignoring case,
# surrounding spaces and underscores (so the codes themselves read too). JSON takes the codes only.
STATUS_WORDS: dict[str, EntrantStatus] = {
    "played": EntrantStatus.PLAYED,
    "declared withdrawal": EntrantStatus.DECLARED_WITHDRAWAL,
    "withdrew": EntrantStatus.DECLARED_WITHDRAWAL,
    "withdrawn": EntrantStatus.DECLARED_WITHDRAWAL,
    "w/d": EntrantStatus.DECLARED_WITHDRAWAL,
    "wd": EntrantStatus.DECLARED_WITHDRAWAL,
    "declared": EntrantStatus.DECLARED_WITHDRAWAL,
    "absent": EntrantStatus.ABSENT,
    "left": EntrantStatus.ABSENT,
    "no show": EntrantStatus.NO_SHOW,
    "no-show": EntrantStatus.NO_SHOW,
    "noshow": EntrantStatus.NO_SHOW,
    "dns": EntrantStatus.NO_SHOW,
}
# What a sheet's status cell may say, in a person's words (a refusal lists them).
STATUS_WORDS_SAID = (
    "played (or blank), withdrew (withdrawn, W/D, WD, declared), absent (left) "
    "or no show (no-show, noshow, DNS)"
)


def status_of_word(word: str) -> EntrantStatus | None:
    """R6: the status a sheet's cell writes ("W/D", " No-Show ", "declared_withdrawal"); a blank
    cell is played. None when the word names no status (the report is refused, naming it)."""
    key = " ".join(word.replace("_", " ").split()).casefold()
    if not key:
        return EntrantStatus.PLAYED
    return STATUS_WORDS.get(key)


# R4 in a host's words: a place as a sheet writes it: 1, " 1 ", "1.", "1st", "2nd", "3rd", "11th"
# (ASCII digits; the ordinal's ending is read, not checked: "3th" is 3).
PLACE_WORD = re.compile(r"([0-9]{1,18})(?:st|nd|rd|th|\.)?", re.IGNORECASE)


def place_of_word(word: str) -> int | None:
    """R4: the place a sheet's cell writes ("1st", "2nd", "1.", " 4 "), or None when it writes
    none (the report is refused, naming the cell). Whether the places make a complete order is
    `finishing_order_problems`'s to say, as for any report."""
    match = PLACE_WORD.fullmatch(word.strip())
    return int(match.group(1)) if match else None


def played(status: str) -> bool:
    """R9: a result counts as played unless it is a no-show (a withdrawal or an absence counts).
    In SQL: `Result.played` (models/entities/reports.py)."""
    return status != EntrantStatus.NO_SHOW


def last_day_to_change(day: date, correction_days: int) -> date:
    """R17: the last day a host may correct or void a report of `day`: `correction_days` after
    it (0: the night itself only). Both are dates on the venue's wall clock (R2a)."""
    return day + timedelta(days=correction_days)


def place_problems(places: Sequence[int]) -> dict[int, list[str]]:
    """R4: places must be exactly 1..N (N = len(places)); problems by the index of the entry."""
    n = len(places)
    problems: dict[int, list[str]] = {}
    first_at: dict[int, int] = {}
    for index, place in enumerate(places):
        if place < 1 or place > n:
            problems.setdefault(index, []).append(
                f"Place {place} is outside 1..{n}: a report of {n} entrants has places 1 to {n}."
            )
        elif place in first_at:
            problems.setdefault(index, []).append(
                f"Place {place} is also given at results.{first_at[place]}; places do not tie (R4)."
            )
        else:
            first_at[place] = index
    return problems


def missing_places(places: Sequence[int]) -> list[int]:
    present = set(places)
    return [p for p in range(1, len(places) + 1) if p not in present]


# R4: a tournament is played by two players at least.
LEAST_ENTRANTS = 2


def too_few_entrants(entrants: int) -> list[Problem]:
    """R4: a report of fewer than two entrants is refused (one row would be stored as a win)."""
    if entrants >= LEAST_ENTRANTS:
        return []
    message = f"A report has at least {LEAST_ENTRANTS} entrants, each with a place; this one has {entrants}."
    return [Problem("results", message, "R4")]


def finishing_order_problems(places: Sequence[int]) -> list[Problem]:
    """R4: each bad place at its row (`results.2.place`), the places missing from 1..N, and a
    report of fewer than two entrants (one row is not a tournament, and would be a win)."""
    too_few = too_few_entrants(len(places))
    if too_few:
        return too_few
    problems = [
        Problem(f"results.{index}.place", message, "R4")
        for index, messages in place_problems(places).items()
        for message in messages
    ]
    missing = missing_places(places)
    if problems and missing:
        shown = ", ".join(map(str, missing[:20])) + (" …" if len(missing) > 20 else "")
        problems.append(
            Problem("results", f"Places must be exactly 1..{len(places)}; missing: {shown}.", "R4")
        )
    return problems


def repeated_entrants(entrants: Sequence[tuple[str, str]]) -> list[Problem]:
    """R4: a player appears once. `entrants` gives, for each row, what makes two rows the same
    person (e.g. `id:17`, `email:ann@example.org`) and the field that named them."""
    problems = []
    first_at: dict[str, int] = {}
    for index, (key, field_name) in enumerate(entrants):
        if key in first_at:
            problems.append(
                Problem(
                    f"results.{index}.{field_name}",
                    f"The same player as results.{first_at[key]}: a player appears once.",
                    "R4",
                )
            )
        else:
            first_at[key] = index
    return problems


def shared_membership_numbers(numbers: Sequence[str | None]) -> list[Problem]:
    """R5: two new players of one report cannot share a membership number (`numbers` holds each
    row's new player's number, None where the row registers no one)."""
    problems = []
    first_at: dict[str, int] = {}
    for index, number in enumerate(numbers):
        if number is None:
            continue
        if number in first_at:
            problems.append(
                Problem(
                    f"results.{index}.new_player.membership_number",
                    f"Also given to the new player at results.{first_at[number]}.",
                    "R5",
                )
            )
        else:
            first_at[number] = index
    return problems


@dataclass(frozen=True)
class Earned:
    placement_points: int
    participation_points: int
    knockout_points: int = 0  # R8a: for the players this one knocked out, bounties included
    knockouts: int = 0

    @property
    def points(self) -> int:
        return self.placement_points + self.participation_points + self.knockout_points


def earned(
    chart_points: Sequence[int],
    place: int,
    status: str,
    participation_points: int,
    absent_keeps_place_points: bool,
) -> Earned:
    """R6-R8: what one entrant earns. `chart_points` are the points of places 1..k (R7).

    - played, declared_withdrawal: the place's points (a withdrawal keeps the points of the
      place at which it happened) and participation points;
    - absent: participation points, and the place's points only if the season says so;
    - no_show: nothing at all.
    """
    place_points = chart_points[place - 1] if 1 <= place <= len(chart_points) else 0
    if status == EntrantStatus.NO_SHOW:
        return Earned(0, 0)
    if status == EntrantStatus.ABSENT and not absent_keeps_place_points:
        place_points = 0
    return Earned(place_points, participation_points)


def score_report(
    chart: Chart,
    entrants: Sequence[tuple[int, str]],
    participation_points: int,
    absent_keeps_place_points: bool,
    knocked_by: Sequence[int | None] = (),
    knockouts: Knockouts = OFF,
    bounties: Collection[int] = (),
) -> list[Earned]:
    """Points of each (place, status) of a complete report; raises NoBandForEntrants (R7). R8a:
    `knocked_by` gives each row's knocker as the index of its row (None: nobody), `bounties` the
    rows whose player carries the season's bounty; a knocker earns for them whatever its status."""
    points = chart.points_for(len(entrants))
    made = knockouts_earned(enumerate(knocked_by), knockouts, bounties)
    scored = []
    for n, (place, status) in enumerate(entrants):
        base = earned(points, place, status, participation_points, absent_keeps_place_points)
        mine = made.get(n)
        scored.append(
            base if mine is None else replace(base, knockout_points=mine.points, knockouts=mine.knockouts)
        )
    return scored
