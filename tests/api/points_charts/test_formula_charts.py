"""R7 formula charts through the HTTP API: presets and the league's own formulas created, read and
previewed; refusals (422 naming `formula`, with the character of a syntax error, or the first n
and p where the formula fails) that store and audit nothing; edits with a reason that rescore the
seasons using the chart, refused whole when a stored report's field would have no points; a
larger max_entrants refused while a formula chart fails in the new range; a season's standings."""

from __future__ import annotations

from typing import Any

import pytest

import api.points_charts.routes as points_chart_routes
import models.rules.charts as charts_rules
from tests.builders import MakeScene, days_ago, points_by_place
from tests.support.formulas import HOSTILE
from tests.support.formulas import ORDINARY_500 as ORDINARY
from tests.support.league import League, assert_problem

CHARTS = "/api/v1/points-charts"
SETTINGS = "/api/v1/league-settings"

# Worked by hand (docs/rules.md R7): the points of places 1..k for 10 and 24 entrants.
SQUARE_ROOT = {10: [316, 224, 183], 24: [490, 346, 283, 245, 219, 200, 185]}
LOGARITHMIC = {10: [240, 170, 130], 24: [322, 253, 212, 183, 161, 143, 127]}
LINEAR = {10: list(range(10, 0, -1)), 24: list(range(24, 0, -1))}


def charts_and_audit(caller: Any) -> tuple[int, int]:
    charts = caller.get(CHARTS).get_json()["total"]
    audited = caller.get("/api/v1/audit-log?entity=points_chart").get_json()["total"]
    return charts, audited


def preview(caller: Any, chart_id: int, entrants: int) -> Any:
    return caller.get(f"{CHARTS}/{chart_id}/preview?entrants={entrants}")


def created(league: League, **body: Any) -> dict[str, Any]:
    response = league.office.post(CHARTS, json={"name": f"Chart {body}", "kind": "formula", **body})
    assert response.status_code == 201, response.get_json()
    chart: dict[str, Any] = response.get_json()
    return chart


def test_r7_the_square_root_preset_as_the_readme_shows_it(public: Any, league: League) -> None:
    """R7: POST {"name": "Square root", "kind": "formula", "preset": "square_root"}; the chart reads
    back with its formula and fraction 0.3; its preview for 24 entrants is 7 places."""
    body = {"name": "Square root", "kind": "formula", "preset": "square_root"}
    response = league.office.post(CHARTS, json=body)
    assert response.status_code == 201, response.get_json()
    chart = response.get_json()
    assert {name: chart[name] for name in ("kind", "preset", "formula", "fraction", "step", "bands")} == {
        "kind": "formula",
        "preset": "square_root",
        "formula": "sqrt(n) / sqrt(p) * 100",
        "fraction": 0.3,
        "step": None,
        "bands": [],
    }
    assert league.office.get(f"{CHARTS}/{chart['id']}").get_json() == chart
    shown = preview(public, chart["id"], 24).get_json()
    assert shown == {"entrants": 24, "scoring_places": 7, "points": SQUARE_ROOT[24]}


@pytest.mark.parametrize(
    ("preset", "by_hand"),
    [("square_root", SQUARE_ROOT), ("logarithmic", LOGARITHMIC), ("linear", LINEAR)],
)
def test_r7_presets_by_hand_for_10_and_24_entrants(
    public: Any, league: League, preset: str, by_hand: Any
) -> None:
    chart = created(league, preset=preset)
    for entrants, points in by_hand.items():
        shown = preview(public, chart["id"], entrants).get_json()
        assert (shown["scoring_places"], shown["points"]) == (len(points), points), (preset, entrants)


def test_r7_the_leagues_own_formula_with_its_fraction(public: Any, league: League) -> None:
    """R7: a formula as written, stored as written (spaces kept); k comes from its fraction."""
    chart = created(league, formula="sqrt(n)/sqrt(p)  *100", fraction=0.5)
    assert (chart["formula"], chart["preset"], chart["fraction"]) == ("sqrt(n)/sqrt(p)  *100", None, 0.5)
    assert preview(public, chart["id"], 10).get_json()["points"] == [316, 224, 183, 158, 141]
    # if, comparisons and k: the winner gets a bonus, the others of the top k 10 points each.
    bonus = created(league, formula="if(p == 1 and n >= 10, 50, 10) + 0 * k")
    assert preview(public, bonus["id"], 10).get_json()["points"] == [50, 10, 10]
    assert preview(public, bonus["id"], 9).get_json()["points"] == [10, 10, 10]


def test_r7_a_preview_past_max_entrants_of_the_leagues_own_formula_is_refused_at_once(
    public: Any, league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R7 (issue 44: such a 422 took 4-5 s): the league's own formula was checked when saved for
    the fields up to max_entrants, and no report is larger; a preview past it is a 422 naming
    `entrants`, with nothing computed. Up to it, and for a preset at any field, it is computed."""
    assert league.office.patch(SETTINGS, json={"max_entrants": 60}).status_code == 200
    chart = created(league, formula="100 / (61 - n)")
    assert preview(public, chart["id"], 60).get_json()["points"] == [100] * 18
    computed: list[int] = []
    real = charts_rules.field_points
    monkeypatch.setattr(charts_rules, "field_points", lambda *args: computed.append(args[1]) or real(*args))
    for entrants in (61, 5_000, 10_000):
        problem = assert_problem(preview(public, chart["id"], entrants), 422, "entrants", rule="R7")
        assert "A report has at most 60 entrants (the league's max_entrants)" in problem["detail"]
        assert f"a field of {entrants} is not computed" in problem["detail"]
    assert computed == []
    linear = created(league, preset="linear")
    big = preview(public, linear["id"], 10_000).get_json()
    assert big["scoring_places"] == 10_000 and big["points"][:2] == [10_000, 9_999]


def test_r7_previews_and_their_refusals_are_kept_as_other_public_answers_are(
    public: Any, league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R7 (issue 44): a preview's answer, and its 422, are kept by the answers' cache: asked again,
    under another host name too, nothing is computed; the refusal carries the request's own id.
    A change to the chart retires both."""
    assert league.office.patch(SETTINGS, json={"max_entrants": 60}).status_code == 200
    chart = created(league, formula="100 / (61 - n)")
    asked: list[int] = []
    real = points_chart_routes.preview_chart
    counted = lambda *args: asked.append(args[-1]) or real(*args)  # noqa: E731
    monkeypatch.setattr(points_chart_routes, "preview_chart", counted)
    answer = preview(public, chart["id"], 60)
    refusal = preview(public, chart["id"], 61)
    assert (answer.status_code, refusal.status_code, asked) == (200, 422, [60, 61])
    for host in ("localhost", "league.example.org"):
        again = public.get(f"{CHARTS}/{chart['id']}/preview?entrants=60", headers={"Host": host})
        assert (again.status_code, again.get_json()) == (200, answer.get_json())
        refused = public.get(
            f"{CHARTS}/{chart['id']}/preview?entrants=61",
            headers={"Host": host, "X-Request-ID": f"req-{host}"},
        )
        problem = assert_problem(refused, 422, "entrants", rule="R7")
        assert problem["detail"] == refusal.get_json()["detail"]
        assert problem["request_id"] == refused.headers["X-Request-ID"] == f"req-{host}"
    assert asked == [60, 61]
    renamed = league.office.patch(
        f"{CHARTS}/{chart['id']}", json={"name": "Renamed", "reason": "A new name."}
    )
    assert renamed.status_code == 200
    assert preview(public, chart["id"], 60).status_code == 200
    assert preview(public, chart["id"], 61).status_code == 422
    assert asked == [60, 61, 60, 61]


# The probe's chart (issue 44): 30 terms, each a fractional power of n / p, which took 162 s to save
# at fraction 0.3 and 424 s at fraction 1; and a formula of about 500 characters of the usual pieces.


def test_r7_the_probes_formula_of_30_terms_is_refused_when_saved_after_a_seconds_work(league: League) -> None:
    """R7 (issue 44): saving the probe's chart stops once its check has done about a second's work
    (formulas.WORK, counted, not timed): a 422 naming `formula` that says what costs most; nothing
    is stored."""
    before = charts_and_audit(league.office)
    body = {"name": "Thirty terms", "kind": "formula", "formula": HOSTILE, "fraction": 0.3}
    problem = assert_problem(league.office.post(CHARTS, json=body), 422, "formula", rule="R7")
    assert "takes more work than a chart is checked with (about a second)" in problem["detail"]
    assert charts_and_audit(league.office) == before


@pytest.mark.parametrize(("fraction", "most"), [(0.3, 500), (1, 300)])
def test_r7_a_normal_leagues_formula_of_500_characters_is_taken(
    public: Any, league: League, fraction: float, most: int
) -> None:
    """R7: a formula of about 500 characters of the usual pieces is saved for the default
    max_entrants (500), and for a 300-entrant championship that scores every place."""
    assert league.office.patch(SETTINGS, json={"max_entrants": most}).status_code == 200
    body = {"name": "The usual pieces", "kind": "formula", "formula": ORDINARY, "fraction": fraction}
    response = league.office.post(CHARTS, json=body)
    assert response.status_code == 201, response.get_json()
    chart = response.get_json()
    shown = preview(public, chart["id"], most).get_json()
    assert shown["scoring_places"] == round(fraction * most) and shown["points"][0] > shown["points"][-1]


@pytest.mark.parametrize(
    ("formula", "said"),
    [
        ("5. * (k - p + 1)", "A number ends with its point (write 5 or 5.0) at character 1."),
        ("n * 0.12345678901234567890123456789", "more than 28 significant digits"),
    ],
)
def test_r7_a_new_formulas_numbers_are_read_as_written_or_refused(
    league: League, formula: str, said: str
) -> None:
    """R7 (issue 44): "5." would be read as 5 and a 29th significant digit rounded away: a new
    formula with either is refused, naming `formula` and the number's character; nothing stored."""
    before = charts_and_audit(league.office)
    response = league.office.post(CHARTS, json={"name": "Mine", "kind": "formula", "formula": formula})
    problem = assert_problem(response, 422, "formula", rule="R7")
    assert said in " ".join(problem["errors"]["formula"]), problem
    assert charts_and_audit(league.office) == before


@pytest.mark.parametrize(
    ("body", "field", "said"),
    [
        ({"formula": "sqrt(n) + x"}, "formula", "unknown name `x` at character 11"),
        ({"formula": "__import__('os').system('ls')"}, "formula", "unknown name `__import__` at character 1"),
        ({"formula": "n.real"}, "formula", "at character 2"),
        ({"formula": "p[0]"}, "formula", "at character 2"),
        ({"formula": "lambda: 1"}, "formula", "unknown name `lambda` at character 1"),
        ({"formula": "'100'"}, "formula", "at character 1"),
        ({"formula": "exp(n)"}, "formula", "unknown name `exp` at character 1"),
        ({"formula": "n ** 2"}, "formula", "at character 4"),
        ({"formula": "(p < 3) * 10"}, "formula", "truth value"),
        ({"formula": "p < 3"}, "formula", "truth value"),
        ({"formula": "if(p < 3, 10)"}, "formula", "`if` takes 3 arguments"),
        ({"formula": "sqrt(n"}, "formula", "at character 7"),
        ({"formula": "n = 3"}, "formula", "at character 3"),
        ({"formula": "n × p"}, "formula", "`×` at character 3"),
        ({"formula": "+".join(["1"] * 101)}, "formula", "more than 200 pieces"),
        ({"formula": "(" * 45 + "1" + ")" * 45}, "formula", "nested more than 40 deep"),
        ({"formula": "1+" * 250 + "1"}, "formula", "500"),
        ({"formula": "   "}, "formula", "empty"),
        ({"formula": ""}, "formula", ""),
        ({"formula": 5}, "formula", ""),
        ({"formula": "100 / (p - 3)"}, "formula", "n = 9, p = 3: division by zero"),
        ({"formula": "ln(n - 2) * 10"}, "formula", "n = 2, p = 1: a logarithm of 0 or less"),
        ({"formula": "p"}, "formula", "n = 5, p = 2: place 2 would earn 2, more than place 1's 1"),
        ({"formula": "n * 1000 / p"}, "formula", "n = 101, p = 1: a value above 100,000"),
        ({"formula": "9^9^9"}, "formula", "n = 2, p = 1"),
        ({"formula": "(0 - n) ^ 0.5"}, "formula", "n = 2, p = 1: a negative number raised to a fractional"),
        ({"formula": "sqrt(1 - n)"}, "formula", "n = 2, p = 1"),
        ({"formula": "n", "preset": "linear"}, "formula", "not both"),
        ({}, "formula", "needs its formula"),
        ({"preset": "cubic"}, "preset", ""),
        ({"formula": "n", "step": 10}, "step", ""),
        ({"formula": "n", "bands": []}, "bands", ""),
        ({"formula": "n", "fraction": 0}, "fraction", ""),
        ({"kind": "top_fraction", "formula": "n"}, "formula", "Only a formula chart"),
        ({"kind": "bands", "preset": "linear", "bands": []}, "preset", ""),
    ],
)
def test_r7_a_refused_formula_names_formula_and_stores_nothing(
    league: League, body: dict[str, Any], field: str, said: str
) -> None:
    before = charts_and_audit(league.office)
    response = league.office.post(CHARTS, json={"name": "Mine", "kind": "formula", **body})
    problem = assert_problem(response, 422, field)
    assert said in " ".join(problem["errors"][field]), problem
    assert charts_and_audit(league.office) == before


def test_r7_a_failing_formula_is_a_rule_r7_problem(league: League) -> None:
    response = league.office.post(CHARTS, json={"name": "Mine", "kind": "formula", "formula": "1 / (n - 7)"})
    problem = assert_problem(response, 422, "formula", rule="R7")
    assert "n = 7, p = 1" in problem["detail"]


def test_r7_r18_editing_a_formula_rescores_and_an_unscorable_edit_is_refused_whole(
    public: Any, league: League, make_scene: MakeScene
) -> None:
    """R7, R18: PATCH a formula chart's formula with a reason: the season's stored report is
    rescored and the change audited. With max_entrants lowered below a stored report's field, a
    formula that has no value for that field is refused whole: nothing changes."""
    chart = created(league, formula="n - p + 1", fraction=1)
    scene = make_scene(points_chart_id=chart["id"])
    report = scene.padded(scene.add_players(1), 60, day=days_ago(5))
    assert points_by_place(report)[:2] == [(1, 60, 0, 60), (2, 59, 0, 59)]
    path = f"{CHARTS}/{chart['id']}"
    assert_problem(league.office.patch(path, json={"formula": "2 * (n - p + 1)"}), 422, "reason")
    changed = league.office.patch(path, json={"formula": "2 * (n - p + 1)", "reason": "Doubled."})
    assert changed.status_code == 200, changed.get_json()
    assert (changed.get_json()["formula"], changed.get_json()["rescored_results"]) == ("2 * (n - p + 1)", 60)
    stored = scene.public.get(f"/api/v1/tournaments/{report['id']}").get_json()
    assert points_by_place(stored)[:2] == [(1, 120, 0, 120), (2, 118, 0, 118)]
    (entry, *_) = league.office.get("/api/v1/audit-log?action=points_chart.update").get_json()["items"]
    assert (entry["reason"], entry["after"]["formula"]) == ("Doubled.", "2 * (n - p + 1)")

    assert league.office.patch(SETTINGS, json={"max_entrants": 50}).status_code == 200
    before = charts_and_audit(league.office)
    unscorable = {"formula": "100 / (60 - n)", "reason": "Only up to 59."}  # fine for 2..50
    assert_problem(league.office.patch(path, json=unscorable), 422, rule="R7")
    assert league.office.get(path).get_json()["formula"] == "2 * (n - p + 1)"
    assert charts_and_audit(league.office) == before
    stored = scene.public.get(f"/api/v1/tournaments/{report['id']}").get_json()
    assert points_by_place(stored)[0] == (1, 120, 0, 120)
    # A failing formula, a step, or a preset with a formula: refused like a new chart's.
    assert_problem(league.office.patch(path, json={"formula": "p", "reason": "x"}), 422, "formula", rule="R7")
    assert_problem(league.office.patch(path, json={"step": 5, "reason": "x"}), 422, "step")
    both = {"formula": "n", "preset": "linear", "reason": "x"}
    assert_problem(league.office.patch(path, json=both), 422, "formula")
    # A preset replaces the formula, and brings its fraction.
    to_preset = league.office.patch(path, json={"preset": "square_root", "reason": "The usual one."})
    assert to_preset.status_code == 200, to_preset.get_json()
    assert (to_preset.get_json()["preset"], to_preset.get_json()["fraction"]) == ("square_root", 0.3)
    assert preview(public, chart["id"], 24).get_json()["points"] == SQUARE_ROOT[24]
    # A new fraction alone keeps the preset: k = 12 of 24 at 0.5.
    wider = league.office.patch(path, json={"fraction": 0.5, "reason": "Half the field."})
    assert (wider.get_json()["preset"], wider.get_json()["fraction"]) == ("square_root", 0.5)
    assert preview(public, chart["id"], 24).get_json()["scoring_places"] == 12


def test_r7_other_kinds_take_no_formula_in_a_patch(league: League) -> None:
    chart = league.chart(kind="top_fraction")
    patched = league.office.patch(f"{CHARTS}/{chart['id']}", json={"formula": "n", "reason": "x"})
    assert_problem(patched, 422, "formula")


def test_r7_a_larger_max_entrants_is_refused_while_a_formula_fails_in_the_new_range(league: League) -> None:
    """R7: "the preview never fails for a saved chart": raising max_entrants past where a saved
    formula chart fails is refused, naming the chart, n and p; nothing changes."""
    assert league.office.patch(SETTINGS, json={"max_entrants": 60}).status_code == 200
    chart = created(league, formula="100 / (61 - n)")
    problem = assert_problem(
        league.office.patch(SETTINGS, json={"max_entrants": 100}), 422, "max_entrants", rule="R7"
    )
    assert f"Points chart {chart['id']}" in problem["detail"] and "n = 61, p = 1" in problem["detail"]
    assert league.office.get(SETTINGS).get_json()["max_entrants"] == 60
    assert league.office.patch(SETTINGS, json={"max_entrants": 55}).status_code == 200  # lower: fine
    assert league.office.patch(SETTINGS, json={"max_entrants": 60}).status_code == 200
    created(league, preset="linear")  # presets hold for every field
    assert league.office.patch(SETTINGS, json={"max_entrants": 60}).status_code == 200


def test_r7_a_season_by_a_formula_chart_its_standings(league: League, make_scene: MakeScene) -> None:
    """R7, R11: a season scoring by the square-root preset: a night of 10 and one of 24; each
    player's standing is the sum of the chart's points."""
    chart = created(league, preset="square_root")
    scene = make_scene(points_chart_id=chart["id"])
    ace, bee, cat = scene.players("Ace", "Bee", "Cat")
    first = scene.padded([ace, bee, cat], 10)
    assert [points for _place, points, _part, _total in points_by_place(first)][:4] == [316, 224, 183, 0]
    second = scene.padded([bee, ace], 24)
    assert [points for _place, points, _part, _total in points_by_place(second)][:8] == [*SQUARE_ROOT[24], 0]
    rows = {row["player"]["id"]: row["points"] for row in scene.rows()}
    assert (rows[ace], rows[bee], rows[cat]) == (316 + 346, 224 + 490, 183)
    assert [row["player"]["id"] for row in scene.rows()[:2]] == [bee, ace]
