"""Points and standings through the HTTP API (R1, R3, R6-R11): what each report stores, what
each season setting does, the standings body, R11's order step by step, as_of, CSV, ETags."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import text

from tests.builders import (
    OFFICE_LATE,
    SEASONS,
    TOURNAMENTS,
    MakeScene,
    Scene,
    ago,
    days_ago,
    points_by_place,
    utc_today,
)
from tests.support.league import Caller, League, assert_problem

# A host binder's table (R7 bands): small fields pay 30/20/10, fields of 7+ pay 50 ... 10.
TWO_BANDS = [
    {"min_entrants": 1, "max_entrants": 6, "points": [30, 20, 10]},
    {"min_entrants": 7, "max_entrants": 40, "points": [50, 40, 30, 20, 10]},
]

ROW_FIELDS = (
    "rank",
    "tied",
    "player",
    "points",
    "placement_points",
    "participation_points",
    "bonus_points",
    "played",
    "wins",
    "points_finishes",
    "best_finish",
    "average_finish",
)


def chart_id(league: League, **fields: Any) -> int:
    return int(league.chart(**fields)["id"])


def stored(public: Caller, report_id: int) -> list[tuple[int, int, int, int]]:
    """The points the public sees on a stored report (GET /tournaments/{id})."""
    response = public.get(f"{TOURNAMENTS}/{report_id}")
    assert response.status_code == 200, response.get_json()
    return points_by_place(response.get_json())


def placement(report: dict[str, Any]) -> list[int]:
    return [p for _place, p, _part, _total in points_by_place(report)]


def summary(rows: list[dict[str, Any]], *ids: int) -> list[tuple[int, int, bool, int]]:
    """(player id, rank, tied, points) of the given players' rows, in standings order."""
    wanted = set(ids)
    return [
        (r["player"]["id"], r["rank"], r["tied"], r["points"]) for r in rows if r["player"]["id"] in wanted
    ]


def table(rows: list[dict[str, Any]]) -> list[tuple[int, int, bool, int]]:
    return [(r["player"]["id"], r["rank"], r["tied"], r["points"]) for r in rows]


# R7: points charts -------------------------------------------------------------------------------


def test_default_chart_scores_reports_of_a_season_naming_none_r7(scene, public):
    """R7: a season with no chart scores with the default top_fraction chart (30%, step 10):
    n=10 -> 30, 20, 10; n=15 -> 50 ... 10; n=24 -> 70 ... 10; the rest earn 0."""
    assert scene.season["points_chart_id"] is None
    [ace] = scene.players("Ace")
    ten = scene.padded([ace], 10)
    fifteen = scene.padded([ace], 15)
    twenty_four = scene.padded([ace], 24)
    assert placement(ten) == [30, 20, 10] + [0] * 7
    assert placement(fifteen) == [50, 40, 30, 20, 10] + [0] * 10
    assert placement(twenty_four) == [70, 60, 50, 40, 30, 20, 10] + [0] * 17
    # What the report answered is what is stored, and what the public reads back.
    assert stored(public, ten["id"]) == [(p, pts, 0, pts) for p, pts in enumerate(placement(ten), 1)]
    assert stored(public, twenty_four["id"]) == points_by_place(twenty_four)
    # R11: the winner of all three has 30 + 50 + 70.
    row = scene.row(ace)
    assert (row["points"], row["placement_points"], row["wins"], row["points_finishes"]) == (150, 150, 3, 3)


def test_top_fraction_chart_rounds_half_up_r7(league, make_scene):
    """R7: a top_fraction chart of 25%, step 5: n=10 -> k=round_half_up(2.5)=3 -> 15, 10, 5;
    n=6 -> k=round_half_up(1.5)=2 -> 10, 5 (banker's rounding would give 2 and 2)."""
    scene = make_scene(points_chart_id=chart_id(league, fraction=0.25, step=5))
    [ace] = scene.players("Ace")
    assert placement(scene.padded([ace], 10)) == [15, 10, 5] + [0] * 7
    assert placement(scene.padded([ace], 6)) == [10, 5, 0, 0, 0, 0]
    assert scene.row(ace)["points"] == 25


def test_bands_chart_scores_by_entrant_count_and_refuses_others_r7(league, public, make_scene):
    """R7 bands: the band holding n gives places 1, 2, 3, ... their points, places past the list
    earn 0; a report whose n is in no band is refused (422, R7) and nothing is stored."""
    bands = [
        {"min_entrants": 3, "max_entrants": 8, "points": [30, 20, 10]},
        {"min_entrants": 9, "max_entrants": 20, "points": [60, 45, 30, 20, 10]},
    ]
    scene = make_scene(points_chart_id=chart_id(league, kind="bands", bands=bands))
    [ace] = scene.players("Ace")
    assert placement(scene.padded([ace], 5)) == [30, 20, 10, 0, 0]
    assert placement(scene.padded([ace], 9)) == [60, 45, 30, 20, 10, 0, 0, 0, 0]
    before = scene.standings()
    listed = public.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}").get_json()["total"]
    # n = 2: a whole report (R4), below every band.
    pair = scene.office.post(TOURNAMENTS, json=scene.body([ace, scene.fillers(1)[0]]))
    assert_problem(pair, 422, "results", rule="R7")
    too_many = scene.office.post(TOURNAMENTS, json=scene.body(scene.fillers(21)))  # n = 21
    assert_problem(too_many, 422, "results", rule="R7")
    assert public.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}").get_json()["total"] == listed == 2
    assert scene.standings() == before
    assert scene.row(ace)["points"] == 90


# R6 statuses and R8 participation ---------------------------------------------------------------


def test_statuses_and_participation_points_r6_r8(public, make_scene):
    """R6, R8 (participation_points 5), default chart n=10 (30/20/10):
    absent 1st -> no placement points (not passed on: 2nd still 20), participation 5;
    declared withdrawal 2nd keeps 20 + 5; played 3rd 10 + 5; no-show 4th earns nothing;
    a withdrawal 6th, before the points round, gets only the participation points."""
    scene = make_scene(participation_points=5)
    gone, quit_, third, ghost, fifth, quit_late = scene.players(
        "Gone", "Quit", "Third", "Ghost", "Fifth", "Late"
    )
    order = [
        (gone, "absent"),
        (quit_, "declared_withdrawal"),
        third,
        (ghost, "no_show"),
        fifth,
        (quit_late, "declared_withdrawal"),
        *scene.fillers(4),
    ]
    report = scene.report(order)
    expected = [
        (1, 0, 5, 5),
        (2, 20, 5, 25),
        (3, 10, 5, 15),
        (4, 0, 0, 0),
        (5, 0, 5, 5),
        (6, 0, 5, 5),
        (7, 0, 5, 5),
        (8, 0, 5, 5),
        (9, 0, 5, 5),
        (10, 0, 5, 5),
    ]
    assert points_by_place(report) == expected
    assert stored(public, report["id"]) == expected
    statuses = {r["place"]: r["status"] for r in report["results"]}
    assert [statuses[p] for p in (1, 2, 3, 4)] == ["absent", "declared_withdrawal", "played", "no_show"]

    rows = {r["player"]["id"]: r for r in scene.rows()}
    pick = (
        "points",
        "placement_points",
        "participation_points",
        "played",
        "wins",
        "points_finishes",
        "best_finish",
    )
    assert [tuple(rows[p][f] for f in pick) for p in (gone, quit_, third, ghost)] == [
        (5, 0, 5, 1, 1, 0, 1),  # absent: played (R8), 1st place, no placement points
        (25, 20, 5, 1, 0, 1, 2),
        (15, 10, 5, 1, 0, 1, 3),
        (0, 0, 0, 0, 0, 0, 4),  # no-show: listed, but no points and not played
    ]


def test_absent_keeps_place_points_season_switch_r6(make_scene):
    """R6: with absent_keeps_place_points on, an absent player keeps the place's points."""
    scene = make_scene(absent_keeps_place_points=True)
    gone, second = scene.players("Gone", "Second")
    report = scene.report([(gone, "absent"), second, *scene.fillers(8)])
    assert placement(report) == [30, 20, 10] + [0] * 7
    assert (scene.row(gone)["points"], scene.row(gone)["points_finishes"]) == (30, 1)


def test_no_show_earns_nothing_even_with_the_switch_on_r6(make_scene):
    """R6: a no-show earns no points of any kind, whatever the season settings, but counts as an
    entrant (n=10 -> three places score)."""
    scene = make_scene(absent_keeps_place_points=True, participation_points=4)
    [ghost] = scene.players("Ghost")
    report = scene.report([(ghost, "no_show"), *scene.fillers(9)])
    assert report["entrants"] == 10
    assert points_by_place(report)[:4] == [(1, 0, 0, 0), (2, 20, 4, 24), (3, 10, 4, 14), (4, 0, 4, 4)]


# R9 attendance bonus and R10 count_best --------------------------------------------------------


def test_attendance_bonus_tiers_r9(make_scene):
    """R9 tiers 3 events -> 10, 5 events -> 25 (given out of order): 5 played -> 25, 3 -> 10,
    2 -> 0; a no-show is not a tournament played. Default chart: n<=4 pays the winner 10."""
    scene = make_scene(attendance_bonus=[{"events": 5, "points": 25}, {"events": 3, "points": 10}])
    f, a, b, c, d = scene.players("Fay", "Amy", "Bob", "Cat", "Dan")
    scene.report([f, a, b, c])
    scene.report([f, a, b, d])
    scene.report([f, a, b, (d, "no_show")])
    scene.report([f, a, c, d])
    scene.report([f, a])
    rows = scene.rows()
    pick = ("points", "placement_points", "bonus_points", "played", "rank")
    got = {r["player"]["id"]: tuple(r[k] for k in pick) for r in rows}
    assert got == {
        f: (75, 50, 25, 5, 1),  # 5 wins x 10 + 25
        a: (25, 0, 25, 5, 2),
        b: (10, 0, 10, 3, 3),
        c: (0, 0, 0, 2, 4),  # two 3rds beat Dan's 4ths (R11 countback)
        d: (0, 0, 0, 2, 5),  # three results, one a no-show: 2 played
    }
    assert [r["player"]["id"] for r in rows] == [f, a, b, c, d]

    # The office changes the tiers: every standing follows at once (R9 is read live).
    assert scene.patch(attendance_bonus=[{"events": 2, "points": 7}]).status_code == 200
    got = {r["player"]["id"]: (r["points"], r["bonus_points"], r["rank"]) for r in scene.rows()}
    assert got == {f: (57, 7, 1), a: (7, 7, 2), b: (7, 7, 3), c: (7, 7, 4), d: (7, 7, 5)}
    assert scene.patch(attendance_bonus=[]).status_code == 200
    assert table(scene.rows()) == [
        (f, 1, False, 50),
        (a, 2, False, 0),
        (b, 3, False, 0),
        (c, 4, False, 0),
        (d, 5, False, 0),
    ]


def test_count_best_r10(make_scene):
    """R10 count_best 2 with participation 5 and a 3-event bonus of 4: totals 35, 25, 15 ->
    35 + 25 + 4 = 64, while placement (60) and participation (15) sum every tournament and the
    bonus counts all three; the office changes count_best and the total follows."""
    scene = make_scene(
        count_best=2,
        participation_points=5,
        attendance_bonus=[{"events": 3, "points": 4}],
    )
    [ann] = scene.players("Ann")
    others = scene.fillers(9)
    scene.report([ann, *others])
    scene.report([others[0], ann, *others[1:]])
    scene.report([others[0], others[1], ann, *others[2:]])
    pick = ("points", "placement_points", "participation_points", "bonus_points", "played")
    assert tuple(scene.row(ann)[k] for k in pick) == (64, 60, 15, 4, 3)
    assert scene.patch(count_best=None).status_code == 200
    assert scene.row(ann)["points"] == 79
    assert scene.patch(count_best=1).status_code == 200
    assert tuple(scene.row(ann)[k] for k in pick) == (39, 60, 15, 4, 3)
    # others[0] (2nd, 1st, 1st: totals 25, 35, 35) also counts only its best 35, plus 4.
    assert tuple(scene.row(others[0])[k] for k in pick) == (39, 80, 15, 4, 3)


# Season changes rescore stored results (R7, R8, R6) ----------------------------------------------


def audit_entries(office: Caller, season_id: int) -> list[dict[str, Any]]:
    response = office.get(f"/api/v1/audit-log?entity=season&entity_id={season_id}&action=season.update")
    assert response.status_code == 200
    entries: list[dict[str, Any]] = response.get_json()["items"]
    return entries


def test_patch_participation_points_rescores_reports_and_standings_r8(scene, office, public):
    """R8: PATCH participation_points 0 -> 3: stored results (GET /tournaments/{id}) and the
    standings show the new points at once, and the change is audited (R18)."""
    [ace] = scene.players("Ace")
    report = scene.padded([ace], 10)
    assert stored(public, report["id"])[:4] == [(1, 30, 0, 30), (2, 20, 0, 20), (3, 10, 0, 10), (4, 0, 0, 0)]
    response = scene.patch(participation_points=3)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["participation_points"] == 3
    assert stored(public, report["id"]) == [(1, 30, 3, 33)] + [
        (p, pts, 3, pts + 3) for p, pts in zip(range(2, 11), [20, 10] + [0] * 7, strict=True)
    ]
    row = scene.row(ace)
    assert (row["points"], row["placement_points"], row["participation_points"]) == (33, 30, 3)
    (entry, *_older) = audit_entries(office, scene.season_id)
    assert (entry["before"]["participation_points"], entry["after"]["participation_points"]) == (0, 3)


def test_patch_points_chart_rescores_and_back_to_default_r7(league, scene, office, public):
    """R7: PATCH points_chart_id to a 50%/step-5 chart: n=10 -> 25, 20, 15, 10, 5 on the stored
    report and in the standings; PATCH it back to null: the default chart's 30, 20, 10 again."""
    ace, bee = scene.players("Ace", "Bee")
    report = scene.padded([ace, bee], 10)
    half = chart_id(league, fraction=0.5, step=5)
    response = scene.patch(points_chart_id=half)
    assert response.status_code == 200, response.get_json()
    assert [p for _pl, p, _pa, _t in stored(public, report["id"])] == [25, 20, 15, 10, 5, 0, 0, 0, 0, 0]
    assert summary(scene.rows(), ace, bee) == [(ace, 1, False, 25), (bee, 2, False, 20)]
    (entry, *_older) = audit_entries(office, scene.season_id)
    assert (entry["before"]["points_chart_id"], entry["after"]["points_chart_id"]) == (None, half)

    assert scene.patch(points_chart_id=None).status_code == 200
    assert [p for _pl, p, _pa, _t in stored(public, report["id"])] == [30, 20, 10] + [0] * 7
    assert summary(scene.rows(), ace, bee) == [(ace, 1, False, 30), (bee, 2, False, 20)]


def test_patch_absent_keeps_place_points_rescores_r6(scene, public):
    """R6: switching absent_keeps_place_points on gives a stored absent 1st place its 30 points
    (and back off takes them away), in the report and in the standings."""
    gone, second = scene.players("Gone", "Second")
    report = scene.report([(gone, "absent"), second, *scene.fillers(8)])
    assert stored(public, report["id"])[:2] == [(1, 0, 0, 0), (2, 20, 0, 20)]
    # Gone's 0 points put them below the 3rd place's 10 (though they have a win).
    assert summary(scene.rows(), gone, second) == [(second, 1, False, 20), (gone, 3, False, 0)]
    assert scene.patch(absent_keeps_place_points=True).status_code == 200
    assert stored(public, report["id"])[:2] == [(1, 30, 0, 30), (2, 20, 0, 20)]
    assert summary(scene.rows(), gone, second) == [(gone, 1, False, 30), (second, 2, False, 20)]
    assert scene.patch(absent_keeps_place_points=False).status_code == 200
    assert stored(public, report["id"])[:2] == [(1, 0, 0, 0), (2, 20, 0, 20)]


def test_patch_to_bands_chart_without_a_band_for_a_report_is_refused_r7(league, scene, office, public):
    """R7: a PATCH to a bands chart with no band for an existing report's entrant count (10) is
    refused (422, naming points_chart_id) and changes nothing: not the season (nor the other
    setting in the same PATCH), not the stored points, not the standings, not the audit log."""
    [ace] = scene.players("Ace")
    report = scene.padded([ace], 10)
    small = chart_id(
        league, kind="bands", bands=[{"min_entrants": 2, "max_entrants": 8, "points": [30, 20, 10]}]
    )
    season_before = public.get(f"{SEASONS}/{scene.season_id}").get_json()
    points_before = stored(public, report["id"])
    standings_before = scene.standings()
    audited_before = len(audit_entries(office, scene.season_id))

    response = scene.patch(points_chart_id=small, participation_points=9)
    assert_problem(response, 422, "points_chart_id", rule="R7")

    assert public.get(f"{SEASONS}/{scene.season_id}").get_json() == season_before
    assert season_before["points_chart_id"] is None and season_before["participation_points"] == 0
    assert stored(public, report["id"]) == points_before
    assert points_before[0] == (1, 30, 0, 30)
    assert scene.standings() == standings_before
    assert len(audit_entries(office, scene.season_id)) == audited_before

    # A bands chart that does cover 10 entrants is taken, and rescores.
    fits = chart_id(
        league, kind="bands", bands=[{"min_entrants": 2, "max_entrants": 12, "points": [40, 25, 15, 5]}]
    )
    assert scene.patch(points_chart_id=fits).status_code == 200
    assert [p for _pl, p, _pa, _t in stored(public, report["id"])][:5] == [40, 25, 15, 5, 0]
    assert scene.row(ace)["points"] == 40


def test_voided_report_does_not_block_a_chart_change_r7(league, scene, office, public):
    """R7, R17: a voided report counts nowhere, so a chart without a band for its entrant count
    can still be chosen; the live report is rescored."""
    [ace] = scene.players("Ace")
    live = scene.padded([ace], 5)
    dead = scene.padded([ace], 10)
    voided = office.post(f"{TOURNAMENTS}/{dead['id']}/void", json={"reason": "wrong venue"})
    assert voided.status_code == 200, voided.get_json()
    small = chart_id(
        league, kind="bands", bands=[{"min_entrants": 2, "max_entrants": 8, "points": [30, 20, 10]}]
    )
    response = scene.patch(points_chart_id=small)
    assert response.status_code == 200, response.get_json()
    assert [p for _pl, p, _pa, _t in stored(public, live["id"])] == [30, 20, 10, 0, 0]
    assert scene.row(ace)["points"] == 30


# The standings body (R11) -------------------------------------------------------------------------


def five_player_season(scene: Scene) -> list[int]:
    """Default chart: n=5 -> k=2 -> 20, 10; n=4 -> k=1 -> 10.

    20 days ago (n=5): Ann, Ben, Cal, Dee, Eve
    10 days ago (n=5): Ben, Cal, Ann, Eve, Dee
     5 days ago (n=4): Ann, Dee, Ben (no-show), Cal
    """
    ann, ben, cal, dee, eve = scene.players("Ann", "Ben", "Cal", "Dee", "Eve")
    scene.report([ann, ben, cal, dee, eve], day=days_ago(20))
    scene.report([ben, cal, ann, eve, dee], day=days_ago(10))
    scene.report([ann, dee, (ben, "no_show"), cal], day=days_ago(5))
    return [ann, ben, cal, dee, eve]


def test_standings_body_and_every_row_field_r11(scene):
    """R11: every field of every row, hand-worked; body season_id, venue_id, as_of (today),
    tournaments and average_attendance (14 entrants / 3 = 4.67). Ann and Ben have 30 each:
    Ann's 2 wins beat Ben's 1 (step 2); Dee and Eve have 0: Dee's 2nd place decides (step 3)."""
    ann, ben, cal, dee, eve = five_player_season(scene)
    body = scene.standings()
    assert {k: body[k] for k in ("season_id", "venue_id", "as_of", "tournaments", "average_attendance")} == {
        "season_id": scene.season_id,
        "venue_id": scene.venue_id,
        "as_of": utc_today().isoformat(),
        "tournaments": 3,
        "average_attendance": 4.67,
    }

    def row(rank, pid, name, points, played, wins, finishes, best, average):
        return {
            "rank": rank,
            "tied": False,
            "player": {"id": pid, "display_name": name, "label": name},
            "points": points,
            "placement_points": points,
            "participation_points": 0,
            "bonus_points": 0,
            "played": played,
            "wins": wins,
            "points_finishes": finishes,
            "best_finish": best,
            "average_finish": average,
        }

    assert [{k: r[k] for k in ROW_FIELDS} for r in body["standings"]] == [
        row(1, ann, "Ann", 30, 3, 2, 2, 1, 1.67),  # places 1, 3, 1
        row(2, ben, "Ben", 30, 2, 1, 2, 1, 2),  # places 2, 1, 3 (no-show: not played)
        row(3, cal, "Cal", 10, 3, 0, 1, 2, 3),  # places 3, 2, 4
        row(4, dee, "Dee", 0, 3, 0, 0, 2, 3.67),  # places 4, 5, 2
        row(5, eve, "Eve", 0, 2, 0, 0, 4, 4.5),  # places 5, 4
    ]


def test_as_of_gives_the_standings_after_that_days_tournaments_r11(scene):
    """R11: as_of a past date counts the tournaments up to and including that day."""
    ann, ben, cal, dee, eve = five_player_season(scene)
    on_day = scene.standings(f"?as_of={ago(10)}")
    assert (on_day["as_of"], on_day["tournaments"], on_day["average_attendance"]) == (ago(10), 2, 5)
    # Ben 30 (a win), Ann 20 (a win; fewer points), Cal 10; Dee and Eve level on every step
    # (a 4th and a 5th each, 0 points, 2 played): T4, listed by display name.
    assert table(on_day["standings"]) == [
        (ben, 1, False, 30),
        (ann, 2, False, 20),
        (cal, 3, False, 10),
        (dee, 4, True, 0),
        (eve, 4, True, 0),
    ]
    day_before = scene.standings(f"?as_of={ago(11)}")
    assert day_before["tournaments"] == 1
    assert table(day_before["standings"]) == [
        (ann, 1, False, 20),
        (ben, 2, False, 10),
        (cal, 3, False, 0),
        (dee, 4, False, 0),
        (eve, 5, False, 0),
    ]
    before_any = scene.standings(f"?as_of={ago(21)}")
    assert (before_any["tournaments"], before_any["average_attendance"]) == (0, 0)
    assert before_any["standings"] == []


# R11's order, one step at a time ------------------------------------------------------------------


@pytest.fixture()
def binder(league: League, make_scene: MakeScene) -> Scene:
    """A season scoring with TWO_BANDS: n<=6 -> 30, 20, 10; n>=7 -> 50, 40, 30, 20, 10."""
    return make_scene(points_chart_id=chart_id(league, kind="bands", bands=TWO_BANDS))


def test_step1_total_points_decide_r11(binder):
    """R11 step 1: more total points ranks higher, though the other has more wins."""
    scene = binder
    a, b = scene.players("Ann", "Bob")
    f1, f2 = scene.fillers(2)
    scene.report([b, f1, f2])  # Bob 30 (a win), f1 20, f2 10
    scene.report([f1, a, f2])  # f1 30, Ann 20, f2 10
    scene.report([f2, a, f1])  # f2 30, Ann 20 (40, no win), f1 10
    assert table(scene.rows()) == [
        (f1, 1, False, 60),
        (f2, 2, False, 50),
        (a, 3, False, 40),
        (b, 4, False, 30),
    ]


def test_step2_wins_decide_r11(binder):
    """R11 step 2: Ann and Bob have 30; Ann has a win, Bob none (countback would favour Bob:
    he has a 2nd, Ann none)."""
    scene = binder
    a, b, w = scene.players("Ann", "Bob", "Win")
    [f1] = scene.fillers(1)
    scene.report([a, b, w, f1])  # Ann 30, Bob 20, Win 10
    scene.report([w, f1, b, a])  # Win 30, f1 20, Bob 10, Ann 0
    assert table(scene.rows())[:4] == [
        (w, 1, False, 40),
        (a, 2, False, 30),
        (b, 3, False, 30),
        (f1, 4, False, 20),
    ]
    rows = {r["player"]["id"]: r for r in scene.rows()}
    assert (rows[a]["wins"], rows[b]["wins"]) == (1, 0)


def test_step3_countback_second_places_decide_r11(binder):
    """R11 step 3: Ann (two 2nds in small fields: 20 + 20) and Bob (3rd small 10 + 3rd big 30)
    have 40 and no wins; Ann's 2nd places decide (the best single total would favour Bob)."""
    scene = binder
    a, b, lee, nat = scene.players("Ann", "Bob", "Lee", "Nat")
    f = scene.fillers(5)
    scene.report([lee, a, b, f[0]])  # small: Lee 30, Ann 20, Bob 10
    scene.report([lee, a, f[0], f[1]])  # small: Lee 30, Ann 20
    scene.report([nat, lee, b, f[0], f[1], f[2], f[3]])  # big: Nat 50, Lee 40, Bob 30, f0 20, f1 10
    assert summary(scene.rows(), lee, nat, a, b) == [
        (lee, 1, False, 100),
        (nat, 2, False, 50),
        (a, 3, False, 40),
        (b, 4, False, 40),
    ]


def test_step3_countback_third_places_when_seconds_level_r11(binder):
    """R11 step 3: Ann (2nd small 20 + 3rd big 30) and Bob (2nd big 40 + 5th big 10) have 50,
    no wins and one 2nd each; Ann's 3rd place decides (best single would favour Bob)."""
    scene = binder
    a, b, lee, nat = scene.players("Ann", "Bob", "Lee", "Nat")
    f = scene.fillers(6)
    scene.report([lee, a, f[0], f[1]])  # small: Lee 30, Ann 20, f0 10
    scene.report([nat, b, a, f[2], f[3], f[4], f[5]])  # big: Nat 50, Bob 40, Ann 30, f2 20, f3 10
    scene.report([nat, lee, f[4], f[5], b, f[0], f[1]])  # big: Nat 50, Lee 40, f4 30, f5 20, Bob 10
    assert summary(scene.rows(), lee, nat, a, b) == [
        (nat, 1, False, 100),
        (lee, 2, False, 70),
        (a, 3, False, 50),
        (b, 4, False, 50),
    ]


def test_step3_countback_runs_past_the_scoring_places_r11(binder):
    """R11 step 3, 'through every place': in a field of 6 (30/20/10), 4th, 5th and 6th all have
    0 points and no wins; they are ordered by their places."""
    scene = binder
    w, x, y, z, a, b = scene.players("Zed", "Yan", "Xia", "Wes", "Vic", "Uma")
    scene.report([w, x, y, z, a, b])
    assert table(scene.rows()) == [
        (w, 1, False, 30),
        (x, 2, False, 20),
        (y, 3, False, 10),
        (z, 4, False, 0),
        (a, 5, False, 0),
        (b, 6, False, 0),
    ]


def test_step4_best_single_total_decides_r11(binder):
    """R11 step 4: Ann (win big 50 + 3rd small 10) and Bob (3rd big 30 + win small 30) have 60,
    a 1st, a 3rd and a 5th each; Ann's best single total, 50, beats Bob's 30, though Bob played
    more (Ann's 5th was a no-show)."""
    scene = binder
    a, b, x, y = scene.players("Ann", "Bob", "Xen", "Yul")
    f = scene.fillers(4)
    scene.report([a, x, b, *f])  # big (7): Ann 50, Xen 40, Bob 30, f0 20, f1 10
    scene.report([b, y, a, f[0]])  # small (4): Bob 30, Yul 20, Ann 10
    scene.report([*f, b])  # small (5): f0 30, f1 20, f2 10, Bob 0
    scene.report([*f, (a, "no_show")])  # small (5): f0 30, f1 20, f2 10, Ann 0
    rows = scene.rows()
    assert summary(rows, a, b, x, y) == [
        (a, 2, False, 60),
        (b, 3, False, 60),
        (x, 5, False, 40),
        (y, 6, False, 20),
    ]
    by_id = {r["player"]["id"]: r for r in rows}
    assert [(by_id[p]["wins"], by_id[p]["best_finish"], by_id[p]["played"]) for p in (a, b)] == [
        (1, 1, 2),
        (1, 1, 3),
    ]
    assert (by_id[f[0]]["rank"], by_id[f[0]]["points"]) == (1, 80)


def test_step5_tournaments_played_decide_r11(binder):
    """R11 step 5: Ann and Bob each have a win (30) and a 4th; Bob's 4th was a no-show, so Ann
    played 2 and Bob 1."""
    scene = binder
    a, b, s, t = scene.players("Ann", "Bob", "Sue", "Tom")
    scene.report([a, s, t, (b, "no_show")])  # Ann 30, Sue 20, Tom 10
    scene.report([b, s, t, a])  # Bob 30, Sue 20, Tom 10
    rows = scene.rows()
    assert table(rows) == [
        (s, 1, False, 40),
        (a, 2, False, 30),
        (b, 3, False, 30),
        (t, 4, False, 20),
    ]
    by_id = {r["player"]["id"]: r for r in rows}
    assert (by_id[a]["played"], by_id[b]["played"]) == (2, 1)


def test_still_level_share_the_rank_listed_by_name_then_id_r11(binder):
    """R11: players level after all five steps share the rank (1, 2, 2, 4 with tied=true) and
    are listed by display name (Abe before Zed, though Zed's id is lower), then by player id
    (two "Sam K."s)."""
    scene = binder
    zed, abe, sue, tom = scene.players("Zed", "Abe", "Sue", "Tom")
    scene.report([zed, sue, tom])  # Zed 30, Sue 20, Tom 10
    scene.report([abe, sue, tom])  # Abe 30, Sue 20, Tom 10
    assert zed < abe
    assert table(scene.rows()) == [
        (sue, 1, False, 40),
        (abe, 2, True, 30),
        (zed, 2, True, 30),
        (tom, 4, False, 20),
    ]
    sam_1, sam_2 = scene.players("Sam K.", "Sam K.")
    scene.report([sam_2, sue, tom])
    scene.report([sam_1, sue, tom])
    assert table(scene.rows()) == [
        (sue, 1, False, 80),
        (tom, 2, False, 40),
        (abe, 3, True, 30),
        (sam_1, 3, True, 30),
        (sam_2, 3, True, 30),
        (zed, 3, True, 30),
    ]


# CSV, ETag -----------------------------------------------------------------------------------------


def test_csv_has_the_same_rows_r11(scene, public):
    """R11: Accept: text/csv (or ?format=csv) gives the same rows as the JSON."""
    five_player_season(scene)
    rows = scene.rows()
    for response in (
        public.get(scene.path(), headers={"Accept": "text/csv"}),
        public.get(scene.path() + "?format=csv"),
        public.get(scene.path() + "?format=csv", headers={"Accept": "application/json"}),
    ):
        assert response.status_code == 200
        assert response.mimetype == "text/csv"
        lines = list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
        assert [
            (
                int(line["rank"]),
                line["tied"] == "T",
                int(line["player_id"]),
                line["display_name"],
                int(line["points"]),
                int(line["placement_points"]),
                int(line["participation_points"]),
                int(line["bonus_points"]),
                int(line["played"]),
                int(line["wins"]),
                int(line["points_finishes"]),
                int(line["best_finish"]),
                Decimal(line["average_finish"]),
            )
            for line in lines
        ] == [
            (
                r["rank"],
                r["tied"],
                r["player"]["id"],
                r["player"]["display_name"],
                r["points"],
                r["placement_points"],
                r["participation_points"],
                r["bonus_points"],
                r["played"],
                r["wins"],
                r["points_finishes"],
                r["best_finish"],
                Decimal(str(r["average_finish"])),
            )
            for r in rows
        ]
        assert [line["display_name"] for line in lines] == ["Ann", "Ben", "Cal", "Dee", "Eve"]
    json_answer = public.get(scene.path(), headers={"Accept": "application/json"})
    assert json_answer.mimetype == "application/json"


def test_csv_as_of_r11(scene, public):
    """R11: the CSV honours as_of like the JSON."""
    ann, ben, *_ = five_player_season(scene)
    response = public.get(scene.path() + f"?as_of={ago(11)}", headers={"Accept": "text/csv"})
    lines = list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    assert [(line["player_id"], line["points"]) for line in lines][:2] == [(str(ann), "20"), (str(ben), "10")]


def test_etag_changes_whenever_the_standings_can_r11(scene, public):
    """R11: an ETag; If-None-Match with the current one -> 304; another report, a season
    setting change or a void -> a different ETag (and the old one gets a 200); Vary: Accept."""
    ace, bee = scene.players("Ace", "Bee")
    first = scene.report([ace, bee])
    answer = public.get(scene.path())
    etag = answer.headers["ETag"]
    assert etag
    unchanged = public.get(scene.path(), headers={"If-None-Match": etag})
    assert unchanged.status_code == 304

    seen = {etag}

    def next_etag() -> str:
        response = public.get(scene.path(), headers={"If-None-Match": " , ".join(sorted(seen))})
        assert response.status_code == 200
        new = response.headers["ETag"]
        assert new not in seen
        seen.add(new)
        return new

    scene.report([bee, ace])
    next_etag()
    assert scene.patch(attendance_bonus=[{"events": 2, "points": 5}]).status_code == 200
    next_etag()
    assert scene.office.post(f"{TOURNAMENTS}/{first['id']}/void", json={"reason": "test"}).status_code == 200
    current = next_etag()
    assert public.get(scene.path(), headers={"If-None-Match": current}).status_code == 304
    csv_answer = public.get(scene.path(), headers={"Accept": "text/csv"})
    assert csv_answer.headers["ETag"] not in seen
    # JSON and CSV share the URL, so a cache must key on Accept too.
    for response in (csv_answer, public.get(scene.path())):
        assert "accept" in {v.strip().lower() for v in response.headers["Vary"].split(",")}


# What counts: voids (R17), kinds (R3), venues (R1), coverage -------------------------------------------


def test_voided_reports_count_nowhere_r11(scene, office):
    """R11, R17: a voided report is in no standing, count or average."""
    ace, bee, cat = scene.players("Ace", "Bee", "Cat")
    scene.report([ace, bee, cat])
    second = scene.report([cat, bee, ace, *scene.fillers(3)])
    assert (scene.standings()["tournaments"], scene.standings()["average_attendance"]) == (2, 4.5)
    response = office.post(f"{TOURNAMENTS}/{second['id']}/void", json={"reason": "entered twice"})
    assert response.status_code == 200, response.get_json()
    body = scene.standings()
    assert (body["tournaments"], body["average_attendance"]) == (1, 3)
    assert table(body["standings"]) == [(ace, 1, False, 10), (bee, 2, False, 0), (cat, 3, False, 0)]


def test_playoff_and_championship_reports_do_not_count_r3(office, make_scene):
    """R3: only regular tournaments count for venue standings; a playoff and a championship of
    the season (held after its last day) change nothing."""
    scene = make_scene(ends_on=ago(20), championship_date=ago(5))
    ace, bee, cat = scene.players("Ace", "Bee", "Cat")
    scene.report([ace, bee, cat, *scene.fillers(7)])
    before = scene.standings()
    assert table(before["standings"])[:3] == [(ace, 1, False, 30), (bee, 2, False, 20), (cat, 3, False, 10)]
    for kind, day in (("playoff", days_ago(10)), ("championship", days_ago(5))):
        # The office's, with a reason: the playoff is past a host's 7 days (R17).
        body = scene.body([bee, ace], day=day, kind=kind, season_id=scene.season_id, reason=OFFICE_LATE)
        response = office.post(TOURNAMENTS, json=body)
        assert response.status_code == 201, response.get_json()
        assert response.get_json()["kind"] == kind
    assert scene.standings() == before


def test_points_never_cross_venues_r1(league, office, make_scene):
    """R1: a player at three venues of the season's region has three independent rows."""
    scene = make_scene()
    venues = [scene.venue, league.venue(scene.region["id"]), league.venue(scene.region["id"])]
    [ace] = scene.players("Ace")
    fillers = scene.fillers(6)
    day = days_ago(3)
    # Same day, three venues. n=4 -> the winner gets 10; n=7 -> 20, 10.
    for order, venue in (
        ([ace, *fillers[:3]], venues[0]),
        ([ace, *fillers], venues[1]),
        ([fillers[0], ace, *fillers[1:]], venues[2]),
    ):
        response = office.post(TOURNAMENTS, json=scene.body(order, day=day, venue_id=venue["id"]))
        assert response.status_code == 201, response.get_json()
    got = []
    for venue in venues:
        body = scene.standings(venue_id=venue["id"])
        (row,) = [r for r in body["standings"] if r["player"]["id"] == ace]
        got.append(
            (body["venue_id"], body["tournaments"], row["rank"], row["points"], row["played"], row["wins"])
        )
    assert got == [
        (venues[0]["id"], 1, 1, 10, 1, 1),
        (venues[1]["id"], 1, 1, 20, 1, 1),
        (venues[2]["id"], 1, 2, 10, 1, 0),
    ]


def test_season_not_covering_the_venue_is_404_r1(league, scene, public):
    """R1, R2: standings exist only for a season that covers the venue's region; unknown ids 404."""
    elsewhere = league.venue(league.region()["id"])
    assert_problem(public.get(scene.path(venue_id=elsewhere["id"])), 404)
    assert_problem(public.get(f"{SEASONS}/{scene.season_id}/venues/999999/standings"), 404)
    assert_problem(public.get(f"{SEASONS}/999999/venues/{scene.venue_id}/standings"), 404)
    # A season that names no region covers every venue: empty standings, not a 404.
    everywhere = league.season(starts_on="2024-01-01", ends_on="2024-02-01")
    response = public.get(f"{SEASONS}/{everywhere['id']}/venues/{elsewhere['id']}/standings")
    assert response.status_code == 200
    assert (response.get_json()["tournaments"], response.get_json()["standings"]) == (0, [])


def test_player_page_lists_each_venue_season_separately_r1_r11(scene, league):
    """R1, R11: a player's page shows one record per (season, venue) with the rank there and
    every live result; a voided report is not among them."""
    players = scene.add_players(3)
    kept = scene.posted(scene.body(players, day=days_ago(3)))
    voided = scene.posted(scene.body(players[::-1], day=days_ago(2)))
    scene.office.post(f"{TOURNAMENTS}/{voided['id']}/void", json={"reason": "test"})
    page = scene.public.get(f"/api/v1/players/{players[0]}").get_json()
    assert [(s["season_id"], s["venue_id"], s["rank"]) for s in page["seasons"]] == [
        (scene.season["id"], scene.venue_id, 1)
    ]
    record = page["seasons"][0]
    assert [r["tournament_id"] for r in record["results"]] == [kept["id"]]
    assert record["results"][0]["place"] == 1 and record["points"] == record["results"][0]["points"]
    assert "email" not in page


def test_standings_rebuild_recomputes_lines_written_behind_the_services_back_r9_r10_r11(
    make_scene: MakeScene, runner: Any, db_session: Any
) -> None:
    """R9-R11: standings are read from stored sums. A result changed by hand in SQL (as a bulk
    import would) leaves them behind until `flask --app app standings rebuild`, which recomputes
    every line from the results: the standings then rank as the results say."""
    scene = make_scene(attendance_bonus=[{"events": 2, "points": 7}])
    ann, bob = scene.players("Ann", "Bob")
    scene.padded([ann, bob], 6)
    scene.padded([ann, bob], 6, day=days_ago(3))
    before = {row["player"]["id"]: row["points"] for row in scene.standings()["standings"]}
    raise_points = "UPDATE results SET placement_points = placement_points + 100, points = points + 100"
    db_session.execute(text(f"{raise_points} WHERE player_id = :p"), {"p": bob})
    db_session.commit()
    stale = {row["player"]["id"]: row["points"] for row in scene.standings()["standings"]}
    assert stale == before  # the stored lines do not see a change made behind the services' back
    outcome = runner.invoke(args=["standings", "rebuild", "--season", str(scene.season_id)])
    assert outcome.exit_code == 0, outcome.output
    assert "Standing lines rebuilt" in outcome.output
    rows = scene.standings()["standings"]
    assert [row["player"]["id"] for row in rows[:1]] == [bob]
    assert {row["player"]["id"]: row["points"] for row in rows}[bob] == before[bob] + 200
