"""Points charts the office can change (R7, R18): an open-ended top band, editing a chart with a
reason (every season using it rescored, and how many results changed), a season setting change
that rescores asking for a reason; error messages that name the real problem."""

from __future__ import annotations

from tests.builders import MakeScene, Scene, days_ago, points_by_place
from tests.support.league import League, assert_problem

CHARTS = "/api/v1/points-charts"
OPEN = [
    {"min_entrants": 2, "max_entrants": 9, "points": [30, 20, 10]},
    {"min_entrants": 10, "max_entrants": None, "points": [50, 40, 30, 20, 10]},
]


def test_r7_a_top_band_may_be_open_ended(league: League) -> None:
    chart = league.chart(kind="bands", bands=OPEN)
    assert chart["bands"][1]["max_entrants"] is None
    for entrants, points in ((9, [30, 20, 10]), (10, [50, 40, 30, 20, 10]), (500, [50, 40, 30, 20, 10])):
        preview = league.office.get(f"{CHARTS}/{chart['id']}/preview?entrants={entrants}").get_json()
        assert preview["points"] == points, entrants
    middle_open = [{**OPEN[0], "max_entrants": None}, OPEN[1]]
    body = {"name": "Bad", "kind": "bands", "bands": middle_open}
    problem = assert_problem(league.office.post(CHARTS, json=body), 422, "bands.0.max_entrants", rule="R7")
    assert "Only the top band" in problem["errors"]["bands.0.max_entrants"][0]


def test_r7_chart_errors_name_the_real_problem(league: League) -> None:
    rising = {
        "name": "Rising",
        "kind": "bands",
        "bands": [{"min_entrants": 1, "max_entrants": 9, "points": [10, 20]}],
    }
    rises = assert_problem(league.office.post(CHARTS, json=rising), 422, "bands.0.points", rule="R7")
    assert "rise" in rises["detail"] and "overlap" not in rises["detail"]
    gap = {
        "name": "Gap",
        "kind": "bands",
        "bands": [
            {"min_entrants": 1, "max_entrants": 5, "points": [10]},
            {"min_entrants": 7, "max_entrants": 9, "points": [10]},
        ],
    }
    gaps = assert_problem(league.office.post(CHARTS, json=gap), 422, "bands.1.min_entrants", rule="R7")
    assert "gap" in gaps["detail"] and "rise" not in gaps["detail"]


def test_r7_r18_editing_a_chart_rescores_its_seasons_with_a_reason(
    league: League, make_scene: MakeScene
) -> None:
    chart = league.chart(kind="bands", bands=OPEN)
    scene = make_scene(points_chart_id=chart["id"])
    report = scene.report(scene.add_players(4), day=days_ago(5))
    assert points_by_place(report)[:3] == [(1, 30, 0, 30), (2, 20, 0, 20), (3, 10, 0, 10)]
    path = f"{CHARTS}/{chart['id']}"
    assert_problem(league.office.patch(path, json={"bands": OPEN}), 422, "reason")
    higher = [{**OPEN[0], "points": [60, 40, 20]}, OPEN[1]]
    changed = league.office.patch(path, json={"bands": higher, "reason": "The binder was misprinted."})
    assert changed.status_code == 200, changed.get_json()
    assert changed.get_json()["rescored_results"] == 3
    stored = scene.public.get(f"/api/v1/tournaments/{report['id']}").get_json()
    assert points_by_place(stored)[:3] == [(1, 60, 0, 60), (2, 40, 0, 40), (3, 20, 0, 20)]
    (entry,) = league.office.get("/api/v1/audit-log?action=points_chart.update").get_json()["items"]
    assert entry["reason"] == "The binder was misprinted." and entry["after"]["rescored_results"] == 3
    # A band that no longer covers a stored report's field is refused whole (R7), nothing changed.
    narrow = [{"min_entrants": 10, "max_entrants": None, "points": [50]}]
    assert_problem(league.office.patch(path, json={"bands": narrow, "reason": "x"}), 422, rule="R7")
    assert league.office.get(path).get_json()["bands"][0]["points"] == [60, 40, 20]
    assert_problem(league.office.patch(path, json={"step": 5, "reason": "x"}), 422, "step")


def test_r18_a_season_change_that_rescores_needs_a_reason_and_says_how_many(scene: Scene) -> None:
    scene.report(scene.add_players(3), day=days_ago(5))
    path = f"/api/v1/seasons/{scene.season_id}"
    refused = assert_problem(scene.office.patch(path, json={"participation_points": 2}), 422, "reason")
    assert "3 stored result" in refused["errors"]["reason"][0]
    assert scene.office.get(path).get_json()["participation_points"] == 0
    changed = scene.office.patch(path, json={"participation_points": 2, "reason": "League meeting vote."})
    assert changed.status_code == 200 and changed.get_json()["rescored_results"] == 3
    renamed = scene.office.patch(path, json={"name": "Renamed"})
    assert renamed.status_code == 200 and renamed.get_json()["rescored_results"] == 0
