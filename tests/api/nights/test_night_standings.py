"""R22: the venue's standings as they would stand if the night ended now, on the night's answer
and its live page: the season's chart (R7-R8) on the order so far, players out at their places,
those still in at the lowest place still open, added to the standings (R9-R11); once the night
is the venue's report, the standings themselves. Figures worked by hand from a chart that gives
n - p + 1 points to place p of n entrants, and 5 participation points."""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.builders import Scene
from tests.support.nights import NIGHTS, Phone, opened


def linear_scene(make_scene: Any, **season: Any) -> Scene:
    scene: Scene = make_scene(participation_points=5, **season)
    chart = scene.league.chart(kind="formula", formula="n - p + 1", fraction=1)["id"]
    assert scene.patch(points_chart_id=chart).status_code == 200
    return scene


def projected(scene: Scene, night_id: int) -> dict[str, Any]:
    answer = scene.public.get(f"{NIGHTS}/{night_id}")
    assert answer.status_code == 200, answer.get_json()
    body: dict[str, Any] = answer.get_json()["projected_standings"]
    return body


def table(body: dict[str, Any]) -> list[tuple[int, int, int, int | None, Any]]:
    """(player, rank, points, rank before, tonight as (place, points, still in)) of each row."""
    return [
        (
            row["player"]["id"],
            row["rank"],
            row["points"],
            row["rank_before"],
            None
            if row["tonight"] is None
            else (row["tonight"]["place"], row["tonight"]["points"], row["tonight"]["still_in"]),
        )
        for row in body["standings"]
    ]


def test_r22_r7_r11_standings_if_the_night_ended_now_then_the_standings_once_it_is_the_report(
    make_scene: Any,
) -> None:
    scene = linear_scene(make_scene)
    a, b, c, d, e, f = scene.players("Ann A.", "Bea B.", "Cal C.", "Dee D.", "Eve E.", "Fay F.")
    # Before tonight, 4 entrants: Ann 4+5, Bea 3+5, Cal 2+5, Dee 1+5.
    scene.report([a, b, c, d])
    phone = Phone(scene.host, opened(scene))
    assert phone.night["projected_standings"] is None  # an action's answer does not wait on them
    nobody = projected(scene, phone.night["id"])
    assert table(nobody) == [
        (a, 1, 9, 1, None),
        (b, 2, 8, 2, None),
        (c, 3, 7, 3, None),
        (d, 4, 6, 4, None),
    ]
    assert (nobody["final"], nobody["tournaments"], nobody["season_id"]) == (False, 1, scene.season_id)
    for pid in (b, c, d, e, f):
        phone.send("sign_in", player={"player_id": pid})
    phone.send("seat")
    phone.send("bust", players=[{"player_id": f}])  # 5th of 5: 1+5
    phone.send("bust", players=[{"player_id": e}])  # 4th: 2+5
    # Bea, Cal and Dee still in: each sure of 3rd (3+5) at least.
    now = projected(scene, phone.night["id"])
    assert table(now) == [
        (b, 1, 16, 2, (3, 8, True)),
        (c, 2, 15, 3, (3, 8, True)),
        (d, 3, 14, 4, (3, 8, True)),
        (a, 4, 9, 1, None),
        (e, 5, 7, None, (4, 7, False)),
        (f, 6, 6, None, (5, 6, False)),
    ]
    assert now["tournaments"] == 2 and now["unscored"] is None
    assert [row["player"]["display_name"] for row in now["standings"]][:2] == ["Bea B.", "Cal C."]
    # Nothing was written: the standings are as they were.
    assert [(r["player"]["id"], r["points"]) for r in scene.rows()] == [(a, 9), (b, 8), (c, 7), (d, 6)]

    phone.send("bust", players=[{"player_id": d, "chips": 400}, {"player_id": c, "chips": 1500}])
    assert phone.night["state"] == "reported"
    final = projected(scene, phone.night["id"])
    # Bea 1st (5+5), Cal 2nd (4+5), Dee 3rd (3+5): the report's points, and the standings.
    assert table(final) == [
        (b, 1, 18, 2, (1, 10, False)),
        (c, 2, 16, 3, (2, 9, False)),
        (d, 3, 14, 4, (3, 8, False)),
        (a, 4, 9, 1, None),
        (e, 5, 7, None, (4, 7, False)),
        (f, 6, 6, None, (5, 6, False)),
    ]
    assert final["final"] is True and final["tournaments"] == 2
    standings = [(r["player"]["id"], r["rank"], r["points"]) for r in scene.rows()]
    assert standings == [(pid, rank, points) for pid, rank, points, _before, _t in table(final)]


def test_r22_r9_r10_the_projection_counts_the_best_tournaments_and_the_attendance_bonus(
    make_scene: Any,
) -> None:
    scene = linear_scene(make_scene, count_best=1, attendance_bonus=[{"events": 2, "points": 10}])
    a, b, c, d = scene.players("Ann A.", "Bea B.", "Cal C.", "Dee D.")
    scene.report([a, b, c, d])  # Ann 9, Bea 8, Cal 7, Dee 6
    phone = Phone(scene.host, opened(scene))
    for pid in (a, b, c, d):
        phone.send("sign_in", player={"player_id": pid})
    phone.send("bust", players=[{"player_id": a}])  # 4th of 4: 1+5 = 6, below her 9
    body = projected(scene, phone.night["id"])
    # R10: only the best tournament counts; R9: two played earns the 10-point bonus.
    # Ann: max(9, 6) + 10 = 19. Still in, each sure of 3rd (2+5 = 7): Bea max(8, 7) + 10 = 18,
    # Cal max(7, 7) + 10 = 17, Dee max(6, 7) + 10 = 17. Cal and Dee are level on points and
    # wins; on countback (R11) Cal's two 3rds beat Dee's one.
    assert table(body) == [
        (a, 1, 19, 1, (4, 6, False)),
        (b, 2, 18, 2, (3, 7, True)),
        (c, 3, 17, 3, (3, 7, True)),
        (d, 4, 17, 4, (3, 7, True)),
    ]
    assert [row["tied"] for row in body["standings"]] == [False, False, False, False]


def test_r22_r19_the_live_page_shows_the_standings_if_the_night_ended_now(make_scene: Any) -> None:
    scene = linear_scene(make_scene)
    a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
    scene.report([a, b, c])  # Ann 3+5, Bea 2+5, Cal 1+5
    phone = Phone(scene.host, opened(scene))
    for pid in (b, c):
        phone.send("sign_in", player={"player_id": pid})
    page = f"/embed/venues/{scene.venue_id}/night"
    html = scene.public.get(page, headers={"Accept": "text/html"}).get_data(as_text=True)
    assert "Standings if the night ended now" in html
    # Two in, nobody out: each sure of 2nd of 2 (1+5). Bea 7+6 = 13, Cal 6+6 = 12, Ann 8.
    rows = html.split('<table class="projected">')[1].split("</table>")[0]
    order = [name for name in ("Bea B.", "Cal C.", "Ann A.") if name in rows]
    assert order == ["Bea B.", "Cal C.", "Ann A."]
    assert rows.index("Bea B.") < rows.index("Cal C.") < rows.index("Ann A.")
    assert '+6 <span class="in">in</span>' in rows and "▲1" in rows and "▼2" in rows
    assert "@example.org" not in html  # R19: display names only


def test_r22_r8a_knockouts_so_far_count_in_the_standings_if_the_night_ended_now(make_scene: Any) -> None:
    scene = linear_scene(make_scene, knockout_points=10, bounty="venue_leader", bounty_points=25)
    a, b, c, d = scene.players("Ann A.", "Bea B.", "Cal C.", "Dee D.")
    scene.report([a, b, c])  # Ann 3+5 leads
    phone = Phone(scene.host, opened(scene))
    for pid in (a, b, c, d):
        phone.send("sign_in", player={"player_id": pid})
    # Dee knocks out Ann, the leader: 10 + the bounty 25; Ann is 4th of 4 (1+5).
    phone.send("bust", players=[{"player_id": a}], knocked_out_by=d)
    body = projected(scene, phone.night["id"])
    tonight = {row["player"]["id"]: row["tonight"] for row in body["standings"]}
    # Still in: each sure of 3rd (2+5); Dee also 35 for the knockout.
    assert tonight[d] == {"place": 3, "points": 7 + 35, "still_in": True}
    assert tonight[a] == {"place": 4, "points": 6, "still_in": False}
    assert [(row["player"]["id"], row["points"]) for row in body["standings"]][:2] == [(d, 42), (a, 14)]


def test_r22_r17_the_projection_follows_a_correction_of_an_earlier_report_while_the_night_is_open(
    make_scene: Any,
) -> None:
    """No answer is stale: the office corrects an earlier report at the venue (R17) and reports
    another there while tonight's night is open, no action between: the night's answer and its
    live page read the standings as they now are; a player's new display name shows at once."""
    scene = linear_scene(make_scene)
    a, b, c = scene.players("Ann A.", "Bea B.", "Cal C.")
    earlier = scene.report([a, b, c])  # Ann 3+5, Bea 2+5, Cal 1+5
    phone = Phone(scene.host, opened(scene))
    phone.send("sign_in", player={"player_id": b})
    phone.send("sign_in", player={"player_id": c})
    page = f"/embed/venues/{scene.venue_id}/night"

    def live_order() -> list[str]:
        html = scene.public.get(page, headers={"Accept": "text/html"}).get_data(as_text=True)
        rows = html.split('<table class="projected">')[1].split("</table>")[0]
        return sorted(
            (name for name in ("Ann A.", "Bea B.", "Cal C.", "Cat C.") if name in rows), key=rows.index
        )

    # Two in, each sure of 2nd of 2 (1+5): Bea 7+6 = 13, Cal 6+6 = 12, Ann 8.
    assert table(projected(scene, phone.night["id"])) == [
        (b, 1, 13, 2, (2, 6, True)),
        (c, 2, 12, 3, (2, 6, True)),
        (a, 3, 8, 1, None),
    ]
    assert live_order() == ["Bea B.", "Cal C.", "Ann A."]
    # The office corrects the earlier report: Cal won it (Cal 3+5, Ann 2+5, Bea 1+5).
    corrected = scene.office.put(
        f"/api/v1/tournaments/{earlier['id']}",
        json={**scene.body([c, a, b], date.fromisoformat(earlier["date"])), "reason": "Wrong order entered"},
    )
    assert corrected.status_code == 200, corrected.get_json()
    assert table(projected(scene, phone.night["id"])) == [
        (c, 1, 14, 1, (2, 6, True)),
        (b, 2, 12, 3, (2, 6, True)),
        (a, 3, 7, 2, None),
    ]
    assert live_order() == ["Cal C.", "Bea B.", "Ann A."]
    # Another report there (Ann alone with Bea): Ann 2+5 = 7 more, Bea 1+5.
    scene.report([a, b])
    assert table(projected(scene, phone.night["id"]))[0] == (b, 1, 18, 2, (2, 6, True))
    assert live_order()[0] == "Bea B."
    # A new display name (R19) shows at once.
    assert scene.office.patch(f"/api/v1/players/{c}", json={"display_name": "Cat C."}).status_code == 200
    assert "Cat C." in live_order()
    names = [row["player"]["display_name"] for row in projected(scene, phone.night["id"])["standings"]]
    assert "Cat C." in names and "Cal C." not in names
