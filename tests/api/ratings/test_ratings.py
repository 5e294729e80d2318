"""Skill ratings (R20) through the HTTP API and the CLI: a small league rated by hand with
openskill's own functions and compared with the answers, order independence, corrections, voids,
merges and undos replayed (a hypothesis run of them against a rebuild after every step), the
table's ranks, filters and provisional players, a player's rating and its history, bad input, and
`flask --app app ratings rebuild`. After every test the `app` fixture's guard
(`assert_ratings_current`) compares the stored ratings with a rebuild as well."""

from __future__ import annotations

import re
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from sqlalchemy import Connection, text

from models.services.ratings import writes as rating_service
from tests.builders import OFFICE_LATE, TOURNAMENTS, MakeScene, Scene, days_ago, iso
from tests.support.console import signed_in, text_of
from tests.support.databases import assert_ratings_current
from tests.support.league import Caller, assert_problem

RATINGS = "/api/v1/ratings"
PLAYERS = "/api/v1/players"
MERGES = "/api/v1/player-merges"
MODEL = PlackettLuce()


def by_hand(reports: list[list[tuple[int, str]]]) -> dict[int, Any]:
    """R20 with openskill's own functions: each report (entrants in place order, with status),
    in the order given; no-shows left out; fewer than two rated entrants change nothing."""
    ratings: dict[int, Any] = {}
    counts: dict[int, int] = {}
    for report in reports:
        rated = [
            (player, place) for place, (player, status) in enumerate(report, start=1) if status != "no_show"
        ]
        if len(rated) < 2:
            continue
        teams = [[ratings.get(player) or MODEL.rating()] for player, _ in rated]
        after = MODEL.rate(teams, ranks=[place for _, place in rated])
        for (player, _), [rating] in zip(rated, after, strict=True):
            ratings[player] = rating
            counts[player] = counts.get(player, 0) + 1
    return {player: (r.mu, r.sigma, counts[player]) for player, r in ratings.items()}


def shown(mu: float, sigma: float) -> float:
    return float(Decimal(mu - 3 * sigma).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def table(public: Caller, query: str = "") -> dict[str, Any]:
    response = public.get(RATINGS + query + ("&" if "?" in query else "?") + "per_page=500")
    assert response.status_code == 200, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def rows_by_player(public: Caller, query: str = "") -> dict[int, dict[str, Any]]:
    return {row["player"]["id"]: row for row in table(public, query)["items"]}


def order(players: list[int], *statuses: tuple[int, str]) -> list[tuple[int, str]]:
    status_of = dict(statuses)
    return [(player, status_of.get(player, "played")) for player in players]


def post(scene: Scene, entrants: list[tuple[int, str]], day: date, **extra: Any) -> dict[str, Any]:
    """The office reports the entrants on `day` (with the reason R17 asks of it for a night past
    the hosts' window: `Scene.report`); the stored report."""
    return scene.report(entrants, day, **extra)


def test_r20_a_small_league_is_rated_as_openskill_rates_it_by_hand(scene: Scene, public: Caller) -> None:
    """R20: three reports (a no-show among them, one left with a single rated entrant) give the
    mu, sigma, tournaments and the ordinal mu - 3 sigma that openskill's own rating() and rate()
    give; the table ranks by the ordinal and marks everyone provisional (fewer than 5)."""
    ann, bob, cat, dan = scene.players("Ann", "Bob", "Cat", "Dan")
    reports = [
        order([ann, bob, cat, dan], (dan, "no_show")),
        order([cat, ann, bob, dan], (bob, "declared_withdrawal")),
        order([dan, bob], (bob, "no_show")),  # one rated entrant: no change
        order([bob, dan, ann], (ann, "absent")),
    ]
    for offset, entrants in enumerate(reports):
        post(scene, entrants, days_ago(20 - offset))
    expected = by_hand(reports)
    rows = rows_by_player(public)
    assert set(rows) == set(expected) == {ann, bob, cat, dan}
    for player, (mu, sigma, count) in expected.items():
        row = rows[player]
        assert (row["mu"], row["sigma"], row["tournaments"]) == (mu, sigma, count)
        assert row["rating"] == shown(mu, sigma)
        assert row["provisional"] is True
    ranked = sorted(expected, key=lambda p: -shown(*expected[p][:2]))
    assert [row["player"]["id"] for row in table(public)["items"]] == ranked
    assert [row["rank"] for row in table(public)["items"]] == [1, 2, 3, 4]
    assert rows[dan]["tournaments"] == 2  # the no-show and the lone rated entrant are not rated
    profile = public.get(f"{PLAYERS}/{cat}").get_json()
    assert profile["rating"]["mu"] == expected[cat][0]
    assert profile["rating"]["rating"] == shown(*expected[cat][:2])


def test_r20_reports_posted_out_of_date_order_are_rated_in_date_session_and_id_order(
    make_scene: MakeScene, public: Caller
) -> None:
    """R20: reports posted newest first, and two on one day at two venues (session 2 before
    session 1 posted), end with the ratings of the reports rated in order of date, session, id."""
    scene = make_scene()
    other = make_scene()
    ann, bob, cat, dan, eve = scene.players("Ann", "Bob", "Cat", "Dan", "Eve")
    day1, day2, day3 = days_ago(12), days_ago(11), days_ago(10)
    plan = [
        (scene, order([ann, bob, cat]), day3, 1),
        (other, order([eve, ann, dan]), day2, 2),
        (scene, order([bob, dan, cat, eve]), day2, 1),
        (scene, order([cat, bob, ann, eve]), day1, 1),
    ]
    for where, entrants, day, number in plan:
        post(where, entrants, day, session=number)
    in_order = sorted(plan, key=lambda item: (item[2], item[3]))
    expected = by_hand([entrants for _, entrants, _, _ in in_order])
    rows = rows_by_player(public)
    assert {player: (r["mu"], r["sigma"], r["tournaments"]) for player, r in rows.items()} == expected


def test_r20_a_correction_a_void_and_a_report_dated_earlier_replay_from_their_point(
    scene: Scene, office: Caller, public: Caller
) -> None:
    """R20: correcting an early report (places swapped, then moved to a later date), voiding one,
    and posting one dated before all of them each leave exactly the ratings of the live reports
    rated in order."""
    ann, bob, cat = scene.players("Ann", "Bob", "Cat")
    first = post(scene, order([ann, bob, cat]), days_ago(9))
    post(scene, order([bob, cat, ann]), days_ago(8))
    third = post(scene, order([cat, ann, bob]), days_ago(7))
    swapped = scene.body(order([bob, ann, cat]), days_ago(9))
    assert (
        office.put(f"{TOURNAMENTS}/{first['id']}", json={**swapped, "reason": "Swapped."}).status_code == 200
    )
    expected = by_hand([order([bob, ann, cat]), order([bob, cat, ann]), order([cat, ann, bob])])
    assert {p: (r["mu"], r["sigma"], r["tournaments"]) for p, r in rows_by_player(public).items()} == expected
    moved = scene.body(order([bob, ann, cat]), days_ago(6))
    assert (
        office.put(f"{TOURNAMENTS}/{first['id']}", json={**moved, "reason": "Wrong day."}).status_code == 200
    )
    voided = office.post(f"{TOURNAMENTS}/{third['id']}/void", json={"reason": "Played twice."})
    assert voided.status_code == 200
    post(scene, order([ann, cat]), days_ago(30))
    expected = by_hand([order([ann, cat]), order([bob, cat, ann]), order([bob, ann, cat])])
    assert {p: (r["mu"], r["sigma"], r["tournaments"]) for p, r in rows_by_player(public).items()} == expected


def test_r20_r17_a_merge_rates_the_duplicates_results_under_the_survivor_and_its_undo_restores(
    scene: Scene, office: Caller, public: Caller
) -> None:
    """R20, R17: merged, the duplicate's results are rated under the survivor from the first of
    them on (the duplicate has no rating, and its id's history is the survivor's); undone, both
    are rated as before the merge, float for float."""
    ann, bob, cat, ann2 = scene.players("Ann", "Bob", "Cat", "Ann")
    post(scene, order([ann, bob, cat]), days_ago(9))
    post(scene, order([bob, ann2, cat]), days_ago(8))
    post(scene, order([cat, ann, bob]), days_ago(7))
    before = rows_by_player(public)
    merged = office.post(f"{PLAYERS}/{ann}/merge", json={"duplicate_id": ann2, "reason": "Same person."})
    assert merged.status_code == 200, merged.get_json()
    expected = by_hand([order([ann, bob, cat]), order([bob, ann, cat]), order([cat, ann, bob])])
    rows = rows_by_player(public)
    assert {p: (r["mu"], r["sigma"], r["tournaments"]) for p, r in rows.items()} == expected
    history = public.get(f"{PLAYERS}/{ann2}/rating-history").get_json()
    assert history["player"]["id"] == ann and len(history["points"]) == 3
    assert public.get(f"{PLAYERS}/{ann2}").get_json()["rating"]["tournaments"] == 3
    undone = office.post(f"{MERGES}/{merged.get_json()['merge_id']}/undo", json={"reason": "Two people."})
    assert undone.status_code == 200, undone.get_json()
    assert rows_by_player(public) == before


def test_r20_history_has_a_point_per_rated_tournament_and_the_profile_null_until_rated(
    scene: Scene, public: Caller
) -> None:
    """R20: a player never rated (only a no-show) has `rating` null and no history; a rated one
    has one point per rated tournament (date, venue, report, place, rated entrants, rating
    after), the last equal to the profile's rating."""
    ann, bob, cat = scene.players("Ann", "Bob", "Cat")
    one = post(scene, order([ann, bob, cat], (cat, "no_show")), days_ago(5))
    two = post(scene, order([bob, ann, cat], (cat, "no_show")), days_ago(4))
    assert public.get(f"{PLAYERS}/{cat}").get_json()["rating"] is None
    assert public.get(f"{PLAYERS}/{cat}/rating-history").get_json()["points"] == []
    history = public.get(f"{PLAYERS}/{ann}/rating-history").get_json()
    points = history["points"]
    assert [(p["tournament_id"], p["date"], p["place"], p["entrants"]) for p in points] == [
        (one["id"], iso(days_ago(5)), 1, 2),
        (two["id"], iso(days_ago(4)), 2, 2),
    ]
    assert points[0]["venue_id"] == scene.venue_id and points[0]["venue_name"] == scene.venue["name"]
    assert [p["tournaments"] for p in points] == [1, 2]
    profile = public.get(f"{PLAYERS}/{ann}").get_json()["rating"]
    assert (points[-1]["mu"], points[-1]["sigma"], points[-1]["rating"]) == (
        profile["mu"],
        profile["sigma"],
        profile["rating"],
    )
    assert history["rating"] == profile
    assert set(history["player"]) == {"id", "display_name", "label"}  # R19: no personal field
    assert public.get(f"{PLAYERS}/999999/rating-history").status_code == 404


def test_r20_the_table_lists_provisional_players_after_the_established_and_filters(
    make_scene: MakeScene, public: Caller
) -> None:
    """R20: five rated tournaments make a player established; the established are ranked first,
    the provisional after them (ranks running on); `min_tournaments` keeps those with at least
    that many; `region_id` those with a rated result at a venue of the region."""
    north, south = make_scene(), make_scene()
    ann, bob, cat = north.players("Ann", "Bob", "Cat")
    dan = north.player("Dan")
    for offset in range(5):
        post(north, order([ann, bob] if offset % 2 else [bob, ann]), days_ago(20 - offset))
    post(south, order([cat, dan]), days_ago(3))
    body = table(public)
    assert body["established"] == 2 and body["provisional"] == 2 and body["total"] == 4
    items = body["items"]
    assert [row["provisional"] for row in items] == [False, False, True, True]
    assert {row["player"]["id"] for row in items[:2]} == {ann, bob}
    assert [row["rank"] for row in items] == [1, 2, 3, 4]
    assert {row["player"]["id"] for row in table(public, "?min_tournaments=5")["items"]} == {ann, bob}
    assert table(public, "?min_tournaments=6")["items"] == []
    southern = table(public, f"?region_id={south.region['id']}")["items"]
    assert {row["player"]["id"] for row in southern} == {cat, dan}
    paged = public.get(RATINGS + "?per_page=1&page=3").get_json()
    assert paged["total"] == 4 and paged["pages"] == 4 and paged["items"][0]["rank"] == 3


def test_r20_equal_ratings_share_a_rank(scene: Scene, public: Caller) -> None:
    """R20 with R11's ranks: players whose shown ratings are equal share a rank (1, 2, 2, 4)."""
    ann, bob, cat, dan = scene.players("Ann", "Bob", "Cat", "Dan")
    eve, fay = scene.players("Eve", "Fay")
    # Two mirror-image games: bob and dan finish second of three against fresh players alike.
    post(scene, order([ann, bob, cat]), days_ago(6))
    post(scene, order([eve, dan, fay]), days_ago(5))
    items = table(public)["items"]
    ranks = {row["player"]["id"]: (row["rank"], row["tied"]) for row in items}
    assert ranks[ann] == ranks[eve] == (1, True)
    assert ranks[bob] == ranks[dan] == (3, True)
    assert ranks[cat] == ranks[fay] == (5, True)


@pytest.mark.parametrize(
    "query, field",
    [
        ("min_tournaments=-1", "min_tournaments"),
        ("min_tournaments=1001", "min_tournaments"),
        ("min_tournaments=lots", "min_tournaments"),
        ("region_id=999999", "region_id"),
        ("region_id=0", "region_id"),
    ],
)
def test_r20_bad_filters_are_422s_naming_them(public: Caller, query: str, field: str) -> None:
    """R20: `min_tournaments` outside 0-1000 (or not a number), or a region that does not
    exist, is a 422 naming the parameter."""
    assert_problem(public.get(f"{RATINGS}?{query}"), 422, field)


def test_r20_the_limits_of_min_tournaments_are_taken(public: Caller) -> None:
    """R20: 0 and 1000 are within the filter's range."""
    assert public.get(f"{RATINGS}?min_tournaments=0").status_code == 200
    assert public.get(f"{RATINGS}?min_tournaments=1000").status_code == 200


def test_r20_ratings_rebuild_recomputes_ratings_changed_behind_the_services_back(
    scene: Scene, public: Caller, runner: Any, db_session: Any
) -> None:
    """R20: `flask --app app ratings rebuild` recomputes every rating and its history from the
    results: a rating spoiled by hand in SQL is right again afterwards."""
    ann, bob = scene.players("Ann", "Bob")
    post(scene, order([ann, bob]), days_ago(4))
    before = rows_by_player(public)
    db_session.execute(text("UPDATE player_ratings SET mu = 99.0 WHERE player_id = :p"), {"p": ann})
    db_session.execute(text("DELETE FROM rating_points WHERE player_id = :p"), {"p": bob})
    db_session.commit()
    assert rows_by_player(public)[ann]["mu"] == 99.0
    outcome = runner.invoke(args=["ratings", "rebuild"])
    assert outcome.exit_code == 0, outcome.output
    assert "Ratings rebuilt: 2 player(s) rated, 2 point(s) of history." in outcome.output
    assert rows_by_player(public) == before


def test_r20_a_rebuild_that_fails_partway_changes_nothing(
    scene: Scene, public: Caller, runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R20: a rebuild runs in one transaction: failing after it deleted the stored ratings (here,
    while it stores the new ones), it leaves them as they were."""
    ann, bob = scene.players("Ann", "Bob")
    post(scene, order([ann, bob]), days_ago(4))
    before = rows_by_player(public)

    def broken(*_args: Any, **_kwargs: Any) -> list[dict[str, Any]]:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(rating_service, "computed_ratings", broken)
    outcome = runner.invoke(args=["ratings", "rebuild"])
    assert outcome.exit_code != 0
    assert rows_by_player(public) == before


def test_r20_random_corrections_voids_merges_and_undos_leave_the_ratings_a_rebuilds(
    scene: Scene, office: Caller, connection: Connection
) -> None:
    """R20: whatever sequence of reports (any date, session, statuses), corrections, voids,
    merges and undos is made, refused or not, the stored ratings and history equal a rebuild
    after every step."""
    players = scene.add_players(6)
    reports: list[int] = []
    merges: list[int] = []
    entrant = st.tuples(st.sampled_from(players), st.sampled_from(["played", "played", "absent", "no_show"]))
    field = st.lists(entrant, min_size=1, max_size=5, unique_by=lambda e: e[0])
    step = st.one_of(
        st.tuples(st.just("post"), st.integers(1, 20), st.integers(1, 2), field),
        st.tuples(st.just("correct"), st.integers(0, 30), st.integers(1, 20), field),
        st.tuples(st.just("void"), st.integers(0, 30)),
        st.tuples(st.just("merge"), st.sampled_from(players), st.sampled_from(players)),
        st.tuples(st.just("undo"), st.integers(0, 30)),
    )

    @settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
    @given(steps=st.lists(step, min_size=1, max_size=5))
    def run(steps: list[tuple[Any, ...]]) -> None:
        # Each example starts with two rated reports on fresh days, so every step has some to change.
        for day in (21, 22):
            entrants = [(player, "played") for player in players[day % 2 :: 2]]
            body = scene.body(entrants, days_ago(day), session=len(reports) + 1, reason=OFFICE_LATE)
            response = scene.post(body, office)
            if response.status_code == 201:
                reports.append(response.get_json()["id"])
        for kind, *args in steps:
            if kind == "post":
                day, number, entrants = args
                body = scene.body(entrants, days_ago(day), session=number, reason=OFFICE_LATE)
                response = scene.post(body, office)
                if response.status_code == 201:
                    reports.append(response.get_json()["id"])
            elif kind == "correct" and reports:
                index, day, entrants = args
                body = {**scene.body(entrants, days_ago(day)), "reason": "Fixed."}
                office.put(f"{TOURNAMENTS}/{reports[index % len(reports)]}", json=body)
            elif kind == "void" and reports:
                office.post(f"{TOURNAMENTS}/{reports[args[0] % len(reports)]}/void", json={"reason": "Void."})
            elif kind == "merge" and args[0] != args[1]:
                response = office.post(
                    f"{PLAYERS}/{args[0]}/merge", json={"duplicate_id": args[1], "reason": "Same."}
                )
                if response.status_code == 200:
                    merges.append(response.get_json()["merge_id"])
            elif kind == "undo" and merges:
                office.post(f"{MERGES}/{merges[args[0] % len(merges)]}/undo", json={"reason": "Not."})
            assert_ratings_current(connection)

    run()


def test_r20_the_embedded_page_draws_the_top_20_with_a_sparkline_each_r19(
    scene: Scene, office: Caller, public: Caller
) -> None:
    """R20, R19: /embed/ratings is a frameable page of the table's top 20 (rank, label,
    rating, tournaments) with one server-drawn sparkline per player, a point per rated tournament;
    two players sharing a display name show their numbers; no personal data, whoever asks."""
    twins = scene.players("Sam K.", "Sam K.")
    others = scene.add_players(21)
    everyone = [*twins, *others]
    post(scene, order(everyone), days_ago(9))
    post(scene, order([*twins, *others[:3]]), days_ago(8))
    response = public.get("/embed/ratings")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert response.headers["Content-Security-Policy"].endswith("frame-ancestors *")
    assert "X-Frame-Options" not in response.headers
    html = response.get_data(as_text=True)
    body_rows = re.findall(r"<tr><td>(.*?)</tr>", html, flags=re.S)
    assert len(body_rows) == 20
    top = table(public)["items"][:20]
    for row, shown_row in zip(body_rows, top, strict=True):
        assert f"{shown_row['rating']:.2f}" in row
        assert shown_row["player"]["label"] in row
        points = re.search(r'<polyline[^>]*points="([^"]+)"', row)
        assert points is not None
        rated = shown_row["tournaments"]
        assert len(points.group(1).split()) == max(rated, 2)
    assert f"Sam K. #{twins[0]}" in html and f"Sam K. #{twins[1]}" in html
    for caller in (public, office):
        text_of_page = caller.get("/embed/ratings").get_data(as_text=True)
        for roster_entry in scene.roster:
            assert roster_entry["full_name"] not in text_of_page
            assert roster_entry["email"] not in text_of_page
    assert public.get("/embed/ratings?rows=5").get_data(as_text=True).count("<polyline") == 5
    assert public.get("/embed/ratings?rows=0").status_code == 422
    assert public.get("/embed/ratings?theme=neon").status_code == 422


def test_r20_the_embedded_page_takes_region_id_as_the_api_does_r19(
    make_scene: MakeScene, public: Caller
) -> None:
    """R20: /embed/ratings?region_id= shows the players the API's table of that region lists, in
    its order, and names the region; an unknown region (or not an id) is a 422 naming `region_id`,
    as the API's is, and a page saying so to a browser. R19: labels only, whoever asks."""
    north, south = make_scene(), make_scene()
    ann, bob = north.players("Ann N.", "Bob N.")
    cat, dan, eve = south.players("Cat S.", "Dan S.", "Eve S.")
    post(north, order([ann, bob]), days_ago(6))
    post(south, order([cat, dan, eve]), days_ago(5))
    region = south.region
    listed = table(public, f"?region_id={region['id']}")["items"]
    assert [row["player"]["id"] for row in listed] == [cat, dan, eve]
    page = public.get(f"/embed/ratings?region_id={region['id']}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    rows = re.findall(r"<tr><td>(.*?)</tr>", html, flags=re.S)
    assert len(rows) == 3
    for row, listed_row in zip(rows, listed, strict=True):
        assert listed_row["player"]["label"] in row and f"{listed_row['rating']:.2f}" in row
    assert "Ann N." not in html and "Bob N." not in html
    assert f"Skill ratings: {region['name']}" in html
    for entry in south.roster:
        assert entry["full_name"] not in html and entry["email"] not in html
    assert len(re.findall(r"<tr><td>", public.get("/embed/ratings").get_data(as_text=True))) == 5
    for query in ("region_id=999999", "region_id=0", "region_id=north"):
        api = assert_problem(public.get(f"{RATINGS}?{query}"), 422, "region_id")
        embedded = assert_problem(public.get(f"/embed/ratings?{query}"), 422, "region_id")
        assert embedded["detail"] == api["detail"]
        shown = public.get(f"/embed/ratings?{query}", headers={"Accept": "text/html"})
        assert shown.status_code == 422 and shown.mimetype == "text/html"
        assert "region_id" in shown.get_data(as_text=True)


def test_r20_an_empty_league_has_an_empty_table_and_page(public: Caller) -> None:
    """R20: with no rated tournament the table is empty and the page says so."""
    body = table(public)
    assert body["items"] == [] and body["total"] == 0 and body["established"] == 0
    assert "No rated tournaments yet." in public.get("/embed/ratings").get_data(as_text=True)


def test_r20_the_consoles_player_page_shows_the_rating(app: Flask, scene: Scene, public: Caller) -> None:
    """R20: the office's player page in the console shows the player's rating as the API gives
    it (rating, rated tournaments, provisional) with what it measures (never "mu", "sigma"), and
    says so when the player is not yet rated."""
    ann, bob, cat = scene.players("Ann", "Bob", "Cat")
    post(scene, order([ann, bob]), days_ago(3))
    office = signed_in(app, scene.office.key)
    rating = public.get(f"{PLAYERS}/{ann}").get_json()["rating"]
    words = text_of(office.get(f"/console/players/{ann}/sanctions"))
    assert f"Skill rating: {rating['rating']:.2f} after 1 rated night (provisional" in words
    assert "how well a player finishes against the players they meet" in words and "sigma" not in words
    assert "Skill rating: not yet rated." in text_of(office.get(f"/console/players/{cat}/sanctions"))


def test_r20_standings_rebuild_after_a_bulk_load_rebuilds_the_ratings_too(
    scene: Scene, public: Caller, runner: Any, db_session: Any
) -> None:
    """R20: `flask --app app standings rebuild`, run after results were loaded behind the
    service's back, recomputes the ratings as well (they are league-wide)."""
    ann, bob = scene.players("Ann", "Bob")
    post(scene, order([ann, bob]), days_ago(4))
    before = rows_by_player(public)
    db_session.execute(text("DELETE FROM player_ratings"))
    db_session.commit()
    assert rows_by_player(public) == {}
    outcome = runner.invoke(args=["standings", "rebuild"])
    assert outcome.exit_code == 0, outcome.output
    assert "Ratings rebuilt: 2 player(s) rated" in outcome.output
    assert rows_by_player(public) == before


def test_r20_pages_of_the_table_rank_as_the_whole_table_sorted_by_hand(
    scene: Scene, public: Caller, runner: Any, db_session: Any
) -> None:
    """R20: every page of the table, at every page size, is the table sorted by hand: the
    established first, best shown rating first, equal shown ratings by higher mu then lower id,
    sharing a rank (provisional ranks running on after the established). The table is read from
    the database only as far as a page needs, in the order of mu - 3 sigma before its rounding:
    here two ratings just either side of 22.00 show 22.00 with the higher mu second in that order,
    and ties straddle the pages. Ratings are set in SQL, then rebuilt for the guard."""
    players = scene.players(*(f"P{n}" for n in range(12)))
    post(scene, order(players), days_ago(3))
    # (mu, sigma, rated tournaments) for each player, in the order of `players`.
    crafted = [
        (25.004, 1.0, 5),  # raw 22.004: shows 22.00
        (30.0, 2.668, 7),  # raw 21.996: shows 22.00, higher mu, so before the one above
        (28.0, 2.0, 9),  # 22.00 exactly
        (40.0, 1.0, 5),  # 37.00, the best
        (20.0, 1.0, 6),  # 17.00
        (20.0, 1.0, 8),  # 17.00, the same mu: the lower id first
        (10.0, 2.0, 12),  # 4.00
        (30.0, 1.0, 4),  # provisional 27.00: after every established player
        (28.0, 0.333334, 3),  # provisional 27.00 (raw 26.999998)
        (5.0, 1.0, 1),  # provisional 2.00
        (24.0, 0.5, 2),  # provisional 22.50
        (24.0, 0.5, 4),  # provisional 22.50
    ]
    for player, (mu, sigma, count) in zip(players, crafted, strict=True):
        db_session.execute(
            text("UPDATE player_ratings SET mu = :mu, sigma = :sigma, tournaments = :n WHERE player_id = :p"),
            {"mu": mu, "sigma": sigma, "n": count, "p": player},
        )
    db_session.commit()

    def expected(minimum: int) -> list[tuple[int, int, bool]]:
        rows = [
            (player, mu, shown(mu, sigma), count < 5)
            for player, (mu, sigma, count) in zip(players, crafted, strict=True)
            if count >= minimum
        ]
        rows.sort(key=lambda row: (row[3], -row[2], -row[1], row[0]))
        # A rank: the place of the first row of the same group and shown rating.
        ranks = [
            1 + next(i for i, other in enumerate(rows) if (other[3], other[2]) == (row[3], row[2]))
            for row in rows
        ]
        tied = [ranks.count(rank) > 1 for rank in ranks]
        return [(row[0], rank, tie) for row, rank, tie in zip(rows, ranks, tied, strict=True)]

    for minimum in (0, 3, 6):
        whole = expected(minimum)
        if minimum == 0:  # the three at 22.00 by mu: 30, 28, then 25.004 (first by mu - 3 sigma)
            assert [row[0] for row in whole[:4]] == [players[3], players[1], players[2], players[0]]
        for per_page in range(1, len(whole) + 2):
            for page in range(1, len(whole) // per_page + 2):
                body = public.get(f"{RATINGS}?per_page={per_page}&page={page}&min_tournaments={minimum}")
                assert body.status_code == 200
                answer = body.get_json()
                got = [(row["player"]["id"], row["rank"], row["tied"]) for row in answer["items"]]
                assert got == whole[(page - 1) * per_page : page * per_page], (minimum, per_page, page)
                assert answer["total"] == len(whole)
                assert answer["established"] == sum(1 for *_, count in crafted if count >= max(minimum, 5))
    outcome = runner.invoke(args=["ratings", "rebuild"])
    assert outcome.exit_code == 0, outcome.output
