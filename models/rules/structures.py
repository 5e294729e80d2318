"""A night's blind structure and its clock (R22): the levels (blinds, minutes) and the breaks
between them, checked when saved; where the clock stands after so many seconds of play; the
host's moves of it (a level on or back, minutes added or taken off); and whether late
registration is still open. Pure: the seconds played are handed in (the server
counts them from when the clock started and how long it was paused, never a phone's clock)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from models.errors import Problem

MOST_MINUTES = 120
MOST_LEVELS = 60
MOST_CHIPS = 10_000_000
SNAP = 0.001  # seconds: how near a whole second the clock reads as that second


@dataclass(frozen=True)
class Level:
    small_blind: int
    big_blind: int
    minutes: int


@dataclass(frozen=True)
class Break:
    """A break after level `after_level` (1-based), `minutes` long; `note` says what happens at
    it (a chip-up)."""

    after_level: int
    minutes: int
    note: str = ""


@dataclass(frozen=True)
class Structure:
    starting_chips: int
    levels: tuple[Level, ...]
    breaks: tuple[Break, ...] = ()


# 001 §3: 2,000 chips, 20-minute levels, the blind schedule with a chip-up break after levels 4
# and 8 (10 minutes each: the rulebook leaves their length to the host).
LEAGUE_DEFAULT = Structure(
    starting_chips=2000,
    levels=tuple(
        Level(small, big, 20)
        for small, big in (
            (25, 25),
            (25, 50),
            (50, 100),
            (75, 150),
            (100, 200),
            (200, 400),
            (300, 600),
            (400, 800),
            (500, 1000),
            (1000, 2000),
            (2000, 4000),
            (3000, 6000),
            (4000, 8000),
            (5000, 10000),
            (6000, 12000),
        )
    ),
    breaks=(Break(4, 10, "Chip-up: 25s"), Break(8, 10, "Chip-up: 100s")),
)


def structure_problems(structure: Structure) -> list[Problem]:
    """R22: at least one level; blinds above zero, a small blind never above its big blind, and
    neither ever falling from one level to the next; levels and breaks 1-120 minutes; a break
    after a level that has another after it, one break at most after each."""
    problems: list[Problem] = []
    if not 1 <= structure.starting_chips <= MOST_CHIPS:
        problems.append(Problem("starting_chips", f"Starting chips are 1 to {MOST_CHIPS:,}.", "R22"))
    if not structure.levels:
        return [*problems, Problem("levels", "A structure has at least one level.", "R22")]
    if len(structure.levels) > MOST_LEVELS:
        problems.append(Problem("levels", f"A structure has at most {MOST_LEVELS} levels.", "R22"))
    before: Level | None = None
    for n, level in enumerate(structure.levels):
        problems += _level_problems(n, level, before)
        before = level
    return problems + _break_problems(structure)


def _level_problems(n: int, level: Level, before: Level | None) -> list[Problem]:
    where = f"levels.{n}"
    problems = []
    if level.small_blind < 1 or level.big_blind < 1:
        problems.append(Problem(f"{where}.small_blind", "Blinds are 1 chip or more.", "R22"))
    elif level.small_blind > level.big_blind:
        problems.append(
            Problem(f"{where}.small_blind", "The small blind is never above the big blind.", "R22")
        )
    if before is not None and (level.small_blind < before.small_blind or level.big_blind < before.big_blind):
        problems.append(
            Problem(
                f"{where}.big_blind",
                f"Blinds never fall: level {n + 1} ({level.small_blind}/{level.big_blind}) comes after "
                f"{before.small_blind}/{before.big_blind}.",
                "R22",
            )
        )
    if not 1 <= level.minutes <= MOST_MINUTES:
        problems.append(Problem(f"{where}.minutes", f"A level is 1 to {MOST_MINUTES} minutes.", "R22"))
    return problems


def _break_problems(structure: Structure) -> list[Problem]:
    problems = []
    seen: set[int] = set()
    last = len(structure.levels)
    for n, pause in enumerate(structure.breaks):
        where = f"breaks.{n}"
        if not 1 <= pause.after_level < last:
            problems.append(
                Problem(f"{where}.after_level", f"A break comes after one of levels 1 to {last - 1}.", "R22")
            )
        elif pause.after_level in seen:
            problems.append(
                Problem(f"{where}.after_level", f"Level {pause.after_level} has a break already.", "R22")
            )
        seen.add(pause.after_level)
        if not 1 <= pause.minutes <= MOST_MINUTES:
            problems.append(Problem(f"{where}.minutes", f"A break is 1 to {MOST_MINUTES} minutes.", "R22"))
    return problems


@dataclass(frozen=True)
class Period:
    """A level or a break, in the order played: `level` is the level's number (1-based), or for a
    break the level it follows; `starts`, `ends`: seconds of play (None: the last level goes on)."""

    is_break: bool
    level: int
    small_blind: int
    big_blind: int
    minutes: int
    starts: int
    ends: int | None
    note: str = ""


def periods(structure: Structure) -> list[Period]:
    pauses = {pause.after_level: pause for pause in structure.breaks}
    found: list[Period] = []
    at = 0
    last = len(structure.levels)
    for number, level in enumerate(structure.levels, 1):
        ends = None if number == last else at + level.minutes * 60
        found.append(Period(False, number, level.small_blind, level.big_blind, level.minutes, at, ends))
        if ends is None:
            break
        at = ends
        pause = pauses.get(number)
        if pause is not None:
            end = at + pause.minutes * 60
            found.append(
                Period(True, number, level.small_blind, level.big_blind, pause.minutes, at, end, pause.note)
            )
            at = end
    return found


@dataclass(frozen=True)
class ClockState:
    """Where the clock stands: the period being played, its index, how far into it, and the next."""

    index: int
    period: Period
    into: int  # seconds
    next: Period | None

    @property
    def seconds_left(self) -> int | None:
        return None if self.period.ends is None else self.period.ends - self.period.starts - self.into


def clock_at(structure: Structure, played: float) -> ClockState:
    """The clock after `played` seconds of play (0 before it starts)."""
    found = periods(structure)
    seconds = max(0, int(played))
    for index, period in enumerate(found):
        if period.ends is None or seconds < period.ends:
            following = found[index + 1] if index + 1 < len(found) else None
            return ClockState(index, period, seconds - period.starts, following)
    raise AssertionError("the last level never ends")  # pragma: no cover


def seconds_played(
    started_at: datetime | None,
    paused_at: datetime | None,
    paused_seconds: float,
    now: datetime,
    moved_seconds: float = 0.0,
) -> float:
    """Seconds of play: from the start to now (or to the pause under way), less the pauses, plus
    what the host's moves of the clock added (a skip) or took back (a step back). Within a
    millisecond of a whole second it is that second: a skip to a level's start stands there,
    never a float's dust before it (which whole seconds would read as the level before, with
    0:01 left)."""
    if started_at is None:
        return 0.0
    until = paused_at or now
    played = (until - started_at).total_seconds() - paused_seconds + moved_seconds
    whole = round(played)
    return max(0.0, float(whole) if abs(played - whole) < SNAP else played)


def said_period(period: Period) -> str:
    """A level or break in a host's words: "level 5 (100/200)", "the break after level 4"."""
    if period.is_break:
        return f"the break after level {period.level}"
    return f"level {period.level} ({period.small_blind:,}/{period.big_blind:,})"


def said_left(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def skipped(structure: Structure, played: float) -> float | Problem:
    """R22: the host skips to the next level (or break): the seconds of play to add so that the
    clock stands at its start; refused at the last level, which has none after it."""
    at = clock_at(structure, played)
    if at.next is None:
        return Problem(
            "clock",
            f"The clock is at the last level, {said_period(at.period)}: there is none after it to skip to.",
            "R22",
        )
    return at.next.starts - max(0.0, played)


def stepped_back(structure: Structure, played: float) -> float | Problem:
    """R22: the host takes the clock back to the start of the level (or break) before this one:
    the seconds of play to take away (negative); refused at the first level."""
    at = clock_at(structure, played)
    if at.index == 0:
        return Problem(
            "clock",
            f"The clock is at {said_period(at.period)}, the first: there is none before it to go back to.",
            "R22",
        )
    before = period_before(structure, at.index)
    assert before is not None  # level 1 is never shortened to nothing before play reaches it
    return before.starts - max(0.0, played)


def period_before(structure: Structure, index: int) -> Period | None:
    """The level or break before the `index`th, passing over any the host shortened to nothing."""
    found = periods(structure)[:index]
    return next((p for p in reversed(found) if p.ends is None or p.ends > p.starts), None)


def adjusted(structure: Structure, played: float, minutes: int) -> Structure | Problem:
    """R22: minutes added to the level (or break) being played, or taken off it (`minutes` < 0):
    the structure as the night plays it from now. Refused on the last level (it goes on until the
    night ends), past zero (more taken off than is left) and past MOST_MINUTES."""
    at = clock_at(structure, played)
    period, left = at.period, at.seconds_left
    where = said_period(period)
    if left is None:
        return Problem(
            "adjust_minutes",
            f"The clock is at the last level, {where}: it goes on until the night ends, with no "
            "minutes to add or take off.",
            "R22",
        )
    if -minutes * 60 > left:
        return Problem(
            "adjust_minutes",
            f"Only {said_left(left)} is left of {where}: {-minutes} minutes cannot be taken off "
            "(the clock never goes past zero). Skip to the next level instead.",
            "R22",
        )
    length = period.minutes + minutes
    if length > MOST_MINUTES:
        return Problem(
            "adjust_minutes",
            f"A level or break is at most {MOST_MINUTES} minutes: {where} would be {length}.",
            "R22",
        )
    if period.is_break:
        breaks = tuple(
            Break(pause.after_level, length, pause.note) if pause.after_level == period.level else pause
            for pause in structure.breaks
        )
        return Structure(structure.starting_chips, structure.levels, breaks)
    levels = tuple(
        Level(level.small_blind, level.big_blind, length) if number == period.level else level
        for number, level in enumerate(structure.levels, 1)
    )
    return Structure(structure.starting_chips, levels, structure.breaks)


@dataclass(frozen=True)
class LateRegistration:
    """Where a venue closes late registration (R22): after level `after_level` (its break, if one
    follows, still open), or `minutes` of play after the start; neither: after the level before
    the structure's first break (001 §7, 004), or after level 1 where it has none."""

    after_level: int | None = None
    minutes: int | None = None


def closing_second(structure: Structure, rule: LateRegistration) -> int | None:
    """The second of play at which late registration closes (None: never, the last level)."""
    if rule.minutes is not None:
        return rule.minutes * 60
    after = rule.after_level
    if after is None:
        after = min((pause.after_level for pause in structure.breaks), default=1)
    for period in periods(structure):
        if not period.is_break and period.level == after + 1:
            return period.starts
    return None


def late_registration_open(structure: Structure, rule: LateRegistration, played: float) -> bool:
    closes = closing_second(structure, rule)
    return closes is None or played < closes


def said_closing(structure: Structure, rule: LateRegistration) -> str:
    """When late registration closes, in a host's words."""
    if rule.minutes is not None:
        return f"{rule.minutes} minutes after the start"
    after = rule.after_level
    if after is None:
        after = min((pause.after_level for pause in structure.breaks), default=1)
        if any(pause.after_level == after for pause in structure.breaks):
            return f"at the end of the first break (after level {after})"
    return f"when level {after + 1} starts"


def levels_of(rows: Sequence[dict[str, int]]) -> tuple[Level, ...]:
    return tuple(Level(row["small_blind"], row["big_blind"], row["minutes"]) for row in rows)
