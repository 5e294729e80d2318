"""Query strings are read strictly: an unknown parameter is a 400 naming it, a malformed date
says the format expected."""

from __future__ import annotations

import pytest

from tests.builders import Scene
from tests.support.league import assert_problem


def test_an_unknown_query_parameter_is_named(scene: Scene) -> None:
    body = assert_problem(scene.public.get("/api/v1/tournaments?venue=3&per_page=5"), 400, "venue")
    assert "venue" in body["detail"]
    assert_problem(scene.public.get(scene.path() + "?asof=2026-01-01"), 400, "asof")
    assert scene.public.get("/api/v1/tournaments?venue_id=3&per_page=5").status_code == 200


def test_a_malformed_date_says_the_format(scene: Scene) -> None:
    body = assert_problem(scene.public.get(scene.path() + "?as_of=04/03/2026"), 422, "as_of")
    assert "YYYY-MM-DD" in body["errors"]["as_of"][0]
    bad = scene.body(scene.add_players(2))
    bad["date"] = "4 March"
    assert "YYYY-MM-DD" in assert_problem(scene.post(bad), 422, "date")["errors"]["date"][0]


def test_a_day_is_written_yyyy_mm_dd_only(scene: Scene) -> None:
    """Dates are YYYY-MM-DD only (as the API writes them): "20261201", "2026-W48-1" and digits
    other than ASCII ones are refused, in a query and in a body, naming the field; nothing stored."""
    players = scene.add_players(2)
    before = scene.counts()
    for written in ("20261201", "2026-W48-1", "２０２６-１２-０１"):
        body = assert_problem(scene.public.get(scene.path() + f"?as_of={written}"), 422, "as_of")
        assert "YYYY-MM-DD" in body["errors"]["as_of"][0]
        bad = {**scene.body(players), "date": written}
        assert "YYYY-MM-DD" in assert_problem(scene.post(bad), 422, "date")["errors"]["date"][0]
    assert scene.counts() == before
    assert scene.public.get(scene.path() + "?as_of=2026-12-01").status_code == 200


def test_a_start_time_with_a_newline_is_refused(scene: Scene) -> None:
    """R2: "19:00\\n" is no start time (SQLite stored it, and it slipped past the same-night
    check): the schedule is refused naming its field, and nothing is stored."""
    path = f"/api/v1/venues/{scene.venue_id}/schedule"
    for written in ("19:00\n", "19:00 ", "\n19:00"):
        night = {"weekday": 2, "starts_at": written, "sessions": 1}
        assert_problem(scene.office.put(path, json={"schedule": [night]}), 422, "schedule.0.starts_at")
    assert scene.office.get(f"/api/v1/venues/{scene.venue_id}").get_json()["schedule"] == []


def test_page_numbers_are_ascii_digits(scene: Scene) -> None:
    """A page number or an id in a query is ASCII digits: "٣" (Arabic-Indic three) and "²" are
    refused naming the parameter, as "1.5" is; " 2 " still reads as 2."""
    for written in ("٣", "²", "1.5", "１"):
        assert_problem(scene.public.get(f"/api/v1/tournaments?page={written}"), 422, "page")
        assert_problem(scene.public.get(f"/api/v1/tournaments?venue_id={written}"), 422, "venue_id")
    assert scene.public.get("/api/v1/tournaments?page=%202%20").status_code == 200


def test_superscript_digits_are_no_500_anywhere(scene: Scene) -> None:
    """ "²" passes str.isdigit() and int() refuses it: a report sheet's query, a page of reports
    (read first by the answers' cache) and the console's row count each answer it without a 500."""
    assert_problem(scene.public.get("/api/v1/tournaments?venue_id=1&page=²"), 422, "page")
    sheet = scene.host.post(
        "/api/v1/tournaments?venue_id=²&date=2026-12-01",
        data="place,player_id\n1,1\n",
        content_type="text/csv",
    )
    assert_problem(sheet, 422, "venue_id")


# The query's free text: a search's words, the audit log's filters, a spreadsheet report's reason.
TEXT_QUERIES = [
    ("host", "/api/v1/players?q={}"),
    ("public", "/api/v1/players?q={}"),
    ("public", "/api/v1/venues?q={}"),
    ("office", "/api/v1/audit-log?action={}"),
    ("office", "/api/v1/audit-log?entity={}"),
    ("office", "/api/v1/audit-log?actor={}"),
]


@pytest.mark.parametrize(("caller", "url"), TEXT_QUERIES)
def test_a_nul_in_a_query_text_is_the_same_422_on_either_database(
    scene: Scene, caller: str, url: str
) -> None:
    """R19's search, and every free text a query carries: a NUL (PostgreSQL refuses one in text;
    SQLite took it) or another control character is a 422 naming the parameter, on either
    database, before anything is looked up; the same text without it is answered."""
    who = {"host": scene.host, "public": scene.public, "office": scene.office}[caller]
    name = url.split("?")[1].split("=")[0]
    for written in ("%00", "Ann%00", "Ann%0A"):
        body = assert_problem(who.get(url.format(written)), 422, name)
        assert "control characters" in body["errors"][name][0]
    assert who.get(url.format("Ann")).status_code == 200


def test_a_nul_in_a_spreadsheet_reports_query_is_a_422_naming_it(scene: Scene) -> None:
    """A CSV report's fields in the query (venue, date, reason) are read as the JSON body's: a NUL
    in `reason` is a 422 naming it on either database, and nothing is stored."""
    sheet = "place,player_id\n1,{}\n2,{}\n".format(*scene.add_players(2)).encode()
    before = scene.counts()
    url = f"/api/v1/tournaments?venue_id={scene.venue_id}&date={scene.body([])['date']}&reason=Late%00sheet"
    answer = scene.office.post(url, data=sheet, content_type="text/csv")
    assert_problem(answer, 422, "reason")
    assert scene.counts() == before
