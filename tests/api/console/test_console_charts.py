"""The office's points charts in the console (R7), as a browser uses the page: every chart with
its points for a field of N, and a new chart of each kind made there; a refused one shows the
API's reason beside its field (a formula's character, or its first n and p) and stores nothing.
Hosts may not use the page."""

from __future__ import annotations

from flask import Flask

from tests.builders import Scene
from tests.support.console import csrf, signed_in, text_of

PAGE = "/console/charts"


def test_r7_the_office_makes_charts_of_each_kind_and_sees_their_points(app: Flask, scene: Scene) -> None:
    office = signed_in(app, scene.office.key)
    page = office.get(f"{PAGE}?entrants=24")
    assert page.status_code == 200 and "No chart yet" in text_of(page)
    token = csrf(page)
    bodies = [
        {"name": "Root", "kind": "formula", "preset": "square_root"},
        {
            "name": "Own",
            "kind": "formula",
            "formula": "if(p == 1, 20, 0) + 10 * (k - p + 1)",
            "fraction": "0.3",
        },
        {"name": "Top", "kind": "top_fraction", "fraction": "0.5", "step": "5"},
        {"name": "Binder", "kind": "bands", "bands": "2-9: 30, 20, 10\n10+: 50, 40, 30"},
    ]
    for body in bodies:
        made = office.post(f"{PAGE}?entrants=24", data={"csrf_token": token, **body})
        assert made.status_code == 200 and f"({body['name']})" in text_of(made), text_of(made)
    shown = text_of(office.get(f"{PAGE}?entrants=24"))
    assert "490, 346, 283, 245, 219, 200, 185" in shown  # the square-root preset for 24
    assert "90, 60, 50, 40, 30, 20, 10" in shown  # the league's own formula
    assert "60, 55, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5" in shown
    assert "50, 40, 30" in shown
    charts = scene.office.get("/api/v1/points-charts").get_json()["items"]
    assert [(c["name"], c["kind"], c["preset"]) for c in charts] == [
        ("Root", "formula", "square_root"),
        ("Own", "formula", None),
        ("Top", "top_fraction", None),
        ("Binder", "bands", None),
    ]


def test_r7_a_refused_formula_says_why_beside_it_and_stores_nothing(app: Flask, scene: Scene) -> None:
    office = signed_in(app, scene.office.key)
    token = csrf(office.get(PAGE))
    for formula, said in (
        ("sqrt(n) + x", "unknown name `x` at character 11"),
        ("100 / (p - 3)", "n = 9, p = 3: division by zero"),
    ):
        refused = office.post(
            PAGE, data={"csrf_token": token, "name": "Bad", "kind": "formula", "formula": formula}
        )
        assert refused.status_code == 422 and said in text_of(refused), text_of(refused)
    lines = office.post(
        PAGE, data={"csrf_token": token, "name": "Bad", "kind": "bands", "bands": "two to nine"}
    )
    assert lines.status_code == 422 and "Line 1 is not entrants" in text_of(lines)
    assert (
        office.post(PAGE, data={"name": "No token", "kind": "formula", "preset": "linear"}).status_code == 400
    )
    assert scene.office.get("/api/v1/points-charts").get_json()["total"] == 0
    assert scene.office.get("/api/v1/audit-log?entity=points_chart").get_json()["total"] == 0


def test_r7_hosts_may_not_use_the_chart_page(app: Flask, scene: Scene) -> None:
    host = signed_in(app, scene.host.key)
    assert host.get(PAGE, headers={"Accept": "text/html"}).status_code == 403
