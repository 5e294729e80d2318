"""A picture sent as a report's sheet (a host's photo of the paper sheet), told by its first bytes
(its magic number), whatever type it was declared as or name it came with: refused saying it is
a picture, so that no reader tries it as a CSV or a workbook and answers in their words (an
encoding, a missing column). Both doors ask: the API's gate on a report's body
(`api._refuse_unreadable_body`) and every sheet's reader (`sheets.read_sheet`)."""

from __future__ import annotations

from models.errors import InvalidInput, Problem

# The kinds a phone or a camera saves, by the bytes their files start with.
STARTS = (
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
)
# ISO media files (HEIC and AVIF: an iPhone's photos) say their kind in the `ftyp` box that opens
# them: bytes 4-8 are "ftyp", then the major brand (a video's brands are not pictures').
HEIF_BRANDS = {
    b"heic": "HEIC",
    b"heix": "HEIC",
    b"heim": "HEIC",
    b"heis": "HEIC",
    b"hevc": "HEIC",
    b"hevx": "HEIC",
    b"hevm": "HEIC",
    b"hevs": "HEIC",
    b"mif1": "HEIF",
    b"msf1": "HEIF",
    b"avif": "AVIF",
    b"avis": "AVIF",
}


def picture_kind(body: bytes) -> str | None:
    """The kind of picture the bytes are ("PNG", "JPEG", "GIF", "WebP", "HEIC", ...), else None."""
    for start, kind in STARTS:
        if body.startswith(start):
            return kind
    if body[:4] == b"RIFF" and body[8:12] == b"WEBP":
        return "WebP"
    if body[4:8] == b"ftyp":
        return HEIF_BRANDS.get(body[8:12])
    return None


def picture_said(kind: str) -> str:
    return (
        f"This file is a picture ({kind}), not a spreadsheet: the service reads CSV, .xlsx or .ods "
        "sheets. Type the results in instead, or export the sheet as CSV."
    )


def refuse_picture(body: bytes) -> None:
    """A picture is refused (a 422 naming `body`, saying which kind); any other body passes."""
    kind = picture_kind(body)
    if kind is not None:
        message = picture_said(kind)
        raise InvalidInput(message, problems=[Problem("body", message)])
