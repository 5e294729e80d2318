"""A result report as CSV, as spreadsheets export it: a header row, then one entrant a row.

Excel's BOM, Windows line ends, `;`-separated files (European Excel), trailing empty columns and
common header names ("Full Name", "Pos", "E-mail") are all read; other columns (Notes) are
ignored with a warning. Problems name rows as the spreadsheet shows them: the header is row 1."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from models.errors import InvalidInput, LeagueError, Problem
from models.rules.notices import Notice, ignored_columns

PLAYER_COLUMNS = ("player_id", "membership_number", "email", "full_name")
COLUMNS = ("place", "status", *PLAYER_COLUMNS)
INTEGER_COLUMNS = ("place", "player_id")
# Header names spreadsheets use, matched ignoring case, spaces, dashes and underscores.
SYNONYMS = {
    "place": ("place", "pos", "position", "finish", "finishing place"),
    "status": ("status",),
    "player_id": ("player id", "playerid"),
    "membership_number": ("membership number", "membership", "member number", "membership no"),
    "email": ("email", "e mail", "email address"),
    "full_name": ("full name", "fullname", "player", "player name", "name"),
}
CANONICAL = {alias: column for column, aliases in SYNONYMS.items() for alias in aliases}
ROW_MENTION = re.compile(r"\bresults\.(\d+)\b")
# What a JSON message asks for, said in a spreadsheet's words.
SHEET_WORDS = (
    ("send new_player with full_name and email", "give their email and a Full Name column"),
    ("register them with new_player (full_name and email)", "give their email with their full name"),
    ("player_id, membership_number, email or new_player", "Player ID, Membership Number, Email or Full Name"),
)


def header_key(cell: str) -> str:
    return " ".join(cell.replace("_", " ").replace("-", " ").lower().split())


@dataclass
class CsvReport:
    """The rows in the JSON shape, where each came from, and what was left out."""

    results: list[dict[str, Any]]
    # The spreadsheet row of each result (the header is row 1) and the header as written.
    lines: list[int] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)

    @property
    def notices(self) -> list[Notice]:
        return [ignored_columns(self.ignored)] if self.ignored else []

    def label(self, index: int) -> str:
        """How a spreadsheet user finds result `index`: "row 3 (place 2)"."""
        if not 0 <= index < len(self.results):
            return f"row {index + 2}"
        place = self.results[index].get("place")
        return f"row {self.lines[index]}" + (f" (place {place})" if place not in (None, "") else "")

    def relabel(self, error: LeagueError) -> LeagueError:
        """The same refusal, its messages naming spreadsheet rows and columns, not JSON paths."""
        problems = [self._relabelled(p) for p in error.problems]
        if not problems:
            return error
        lead = error.message.split("; ", 1)[0]
        more = f"; and {len(problems) - 5} more" if len(problems) > 5 else ""
        message = f"{lead}; {'; '.join(p.message for p in problems[:5])}{more}"
        return type(error)(message, rule=error.rule, problems=problems)

    def _relabelled(self, problem: Problem) -> Problem:
        # Rows a message mentions ("also given at results.1") are named as the sheet shows them.
        message = ROW_MENTION.sub(lambda m: self.label(int(m.group(1))), problem.message)
        for json_words, sheet_words in SHEET_WORDS:
            message = message.replace(json_words, sheet_words)
        parts = problem.path.split(".")
        if len(parts) < 2 or parts[0] != "results" or not parts[1].isdigit():
            return Problem(problem.path, message, problem.rule)
        where = self.label(int(parts[1]))
        if len(parts) > 2:
            where += f", column {self.headers.get(parts[2], parts[2])}"
        return Problem(problem.path, f"{where[0].upper()}{where[1:]}: {message}", problem.rule)


# More digits than any id, place or session has (ids are 32-bit in the database).
MAX_DIGITS = 18


def _cell_value(column: str, text: str) -> Any:
    # ASCII digits only: str.isdigit() is true for '²', which int() refuses (a 500); and not more
    # of them than any id or place has (int() refuses thousands of digits): such a cell stays
    # text, which the schema refuses by name.
    digits = text.lstrip("-")
    if column in INTEGER_COLUMNS and text.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS:
        return int(text)
    return text


def _delimiter(text: str) -> str:
    """`;` for European Excel's files, a tab for pasted tables, else a comma: read off the header."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    counts = {d: first.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] > 0 else ","


def _header(cells: Sequence[str]) -> tuple[list[str | None], dict[str, str], list[str], list[str]]:
    """Each header cell's column (None: ignored), the header as written by column, the ignored
    names, and the header's problems."""
    columns: list[str | None] = []
    written: dict[str, str] = {}
    ignored: list[str] = []
    problems: list[str] = []
    for cell in cells:
        name = cell.strip()
        column = CANONICAL.get(header_key(name)) if name else None
        if column is None:
            if name:
                ignored.append(name)
            columns.append(None)
            continue
        if column in written:
            problems.append(f"Columns {written[column]!r} and {name!r} are both {column}.")
        written.setdefault(column, name)
        columns.append(column)
    if "place" not in written or not any(c in written for c in PLAYER_COLUMNS):
        problems.append(
            "The first row must be a header naming the place (Place, Pos or Finish) and the player "
            "(Player ID, Membership Number, Email or Full Name)."
        )
    return columns, written, ignored, problems


def parse_report_csv(body: bytes) -> CsvReport:
    """The report's rows, in the JSON shape of `results`."""
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput.at("body", "The CSV is not UTF-8 text; save it as 'CSV UTF-8'.") from None
    rows = _rows(text)
    columns, written, ignored, problems = _header(rows[0][1])
    if problems:
        raise InvalidInput("; ".join(problems), problems=[Problem("header", text) for text in problems])
    report = CsvReport([], headers=written, ignored=ignored)
    for line, row in rows[1:]:
        index = len(report.results)
        extra = [cell for cell in row[len(columns) :] if cell.strip()]
        if extra:
            message = f"Row {line} has more cells than the header ({', '.join(repr(c) for c in extra)})."
            raise InvalidInput.at(f"results.{index}", message)
        cells = {
            column: row[i].strip()
            for i, column in enumerate(columns)
            if column is not None and i < len(row) and row[i].strip()
        }
        report.results.append(_result(cells))
        report.lines.append(line)
    if not report.results:
        raise InvalidInput.at("results", "The CSV has a header but no results.")
    return report


def _rows(text: str) -> list[tuple[int, list[str]]]:
    """The sheet's rows that hold anything, each with its line number; the header first."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        rows = [(reader.line_num, row) for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as exc:  # e.g. a cell longer than the csv module's field limit
        message = f"Row {reader.line_num} cannot be read as CSV: {exc}."
        raise InvalidInput.at("body", message) from None
    if not rows:
        raise InvalidInput.at("body", "The CSV is empty: send a header row and results.")
    return rows


def _result(cells: dict[str, str]) -> dict[str, Any]:
    """A row's result: its place and status, and the one identifier that names its player (an id,
    else a membership number, else an email with the full name, else a full name alone)."""
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
    return result
