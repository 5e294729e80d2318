"""The audit log as CSV (R18), for a spreadsheet: the API's answer to `?format=csv` and its
`.csv` operation, and the console's "Download CSV", all written here so they say the same."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from flask import Response

from api.csv_export import csv_response
from api.fields import utc_timestamp
from models.services.audit_log.queries import ReadEntry

# Every field of the JSON's entries, in its order; before and after as JSON text.
CSV_COLUMNS = (
    "id",
    "at",
    "actor",
    "actor_role",
    "actor_key_id",
    "request_id",
    "action",
    "entity",
    "entity_id",
    "before",
    "after",
    "reason",
)


def as_json(value: Any) -> str:
    """A record's state as one cell: JSON (accents as they are), empty for none."""
    return "" if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def csv_line(entry: ReadEntry) -> list[Any]:
    return [
        entry.id,
        utc_timestamp(entry.at),
        entry.actor,
        entry.actor_role,
        entry.actor_key_id,
        entry.request_id,
        entry.action,
        entry.entity,
        entry.entity_id,
        as_json(entry.before),
        as_json(entry.after),
        entry.reason,
    ]


def audit_csv(entries: Iterable[ReadEntry], day: str) -> Response:
    """The entries, newest first, as the day's CSV file (its personal values as the JSON reads
    them: "[erased]" once a player was erased, R21)."""
    return csv_response(CSV_COLUMNS, (csv_line(entry) for entry in entries), f"audit-log-{day}.csv")
