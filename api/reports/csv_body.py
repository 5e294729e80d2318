"""A result report as a sheet: a header row, then one entrant a row, read into the JSON shape.

The rows come from a CSV's text or a workbook's sheet (`sheets.py` decodes the one and unpacks
the other); they are read alike. Trailing empty columns and common header names ("Full Name",
"Pos", "E-mail", "First Name" with "Last Name") are read; other columns (Notes) are ignored with
a warning. Cells are read as hosts write them: places "1st" or "2." (R4), statuses "W/D" or
"no show" (R6): `models/rules/reports.py` holds those words. Problems name rows as the
spreadsheet shows them: the header is row 1 (or the first row that holds anything)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from models.entities import STATUSES
from models.errors import InvalidInput, LeagueError, Problem, joined
from models.rules.notices import Notice, ignored_columns
from models.rules.reports import STATUS_WORDS_SAID, place_of_word, status_of_word

PLAYER_COLUMNS = ("player_id", "membership_number", "email", "full_name")
NAME_PARTS = ("first_name", "last_name")
COLUMNS = ("place", "status", *PLAYER_COLUMNS, *NAME_PARTS, "date_of_birth", "knocked_out_by")
INTEGER_COLUMNS = ("place", "player_id")
# Header names spreadsheets use, matched ignoring case, spaces, dashes and underscores.
SYNONYMS = {
    "place": ("place", "pos", "position", "finish", "finishing place"),
    "status": ("status",),
    "player_id": ("player id", "playerid"),
    "membership_number": ("membership number", "membership", "member number", "membership no"),
    "email": ("email", "e mail", "email address"),
    "full_name": ("full name", "fullname", "player", "player name", "name"),
    "first_name": ("first name", "firstname", "first", "given name", "forename"),
    "last_name": ("last name", "lastname", "last", "surname", "family name"),
    "date_of_birth": ("date of birth", "dob", "birth date", "birthdate", "born"),
    # R8a: who knocked the row's player out, named as any row names a player.
    "knocked_out_by": (
        "knocked out by",
        "ko by",
        "kod by",
        "ko'd by",
        "eliminated by",
        "busted by",
        "bust by",
        "knockout by",
        "out by",
    ),
}
CANONICAL = {alias: column for column, aliases in SYNONYMS.items() for alias in aliases}
# How a header refusal names what it looked for.
PLACE_HEADERS = "Place, Pos, Position, Finish or Finishing Place"
PLAYER_HEADERS = "Player ID, Membership Number, Email, Full Name (or First Name and Last Name)"
HALF_NAMES = {"first_name": "Last Name (or Surname)", "last_name": "First Name (or Given Name)"}
ROW_MENTION = re.compile(r"\bresults\.(\d+)\b")
# What a JSON message asks for, said in a spreadsheet's words.
SHEET_WORDS = (
    ("send new_player with full_name and email", "give their email and a Full Name column"),
    ("register them with new_player (full_name and email)", "give their email with their full name"),
    ("player_id, membership_number, email or new_player", "Player ID, Membership Number, Email or Full Name"),
    (f"Must be one of: {', '.join(STATUSES)}.", f"Must be a status: {STATUS_WORDS_SAID}."),
)


def header_key(cell: str) -> str:
    return " ".join(cell.replace("_", " ").replace("-", " ").lower().split())


@dataclass
class CsvReport:
    """The rows in the JSON shape, where each came from, and what was left out (a CSV's, or a
    workbook sheet's)."""

    results: list[dict[str, Any]]
    # The spreadsheet row of each result (the header is row 1) and the header as written.
    lines: list[int] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)
    # What reading the file said beside (a workbook's sheet chosen).
    read_notices: list[Notice] = field(default_factory=list)
    # The sheet as CSV text (UTF-8 once encoded): what the console's preview sends to be stored.
    text: str = ""

    @property
    def notices(self) -> list[Notice]:
        return [*self.read_notices, *([ignored_columns(self.ignored)] if self.ignored else [])]

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
        message = joined([lead, *(p.message for p in problems[:5])], more=len(problems) - 5)
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
            # A new player's field is its own column (Email, Date of Birth).
            name = parts[3] if parts[2] == "new_player" and len(parts) > 3 else parts[2]
            if name == "player_id":
                # A rule about the row's player (R16, R3): the column that named them in this row.
                row = self.results[int(parts[1])] if int(parts[1]) < len(self.results) else {}
                name = next((c for c in PLAYER_COLUMNS if c in row), "email" if "new_player" in row else name)
            if name in self.headers:  # the sheet's own column, as its header says it
                where += f", column {self.headers[name]}"
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
    if column == "place":
        place = place_of_word(text)  # "1st", "2.": R4 in a host's words
        return text if place is None else place
    if column == "status":
        status = status_of_word(text)  # "W/D", "no show": R6 in a host's words
        return text if status is None else status.value
    return text


def _delimiter(text: str) -> str:
    """`;` for European Excel's files, a tab for pasted tables or Excel's Unicode Text, else a
    comma: read off the header, outside its quoted cells."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    bare = re.sub(r'"[^"]*"', "", first)
    counts = {d: bare.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] > 0 else ","


@dataclass
class Header:
    """Each header cell's column (None: ignored), the header as written by column, the ignored
    names, and the header's problems."""

    columns: list[str | None] = field(default_factory=list)
    written: dict[str, str] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def found(self) -> str:
        """What the header holds, for a refusal: "found Place; Nom, Notes (ignored)"."""
        used = ", ".join(self.written.values())
        ignored = f"{', '.join(self.ignored)} (ignored)" if self.ignored else ""
        return "found " + ("; ".join(part for part in (used, ignored) if part) or "nothing")


def _header(cells: Sequence[str]) -> Header:
    header = Header()
    for cell in cells:
        name = cell.strip()
        column = CANONICAL.get(header_key(name)) if name else None
        if column is None:
            if name:
                header.ignored.append(name)
            header.columns.append(None)
            continue
        if column in header.written:
            header.problems.append(f"Columns {header.written[column]!r} and {name!r} are both {column}.")
        header.written.setdefault(column, name)
        header.columns.append(column)
    header.problems += _missing_columns(header)
    return header


def _missing_columns(header: Header) -> list[str]:
    """What the header must name and does not: the place, and the player (a Full Name, or a
    First Name with a Last Name)."""
    written = header.written
    problems = []
    if "place" not in written:
        problems.append(f"No column gives the place: expected one of {PLACE_HEADERS}; {header.found()}.")
    halves = [part for part in NAME_PARTS if part in written]
    if len(halves) == 1:
        problems.append(
            f"Column {written[halves[0]]!r} needs a {HALF_NAMES[halves[0]]} column beside it, "
            "or give the whole name in one Full Name column."
        )
    elif halves and "full_name" in written:
        problems.append(
            f"Columns {written['full_name']!r} and {written['first_name']!r} both give the player's "
            "name: keep one Full Name column, or First Name and Last Name."
        )
    if not halves and not any(column in written for column in PLAYER_COLUMNS):
        problems.append(f"No column names the player: expected one of {PLAYER_HEADERS}; {header.found()}.")
    return problems


def csv_rows(text: str) -> list[tuple[int, list[str]]]:
    """A CSV's rows that hold anything, each with its line number; the header first."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        return [(reader.line_num, row) for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as exc:  # e.g. a cell longer than the csv module's field limit
        message = f"Row {reader.line_num} cannot be read as CSV: {exc}."
        raise InvalidInput.at("body", message) from None


def parse_report_text(text: str) -> CsvReport:
    """A CSV report's rows (from its text), in the JSON shape of `results`."""
    report = report_of_rows(csv_rows(text), "The CSV")
    report.text = text
    return report


def report_of_rows(rows: list[tuple[int, list[str]]], what: str) -> CsvReport:
    """The report of a sheet's rows (each with its spreadsheet row number, the header first;
    only rows that hold anything). `what` names the sheet in a refusal ("The CSV")."""
    if not rows:
        raise InvalidInput.at("body", f"{what} is empty: send a header row and results.")
    header = _header(rows[0][1])
    if header.problems:
        message = f"The header (row {rows[0][0]}) cannot be read: {'; '.join(header.problems)}"
        raise InvalidInput(message, problems=[Problem("header", text) for text in header.problems])
    written = dict(header.written)
    if "first_name" in written:
        written["full_name"] = f"{written['first_name']} / {written['last_name']}"
    report = CsvReport([], headers=written, ignored=header.ignored)
    columns = header.columns
    for line, row in rows[1:]:
        extra = [cell for cell in row[len(columns) :] if cell.strip()]
        if extra:
            message = f"Row {line} has more cells than the header ({', '.join(repr(c) for c in extra)})."
            raise InvalidInput.at(f"results.{len(report.results)}", message)
        cells = {
            column: row[i].strip()
            for i, column in enumerate(columns)
            if column is not None and i < len(row) and row[i].strip()
        }
        report.results.append(_result(cells))
        report.lines.append(line)
    if not report.results:
        raise InvalidInput.at("results", f"{what} has a header but no results.")
    return report


def _result(cells: dict[str, str]) -> dict[str, Any]:
    """A row's result: its place and status, and the one identifier that names its player (an id,
    else a membership number, else an email with the full name, else a full name alone). A full
    name may come as a first and a last name; an email with a name and a date of birth
    registers a new player born that day (`new_player`), or names the player of that email."""
    result: dict[str, Any] = {}
    for name in ("place", "status"):
        if name in cells:
            result[name] = _cell_value(name, cells[name])
    name_parts = [cells[part] for part in NAME_PARTS if part in cells]
    if name_parts:
        cells["full_name"] = " ".join(name_parts)
    if "player_id" in cells:
        result["player_id"] = _cell_value("player_id", cells["player_id"])
    elif "membership_number" in cells:
        result["membership_number"] = cells["membership_number"]
    elif "email" in cells and "full_name" in cells and "date_of_birth" in cells:
        new = {name: cells[name] for name in ("full_name", "email", "date_of_birth")}
        result["new_player"] = new
    elif "email" in cells:
        result["email"] = cells["email"]
        if "full_name" in cells:
            result["full_name"] = cells["full_name"]
    elif "full_name" in cells:
        result["full_name"] = cells["full_name"]
    if cells.get("knocked_out_by"):
        # Named as a row names a player (player number, membership number, email or name),
        # looked for among the sheet's entrants.
        result["knocked_out_by_name"] = cells["knocked_out_by"]
    return result
