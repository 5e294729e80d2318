"""A workbook's file checked before the reader (python-calamine) sees it, so that no upload can
do more than be refused.

The reader lays a sheet out whole in memory, every cell from A1 to the farthest one: a 5 KB
.xlsx holding one value at XFD1048576 asks it for hundreds of gigabytes, and the worker is
killed, not refused. So a workbook is read only when it is:

- a zip archive (.xlsx and .ods are; an encrypted Office file, a password-protected workbook,
  is not: it is an OLE file with an `EncryptedPackage` stream), of one kind (.xlsx or .ods,
  never .xlsb, which keeps its cells in binary records);
- at most MOST_UNPACKED bytes unpacked, every part as the archive says (sizes and checksums,
  unpacked here by Python's zipfile, which stops at the size each part declares);
- made of UTF-8 XML parts (no other encoding, no document type declaration: no spreadsheet
  writes them, and they would let a reader see markup where these checks see none);
- without a sheet reaching past MOST_CELLS cells, counted from A1 (`xlsx_reach`, `ods_reach`:
  every tag of a cell or a row, lexed off the bytes as an XML reader lexes them, in one pass,
  and erring on the side of counting: an empty-looking `<c></c>` counts, a comment's tags too).

The reader is then given only the parts that were checked, repacked (`repacked`): what it reads
is what was counted."""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterator

from models.errors import InvalidInput, Problem

ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")
# Far more than a night's results (a 10,000-row sheet unpacks to a few MB, and lays out in
# 10,001 rows of a few dozen columns).
MOST_UNPACKED = 16 * 1024 * 1024
MOST_CELLS = 500_000
# The markup of a workbook's parts looked at, at most (each tag costs a little time).
MOST_TAGS = 4_000_000
OTHER_FILES = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
)
SAVE_AS = "send the results saved as an Excel Workbook (.xlsx), an OpenDocument Spreadsheet (.ods) or CSV"
# Markup as an XML reader lexes it, in one pass that never backtracks: a comment, CDATA or a
# processing instruction (read past), a declaration (refused: no spreadsheet writes one), or a tag
# up to its first `>` outside quotes (a quoted attribute may hold `>`), an unfinished one to the end.
MARKUP = re.compile(
    rb"<!--.*?(?:-->|\Z)|<!\[CDATA\[.*?(?:\]\]>|\Z)|<\?.*?(?:\?>|\Z)|(<!)"
    rb"|<(/?)([^\s/>\"']*+)((?:[^>\"']++|\"[^\"]*+(?:\"|\Z)|'[^']*+(?:'|\Z))*+)(?:>|\Z)",
    re.DOTALL,
)
# The encoding an XML declaration names: UTF-8 is what spreadsheets write, and the only one read.
ENCODING = re.compile(rb"\s*<\?xml\b[^>]*?\bencoding\s*=\s*[\"']([^\"']*)", re.IGNORECASE)
ODS_TAGS = (b"table", b"table-row", b"table-cell", b"covered-table-cell")
R_ATTRIBUTE = re.compile(rb"(?:^|\s)(?:[A-Za-z_][\w.\-]*:)?r\s*=\s*([\"'])(.*?)\1", re.DOTALL)
REPEATED = re.compile(
    rb"(?:^|\s)(?:[A-Za-z_][\w.\-]*:)?number-(rows|columns)-repeated\s*=\s*([\"'])(.*?)\2", re.DOTALL
)
CELL_REF = re.compile(rb"([A-Za-z]{1,3})([0-9]{1,7})")
ROW_REF = re.compile(rb"[0-9]{1,7}")
REPEAT = re.compile(rb"[0-9]{1,9}")


def refused(message: str) -> InvalidInput:
    """The refusal of a workbook that cannot be read: plain bad input, naming the body."""
    return InvalidInput(message, problems=[Problem("body", message)])


PASSWORD = (
    "The workbook is protected by a password, so it cannot be read: save a copy without the password "
    "and send that."
)


def archive_of(body: bytes) -> zipfile.ZipFile:
    """The workbook's zip archive; refused, saying what the file is, when it is none."""
    if not body:
        raise refused("The workbook is empty: no bytes were sent.")
    if body.startswith(OLE_MAGIC):
        if ENCRYPTED_PACKAGE in body:
            raise refused(PASSWORD)
        raise refused(
            "This is an Excel 97-2003 workbook (.xls) or another older Office file, which is not "
            f"read: {SAVE_AS}."
        )
    if not body.startswith(ZIP_MAGIC):
        what = next((name for magic, name in OTHER_FILES if body.startswith(magic)), None)
        said = f"but {what}" if what else "(those are zip archives, and this is not one)"
        raise refused(f"This is not an .xlsx or .ods workbook {said}: {SAVE_AS}.")
    try:
        return zipfile.ZipFile(io.BytesIO(body))
    except (zipfile.BadZipFile, ValueError, EOFError) as exc:
        raise refused(f"The workbook is damaged: its zip archive cannot be read ({exc}).") from None


def kind_of(archive: zipfile.ZipFile) -> str:
    """ "xlsx" or "ods", by the parts the archive holds; refused when it is neither, or both."""
    names = set(archive.namelist())
    if "xl/workbook.bin" in names:
        raise refused(f"This is an Excel Binary Workbook (.xlsb), which is not read: {SAVE_AS}.")
    xlsx, ods = "xl/workbook.xml" in names, "content.xml" in names
    if xlsx == ods:
        raise refused(f"This is a zip archive but not an .xlsx or .ods workbook: {SAVE_AS}.")
    return "xlsx" if xlsx else "ods"


def workbook_kind(body: bytes) -> str | None:
    """ "xlsx" or "ods" when the bytes are a zip archive of that kind (else None): how a body sent
    as application/octet-stream is told from any other."""
    try:
        return kind_of(archive_of(body))
    except InvalidInput:
        return None


def _wanted(name: str) -> bool:
    # What the reader needs of a workbook: its XML parts and an .ods's mimetype. Binary parts
    # (images, macros, printer settings) stay behind: nothing the reader could lay out.
    return name == "mimetype" or name.endswith((".xml", ".rels"))


def repacked(archive: zipfile.ZipFile, kind: str) -> bytes:
    """The parts the reader needs, each unpacked, checked (its size, its checksum, the cells it
    lays out) and packed again, uncompressed: what the reader is given."""
    parts = [info for info in archive.infolist() if _wanted(info.filename) and not info.is_dir()]
    if sum(info.file_size for info in parts) > MOST_UNPACKED:
        raise refused(
            f"The workbook unpacks to more than {MOST_UNPACKED // 2**20} MB, far more than a night's "
            "results: save the results sheet alone."
        )
    if len({info.filename for info in parts}) < len(parts):
        raise refused("The workbook is damaged: its zip archive names a part twice.")
    measure = xlsx_reach if kind == "xlsx" else ods_reach
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as packed:
        for info in parts:
            data = _unpacked(archive, info)
            if kind == "ods" and info.filename == "META-INF/manifest.xml" and b"encryption-data" in data:
                raise refused(PASSWORD)
            declared = ENCODING.match(data)
            if b"\x00" in data or (declared and declared.group(1).lower() not in (b"utf-8", b"utf8")):
                raise refused(
                    f"The workbook's part {info.filename} is not UTF-8 XML, as spreadsheets save it."
                )
            measure(data, info.filename)
            packed.writestr(info.filename, data)
    return out.getvalue()


def _unpacked(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    try:
        return archive.read(info)
    except RuntimeError:  # a part encrypted in the zip's own way, which needs a password
        raise refused(PASSWORD) from None
    except NotImplementedError as exc:
        raise refused(f"The workbook cannot be unpacked: {exc}.") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
        raise refused(f"The workbook is damaged: its zip archive cannot be read ({exc}).") from None


class Reach:
    """How far a sheet's cells with something in them go (rows and columns counted from A1), and
    the tags of its part that tell: refused as soon as that is more than MOST_CELLS cells, or
    more than MOST_TAGS tags were looked at."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rows = self.columns = self.tags_read = 0

    def reached(self, row: int, column: int) -> None:
        self.rows, self.columns = max(self.rows, row), max(self.columns, column)
        if self.rows * self.columns > MOST_CELLS:
            raise refused(
                f"A sheet of the workbook ({self.name}) reaches row {self.rows:,} and column "
                f"{self.columns:,}: more than a report's sheet can be ({MOST_CELLS:,} cells). Delete "
                "what lies beyond the results, or save the results sheet alone."
            )

    def tags(self, part: bytes) -> Iterator[tuple[bool, bytes, bytes]]:
        """Each tag of an XML part, in order: (closing, its local name, its attributes)."""
        for match in MARKUP.finditer(part):
            self.tags_read += 1
            if self.tags_read > MOST_TAGS:
                raise refused(
                    f"A part of the workbook ({self.name}) holds more than {MOST_TAGS:,} tags, far "
                    "more than a night's results: save the results sheet alone."
                )
            declaration, closing, name, attributes = match.groups()
            if declaration:
                raise refused(
                    f"The workbook is damaged: its part {self.name} declares a document type, which "
                    "no spreadsheet writes."
                )
            if name is not None:  # else a comment, CDATA or a processing instruction
                yield bool(closing), name.rpartition(b":")[2], attributes


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters.upper():
        number = number * 26 + letter - ord("A") + 1
    return number


def _one_ref(attributes: bytes, pattern: re.Pattern[bytes]) -> re.Match[bytes] | None:
    """The tag's cell or row reference (`r`), None without one; refused when it is not plain."""
    found = [match.group(2) for match in R_ATTRIBUTE.finditer(attributes)]
    if not found:
        return None
    match = pattern.fullmatch(found[0]) if len(found) == 1 else None
    if match is None:
        said = found[0][:20].decode("ascii", "replace")
        raise refused(f"The workbook is damaged: its cell reference {said!r} cannot be read.")
    return match


def xlsx_reach(part: bytes, name: str) -> None:
    """Refused when an .xlsx part's cells with content reach too far: a `<c>` that is not empty
    (`<c/>`) at its reference (`r="B7"`), else one column past the last of its row (a `<row>` at
    its `r`, else the next one)."""
    reach = Reach(name)
    row = column = 0
    for closing, tag, attributes in reach.tags(part):
        if closing or tag not in (b"row", b"c"):
            continue
        ref = _one_ref(attributes, ROW_REF if tag == b"row" else CELL_REF)
        if tag == b"row":
            row, column = (int(ref.group(0)) if ref else row + 1), 0
            continue
        column = _column_number(ref.group(1)) if ref else column + 1
        if not attributes.rstrip().endswith(b"/"):
            reach.reached(int(ref.group(2)) if ref else max(row, 1), column)


def _repeat(attributes: bytes, what: bytes) -> int:
    for match in REPEATED.finditer(attributes):
        if match.group(1) == what:
            if REPEAT.fullmatch(match.group(3)) is None:
                said = match.group(3)[:20].decode("ascii", "replace")
                raise refused(f"The workbook is damaged: its repeat count {said!r} cannot be read.")
            return max(int(match.group(3)), 1)
    return 1


def ods_reach(part: bytes, name: str) -> None:
    """Refused when an .ods part's cells with content reach too far, in any one table: rows and
    cells repeated (`table:number-rows-repeated`) count as often as they repeat; an empty cell
    (`<table:table-cell/>`, LibreOffice's padding to column 1024 and row 1048576) does not. A
    table inside a table counts as rows of the outer one."""
    reach = Reach(name)
    depth = row = column = 0
    # Each row open: its repeat, and the column its enclosing row had reached (a table in a cell
    # holds rows of its own).
    open_rows: list[tuple[int, int]] = []
    for closing, tag, attributes in reach.tags(part):
        if tag not in ODS_TAGS:
            continue
        empty = attributes.rstrip().endswith(b"/")
        if tag == b"table":
            depth += -1 if closing else (0 if empty else 1)
            if not closing and not empty and depth == 1:
                row = reach.rows = reach.columns = 0  # each sheet is laid out on its own
        elif tag == b"table-row":
            if not closing:
                open_rows.append((_repeat(attributes, b"rows"), column))
                column = 0
            if (closing or empty) and open_rows:
                repeat, column = open_rows.pop()
                row += repeat
        elif not closing:
            column += _repeat(attributes, b"columns")
            if not empty and open_rows:
                reach.reached(row + open_rows[-1][0], column)
