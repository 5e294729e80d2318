"""Domain refusals as data. A `Problem` is one thing wrong (where, what, which rule), built where
the rule is checked; a `LeagueError` carries the problems of one refused request. api/errors.py
renders them as problem+json: `rule`, the `urn:…:R4` type and the detail all come from here,
never from message text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a request: a field path (`results.3.place`; "" for the request as a
    whole), a message for a person, and the league rule it breaks (None for plain bad input).

    `identifier_miss`: a row's email or membership number was looked up and named no player
    (or, in a new player's row, someone else). Such misses would tell a caller whom the league
    knows, so the report's intake counts them against the caller's key (R19)."""

    path: str
    message: str
    rule: str | None = None
    identifier_miss: bool = field(default=False, compare=False)


def rule_order(rule: str) -> tuple[int, str]:
    """R2 before R4 before R16: rules sort by their number."""
    digits = rule[1:]
    return (int(digits), rule) if digits.isdigit() else (10**6, rule)


def rules_of(problems: Iterable[Problem]) -> list[str]:
    """The distinct rules of some problems, by number."""
    return sorted({p.rule for p in problems if p.rule}, key=rule_order)


def problem_map(problems: Iterable[Problem]) -> dict[str, list[str]]:
    """Messages by field path, in the order the problems were found."""
    by_path: dict[str, list[str]] = {}
    for item in problems:
        by_path.setdefault(item.path or "body", []).append(item.message)
    return by_path


class LeagueError(Exception):
    """A refused request: a summary for a person, and the problems behind it.

    `rule` is the refusing rule: the one given, else the lowest-numbered rule among the
    problems (all of them are in `rules`)."""

    status = 422
    title = "Unprocessable request"

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        problems: Sequence[Problem] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.problems = list(problems)
        self.rules = rules_of([*self.problems, Problem("", "", rule)])
        self.rule = rule or (self.rules[0] if self.rules else None)

    @classmethod
    def at(cls, path: str, message: str, *, rule: str | None = None) -> LeagueError:
        """The common case: one problem at one field, its message also the summary."""
        return cls(message, rule=rule, problems=[Problem(path, message, rule)])

    @property
    def errors(self) -> dict[str, list[str]]:
        return problem_map(self.problems)

    @property
    def identifier_misses(self) -> int:
        """How many of the problems are an email or membership number that named no player (R19:
        `Problem.identifier_miss`)."""
        return sum(problem.identifier_miss for problem in self.problems)

    @property
    def detail(self) -> str:
        """The message, led by the rules that refuse ("R4, R5: …")."""
        return f"{', '.join(self.rules)}: {self.message}" if self.rules else self.message


class RuleViolation(LeagueError):
    status = 422
    title = "A league rule refuses this"


class InvalidInput(LeagueError):
    status = 422
    title = "Invalid input"


class NotFound(LeagueError):
    status = 404
    title = "Not found"


class Conflict(LeagueError):
    status = 409
    title = "Conflict"


class Forbidden(LeagueError):
    status = 403
    title = "Forbidden"


class Stale(LeagueError):
    """The caller changes what it read, and it changed since (HTTP's If-Match failed)."""

    status = 412
    title = "Precondition failed"


# How many problems a detail names before "and N more".
SHOWN = 5


def joined(parts: Iterable[str], more: int = 0) -> str:
    """A detail made of parts (a lead, then "field: sentence" for each problem), joined once: each
    part's own closing full stop dropped, the parts separated by "; ", "and N more" after them
    when `more` were left out, and one full stop at the end. So a detail never reads "….; …" or
    "…..": `refuse` and api/errors.py join every detail of parts with it."""
    kept = [text for text in (str(part).strip().rstrip(".").rstrip() for part in parts) if text]
    if more > 0:
        kept.append(f"and {more} more")
    if not kept:
        return ""
    sentence = "; ".join(kept)
    return sentence if sentence.endswith(("?", "!")) else sentence + "."


def refuse(message: str, problems: Sequence[Problem]) -> None:
    """Raise when there are problems: a RuleViolation when any breaks a rule, else InvalidInput.

    The message is followed by the first few problems, so the detail alone says what to fix."""
    if not problems:
        return
    shown = [f"{p.path or 'body'}: {p.message}" for p in problems[:SHOWN]]
    kind = RuleViolation if rules_of(problems) else InvalidInput
    raise kind(joined([message, *shown], more=len(problems) - SHOWN), problems=problems)
