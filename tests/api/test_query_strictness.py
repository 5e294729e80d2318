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
