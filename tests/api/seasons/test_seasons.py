"""Seasons (R2) through the HTTP API: rulebook defaults, overlap refusal, validation, audited PATCH."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.league import assert_problem

SEASONS = "/api/v1/seasons"

DEFAULT_CHART = {
    "id": None,
    "name": "default",
    "kind": "top_fraction",
    "fraction": 0.3,
    "step": 10,
    "bands": [],
    "formula": None,
    "preset": None,
}


def season_total(caller: Any) -> int:
    response = caller.get(SEASONS)
    assert response.status_code == 200
    total: int = response.get_json()["total"]
    return total


def test_create_fills_rulebook_defaults_r2(office, public):
    """R2 and R7-R17: a season that names no setting gets every rulebook default."""
    response = office.post(
        SEASONS, json={"name": "Spring 2026", "starts_on": "2026-01-05", "ends_on": "2026-03-29"}
    )
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    expected = {
        "name": "Spring 2026",
        "starts_on": "2026-01-05",
        "ends_on": "2026-03-29",
        "region_ids": [],
        "championship_date": None,
        "points_chart_id": None,
        "points_chart": DEFAULT_CHART,
        "participation_points": 0,
        "attendance_bonus": [],
        "count_best": None,
        "absent_keeps_place_points": False,
        "cut_fraction": 0.2,
        "min_events_to_qualify": 1,
        "min_age": 21,
        "double_qualifier_policy": "best_rank",
        "correction_days": 7,
    }
    assert {key: created[key] for key in expected} == expected
    # The public reads the same season back.
    shown = public.get(f"{SEASONS}/{created['id']}").get_json()
    assert {key: shown[key] for key in expected} == expected


def test_create_keeps_every_setting_given_r2(league):
    region = league.region()
    chart = league.chart(fraction=0.25, step=5)
    season = league.season(
        region_ids=[region["id"]],
        championship_date="2026-04-18",
        points_chart_id=chart["id"],
        participation_points=5,
        attendance_bonus=[{"events": 4, "points": 20}, {"events": 8, "points": 50}],
        count_best=6,
        absent_keeps_place_points=True,
        cut_fraction=0.25,
        min_events_to_qualify=3,
        min_age=18,
        double_qualifier_policy="most_played",
        correction_days=14,
    )
    assert season["region_ids"] == [region["id"]]
    assert season["championship_date"] == "2026-04-18"
    assert season["points_chart_id"] == chart["id"]
    assert season["points_chart"]["fraction"] == 0.25 and season["points_chart"]["step"] == 5
    assert season["participation_points"] == 5
    assert season["attendance_bonus"] == [{"events": 4, "points": 20}, {"events": 8, "points": 50}]
    assert season["count_best"] == 6
    assert season["absent_keeps_place_points"] is True
    assert season["cut_fraction"] == 0.25
    assert season["min_events_to_qualify"] == 3
    assert season["min_age"] == 18
    assert season["double_qualifier_policy"] == "most_played"
    assert season["correction_days"] == 14


def test_bands_chart_shown_as_the_seasons_chart_r2_r7(league):
    chart = league.chart(kind="bands", bands=[{"min_entrants": 1, "max_entrants": 99, "points": [9, 4]}])
    season = league.season(points_chart_id=chart["id"])
    assert season["points_chart"]["id"] == chart["id"]
    assert season["points_chart"]["kind"] == "bands"
    assert season["points_chart"]["bands"] == [{"min_entrants": 1, "max_entrants": 99, "points": [9, 4]}]


def test_only_the_office_creates_seasons(public, host_for, league):
    body = {"name": "S", "starts_on": "2026-01-05", "ends_on": "2026-03-29"}
    assert_problem(public.post(SEASONS, json=body), 401)
    host = host_for(league.venue()["id"])
    assert_problem(host.post(SEASONS, json=body), 403)
    assert season_total(public) == 0


# R2 overlap -------------------------------------------------------------------------------------


def test_overlap_all_regions_vs_region_refused_r2(league):
    """R2: a season naming no region covers all, so it overlaps a region's season in the same dates."""
    region = league.region()
    first = league.season()  # all regions, 2026-01-05..2026-03-29
    response = league.office.post(
        SEASONS,
        json={
            "name": "North spring",
            "starts_on": "2026-03-29",
            "ends_on": "2026-05-10",
            "region_ids": [region["id"]],
        },
    )
    body = assert_problem(response, 422, "starts_on", "ends_on", rule="R2")
    assert str(first["id"]) in body["detail"]
    assert body["rule"] == "R2"
    assert season_total(league.office) == 1


def test_overlap_region_vs_all_regions_refused_r2(league):
    region = league.region()
    league.season(region_ids=[region["id"]])
    response = league.office.post(
        SEASONS, json={"name": "Everywhere", "starts_on": "2026-02-01", "ends_on": "2026-02-28"}
    )
    assert_problem(response, 422, "starts_on", rule="R2")
    assert season_total(league.office) == 1


def test_overlap_same_region_refused_r2(league):
    shared, other = league.region(), league.region()
    league.season(region_ids=[shared["id"]])
    response = league.office.post(
        SEASONS,
        json={
            "name": "Clash",
            "starts_on": "2025-12-01",
            "ends_on": "2026-01-05",  # the first season's first day
            "region_ids": [other["id"], shared["id"]],
        },
    )
    assert_problem(response, 422, "starts_on", "ends_on", rule="R2")
    assert season_total(league.office) == 1


def test_disjoint_regions_may_overlap_in_dates_r2(league):
    north, south = league.region(), league.region()
    league.season(region_ids=[north["id"]])
    second = league.season(region_ids=[south["id"]])
    assert second["region_ids"] == [south["id"]]
    assert season_total(league.office) == 2


def test_consecutive_seasons_do_not_overlap_r2(league):
    league.season()  # ends 2026-03-29
    later = league.season(starts_on="2026-03-30", ends_on="2026-05-31")
    earlier = league.season(starts_on="2025-11-01", ends_on="2026-01-04")
    assert later["starts_on"] == "2026-03-30" and earlier["ends_on"] == "2026-01-04"
    assert season_total(league.office) == 3


def test_patch_creating_overlap_refused_and_nothing_changes_r2(league):
    north, south = league.region(), league.region()
    league.season(region_ids=[north["id"]])
    second = league.season(region_ids=[south["id"]], starts_on="2026-04-01", ends_on="2026-05-31")
    path = f"{SEASONS}/{second['id']}"

    # Moving its dates into the first season's is fine while the regions differ...
    moved = league.office.patch(path, json={"starts_on": "2026-03-01"})
    assert moved.status_code == 200 and moved.get_json()["starts_on"] == "2026-03-01"
    # ...but adding the first season's region is refused, and changes nothing else either.
    response = league.office.patch(path, json={"region_ids": [north["id"]], "min_age": 18})
    assert_problem(response, 422, "starts_on", rule="R2")
    response = league.office.patch(path, json={"region_ids": []})
    assert_problem(response, 422, rule="R2")
    shown = league.office.get(path).get_json()
    assert shown["region_ids"] == [south["id"]]
    assert shown["min_age"] == 21
    assert shown["starts_on"] == "2026-03-01"


def test_patch_dates_into_overlap_refused_r2(league):
    first = league.season()
    second = league.season(starts_on="2026-04-01", ends_on="2026-05-31")
    response = league.office.patch(f"{SEASONS}/{second['id']}", json={"starts_on": "2026-03-15"})
    body = assert_problem(response, 422, "starts_on", rule="R2")
    assert str(first["id"]) in body["detail"]
    assert league.office.get(f"{SEASONS}/{second['id']}").get_json()["starts_on"] == "2026-04-01"


def test_patch_region_ids_r2(league):
    north, south, east = league.region(), league.region(), league.region()
    league.season(region_ids=[north["id"]])
    season = league.season(region_ids=[south["id"]])
    path = f"{SEASONS}/{season['id']}"

    changed = league.office.patch(path, json={"region_ids": [east["id"], south["id"]]})
    assert changed.status_code == 200, changed.get_json()
    assert changed.get_json()["region_ids"] == [south["id"], east["id"]]
    changed = league.office.patch(path, json={"region_ids": [east["id"]]})
    assert changed.get_json()["region_ids"] == [east["id"]]
    assert league.office.get(path).get_json()["region_ids"] == [east["id"]]
    # The list filter follows the new coverage.
    covering_south = league.office.get(f"{SEASONS}?region_id={south['id']}").get_json()
    assert [s["id"] for s in covering_south["items"]] == []
    covering_east = league.office.get(f"{SEASONS}?region_id={east['id']}").get_json()
    assert [s["id"] for s in covering_east["items"]] == [season["id"]]


def test_patch_to_all_regions_when_alone_r2(league):
    region = league.region()
    season = league.season(region_ids=[region["id"]])
    changed = league.office.patch(f"{SEASONS}/{season['id']}", json={"region_ids": []})
    assert changed.status_code == 200
    assert changed.get_json()["region_ids"] == []


def test_list_filters_by_region_and_active_on(league, public):
    north, south = league.region(), league.region()
    everywhere = league.season(starts_on="2025-09-01", ends_on="2025-10-31")
    northern = league.season(region_ids=[north["id"]])
    southern = league.season(region_ids=[south["id"]], starts_on="2026-02-01", ends_on="2026-04-30")
    by_region = public.get(f"{SEASONS}?region_id={north['id']}").get_json()
    assert [s["id"] for s in by_region["items"]] == [northern["id"], everywhere["id"]]
    on_day = public.get(f"{SEASONS}?active_on=2026-04-15").get_json()
    assert [s["id"] for s in on_day["items"]] == [southern["id"]]
    assert on_day["total"] == 1


# Validation: problem+json naming the field, and nothing stored ----------------------------------


VALID = {"name": "Valid", "starts_on": "2026-01-05", "ends_on": "2026-03-29"}


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"starts_on": "05/01/2026"}, "starts_on"),
        ({"starts_on": "2026-02-30"}, "starts_on"),
        ({"ends_on": "2026-13-01"}, "ends_on"),
        ({"ends_on": "2026-01-04"}, "ends_on"),
        ({"championship_date": "2026-03-29"}, "championship_date"),
        ({"championship_date": "2026-03-01"}, "championship_date"),
        ({"cut_fraction": 0}, "cut_fraction"),
        ({"cut_fraction": 1.5}, "cut_fraction"),
        ({"cut_fraction": "abc"}, "cut_fraction"),
        ({"cut_fraction": True}, "cut_fraction"),
        ({"cut_fraction": 0.00001}, "cut_fraction"),
        ({"correction_days": -1}, "correction_days"),
        ({"correction_days": 2.5}, "correction_days"),
        ({"participation_points": "5"}, "participation_points"),
        ({"count_best": 0}, "count_best"),
        ({"min_events_to_qualify": 0}, "min_events_to_qualify"),
        ({"min_age": -1}, "min_age"),
        ({"double_qualifier_policy": "coin_flip"}, "double_qualifier_policy"),
        ({"absent_keeps_place_points": "maybe"}, "absent_keeps_place_points"),
        ({"region_ids": None}, "region_ids"),
        ({"region_ids": [0]}, "region_ids.0"),
        ({"points_chart_id": 99999}, "points_chart_id"),
        (
            {"attendance_bonus": [{"events": 4, "points": 10}, {"events": 4, "points": 20}]},
            "attendance_bonus",
        ),
        ({"attendance_bonus": [{"events": 4}]}, "attendance_bonus.0.points"),
        ({"attendance_bonus": [{"events": 0, "points": 10}]}, "attendance_bonus.0.events"),
        ({"promoter": "Dana"}, "promoter"),
        ({"name": None}, "name"),
        ({"name": "   "}, "name"),
    ],
)
def test_invalid_season_refused_r2(office, changes, field):
    response = office.post(SEASONS, json={**VALID, **changes})
    assert_problem(response, 422, field)
    assert season_total(office) == 0


@pytest.mark.parametrize("missing", ["name", "starts_on", "ends_on"])
def test_required_fields(office, missing):
    body = {key: value for key, value in VALID.items() if key != missing}
    assert_problem(office.post(SEASONS, json=body), 422, missing)
    assert season_total(office) == 0


def test_unknown_region_names_its_index(league):
    region = league.region()
    response = league.office.post(SEASONS, json={**VALID, "region_ids": [region["id"], 99999]})
    body = assert_problem(response, 422, "region_ids.1")
    assert "99999" in body["errors"]["region_ids.1"][0]
    assert "region_ids.0" not in body["errors"]
    assert season_total(league.office) == 0


def test_invalid_patch_changes_nothing(league):
    season = league.season()
    path = f"{SEASONS}/{season['id']}"
    refusals = [
        ({"ends_on": "2025-12-31"}, "ends_on"),  # before the stored starts_on
        ({"starts_on": "2026-04-01"}, "ends_on"),  # after the stored ends_on
        ({"championship_date": "2026-03-29"}, "championship_date"),
        ({"cut_fraction": 0, "min_age": 18}, "cut_fraction"),
        ({"min_age": 18, "region_ids": [99999]}, "region_ids.0"),
        ({"points_chart_id": 99999}, "points_chart_id"),
        ({"name": None}, "name"),
        ({"id": 5}, "id"),
    ]
    for changes, field in refusals:
        assert_problem(league.office.patch(path, json=changes), 422, field)
    shown = league.office.get(path).get_json()
    assert shown == season | {"updated_at": shown["updated_at"]}
    assert shown["min_age"] == 21


def test_patch_unknown_season_404(office):
    assert_problem(office.patch(f"{SEASONS}/99999", json={"min_age": 18}), 404)
    assert_problem(office.get(f"{SEASONS}/99999"), 404)


def test_patch_settings_audited_r18(league):
    """R18: a settings change is logged with the state before and after."""
    season = league.season()
    path = f"{SEASONS}/{season['id']}"
    response = league.office.patch(path, json={"min_age": 18, "cut_fraction": 0.25, "count_best": 5})
    assert response.status_code == 200
    changed = response.get_json()
    assert (changed["min_age"], changed["cut_fraction"], changed["count_best"]) == (18, 0.25, 5)

    log = league.office.get(f"/api/v1/audit-log?entity=season&entity_id={season['id']}").get_json()
    assert [entry["action"] for entry in log["items"]] == ["season.update", "season.create"]
    update = log["items"][0]
    assert update["actor"] == "Office: Test" and update["actor_role"] == "office"
    assert update["before"]["min_age"] == 21 and update["after"]["min_age"] == 18
    assert update["before"]["cut_fraction"] == "0.2" and update["after"]["cut_fraction"] == "0.25"
    assert update["before"]["count_best"] is None and update["after"]["count_best"] == 5
    assert update["after"]["region_ids"] == []


def test_refused_patch_not_audited_r18(league):
    season = league.season()
    league.office.patch(f"{SEASONS}/{season['id']}", json={"cut_fraction": 2})
    log = league.office.get("/api/v1/audit-log?entity=season").get_json()
    assert [entry["action"] for entry in log["items"]] == ["season.create"]
