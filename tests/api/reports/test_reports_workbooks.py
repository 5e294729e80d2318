"""Reports as hosts' spreadsheets save them (tests/fixtures/spreadsheets, made by
tests/fixtures/make_spreadsheets.py): CSV in Windows-1252 and UTF-16, Excel's .xlsx and
LibreOffice's .ods, read with the same header names, the same words for places and statuses
(R4, R6), the same player columns (R5) and the same refusals by row and column as a UTF-8 CSV.
A file that cannot be read is refused saying why, and nothing is stored; so is one over the
league's max_entrants (by its count, none of its rows looked up: R19) or the size limit. The
console's upload reads the same files."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from flask import Flask
from flask.testing import FlaskClient
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import P
from sqlalchemy import Connection

from tests.builders import TOURNAMENTS, Scene, audit_entries, days_ago, iso
from tests.support.console import hidden_fields, signed_in, text_of, upload_file
from tests.support.league import Caller, assert_problem
from tests.support.statements import statements

SHEETS = Path(__file__).resolve().parents[2] / "fixtures" / "spreadsheets"
CSV = "text/csv"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
ODS = "application/vnd.oasis.opendocument.spreadsheet"
OCTET = "application/octet-stream"
SAVE_AS = "send the results saved as an Excel Workbook (.xlsx), an OpenDocument Spreadsheet (.ods) or CSV."
PLAYERS_READ = re.compile(r"\bFROM players\b", re.IGNORECASE)


def url(scene: Scene, query: str = "") -> str:
    return f"{TOURNAMENTS}?venue_id={scene.venue_id}&date={iso(days_ago(1))}{query}"


def post(scene: Scene, body: bytes, content_type: str, caller: Caller | None = None, query: str = "") -> Any:
    return (caller or scene.host).post(url(scene, query), data=body, content_type=content_type)


def fixture(name: str) -> bytes:
    return (SHEETS / name).read_bytes()


def audit_total(scene: Scene) -> int:
    return int(scene.office.get("/api/v1/audit-log?per_page=1").get_json()["total"])


def stored_as(scene: Scene, report: dict[str, Any]) -> list[tuple[int, str, str, str | None]]:
    """The stored report's rows as (place, the player's full name, status, date of birth), read
    back as the office reads them."""
    stored = scene.office.get(f"{TOURNAMENTS}/{report['id']}").get_json()
    rows = []
    for result in stored["results"]:
        player = scene.office.get(f"/api/v1/players/{result['player']['id']}").get_json()
        rows.append((result["place"], player["full_name"], result["status"], player["date_of_birth"]))
    return rows


@contextmanager
def stores_nothing(scene: Scene) -> Iterator[None]:
    """What runs inside stores nothing: the same reports, players and audit entries after it."""
    before = (*scene.counts(), audit_total(scene))
    yield
    assert (*scene.counts(), audit_total(scene)) == before


FIRST_SHEET = {
    "code": "first_sheet_read",
    "message": 'The workbook has 2 sheets and none is named "Results": the first, "Tuesday", was read.',
    "player_ids": [],
    "rule": None,
}
NOTES_IGNORED = {
    "code": "ignored_columns",
    "message": "Columns ignored: Notes.",
    "player_ids": [],
    "rule": None,
}
ZOE, RENEE, NONO = "Zo\u00eb Bront\u00eb", "Ren\u00e9e Lef\u00e8vre", "\u00d1o\u00f1o Mu\u00f1oz"
JOSE = "Jos\u00e9 \u00c1lvarez"


@pytest.mark.parametrize(
    ("name", "content_type", "rows", "warnings"),
    [
        (
            "excel-windows-1252.csv",
            CSV,
            [(1, ZOE, "played", None), (2, RENEE, "declared_withdrawal", None), (3, NONO, "no_show", None)],
            [],
        ),
        (
            "excel-unicode-text-utf16.txt",
            CSV,
            [
                (1, JOSE, "played", None),
                (2, ZOE, "declared_withdrawal", None),
                (3, "\u0141ukasz \u017b\u00f3\u0142\u0107", "no_show", None),
            ],
            [],
        ),
        (
            "excel-two-sheets.xlsx",
            XLSX,
            [
                (1, ZOE, "played", "1990-05-01"),
                (2, RENEE, "declared_withdrawal", "1985-07-21"),
                (3, NONO, "absent", None),
                (4, "Ann Lee", "no_show", None),
            ],
            [FIRST_SHEET, NOTES_IGNORED],
        ),
        (
            "excel-results-second.xlsx",
            XLSX,
            [
                (1, JOSE, "played", None),
                (2, "Ann Lee", "declared_withdrawal", None),
                (3, "Sam O'Neil", "no_show", None),
            ],
            [],
        ),
        (
            "libreoffice.ods",
            ODS,
            [
                (1, ZOE, "played", "1990-05-01"),
                (2, RENEE, "declared_withdrawal", None),
                (3, NONO, "absent", None),
            ],
            [],
        ),
        (
            "libreoffice.ods",
            OCTET,
            [
                (1, ZOE, "played", "1990-05-01"),
                (2, RENEE, "declared_withdrawal", None),
                (3, NONO, "absent", None),
            ],
            [],
        ),
    ],
    ids=[
        "cp1252-csv",
        "utf16-unicode-text",
        "xlsx-two-sheets",
        "xlsx-results-second",
        "ods",
        "ods-as-octet-stream",
    ],
)
def test_r4_r5_r6_each_spreadsheet_is_stored_as_written(
    scene: Scene, name: str, content_type: str, rows: list[Any], warnings: list[Any]
) -> None:
    """R4, R5, R6: each host's file registers its players by name and email (a first and a last
    name make one), with places ("1st", a formula =1+1 that reads 2, a float 3.0), statuses in
    hosts' words ("W/D", "no show", " Left ") and dates of birth from date cells; the warnings
    say which sheet was read and which columns were not."""
    before = scene.player_count()
    response = post(scene, fixture(name), content_type)
    assert response.status_code == 201, response.get_json()
    answer = response.get_json()
    assert answer["warnings"] == warnings
    assert [(r["place"], r["status"]) for r in answer["results"]] == [(row[0], row[2]) for row in rows]
    assert stored_as(scene, answer) == rows
    assert scene.player_count() == before + len(rows)


def test_r17_a_correction_may_come_as_a_workbook(scene: Scene) -> None:
    """R17: PUT takes a workbook as POST does (the correction's reason in the query)."""
    ids = scene.add_players(2)
    report = scene.posted(scene.body(ids, days_ago(1)), scene.office)
    response = scene.office.put(
        f"{TOURNAMENTS}/{report['id']}?reason=The+host+sent+the+wrong+sheet",
        data=fixture("excel-results-second.xlsx"),
        content_type=XLSX,
    )
    assert response.status_code == 200, response.get_json()
    assert [row[:3] for row in stored_as(scene, response.get_json())] == [
        (1, JOSE, "played"),
        (2, "Ann Lee", "declared_withdrawal"),
        (3, "Sam O'Neil", "no_show"),
    ]


def test_r4_a_place_written_1st_twice_is_still_refused_by_row(scene: Scene) -> None:
    """R4: "1st" reads 1, and two of them are a repeated place, named by the sheet's rows."""
    sheet = "Place,Full Name,E-mail\r\n1st,Ann Lee,ann.lee@example.org\r\n1st,Bo Ray,bo.ray@example.org\r\n"
    with stores_nothing(scene):
        problem = assert_problem(post(scene, sheet.encode("cp1252"), CSV), 422, rule="R4")
    assert problem["errors"] == {
        "results.1.place": [
            "Row 3 (place 1), column Place: Place 1 is also given at row 2 (place 1); places do not tie (R4)."
        ],
        "results": ["Places must be exactly 1..2; missing: 2."],
    }


def test_r6_a_status_no_word_names_is_refused_listing_the_words(scene: Scene) -> None:
    ann, bob = scene.add_players(2)
    sheet = f"Place,Player ID,Status\n1,{ann},maybe\n2,{bob},\n".encode()
    with stores_nothing(scene):
        problem = assert_problem(post(scene, sheet, CSV), 422)
    assert problem["errors"] == {
        "results.0.status": [
            "Row 2 (place 1), column Status: Must be a status: played (or blank), withdrew (withdrawn, "
            "W/D, WD, declared), absent (left) or no show (no-show, noshow, DNS)."
        ]
    }


def test_r4_r6_json_keeps_its_codes_and_integer_places(scene: Scene) -> None:
    """R4, R6: the words are a spreadsheet's; JSON takes the status codes and integer places only."""
    (ann,) = scene.add_players(1)
    body = scene.body([ann], days_ago(1))
    body["results"][0].update(place="1st", status="W/D")
    with stores_nothing(scene):
        problem = assert_problem(scene.post(body), 422, "results.0.place", "results.0.status")
    assert problem["errors"]["results.0.status"] == [
        "Must be one of: played, declared_withdrawal, absent, no_show."
    ]


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (
            "Place,First Name,Email",
            "Column 'First Name' needs a Last Name (or Surname) column beside it, or give the whole "
            "name in one Full Name column.",
        ),
        (
            "Place,Surname,Email",
            "Column 'Surname' needs a First Name (or Given Name) column beside it, or give the whole "
            "name in one Full Name column.",
        ),
        (
            "Place,Name,Given name,Family name",
            "Columns 'Name' and 'Given name' both give the player's name: keep one Full Name column, "
            "or First Name and Last Name.",
        ),
    ],
)
def test_r5_half_a_name_is_refused_naming_the_missing_column(scene: Scene, header: str, message: str) -> None:
    with stores_nothing(scene):
        problem = assert_problem(
            post(scene, f"{header}\n1,Ann,ann@example.org,\n".encode(), CSV), 422, "header"
        )
    assert problem["errors"] == {"header": [message]}


def built_xlsx(*rows: list[Any]) -> bytes:
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("content_type", [CSV, XLSX])
def test_r5_a_sheet_naming_no_player_says_what_it_found_and_what_it_expected(
    scene: Scene, content_type: str
) -> None:
    """R5: a French sheet: no column names the place or the player; the refusal names the columns
    it read past and those it looks for, in a CSV and in a workbook alike."""
    rows = [["Nom", "Rang", "Notes"], ["Ann Lee", 1, "a"]]
    body = (
        "".join(",".join(map(str, row)) + "\n" for row in rows).encode()
        if content_type == CSV
        else built_xlsx(*rows)
    )
    with stores_nothing(scene):
        problem = assert_problem(post(scene, body, content_type), 422, "header")
        placed = assert_problem(post(scene, b"Place,Nom,Notes\n1,Ann Lee,a\n", CSV), 422, "header")
    assert problem["errors"] == {
        "header": [
            "No column gives the place: expected one of Place, Pos, Position, Finish or Finishing Place; "
            "found Nom, Rang, Notes (ignored).",
            "No column names the player: expected one of Player ID, Membership Number, Email, Full Name "
            "(or First Name and Last Name); found Nom, Rang, Notes (ignored).",
        ]
    }
    assert placed["errors"]["header"] == [
        "No column names the player: expected one of Player ID, Membership Number, Email, Full Name "
        "(or First Name and Last Name); found Place; Nom, Notes (ignored)."
    ]
    assert placed["detail"].startswith("The header (row 1) cannot be read: No column names the player")


def test_r5_a_workbooks_mistakes_are_named_by_row_and_column(scene: Scene) -> None:
    """R5: a workbook's refusal names its rows (the header is row 1, blank rows count) and the
    columns as written, like a CSV's: a bad email, a date of birth that is no date."""
    body = built_xlsx(
        ["Pos", "Given name", "Family name", "E-mail", "DOB"],
        [],
        ["1st", "Ann", "Lee", "not an email", None],
        ["2nd", "Bo", "Ray", "bo.ray@example.org", "31/02/1990"],
    )
    with stores_nothing(scene):
        problem = assert_problem(post(scene, body, XLSX), 422)
    assert problem["errors"] == {
        "results.0.email": ["Row 3 (place 1), column E-mail: Not a valid email address."],
        "results.1.new_player.date_of_birth": [
            "Row 4 (place 2), column DOB: Not a valid date: use YYYY-MM-DD (e.g. 2026-03-04)."
        ],
    }


def zip_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


PASSWORD = (
    "The workbook is protected by a password, so it cannot be read: save a copy without the password "
    "and send that."
)


@pytest.mark.parametrize(
    ("body", "content_type", "message"),
    [
        (fixture("password-protected.xlsx"), XLSX, PASSWORD),
        (fixture("password-protected.xlsx"), OCTET, PASSWORD),
        (
            fixture("not-a-workbook.png"),
            XLSX,
            "This file is a picture (PNG), not a spreadsheet: the service reads CSV, .xlsx or .ods "
            "sheets. Type the results in instead, or export the sheet as CSV.",
        ),
        (
            bytes(range(256)) * 8,
            ODS,
            f"This is not an .xlsx or .ods workbook (those are zip archives, and this is not one): {SAVE_AS}",
        ),
        (
            zip_of({"notes.txt": b"Tuesday"}),
            XLSX,
            f"This is a zip archive but not an .xlsx or .ods workbook: {SAVE_AS}",
        ),
        (
            fixture("excel-two-sheets.xlsx")[:2000],
            XLSX,
            "The workbook is damaged: its zip archive cannot be read (File is not a zip file).",
        ),
    ],
    ids=["password", "password-as-octet-stream", "png", "random-bytes", "zip-of-text", "cut-short"],
)
def test_a_file_that_is_no_readable_workbook_is_refused_saying_what_it_is(
    scene: Scene, body: bytes, content_type: str, message: str
) -> None:
    with stores_nothing(scene):
        problem = assert_problem(post(scene, body, content_type), 422, "body")
    assert problem["errors"] == {"body": [message]}
    assert problem["detail"] == message


def test_an_octet_stream_that_is_no_workbook_is_a_400(scene: Scene) -> None:
    """application/octet-stream is read as a workbook only when it is one."""
    with stores_nothing(scene):
        problem = assert_problem(post(scene, b"place,player_id\n1,1\n", OCTET), 400)
    assert "application/vnd.oasis.opendocument.spreadsheet" in problem["detail"]


@pytest.fixture()
def players_read(connection: Connection) -> Iterator[list[str]]:
    """Every statement that reads the players table from now on."""
    with statements(connection, PLAYERS_READ) as seen:
        yield seen


def test_r19_a_workbook_over_max_entrants_is_refused_by_its_count_none_of_its_rows_looked_up(
    scene: Scene, players_read: list[str]
) -> None:
    """R19: 60 membership numbers in a workbook when the league takes 50 entrants: refused by the
    count alone, as a CSV or JSON report is; no player is read, nothing is stored."""
    assert scene.office.patch("/api/v1/league-settings", json={"max_entrants": 50}).status_code == 200
    before = (*scene.counts(), audit_total(scene))
    players_read.clear()
    problem = assert_problem(post(scene, fixture("too-many-rows.xlsx"), XLSX), 422, "results")
    assert players_read == []
    assert (*scene.counts(), audit_total(scene)) == before
    assert problem["errors"] == {
        "results": ["At most 50 entrants per report (the league's max_entrants); this one has 60."]
    }


def test_a_workbook_over_the_size_limit_is_413_and_stores_nothing(make_app: Any, scene: Scene) -> None:
    small = make_app(MAX_CONTENT_LENGTH=4096)
    host = Caller(small.test_client(), scene.host.key)
    assert len(fixture("excel-two-sheets.xlsx")) > 4096
    with stores_nothing(scene):
        assert_problem(post(scene, fixture("excel-two-sheets.xlsx"), XLSX, host), 413)


def far_cell_xlsx() -> bytes:
    """A 5 KB workbook with one value at XFD1048576: laid out from A1, 17 billion cells."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["Place", "Email"])
    sheet.append([1, "ann.lee@example.org"])
    sheet["XFD1048576"] = "x"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def edited_xlsx(edit: Any) -> bytes:
    """A small workbook whose sheet's XML is edited by hand (`edit(xml) -> xml`), as no
    spreadsheet would save it."""
    source = zipfile.ZipFile(io.BytesIO(built_xlsx(["Place", "Email"], [1, "ann.lee@example.org"])))
    return zip_of(
        {
            name: edit(source.read(name)) if name == "xl/worksheets/sheet1.xml" else source.read(name)
            for name in source.namelist()
        }
    )


FAR_CELL = b'<c r="XFD1048576" t="inlineStr" x=">"><is><t>x</t></is></c></row></sheetData>'


def repeated_rows_ods(columns: int, rows: int) -> bytes:
    """A 2 KB .ods whose one row of `columns` values is repeated `rows` times."""
    document = OpenDocumentSpreadsheet()
    table = Table(name="Results")
    header = TableRow()
    for text in ("Place", "Email"):
        cell = TableCell(valuetype="string")
        cell.addElement(P(text=text))
        header.addElement(cell)
    table.addElement(header)
    repeated = TableRow(numberrowsrepeated=rows)
    cell = TableCell(valuetype="string", numbercolumnsrepeated=columns)
    cell.addElement(P(text="x"))
    repeated.addElement(cell)
    table.addElement(repeated)
    document.spreadsheet.addElement(table)
    buffer = io.BytesIO()
    document.write(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("body", "content_type", "message"),
    [
        (
            far_cell_xlsx(),
            XLSX,
            "A sheet of the workbook (xl/worksheets/sheet1.xml) reaches row 1,048,576 and column 16,384: "
            "more than a report's sheet can be (500,000 cells). Delete what lies beyond the results, or "
            "save the results sheet alone.",
        ),
        (
            repeated_rows_ods(1000, 10_000),
            ODS,
            "A sheet of the workbook (content.xml) reaches row 10,001 and column 1,000: more than a report's "
            "sheet can be (500,000 cells). Delete what lies beyond the results, or save the results "
            "sheet alone.",
        ),
        (
            zip_of({"xl/workbook.xml": b"<workbook/>", "xl/worksheets/sheet1.xml": b" " * (17 * 2**20)}),
            XLSX,
            "The workbook unpacks to more than 16 MB, far more than a night's results: save the results "
            "sheet alone.",
        ),
        (
            edited_xlsx(lambda xml: xml.replace(b"</row></sheetData>", FAR_CELL)),
            XLSX,
            "A sheet of the workbook (xl/worksheets/sheet1.xml) reaches row 1,048,576 and column 16,384: "
            "more than a report's sheet can be (500,000 cells). Delete what lies beyond the results, or "
            "save the results sheet alone.",
        ),
        (
            edited_xlsx(lambda xml: xml.replace(b'r="B2"', b'r="&#88;FD1048576"')),
            XLSX,
            "The workbook is damaged: its cell reference '&#88;FD1048576' cannot be read.",
        ),
        (
            edited_xlsx(lambda xml: b'<!DOCTYPE worksheet [<!ENTITY x "<c ">">]>' + xml),
            XLSX,
            "The workbook is damaged: its part xl/worksheets/sheet1.xml declares a document type, which "
            "no spreadsheet writes.",
        ),
        (
            edited_xlsx(lambda xml: xml.decode().encode("utf-16")),
            XLSX,
            "The workbook's part xl/worksheets/sheet1.xml is not UTF-8 XML, as spreadsheets save it.",
        ),
    ],
    ids=[
        "cell-at-XFD1048576",
        "ods-row-repeated",
        "unpacks-to-17-MB",
        "far-cell-behind-a-quoted-angle-bracket",
        "reference-in-an-entity",
        "doctype",
        "utf-16-part",
    ],
)
def test_a_small_workbook_that_would_lay_out_huge_is_refused_before_it_is_read(
    scene: Scene, body: bytes, content_type: str, message: str
) -> None:
    """A few KB that the reader would lay out in gigabytes (ending the worker, not refusing) are
    refused by what they would lay out, before the reader sees them; so is one that hides its
    cells from the count (behind a quoted '>', an entity, a document type, another encoding)."""
    assert len(body) < 100_000
    with stores_nothing(scene):
        problem = assert_problem(post(scene, body, content_type), 422, "body")
    assert problem["errors"] == {"body": [message]}


# The console ----------------------------------------------------------------------------------


def upload(browser: FlaskClient, scene: Scene, body: bytes, filename: str) -> Any:
    return upload_file(browser, scene.venue_id, body, filename, iso(days_ago(1)))


def test_a_host_uploads_a_workbook_in_the_console_previews_it_and_stores_it_r6(
    app: Flask, scene: Scene
) -> None:
    """R6: the console's upload reads the .xlsx as the API does: the preview shows its rows and
    its warnings and stores nothing; confirming stores them, names and statuses as written."""
    host = signed_in(app, scene.host.key)
    before = scene.stored_reports()
    preview = upload(host, scene, fixture("excel-two-sheets.xlsx"), "Tuesday.xlsx")
    assert preview.status_code == 200, text_of(preview)
    said = text_of(preview)
    assert FIRST_SHEET["message"] in said and "Columns ignored: Notes." in said
    assert re.search(r"1 Zoë B\. new player played \d+ 2 Renée L\. new player withdrew \d+", said), said
    assert scene.stored_reports() == before
    stored = host.post(f"/console/venues/{scene.venue_id}/report/confirm", data=hidden_fields(preview))
    assert stored.status_code == 302, text_of(stored)
    assert scene.stored_reports() == before + 1
    entry = audit_entries(scene.office, "action=tournament.create")[0]
    report = scene.office.get(f"{TOURNAMENTS}/{entry['entity_id']}").get_json()
    assert stored_as(scene, report) == [
        (1, ZOE, "played", "1990-05-01"),
        (2, RENEE, "declared_withdrawal", "1985-07-21"),
        (3, NONO, "absent", None),
        (4, "Ann Lee", "no_show", None),
    ]


def test_the_consoles_upload_refuses_a_password_protected_workbook_and_stores_nothing(
    app: Flask, scene: Scene
) -> None:
    host = signed_in(app, scene.host.key)
    with stores_nothing(scene):
        refused_page = upload(host, scene, fixture("password-protected.xlsx"), "Tuesday.xlsx")
    assert refused_page.status_code == 422
    assert "Nothing was stored." in text_of(refused_page) and PASSWORD in text_of(refused_page)


def test_the_consoles_upload_over_the_size_limit_is_413_and_stores_nothing(
    make_app: Any, scene: Scene
) -> None:
    small = make_app(MAX_CONTENT_LENGTH=4096)
    host = signed_in(small, scene.host.key)
    with stores_nothing(scene):
        answer = upload(host, scene, fixture("excel-two-sheets.xlsx"), "Tuesday.xlsx")
    assert answer.status_code == 413
