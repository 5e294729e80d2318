"""A photo of the results sheet sent as the sheet (issue 43): told by its first bytes (PNG, JPEG,
GIF, WebP, HEIC), whatever type it was declared as or file name it came with, it is refused as a
picture, by both doors: the console's upload (its page says so) and the API's raw body (a 422
problem naming `body`). Nothing is stored."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.builders import TOURNAMENTS, Scene, days_ago, iso
from tests.support.console import signed_in, text_of, upload_file
from tests.support.league import assert_problem

PNG = (Path(__file__).resolve().parents[2] / "fixtures" / "spreadsheets" / "not-a-workbook.png").read_bytes()
# The first bytes each kind of picture starts with (its magic number), then some of its body.
PICTURES = {
    "PNG": PNG,
    "JPEG": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + bytes(range(256)),
    "GIF": b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,",
    "WebP": b"RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x000\x01\x00\x9d\x01\x2a\x01\x00\x01\x00",
    "HEIC": b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic\x00\x00\x00\x00meta" + bytes(64),
}
CSV = "text/csv"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
OCTET = "application/octet-stream"


def picture_said(kind: str) -> str:
    return (
        f"This file is a picture ({kind}), not a spreadsheet: the service reads CSV, .xlsx or .ods "
        "sheets. Type the results in instead, or export the sheet as CSV."
    )


@contextmanager
def stores_nothing(scene: Scene) -> Iterator[None]:
    before = scene.counts()
    yield
    assert scene.counts() == before


def uploaded(browser: FlaskClient, scene: Scene, body: bytes, filename: str) -> Any:
    return upload_file(browser, scene.venue_id, body, filename, iso(days_ago(1)))


@pytest.mark.parametrize("kind", list(PICTURES))
def test_a_picture_uploaded_in_the_console_is_named_a_picture_whatever_its_file_name(
    app: Flask, scene: Scene, kind: str
) -> None:
    """A host's photo of the sheet, uploaded under its own name, or named as a CSV or a workbook:
    the page's lead says it is a picture (of which kind) and what to do, and offers the typed
    rows for the same night; nothing is stored."""
    host = signed_in(app, scene.host.key)
    for filename in (f"IMG_2041.{kind.lower()}", "results.csv", "results.xlsx"):
        with stores_nothing(scene):
            refused = uploaded(host, scene, PICTURES[kind], filename)
        said = text_of(refused)
        assert refused.status_code == 422, (filename, said)
        assert picture_said(kind) in said and "Nothing was stored." in said, (filename, said)
        assert f'/console/venues/{scene.venue_id}/rows?date={iso(days_ago(1))}"' in refused.get_data(True)


@pytest.mark.parametrize("kind", list(PICTURES))
@pytest.mark.parametrize("content_type", [OCTET, CSV, XLSX, "image/png", "application/json"])
def test_a_picture_posted_as_a_reports_body_is_a_422_naming_the_body_as_a_picture(
    scene: Scene, kind: str, content_type: str
) -> None:
    """POST /tournaments with a picture's bytes, declared as anything (a workbook's type, CSV,
    application/octet-stream, the picture's own type, even JSON): a 422 problem naming `body`,
    saying it is a picture; nothing is stored."""
    path = f"{TOURNAMENTS}?venue_id={scene.venue_id}&date={iso(days_ago(1))}"
    with stores_nothing(scene):
        answer = scene.host.post(path, data=PICTURES[kind], content_type=content_type)
    problem = assert_problem(answer, 422, "body")
    assert problem["errors"] == {"body": [picture_said(kind)]} and "picture" in problem["detail"]
