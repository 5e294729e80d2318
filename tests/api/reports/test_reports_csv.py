"""A result report as text/csv : venue and date in the query, one entrant a row; the
same rules (R4, R5, R7) and the same refusals as JSON, and nothing stored on a refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.builders import (
    TOURNAMENTS,
    Scene,
    by_place,
    days_ago,
    iso,
    points_by_place,
)
from tests.support.league import assert_problem

HEADER = "place,status,player_id,email,full_name"


def post_csv(
    scene: Scene, text: str | bytes, query: str | None = None, caller: Any = None, **kwargs: Any
) -> Any:
    if query is None:
        query = f"venue_id={scene.venue_id}&date={iso(days_ago(2))}"
    data = text.encode() if isinstance(text, str) else text
    return (caller or scene.host).post(f"{TOURNAMENTS}?{query}", data=data, content_type="text/csv", **kwargs)


def csv_of(rows: list[str], header: str = HEADER, newline: str = "\n") -> str:
    return newline.join([header, *rows]) + newline


def refused_csv(
    scene: Scene,
    text: str | bytes,
    status: int,
    *fields: str,
    rule: str | None = None,
    query: str | None = None,
) -> dict[str, Any]:
    before = scene.counts()
    problem = assert_problem(post_csv(scene, text, query), status, *fields, rule=rule)
    assert scene.counts() == before
    return problem


def test_csv_report_is_stored_and_scored_r7(scene: Scene) -> None:
    """R7: 10 entrants by CSV score 30, 20, 10; a new player by email and full_name (R5)."""
    ids = scene.add_players(9)
    known = scene.roster[1]
    rows = [f"{p},,{pid},," for p, pid in enumerate(ids, start=1)]
    email = scene.office.get(f"/api/v1/players/{known['id']}").get_json()["email"]
    rows[1] = f"2,declared_withdrawal,,{email.upper()},"
    rows.append("10,no_show,,new.csv@example.org,Cora Vance")
    before = scene.player_count()
    response = post_csv(scene, csv_of(rows), f"venue_id={scene.venue_id}&date={iso(days_ago(4))}&session=2")
    assert response.status_code == 201, response.get_json()
    report = response.get_json()
    assert (report["venue_id"], report["date"], report["session"], report["entrants"]) == (
        scene.venue_id,
        iso(days_ago(4)),
        2,
        10,
    )
    assert points_by_place(report)[:4] == [(1, 30, 0, 30), (2, 20, 0, 20), (3, 10, 0, 10), (4, 0, 0, 0)]
    places = by_place(report)
    assert places[2]["player"]["id"] == known["id"]
    assert places[2]["status"] == "declared_withdrawal"
    assert places[10]["player"]["display_name"] == "Cora V."
    assert places[10]["status"] == "no_show"
    assert scene.player_count() == before + 1


def test_csv_with_bom_crlf_and_reordered_columns(scene: Scene) -> None:
    """Excel's 'CSV UTF-8': a BOM, Windows line endings, upper-case headers, spaces."""
    ids = scene.add_players(3)
    text = "\ufeff" + csv_of(
        [f" {pid} , {p} " for p, pid in enumerate(ids, start=1)], header="Player_ID, Place", newline="\r\n"
    )
    response = post_csv(scene, text.encode("utf-8"))
    assert response.status_code == 201, response.get_json()
    assert [r["player"]["id"] for r in response.get_json()["results"]] == ids


def test_csv_blank_lines_are_skipped(scene: Scene) -> None:
    ids = scene.add_players(2)
    text = f"place,player_id\n\n1,{ids[0]}\n,\n2,{ids[1]}\n\n"
    assert post_csv(scene, text).status_code == 201


def test_csv_by_membership_number(scene: Scene) -> None:
    player = scene.league.player("Ola Nordmann", membership_number="199912310042")
    other = scene.league.player("Kari Nordmann", membership_number="199912310043")
    response = post_csv(scene, "place,membership_number\n1,199912310042\n2,199912310043\n")
    assert response.status_code == 201
    assert [r["player"]["id"] for r in response.get_json()["results"]] == [player["id"], other["id"]]


def test_csv_missing_header_is_refused(scene: Scene) -> None:
    ids = scene.add_players(2)
    problem = refused_csv(scene, f"1,,{ids[0]},,\n2,,{ids[1]},,\n", 422, "header")
    assert "header" in problem["detail"]


def test_csv_header_without_a_player_column(scene: Scene) -> None:
    refused_csv(scene, "place,status\n1,played\n", 422, "header")


def test_csv_other_columns_are_ignored_with_a_warning_a_repeated_one_refused(scene: Scene) -> None:
    """A spreadsheet's extra column (chips) is read past, and named in a warning."""
    ids = scene.add_players(2)
    response = post_csv(scene, f"place,player_id,chips\n1,{ids[0]},100\n2,{ids[1]},0\n")
    assert response.status_code == 201, response.get_json()
    (warning,) = response.get_json()["warnings"]
    assert warning["code"] == "ignored_columns" and "chips" in warning["message"]
    refused_csv(scene, "place,player_id,place\n1,1,1\n", 422, "header")


def test_csv_repeated_place_r4(scene: Scene) -> None:
    """R4: a repeated place in the CSV is named at its row's index, with the missing place."""
    ids = scene.add_players(3)
    text = csv_of([f"1,,{ids[0]},,", f"2,,{ids[1]},,", f"2,,{ids[2]},,", "4,,,fresh@example.org,New Person"])
    problem = refused_csv(scene, text, 422, "results.2.place", "results", rule="R4")
    assert "missing: 3" in problem["errors"]["results"][0]


def test_csv_unknown_email_r5(scene: Scene) -> None:
    other = scene.add_players(1)[0]
    email = scene.office.get(f"/api/v1/players/{other}").get_json()["email"]
    refused_csv(scene, f"place,email\n1,ghost@example.org\n2,{email}\n", 422, "results.0.email", rule="R5")


def test_csv_full_name_without_email(scene: Scene) -> None:
    refused_csv(scene, "place,full_name\n1,Only A Name\n", 422, "results.0")


@pytest.mark.parametrize("place", ["first", "1.5", "-2", "0", "1000000000000", ""])
def test_csv_bad_place(scene: Scene, place: str) -> None:
    ids = scene.add_players(2)
    text = f"place,player_id\n{place},{ids[0]}\n2,{ids[1]}\n"
    refused_csv(scene, text, 422, "results.0.place")


@pytest.mark.parametrize("value", ["seven", "\u00b2", "\u0663", "1e3"])
def test_csv_bad_player_id(scene: Scene, value: str) -> None:
    """Not ASCII digits ('²', an Arabic-Indic 3): named, not a 500."""
    refused_csv(scene, f"place,player_id\n1,{value}\n", 422, "results.0.player_id")


def test_csv_superscript_place(scene: Scene) -> None:
    ids = scene.add_players(1)
    refused_csv(scene, f"place,player_id\n\u00b9,{ids[0]}\n", 422, "results.0.place")


def test_csv_cell_too_long_for_the_csv_reader(scene: Scene) -> None:
    """A 200 000 character cell (over the csv module's limit, under the body limit): 422."""
    refused_csv(scene, "place,email,full_name\n1,a@example.org," + "x" * 200_000 + "\n", 422, "body")


def test_csv_control_characters_in_a_name(scene: Scene) -> None:
    refused_csv(scene, "place,email,full_name\n1,nul@example.org,Ann\x00Lee\n", 422, "results.0.full_name")


def test_csv_row_longer_than_header(scene: Scene) -> None:
    ids = scene.add_players(2)
    refused_csv(scene, f"place,player_id\n1,{ids[0]}\n2,{ids[1]},extra\n", 422, "results.1")


def test_csv_empty_or_header_only(scene: Scene) -> None:
    refused_csv(scene, "", 422, "body")
    refused_csv(scene, "place,player_id\n", 422, "results")


def test_csv_in_windows_1252_is_read_and_bytes_of_no_encoding_are_refused(scene: Scene) -> None:
    """Excel's "CSV (Comma delimited)" on Windows is Windows-1252: its names read as written. A
    byte that Windows-1252 leaves undefined (0x81), in a file that is not UTF-8, is refused."""
    text = "place,email,full_name\n1,z@example.org,Zo\xeb Ng\n2,y@example.org,Y\xe9 Ng\n"
    response = post_csv(scene, text.encode("cp1252"))
    assert response.status_code == 201, response.get_json()
    player = response.get_json()["results"][0]["player"]["id"]
    assert scene.office.get(f"/api/v1/players/{player}").get_json()["full_name"] == "Zo\xeb Ng"
    problem = refused_csv(scene, b"place,email,full_name\n1,z@example.org,Zo\x81 Ng\n", 422, "body")
    assert problem["errors"] == {
        "body": ["The CSV is neither UTF-8 nor Windows-1252 text (byte 41 is 0x81): save it as 'CSV UTF-8'."]
    }


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("date={day}", "venue_id"),
        ("venue_id={venue}", "date"),
        ("venue_id={venue}&date=2026-02-30", "date"),
        ("venue_id=abc&date={day}", "venue_id"),
        ("venue_id={venue}&date={day}&session=x", "session"),
        ("venue_id={venue}&date={day}&kind=friendly", "kind"),
    ],
)
def test_csv_bad_query(scene: Scene, query: str, field: str) -> None:
    ids = scene.add_players(1)
    query = query.format(venue=scene.venue_id, day=iso(days_ago(2)))
    refused_csv(scene, f"place,player_id\n1,{ids[0]}\n", 422, field, query=query)


def test_csv_date_next_week_r2(scene: Scene) -> None:
    ids = scene.add_players(1)
    refused_csv(
        scene,
        f"place,player_id\n1,{ids[0]}\n",
        422,
        "date",
        rule="R2",
        query=f"venue_id={scene.venue_id}&date={iso(days_ago(-7))}",
    )


def test_csv_host_of_another_venue_is_403(scene: Scene) -> None:
    ids = scene.add_players(1)
    other = scene.league.venue(scene.venue["region_id"])
    before = scene.counts()
    response = post_csv(
        scene, f"place,player_id\n1,{ids[0]}\n", f"venue_id={other['id']}&date={iso(days_ago(2))}"
    )
    assert_problem(response, 403)
    assert scene.counts() == before


def test_five_megabyte_upload_is_413(scene: Scene) -> None:
    """A 5 MB body is refused as too large (413), CSV or JSON, and nothing is stored."""
    ids = scene.add_players(1)
    big = csv_of([f"1,,{ids[0]},,"] + ["2,,,x@example.org,Padding Person"] * 200_000)
    assert len(big.encode()) > 5 * 1024 * 1024
    refused_csv(scene, big, 413)
    before = scene.counts()
    row = {"place": 1, "player_id": ids[0]}
    body = json.dumps({"venue_id": scene.venue_id, "date": iso(days_ago(2)), "results": [row] * 200_000})
    assert len(body) > 5 * 1024 * 1024
    response = scene.host.post(TOURNAMENTS, data=body, content_type="application/json")
    assert_problem(response, 413)
    assert scene.counts() == before


def test_csv_email_with_another_persons_name_is_refused_r5(scene: Scene) -> None:
    """R5: a CSV row whose email belongs to a player with a clearly different name is refused
    (a typo in the email would otherwise credit someone else); a close name is that player."""
    scene.league.player("Dana Whitfield", email="dana.w@example.org")
    others = scene.add_players(1)
    url = f"{TOURNAMENTS}?venue_id={scene.venue_id}&date={iso(days_ago(2))}"
    wrong = f"place,player_id,email,full_name\n1,{others[0]},,\n2,,dana.w@example.org,Bob Smith\n"
    response = scene.host.post(url, data=wrong, content_type="text/csv")
    assert_problem(response, 422, "results.1.full_name", rule="R5")
    right = f"place,player_id,email,full_name\n1,{others[0]},,\n2,,dana.w@example.org,Dana Whitfeld\n"
    assert scene.host.post(url, data=right, content_type="text/csv").status_code == 201
