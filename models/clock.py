"""Today's date for the rules (a date in the future is refused, correction windows), in UTC."""

from __future__ import annotations

from datetime import UTC, date, datetime


def today() -> date:
    return datetime.now(UTC).date()
