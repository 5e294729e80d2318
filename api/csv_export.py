"""CSV answers for spreadsheets, safe against formula injection, as OWASP's CSV injection advice
says: no cell a spreadsheet reads, however it splits the lines, starts with = + - @ (or a tab or a
carriage return before one)."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from flask import Response, request
from marshmallow import fields, validate

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A formula after a separator of any locale's CSV (comma, semicolon, tab, pipe) or a line end,
# behind any spaces or quotes: a spreadsheet that splits there (Excel where the list separator is
# ";", a reader that ignores quotes) starts a cell with it.
FORMULA_AFTER_SEPARATOR = re.compile(r"([,;\t|\r\n][\s\"]*)(?=[=+\-@])")


def safe_cell(value: Any) -> Any:
    """A text cell no spreadsheet runs: an apostrophe before a leading formula character (behind
    spaces too), and before each one that follows a separator. Every text cell is also quoted
    (`csv_response`), so a separator in it stays in it for readers that honour quotes. Numbers
    are left alone."""
    if not isinstance(value, str):
        return value
    value = FORMULA_AFTER_SEPARATOR.sub(r"\1'", value)
    if value.lstrip(" ").startswith(FORMULA_STARTS):
        return "'" + value
    return value


def format_field() -> fields.String:
    """`?format=`: json (the default), or csv, still answered (as its own `.csv` path answers) for
    the links and scripts that ask the JSON's URL for it. The spec lists json alone: an operation
    declares one media type, so a generated client types its answer as the JSON body, and reads
    the CSV from the `.csv` operation (api/contract.csv_too)."""
    return fields.String(
        validate=validate.OneOf(["json", "csv"]),
        metadata={
            "enum": ["json"],
            "description": "json (the default). The CSV is the operation's own `.csv` path "
            "(`csv` here, or `Accept: text/csv`, still answers it, for older links).",
        },
    )


def wants_csv() -> bool:
    if request.args.get("format") == "csv":
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/csv"])
    return (
        best == "text/csv"
        and request.accept_mimetypes["text/csv"] > request.accept_mimetypes["application/json"]
    )


def file_name(name: str) -> str:
    """A name any file system and browser takes: letters, digits, dashes, one dot."""
    stem, _, extension = name.rpartition(".")
    plain = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    return "-".join(re.findall(r"[A-Za-z0-9]+", plain)).lower()[:120] + "." + extension


def csv_response(columns: Sequence[str], rows: Iterable[Sequence[Any]], filename: str) -> Response:
    """A CSV a spreadsheet opens cleanly: UTF-8 with a BOM (Excel then reads accents right),
    CRLF line ends, formula-safe cells, text quoted (numbers bare)."""
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([safe_cell(value) for value in row])
    response = Response(buffer.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{file_name(filename)}"'
    return response


def varies_by_accept(response: Response) -> Response:
    """JSON and CSV share the URL: caches must key on Accept as well (ETag, 304)."""
    response.vary.add("Accept")
    return response


# The documented answer of a CSV operation (its own operation, so generated clients that want
# JSON never meet CSV, and those that want CSV get a string).
CSV_ANSWER = {
    200: {
        "description": "CSV (UTF-8, a header row, CRLF line ends), safe to open in a spreadsheet.",
        "content": {"text/csv": {"schema": {"type": "string"}}},
    }
}
