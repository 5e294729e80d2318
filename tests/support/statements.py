"""The SQL the app sends: for tests that prove how many queries an answer costs, or that some
table is not read at all."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, event


@contextmanager
def statements(connection: Connection, matching: re.Pattern[str] | None = None) -> Iterator[list[str]]:
    """Every SQL statement sent on the test's connection while the block runs (those `matching`
    finds something in, when given)."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if matching is None or matching.search(statement):
            seen.append(statement)

    event.listen(connection, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(connection, "before_cursor_execute", note)
