"""R8a through the API: who knocked each player out, checked against the report (an entrant who
finished higher; the winner has none; a 422 naming results.N.knocked_out_by, storing nothing);
knockout and bounty points, off by default, part of the result's points and of the standings
(API and CSV), worked by hand; a correction that moves a knockout, and one that moves the
leader a later night's bounty was on; a merge of a knocker; a spreadsheet's "KO by" column;
a season's settings changed mid-season, with a reason, audited."""

from __future__ import annotations

import csv
import io
from typing import Any

from tests.builders import OFFICE_LATE, TOURNAMENTS, Scene, days_ago, iso
from tests.support.league import assert_problem

KO = {"knockout_points": 10, "bounty": "venue_leader", "bounty_points": 25}


def linear(make_scene: Any, **season: Any) -> Scene:
    """Every place scores n - p + 1 (no participation points): easy to add by hand."""
    scene: Scene = make_scene(**season)
    chart = scene.league.chart(kind="formula", formula="n - p + 1", fraction=1)["id"]
    assert scene.patch(points_chart_id=chart).status_code == 200
    return scene


def night(
    scene: Scene, order: list[int], knocked: dict[int, int], day: int, caller: Any = None
) -> dict[str, Any]:
    """A report placing `order` 1, 2, …, each player in `knocked` out by the one it names."""
    body = scene.body(order, days_ago(day), reason=OFFICE_LATE)
    for row in body["results"]:
        if row["player_id"] in knocked:
            row["knocked_out_by"] = knocked[row["player_id"]]
    return scene.posted(body, caller or scene.office)


def table(scene: Scene) -> list[tuple[int, int, int, int, int]]:
    """(player, rank, points, knockout points, knockouts) of each standings row."""
    return [
        (r["player"]["id"], r["rank"], r["points"], r["knockout_points"], r["knockouts"])
        for r in scene.rows()
    ]


def test_r8a_knockouts_and_a_venue_leader_bounty_count_in_the_standings_worked_by_hand(
    make_scene: Any,
) -> None:
    scene = linear(make_scene, **KO)
    a, b, c, d = scene.players("Ann A.", "Bea B.", "Cal C.", "Dee D.")
    # Night 1, 4 entrants (4, 3, 2, 1): Ann knocked out Dee and Bea (+20), Bea knocked out Cal
    # (+10). Nobody led before it: no bounty. Ann 24, Bea 13, Cal 2, Dee 1.
    first = night(scene, [a, b, c, d], {d: a, c: b, b: a}, 20)
    by_player = {r["player"]["id"]: r for r in first["results"]}
    assert (by_player[a]["knockouts"], by_player[a]["knockout_points"], by_player[a]["points"]) == (2, 20, 24)
    assert by_player[b]["knocked_out_by"] == a and by_player[a]["knocked_out_by"] is None
    # Night 2: Cal 4, Dee 3, Bea 2, Ann 1. Dee knocked out Ann, the leader: 10 + the bounty 25;
    # Cal knocked out Bea and Dee: +20. Cal 24, Dee 38, Bea 2, Ann 1.
    second = night(scene, [c, d, b, a], {a: d, b: c, d: c}, 19)
    points = {r["player"]["id"]: r["knockout_points"] for r in second["results"]}
    assert points == {c: 20, d: 35, b: 0, a: 0}
    # Night 3 without Dee, the leader now: the bounty is not carried. Ann 3 + 20, Bea 2, Cal 1.
    night(scene, [a, b, c], {c: a, b: a}, 18)
    assert table(scene) == [
        (a, 1, 48, 40, 4),
        (d, 2, 39, 35, 1),
        (c, 3, 27, 20, 2),
        (b, 4, 17, 10, 1),
    ]
    # The CSV says the same.
    text = scene.public.get(scene.path() + "?format=csv", headers={"Accept": "text/csv"}).get_data(
        as_text=True
    )
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [
        (int(r["player_id"]), int(r["points"]), int(r["knockout_points"]), int(r["knockouts"])) for r in rows
    ] == [
        (a, 48, 40, 4),
        (d, 39, 35, 1),
        (c, 27, 20, 2),
        (b, 17, 10, 1),
    ]

    # R17: night 1 corrected, Bea its winner and every knockout hers: Bea 4 + 30, Ann 3. She led
    # before night 2 then, so Cal, who knocked her out that night, takes the bounty (20 + 25),
    # and Dee's knockout of Ann is worth 10 only.
    url = f"{TOURNAMENTS}/{first['id']}"
    corrected = scene.office.put(
        url,
        json={
            "results": [
                {"place": 1, "player_id": b},
                {"place": 2, "player_id": a, "knocked_out_by": b},
                {"place": 3, "player_id": c, "knocked_out_by": b},
                {"place": 4, "player_id": d, "knocked_out_by": b},
            ],
            "reason": "The host swapped the top two.",
        },
    )
    assert corrected.status_code == 200, corrected.get_json()
    # Night 3: Cal led before it (51), and Ann knocked him out: 20 + 25. Ann 3 + 1 + 48 = 52,
    # Cal 2 + 49 + 1 = 52 (level: one win each; on countback Ann's 2nd beats Cal's none),
    # Bea 34 + 2 + 2 = 38, Dee 1 + 13 = 14.
    assert table(scene) == [
        (a, 1, 52, 45, 2),
        (c, 2, 52, 45, 2),
        (b, 3, 38, 30, 3),
        (d, 4, 14, 10, 1),
    ]
    second_now = scene.public.get(f"{TOURNAMENTS}/{second['id']}").get_json()
    assert {r["player"]["id"]: r["points"] for r in second_now["results"]} == {c: 49, d: 13, b: 2, a: 1}


def test_r8a_a_knockout_names_an_entrant_who_finished_higher_else_422_and_nothing_is_stored(
    make_scene: Any,
) -> None:
    scene = linear(make_scene, **KO)
    a, b, c, stranger = scene.players("Ann A.", "Bea B.", "Cal C.", "Stu S.")
    body = scene.body([a, b, c], days_ago(2))
    body["results"][0]["knocked_out_by"] = b  # the winner
    body["results"][1]["knocked_out_by"] = c  # finished lower
    body["results"][2]["knocked_out_by"] = stranger  # not an entrant
    refused = scene.post(body)
    said = assert_problem(
        refused,
        422,
        "results.0.knocked_out_by",
        "results.1.knocked_out_by",
        "results.2.knocked_out_by",
        rule="R8a",
    )
    assert "finished 3rd, not higher than 2nd" in str(said["errors"]["results.1.knocked_out_by"])
    themselves = scene.body([a, b, c], days_ago(2))
    themselves["results"][2]["knocked_out_by"] = c
    assert_problem(scene.post(themselves), 422, "results.2.knocked_out_by", rule="R8a")
    twice = scene.body([a, b, c], days_ago(2))
    twice["results"][2] |= {"knocked_out_by": a, "knocked_out_by_place": 1}
    assert_problem(scene.post(twice), 422, "results.2.knocked_out_by")
    assert scene.stored_reports() == 0
    # By place, or by name: the same knocker.
    by_place = scene.body([a, b, c], days_ago(2))
    by_place["results"][2]["knocked_out_by_place"] = 1
    by_place["results"][1]["knocked_out_by_name"] = "ann a."
    stored = scene.posted(by_place)
    assert [r["knocked_out_by"] for r in stored["results"]] == [None, a, a]


def test_r8a_r6_a_no_show_knocks_no_one_out_of_a_report_422_and_nothing_is_stored(make_scene: Any) -> None:
    """R8a: a row whose knocker is a no_show (who never played a hand, R6) is refused at
    `results.N.knocked_out_by`, whichever way the knocker is named; nothing is stored. An
    absent knocker still counts (they played before leaving)."""
    scene = linear(make_scene, **KO)
    a, b, c, d = scene.players("Ann A.", "Bea B.", "Cal C.", "Dee D.")
    body = scene.body([a, (b, "no_show"), c, d], days_ago(2))
    body["results"][3]["knocked_out_by"] = b
    refused = assert_problem(scene.post(body), 422, "results.3.knocked_out_by", rule="R8a")
    said = str(refused["errors"]["results.3.knocked_out_by"])
    assert "no_show" in said and "never played" in said, said
    by_place = scene.body([a, (b, "no_show"), c, d], days_ago(2))
    by_place["results"][2]["knocked_out_by_place"] = 2
    assert_problem(scene.post(by_place), 422, "results.2.knocked_out_by", rule="R8a")
    by_name = scene.body([a, (b, "no_show"), c, d], days_ago(2))
    by_name["results"][3]["knocked_out_by_name"] = "bea b."
    assert_problem(scene.post(by_name), 422, "results.3.knocked_out_by", rule="R8a")
    assert scene.stored_reports() == 0
    absent = scene.body([a, (b, "absent"), c, d], days_ago(2))
    absent["results"][3]["knocked_out_by"] = b
    stored = scene.posted(absent)
    assert [r["knocked_out_by"] for r in stored["results"]] == [None, None, None, b]


def test_r8a_off_by_default_knockouts_are_kept_and_no_standing_moves(make_scene: Any) -> None:
    scene = linear(make_scene)
    a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
    night(scene, [a, b, c], {b: a, c: a}, 5)
    assert table(scene) == [(a, 1, 3, 0, 2), (b, 2, 2, 0, 0), (c, 3, 1, 0, 0)]


def test_r8a_r6_an_absent_player_keeps_the_knockouts_made_before_leaving(make_scene: Any) -> None:
    scene = linear(make_scene, knockout_points=10)
    a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
    # Bea knocked Cal out, then left without a word (absent: no placement points, R6).
    night(scene, [a, (b, "absent"), c], {c: b}, 5)
    assert table(scene) == [(b, 1, 10, 10, 1), (a, 2, 3, 0, 0), (c, 3, 1, 0, 0)]


def test_r8a_a_last_winner_bounty_and_settings_changed_mid_season_with_a_reason(make_scene: Any) -> None:
    scene = linear(make_scene)
    a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
    night(scene, [a, b, c], {c: b, b: a}, 10)  # Ann wins
    night(scene, [c, b, a], {a: c, b: c}, 9)  # Cal knocks Ann, last week's winner, out
    assert sorted(points for _pid, _rank, points, _ko, _n in table(scene)) == [4, 4, 4]  # off: no move
    without = scene.office.patch(
        f"/api/v1/seasons/{scene.season_id}", json={"bounty": "last_winner", "bounty_points": 25}
    )
    assert without.status_code == 422 and "reason" in without.get_json()["errors"]
    changed = scene.patch(bounty="last_winner", bounty_points=25, knockout_points=5)
    assert changed.status_code == 200, changed.get_json()
    # Night 1: Ann 3 + 5, Bea 2 + 5, Cal 1. Night 2: Cal 3 + 10 + 25, Bea 2, Ann 1.
    assert table(scene) == [(c, 1, 39, 35, 2), (a, 2, 9, 5, 1), (b, 3, 9, 5, 1)]
    audit = scene.office.get(f"/api/v1/audit-log?entity=season&entity_id={scene.season_id}").get_json()
    assert any(e["after"].get("bounty") == "last_winner" for e in audit["items"] if e.get("after"))


def test_r8a_r17_a_merge_moves_the_knockouts_to_the_survivor(make_scene: Any) -> None:
    scene = linear(make_scene, knockout_points=10)
    a, twin, b, c = scene.players("Ann A.", "Ann A", "Bea B.", "Cal C.")
    night(scene, [twin, b, c], {b: twin, c: twin}, 10)  # the twin: 3 + 20
    night(scene, [a, b, c], {b: a}, 9)  # Ann: 3 + 10
    merged = scene.office.post(
        f"/api/v1/players/{a}/merge", json={"duplicate_id": twin, "reason": "The same Ann."}
    )
    assert merged.status_code == 200, merged.get_json()
    assert table(scene)[0] == (a, 1, 36, 30, 3)
    first = scene.office.get(f"{TOURNAMENTS}?venue_id={scene.venue_id}").get_json()["items"][-1]
    assert {r["player"]["id"]: r["knocked_out_by"] for r in first["results"]} == {a: None, b: a, c: a}


def test_r8a_a_spreadsheets_knocked_out_by_column_names_the_knocker_as_a_row_does(make_scene: Any) -> None:
    """R8a, R19: the column names a knocker by what the knocker's own row gave (here its player
    number) or by the public display name; never by a stored personal value the sheet did not
    give (tests/api/reports/test_knocker_probes.py)."""
    scene = linear(make_scene, knockout_points=10)
    a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
    sheet = "\n".join(
        [
            "Place,Player ID,KO by",
            f"1,{a},",
            f"2,{b},ANN A.",
            f"3,{c},{a}",
        ]
    )
    query = f"venue_id={scene.venue_id}&date={iso(days_ago(2))}"
    stored = scene.host.post(f"{TOURNAMENTS}?{query}", data=sheet.encode(), content_type="text/csv")
    assert stored.status_code == 201, stored.get_json()
    assert [r["knocked_out_by"] for r in stored.get_json()["results"]] == [None, a, a]
    wrong = sheet.replace(f"3,{c},{a}", f"3,{c},Nobody Known")
    refused = scene.host.post(
        f"{TOURNAMENTS}?venue_id={scene.venue_id}&date={iso(days_ago(3))}",
        data=wrong.encode(),
        content_type="text/csv",
    )
    assert refused.status_code == 422
    assert "'Nobody Known' names no entrant of this report" in str(refused.get_json())
    assert "KO by" in str(refused.get_json())
