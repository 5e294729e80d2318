"""The clock, in UTC: today's date for the rules (a date in the future is refused, correction
windows) and timestamps, set in Python (not by the database) so tests can freeze time."""

from __future__ import annotations

from datetime import UTC, date, datetime


def today() -> date:
    return datetime.now(UTC).date()


def utcnow() -> datetime:
    """A naive UTC timestamp, as the columns store it."""
    return datetime.now(UTC).replace(tzinfo=None)
