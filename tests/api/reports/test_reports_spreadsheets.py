"""Reports from real spreadsheet exports (tests/fixtures/spreadsheets): Excel's CSV UTF-8 with
trailing empty columns, Google Sheets, European Excel's semicolons, a Notes column; and refusals
that name rows as the spreadsheet shows them (the header is row 1). R4, R5."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.builders import TOURNAMENTS, Scene, days_ago, iso
from tests.support.league import assert_problem

SHEETS = Path(__file__).resolve().parents[2] / "fixtures" / "spreadsheets"


def post_sheet(scene: Scene, name: str) -> object:
    return scene.host.post(
        f"{TOURNAMENTS}?venue_id={scene.venue_id}&date={iso(days_ago(1))}",
        data=(SHEETS / name).read_bytes(),
        content_type="text/csv",
    )


@pytest.mark.parametrize(
    ("sheet", "warnings"),
    [
        ("excel-csv-utf8.csv", []),
        ("google-sheets.csv", []),
        ("european-excel-semicolons.csv", []),
        (
            "with-notes-column.csv",
            [
                {
                    "code": "ignored_columns",
                    "message": "Columns ignored: Notes.",
                    "player_ids": [],
                    "rule": None,
                }
            ],
        ),
    ],
)
def test_r5_a_spreadsheet_export_is_read_as_written(scene: Scene, sheet: str, warnings: list[object]) -> None:
    """R5: each export registers Ann, José and Sam by name and email, in that order."""
    response = post_sheet(scene, sheet)
    assert response.status_code == 201, response.get_json()
    answer = response.get_json()
    assert [(r["place"], r["player"]["display_name"]) for r in answer["results"]] == [
        (1, "Ann L."),
        (2, "José Á."),
        (3, "Sam O."),
    ]
    assert answer["warnings"] == warnings
    assert answer["entrants"] == 3


def test_r4_r5_mistakes_are_named_by_spreadsheet_row_and_column(scene: Scene) -> None:
    """R4, R5: every problem at once, each naming its row (header = row 1), place and column."""
    before = scene.counts()
    problem = assert_problem(post_sheet(scene, "with-mistakes.csv"), 422, "results.1.email", rule="R4")
    assert problem["errors"] == {
        "results.1.email": ["Row 3 (place 2), column Email: Not a valid email address."],
        "results.2.place": [
            "Row 4 (place 2), column Place: Place 2 is also given at row 3 (place 2); places do not tie (R4)."
        ],
        "results": ["Places must be exactly 1..3; missing: 3."],
    }
    assert scene.counts() == before


def test_r5_csv_messages_speak_of_columns_not_json(scene: Scene) -> None:
    """R5: an unknown email in a sheet asks for a Full Name column, not for `new_player`."""
    other = scene.add_players(1)[0]
    email = scene.office.get(f"/api/v1/players/{other}").get_json()["email"]
    response = scene.host.post(
        f"{TOURNAMENTS}?venue_id={scene.venue_id}&date={iso(days_ago(1))}",
        data=f"Place,E-mail\n1,ghost@example.org\n2,{email}\n",
        content_type="text/csv",
    )
    problem = assert_problem(response, 422, "results.0.email", rule="R5")
    assert problem["errors"]["results.0.email"] == [
        "Row 2 (place 1), column E-mail: No player has the email ghost@example.org; "
        "to register them, give their email and a Full Name column."
    ]
    assert "new_player" not in problem["detail"]
