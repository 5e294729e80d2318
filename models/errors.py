"""Domain errors. Each carries the rule it enforces; api/errors.py turns them into problem+json."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


class LeagueError(Exception):
    """A refused request. `errors` maps a field path (`results.3.place`) to its messages."""

    status = 422
    title = "Unprocessable request"

    def __init__(
        self,
        detail: str,
        *,
        rule: str | None = None,
        errors: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = f"{rule}: {detail}" if rule and not detail.startswith(rule) else detail
        self.rule = rule
        self.errors = {key: list(messages) for key, messages in (errors or {}).items()}


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
