"""A result report as CSV: a header row, then one entrant a row."""

from __future__ import annotations

import csv
import io
from typing import Any

from models.errors import InvalidInput, Problem

PLAYER_COLUMNS = ("player_id", "membership_number", "email", "full_name")
COLUMNS = ("place", "status", *PLAYER_COLUMNS)
INTEGER_COLUMNS = ("place", "player_id")


def _cell_value(column: str, text: str) -> Any:
    # ASCII digits only: str.isdigit() is true for '²', which int() refuses (a 500).
    if column in INTEGER_COLUMNS and text.isascii() and text.lstrip("-").isdigit():
        return int(text)
    return text


def parse_report_csv(body: bytes) -> list[dict[str, Any]]:
    """Rows as result dicts (the JSON shape). Excel's BOM and Windows line endings are fine."""
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput.at("body", "The CSV is not UTF-8 text; save it as 'CSV UTF-8'.") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        rows = [row for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as exc:  # e.g. a cell longer than the csv module's field limit
        message = f"Line {reader.line_num} cannot be read as CSV: {exc}."
        raise InvalidInput.at("body", message) from None
    if not rows:
        raise InvalidInput.at("body", "The CSV is empty: send a header row and results.")
    header = [cell.strip().lower() for cell in rows[0]]
    problems: list[str] = []
    unknown = [name for name in header if name not in COLUMNS]
    if unknown:
        problems.append(f"Unknown column(s): {', '.join(unknown)}; use {', '.join(COLUMNS)}.")
    if "place" not in header or not any(name in header for name in PLAYER_COLUMNS):
        problems.append(
            f"The first row must be a header naming place and a player column ({', '.join(PLAYER_COLUMNS)})."
        )
    if len(set(header)) != len(header):
        problems.append("A column is named twice.")
    if problems:
        raise InvalidInput("; ".join(problems), problems=[Problem("header", text) for text in problems])
    results: list[dict[str, Any]] = []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) > len(header):
            index = len(results)
            raise InvalidInput.at(f"results.{index}", f"Line {line} has more cells than the header.")
        cells = {name: row[i].strip() for i, name in enumerate(header) if i < len(row) and row[i].strip()}
        result: dict[str, Any] = {}
        for name in ("place", "status"):
            if name in cells:
                result[name] = _cell_value(name, cells[name])
        if "player_id" in cells:
            result["player_id"] = _cell_value("player_id", cells["player_id"])
        elif "membership_number" in cells:
            result["membership_number"] = cells["membership_number"]
        elif "email" in cells:
            result["email"] = cells["email"]
            if "full_name" in cells:
                result["full_name"] = cells["full_name"]
        elif "full_name" in cells:
            result["full_name"] = cells["full_name"]
        results.append(result)
    if not results:
        raise InvalidInput.at("results", "The CSV has a header but no results.")
    return results
