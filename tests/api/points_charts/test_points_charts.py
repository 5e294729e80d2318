"""Points charts (R7) through the HTTP API: defaults, previews, bands and their validation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.league import assert_problem

CHARTS = "/api/v1/points-charts"

BINDER = [  # a host binder's table: consecutive bands, points of places 1, 2, 3, ...
    {"min_entrants": 2, "max_entrants": 8, "points": [30, 20, 10]},
    {"min_entrants": 9, "max_entrants": 20, "points": [60, 45, 30, 20, 10, 0, 0]},
    {"min_entrants": 21, "max_entrants": 40, "points": [100, 80, 60, 45, 30, 20, 10, 5]},
]


def chart_total(caller: Any) -> int:
    total: int = caller.get(CHARTS).get_json()["total"]
    return total


def preview(caller: Any, chart: str | int, entrants: int | str) -> Any:
    return caller.get(f"{CHARTS}/{chart}/preview?entrants={entrants}")


def test_top_fraction_defaults_r7(office, public):
    """R7: a top_fraction chart that names neither takes fraction 0.30 and step 10."""
    response = office.post(CHARTS, json={"name": "House", "kind": "top_fraction"})
    assert response.status_code == 201, response.get_json()
    chart = response.get_json()
    assert (chart["kind"], chart["fraction"], chart["step"], chart["bands"]) == (
        "top_fraction",
        0.3,
        10,
        [],
    )
    shown = public.get(f"{CHARTS}/{chart['id']}").get_json()
    assert (shown["fraction"], shown["step"]) == (0.3, 10)


@pytest.mark.parametrize(
    ("entrants", "points"),
    [
        (10, [30, 20, 10]),
        (15, [50, 40, 30, 20, 10]),
        (24, [70, 60, 50, 40, 30, 20, 10]),
        (1, [10]),
        (2, [10]),  # 0.6 -> 1
        (5, [20, 10]),  # round_half_up(1.5) = 2 (half up; banker's differs at 2.5, see below)
        (25, [80, 70, 60, 50, 40, 30, 20, 10]),  # 7.5 -> 8
    ],
)
def test_default_chart_preview_r7(public, entrants, points):
    """R7 examples: n=10 -> k=3 -> 30, 20, 10; n=15 -> k=5; n=24 -> k=7; k is at least 1."""
    response = preview(public, "default", entrants)
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {
        "entrants": entrants,
        "scoring_places": len(points),
        "points": points,
    }


def test_stored_default_chart_previews_like_the_default_r7(league, public):
    chart = league.chart()
    for entrants in (1, 5, 10, 15, 24, 100):
        assert (
            preview(public, chart["id"], entrants).get_json()
            == preview(public, "default", entrants).get_json()
        )


@pytest.mark.parametrize(
    ("fraction", "step", "entrants", "points"),
    [
        (0.25, 10, 10, [30, 20, 10]),  # 2.5 rounds half up to 3 (banker's rounding gives 2)
        (0.35, 5, 30, [55, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5]),  # 10.5 -> 11
        (0.5, 25, 7, [100, 75, 50, 25]),  # 3.5 -> 4
        (1, 1, 4, [4, 3, 2, 1]),  # everybody scores
        (0.05, 100, 9, [100]),  # 0.45 -> 0, but at least one place scores
    ],
)
def test_custom_fraction_and_step_r7(league, public, fraction, step, entrants, points):
    """R7: k = max(1, round_half_up(fraction x n)), place p earns step x (k - p + 1)."""
    chart = league.chart(fraction=fraction, step=step)
    assert (chart["fraction"], chart["step"]) == (fraction, step)
    body = preview(public, chart["id"], entrants).get_json()
    assert body == {"entrants": entrants, "scoring_places": len(points), "points": points}


def test_bands_chart_preview_r7(league, public):
    """R7 bands: the band containing n gives the points; places past the list earn 0."""
    chart = league.chart(kind="bands", bands=BINDER)
    assert chart["bands"] == BINDER
    assert chart["fraction"] is None and chart["step"] is None
    cases = {
        2: [30, 20],  # only two places in the field
        8: [30, 20, 10],
        9: [60, 45, 30, 20, 10],  # trailing zeros: those places earn 0
        20: [60, 45, 30, 20, 10],
        21: [100, 80, 60, 45, 30, 20, 10, 5],
        40: [100, 80, 60, 45, 30, 20, 10, 5],
    }
    for entrants, points in cases.items():
        body = preview(public, chart["id"], entrants).get_json()
        assert body == {"entrants": entrants, "scoring_places": len(points), "points": points}


@pytest.mark.parametrize("entrants", [1, 41, 10000])
def test_bands_chart_refuses_n_outside_every_band_r7(league, public, entrants):
    chart = league.chart(kind="bands", bands=BINDER)
    body = assert_problem(preview(public, chart["id"], entrants), 422, "entrants", rule="R7")
    assert str(entrants) in body["detail"]


# Preview arguments ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "entrants=0",
        "entrants=abc",
        "",
        "entrants=1.5",
        "entrants=-3",
        "entrants=10001",
        "entrants=1e3",
        "entrants=",
    ],
)
def test_preview_needs_a_sensible_entrants(public, query):
    response = public.get(f"{CHARTS}/default/preview?{query}")
    assert_problem(response, 422, "entrants")


def test_preview_unknown_chart_404(public):
    assert_problem(preview(public, 99999, 10), 404)
    assert_problem(public.get(f"{CHARTS}/99999"), 404)
    assert_problem(preview(public, 99999999999, 10), 404)


# Chart validation -------------------------------------------------------------------------------


def band(low: int, high: int, *points: int) -> dict[str, Any]:
    return {"min_entrants": low, "max_entrants": high, "points": list(points)}


@pytest.mark.parametrize(
    ("bands", "field"),
    [
        ([band(1, 10, 30, 20), band(10, 20, 50, 30)], "bands.1.min_entrants"),  # overlap
        ([band(1, 10, 30, 20), band(12, 20, 50, 30)], "bands.1.min_entrants"),  # gap
        ([band(10, 5, 30, 20)], "bands.0.max_entrants"),
        ([band(1, 10, 10, 20)], "bands.0.points"),  # points increase
        ([band(1, 2, 30, 20, 10)], "bands.0.points"),  # more places than entrants
        ([], "bands"),
    ],
)
def test_bad_bands_refused_r7(office, bands, field):
    response = office.post(CHARTS, json={"name": "Binder", "kind": "bands", "bands": bands})
    assert_problem(response, 422, field, rule="R7")
    assert chart_total(office) == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "bands"}, "bands"),
        ({"kind": "bands", "bands": [band(1, 9, 10)], "fraction": 0.3}, "fraction"),
        ({"kind": "bands", "bands": [band(1, 9, 10)], "step": 10}, "step"),
        ({"kind": "top_fraction", "bands": [band(1, 9, 10)]}, "bands"),
        ({"kind": "top_fraction", "fraction": 0}, "fraction"),
        ({"kind": "top_fraction", "fraction": 1.01}, "fraction"),
        ({"kind": "top_fraction", "fraction": "x"}, "fraction"),
        ({"kind": "top_fraction", "fraction": 0.12345}, "fraction"),  # more than the 4 places kept
        ({"kind": "top_fraction", "step": 0}, "step"),
        ({"kind": "top_fraction", "step": 2.5}, "step"),
        ({"kind": "podium"}, "kind"),
        ({}, "kind"),
        ({"kind": "bands", "bands": [band(0, 9, 10)]}, "bands.0.min_entrants"),
        ({"kind": "bands", "bands": [band(1, 9, 10, -5)]}, "bands.0.points.1"),
        ({"kind": "bands", "bands": [{"min_entrants": 1, "max_entrants": 9}]}, "bands.0.points"),
        ({"kind": "bands", "bands": [band(1, 9)]}, "bands.0.points"),  # an empty list
        ({"kind": "top_fraction", "colour": "red"}, "colour"),
    ],
)
def test_invalid_chart_refused(office, body, field):
    assert_problem(office.post(CHARTS, json={"name": "Chart", **body}), 422, field)
    assert chart_total(office) == 0


def test_chart_name_unique(league):
    league.chart(name="House")
    response = league.office.post(CHARTS, json={"name": "House", "kind": "top_fraction"})
    assert_problem(response, 409, "name")
    assert chart_total(league.office) == 1


def test_only_the_office_creates_charts(public, host_for, league):
    body = {"name": "House", "kind": "top_fraction"}
    assert_problem(public.post(CHARTS, json=body), 401)
    assert_problem(host_for(league.venue()["id"]).post(CHARTS, json=body), 403)
    assert chart_total(public) == 0


def test_chart_creation_audited_r18(league):
    chart = league.chart(kind="bands", bands=BINDER[:1])
    log = league.office.get(f"/api/v1/audit-log?entity=points_chart&entity_id={chart['id']}")
    entries = log.get_json()["items"]
    assert [entry["action"] for entry in entries] == ["points_chart.create"]
    assert entries[0]["before"] is None
    assert entries[0]["after"]["bands"] == BINDER[:1]


def test_bands_in_any_order_are_stored_by_entrants_r7(office):
    """R7: only overlaps and gaps are refused; bands listed out of order are stored in order."""
    response = office.post(
        "/api/v1/points-charts",
        json={
            "name": "Shuffled",
            "kind": "bands",
            "bands": [band(11, 20, 50, 30), band(1, 10, 30, 20)],
        },
    )
    assert response.status_code == 201, response.get_json()
    assert [b["min_entrants"] for b in response.get_json()["bands"]] == [1, 11]
    preview = office.get(f"/api/v1/points-charts/{response.get_json()['id']}/preview?entrants=12")
    assert preview.get_json()["points"] == [50, 30]
