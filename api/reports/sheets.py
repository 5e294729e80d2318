"""A report's sheet as a host saves it, read into the rows `csv_body.py` reads: a CSV in whichever
encoding the spreadsheet wrote it, or a workbook (.xlsx from Excel, .ods from LibreOffice).

- CSV: UTF-8 (with or without a BOM), else UTF-16 when it starts with its BOM (Excel's "Unicode
  Text"), else Windows-1252 (Excel's "CSV (Comma delimited)" on Windows), each tried strictly,
  in that order: the same bytes always read the same way.
- Workbooks, read with python-calamine once `workbooks.py` has checked them: the sheet named
  Results (any case), else the first sheet shown, with a warning when there are others. A cell
  reads as its value: a formula's last result (as the spreadsheet saved it), a whole number
  written 3.0 as 3, a date as YYYY-MM-DD.

A sheet that cannot be read is plain bad input (a 422 naming `body`) that says why; a picture
(a photo of the sheet, by its first bytes) says it is one (`pictures.py`)."""

from __future__ import annotations

import codecs
import csv
import io
import re
from datetime import date, datetime, time, timedelta
from typing import Any

from python_calamine import (
    CalamineError,
    CalamineSheet,
    CalamineWorkbook,
    PasswordError,
    SheetTypeEnum,
    SheetVisibleEnum,
)

from api.reports.csv_body import CsvReport, parse_report_text, report_of_rows
from api.reports.pictures import refuse_picture
from api.reports.workbooks import (
    OLE_MAGIC,
    PASSWORD,
    ZIP_MAGIC,
    archive_of,
    kind_of,
    refused,
    repacked,
    workbook_kind,
)
from models.errors import InvalidInput
from models.rules.notices import first_sheet_read

CSV_TYPE = "text/csv"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
ODS_TYPE = "application/vnd.oasis.opendocument.spreadsheet"
WORKBOOK_TYPES = (XLSX_TYPE, ODS_TYPE)
# Read as a workbook when it is one (a zip of either kind); refused as a body otherwise.
OCTET_STREAM = "application/octet-stream"
SHEET_TYPES = (CSV_TYPE, *WORKBOOK_TYPES, OCTET_STREAM)
# The file names the console's upload reads as workbooks.
WORKBOOK_ENDINGS = {".xlsx": XLSX_TYPE, ".ods": ODS_TYPE}
RESULTS = "results"
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def takes(mimetype: str, body: bytes) -> bool:
    """Whether a body sent with this Content-Type is a sheet a report may come as (CSV, or a
    workbook). application/octet-stream only when the bytes are a workbook (a zip of either
    kind), or an Office file that is not one (a password-protected workbook, an .xls), so that
    its refusal says what it is."""
    if mimetype == OCTET_STREAM:
        return body.startswith(OLE_MAGIC) or workbook_kind(body) is not None
    return mimetype in SHEET_TYPES


def upload_type(filename: str) -> str:
    """The Content-Type an uploaded file is read as, by its name's ending (else CSV)."""
    ending = filename[filename.rfind(".") :].lower() if "." in filename else ""
    return WORKBOOK_ENDINGS.get(ending, CSV_TYPE)


def read_sheet(body: bytes, mimetype: str = CSV_TYPE) -> CsvReport:
    """The report's rows in the JSON shape of `results`, from a CSV or a workbook (by its type;
    a workbook sent as text/csv is read as the workbook it is; a picture is refused as one)."""
    refuse_picture(body)
    if mimetype != CSV_TYPE or body.startswith((ZIP_MAGIC, OLE_MAGIC)):
        return read_workbook(body)
    return parse_report_text(decode_csv(body))


def decode_csv(body: bytes) -> str:
    """A CSV's text: UTF-8, else UTF-16 by its BOM, else Windows-1252; refused when it is none."""
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if body.startswith(codecs.BOM_UTF8):
            raise _not_text("starts as UTF-8 text (its byte order mark) but is not", body, exc) from None
    if body.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return body.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise _not_text("starts as UTF-16 text (its byte order mark) but is not", body, exc) from None
    try:
        return body.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise _not_text("is neither UTF-8 nor Windows-1252 text", body, exc) from None


def _not_text(what: str, body: bytes, error: UnicodeDecodeError) -> InvalidInput:
    byte = body[error.start]
    return refused(f"The CSV {what} (byte {error.start + 1} is 0x{byte:02X}): save it as 'CSV UTF-8'.")


def read_workbook(body: bytes) -> CsvReport:
    """The report of a workbook's results sheet: checked, then read with python-calamine."""
    archive = archive_of(body)
    checked = repacked(archive, kind_of(archive))
    try:
        with CalamineWorkbook.from_filelike(io.BytesIO(checked)) as workbook:
            name, others = _results_sheet(workbook)
            rows = _rows(workbook.get_sheet_by_name(name))
    except PasswordError:
        raise refused(PASSWORD) from None
    except CalamineError as exc:
        raise refused(f"The workbook cannot be read ({exc or type(exc).__name__}).") from None
    report = report_of_rows(rows, f'The sheet "{name}"')
    if others:
        report.read_notices.append(first_sheet_read(name, others + 1))
    report.text = _as_csv(rows)
    return report


def _results_sheet(workbook: CalamineWorkbook) -> tuple[str, int]:
    """The sheet to read (named Results, else the first shown), and how many other sheets there
    are when none is named Results (0 when one is)."""
    sheets = [meta for meta in workbook.sheets_metadata if meta.typ == SheetTypeEnum.WorkSheet]
    if not sheets:
        raise refused("The workbook has no sheet of cells to read.")
    named = next((meta.name for meta in sheets if meta.name.strip().casefold() == RESULTS), None)
    if named is not None:
        return named, 0
    shown = [meta for meta in sheets if meta.visible == SheetVisibleEnum.Visible] or sheets
    return shown[0].name, len(sheets) - 1


def _rows(sheet: CalamineSheet) -> list[tuple[int, list[str]]]:
    """The sheet's rows that hold anything, each with its row number (from A1)."""
    rows = []
    for index, values in enumerate(sheet.to_python(skip_empty_area=False), start=1):
        cells = [cell_text(value) for value in values]
        if any(cell.strip() for cell in cells):
            rows.append((index, cells))
    return rows


def cell_text(value: Any) -> str:
    """A cell's value as the sheet shows it to a person: 3.0 as 3, a date as 2026-03-04 (a date
    and time at midnight as its date), TRUE and FALSE."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time() else value.isoformat(sep=" ")
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return str(value)
    return str(value)


def _as_csv(rows: list[tuple[int, list[str]]]) -> str:
    """The sheet as CSV text, each row on its own line number (blank lines between), so that read
    again it names the same rows: what the console's preview sends to be stored."""
    buffer = io.StringIO()
    out = csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\n")
    line = 1
    for number, cells in rows:
        buffer.write("\n" * (number - line))
        out.writerow([LINE_BREAK.sub(" ", cell.replace("\x00", "")) for cell in cells])
        line = number + 1
    return buffer.getvalue()
