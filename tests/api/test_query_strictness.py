"""Query strings are read strictly: an unknown parameter is a 400 naming it, a malformed date
says the format expected."""

from __future__ import annotations

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
