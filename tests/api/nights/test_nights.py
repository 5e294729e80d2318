"""R22 through the API: a night opened at a venue on its clock, players signed in (a suspended
one refused), the seat draw, the clock, bust-outs (two on one hand, ordered by chips), an undo,
a withdrawal, and the last player left: the night becomes the venue's report, once. Retries
apply once; an action made on an older state is a 409 carrying the night as it stands."""

from __future__ import annotations

from typing import Any

import time_machine

from tests.builders import Scene, iso, utc_today
from tests.support.league import assert_problem
from tests.support.nights import NIGHTS, Phone, opened


def test_r22_a_whole_night_becomes_the_venues_report(scene: Scene) -> None:
    night = opened(scene)
    assert (night["date"], night["session"], night["state"], night["sequence"]) == (
        iso(utc_today()),
        1,
        "open",
        0,
    )
    assert night["structure"]["starting_chips"] == 2000 and night["clock"]["status"] == "not_started"
    assert night["table_size"] == 10
    again = scene.host.post(f"/api/v1/venues/{scene.venue_id}/nights", json={})
    assert again.status_code == 409 and again.get_json()["rule"] == "R22"

    phone = Phone(scene.host, night)
    players = scene.add_players(12)
    for pid in players:
        phone.send("sign_in", player={"player_id": pid})
    assert phone.night["entrants"] == 12 and phone.night["players_left"] == 12
    twice = phone.send("sign_in", 409, player={"player_id": players[0]})
    assert twice["rule"] == "R22"
    new = phone.send(
        "sign_in", player={"new_player": {"full_name": "Nora Newcomer", "email": "nora@example.org"}}
    )
    nora = next(p["player_id"] for p in new["night"]["players"] if p["label"].startswith("Nora"))
    players.append(nora)

    phone.send("seat")
    seats = {(p["table"], p["seat"]) for p in phone.night["players"]}
    assert len(seats) == 13 and {t for t, _s in seats} == {1, 2}
    phone.send("clock", clock="start")
    assert phone.night["clock"]["status"] == "running" and phone.night["clock"]["level_ends_at"]
    assert phone.night["average_stack"] == 2000

    # Two out on one hand: more chips before it finish higher (R4).
    a, b, c = players[0], players[1], players[2]
    phone.send(
        "bust", players=[{"player_id": a, "chips": 300}, {"player_id": b, "chips": 900}], knocked_out_by=c
    )
    places = {p["player_id"]: p["place"] for p in phone.night["players"]}
    assert (places[a], places[b]) == (13, 12) and phone.night["players_left"] == 11
    # The last bust-out undone, then recorded again.
    phone.send("undo")
    assert phone.night["players_left"] == 13 and all(p["status"] == "playing" for p in phone.night["players"])
    phone.send("bust", players=[{"player_id": a, "chips": 300}, {"player_id": b, "chips": 900}])
    phone.send("withdraw", player_id=players[3])
    assert phone.by_player()[players[3]] == phone.by_player()[players[3]] | {
        "status": "declared_withdrawal",
        "place": 11,
    }
    for pid in players[4:-1]:
        phone.send("bust", players=[{"player_id": pid}])
        counts: dict[int, int] = {}
        for p in phone.night["players"]:
            if p["table"] is not None:
                counts[p["table"]] = counts.get(p["table"], 0) + 1
        assert max(counts.values()) - min(counts.values()) <= 1  # 001 §7
    assert phone.night["players_left"] == 2
    phone.send("bust", players=[{"player_id": players[-1]}])
    over = phone.night
    assert over["state"] == "reported" and over["tournament_id"] and over["players_left"] == 1
    report = scene.office.get(f"/api/v1/tournaments/{over['tournament_id']}").get_json()
    by_place = {r["place"]: r for r in report["results"]}
    assert sorted(by_place) == list(range(1, 14))
    assert by_place[1]["player"]["id"] == c and by_place[13]["player"]["id"] == a
    assert by_place[11]["status"] == "declared_withdrawal"
    # Over: no more actions; the report is posted once.
    assert phone.send("bust", 409, players=[{"player_id": c}])["rule"] == "R22"
    reports = scene.office.get(f"/api/v1/tournaments?venue_id={scene.venue_id}").get_json()
    assert [r["id"] for r in reports["items"]] == [over["tournament_id"]]


def test_r22_a_retry_applies_once_and_an_older_state_is_a_409_with_the_night(scene: Scene) -> None:
    night = opened(scene)
    ann, bob, cy = scene.add_players(3)
    body = {"action_id": "retried-0001", "sequence": 0, "type": "sign_in", "player": {"player_id": ann}}
    first = scene.host.post(f"{NIGHTS}/{night['id']}/actions", json=body)
    retry = scene.host.post(f"{NIGHTS}/{night['id']}/actions", json=body)
    assert first.status_code == retry.status_code == 200
    assert retry.get_json()["action"]["replayed"] is True and retry.get_json()["night"]["entrants"] == 1
    stale = {"action_id": "other-phone-1", "sequence": 0, "type": "sign_in", "player": {"player_id": bob}}
    moved = scene.host.post(f"{NIGHTS}/{night['id']}/actions", json=stale)
    assert moved.status_code == 409 and moved.mimetype == "application/problem+json"
    assert moved.get_json()["night"]["sequence"] == 1 and moved.get_json()["night"]["entrants"] == 1
    read = scene.public.get(f"{NIGHTS}/{night['id']}")
    assert read.get_json()["entrants"] == 1 and read.headers["ETag"]
    # A TV polling the night: a 304 until an action moves it (R22: cheap to follow).
    tag = {"If-None-Match": read.headers["ETag"]}
    assert scene.public.get(f"{NIGHTS}/{night['id']}", headers=tag).status_code == 304
    later = {"action_id": "other-phone-2", "sequence": 1, "type": "sign_in", "player": {"player_id": cy}}
    assert scene.host.post(f"{NIGHTS}/{night['id']}/actions", json=later).status_code == 200
    assert scene.public.get(f"{NIGHTS}/{night['id']}", headers=tag).get_json()["entrants"] == 2


def test_r22_an_action_id_names_one_action_and_another_body_under_it_is_a_409(scene: Scene) -> None:
    """R22: an action id names one action. The same id with the same body is the phone's retry
    (answered as a replay); with another body (another player, another kind, or made on a later
    state) it is refused, 409 naming `action_id`, and changes nothing."""
    night = opened(scene)
    ann, bob = scene.add_players(2)
    url = f"{NIGHTS}/{night['id']}/actions"
    body = {"action_id": "probe-60-0001", "sequence": 0, "type": "sign_in", "player": {"player_id": ann}}
    assert scene.host.post(url, json=body).status_code == 200
    others = [
        {**body, "player": {"player_id": bob}},
        {**body, "sequence": 1, "player": {"player_id": bob}},
        {**body, "sequence": 1, "type": "clock", "player": None, "clock": "start"},
        {**body, "player": {"player_id": ann}, "late": True},
    ]
    for other in others:
        sent = {k: v for k, v in other.items() if v is not None}
        refused = assert_problem(scene.host.post(url, json=sent), 409, "action_id", rule="R22")
        assert "action_id" in refused["detail"] or "action id" in refused["detail"], refused
    read = scene.public.get(f"{NIGHTS}/{night['id']}").get_json()
    assert read["sequence"] == 1 and read["entrants"] == 1 and read["clock"]["status"] == "not_started"
    assert [p["player_id"] for p in read["players"]] == [ann]
    # The same body again is still the retry, however it is serialised.
    retry = scene.host.post(url, json=dict(reversed(list(body.items()))))
    assert retry.status_code == 200 and retry.get_json()["action"]["replayed"] is True
    assert retry.get_json()["night"]["sequence"] == 1


def test_r16_r22_a_suspended_player_is_refused_at_the_door_unless_the_office_overrides(scene: Scene) -> None:
    night = opened(scene)
    pete = scene.player("Pete M.")
    sanction = {
        "player_id": pete,
        "kind": "suspension",
        "category": "berating",
        "first_day": iso(utc_today()),
        "last_day": None,
        "reason": "Abuse of staff.",
    }
    assert scene.office.post("/api/v1/sanctions", json=sanction).status_code == 201
    phone = Phone(scene.host, night)
    refused = phone.send("sign_in", 422, player={"player_id": pete})
    assert refused["rule"] == "R16" and "player.player_id" in refused["errors"]
    assert phone.night["sequence"] == 0
    assert scene.public.get(f"{NIGHTS}/{night['id']}").get_json()["entrants"] == 0  # no seat taken
    host_override = phone.send("sign_in", 422, player={"player_id": pete}, override_reason="Let him.")
    assert "override_reason" in host_override["errors"]
    office = Phone(scene.office, phone.night)
    office.send("sign_in", player={"player_id": pete}, override_reason="Appeal upheld tonight.")
    assert office.night["entrants"] == 1
    log = scene.office.get("/api/v1/audit-log?action=night.override").get_json()["items"]
    assert log and log[0]["entity_id"] == night["id"]


@time_machine.travel("2026-12-01T20:00:00-06:00", tick=False)
def test_r22_a_night_is_opened_only_inside_a_season(make_scene: Any) -> None:
    scene = make_scene(starts_on="2026-09-01", ends_on="2026-11-30")
    answer = scene.host.post(f"/api/v1/venues/{scene.venue_id}/nights", json={})
    assert answer.status_code == 422 and answer.get_json()["rule"] == "R2"


def test_r22_late_registration_closes_after_the_first_break_and_the_host_may_let_a_player_in(
    make_scene: Any,
) -> None:
    with time_machine.travel("2026-12-01T19:00:00-06:00", tick=False) as clock:
        scene = make_scene()
        phone = Phone(scene.host, opened(scene))
        early, on_time, late = scene.add_players(3)
        phone.send("sign_in", player={"player_id": early})
        phone.send("sign_in", player={"player_id": on_time})
        phone.send("seat")
        phone.send("clock", clock="start")
        clock.shift(4 * 20 * 60 + 5 * 60)  # the first break (after level 4), 5 minutes in
        assert phone.night["sequence"] and scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()[
            "clock"
        ]["period"] == {
            "is_break": True,
            "level": 4,
            "small_blind": 75,
            "big_blind": 150,
            "minutes": 10,
            "note": "Chip-up: 25s",
        }
        clock.shift(5 * 60)  # level 5: late registration closed
        night = scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()
        assert night["clock"]["late_registration_open"] is False, (
            night["clock"]["period"],
            night["clock"]["level_started_at"],
        )
        refused = phone.send("sign_in", 422, player={"player_id": late})
        assert refused["rule"] == "R22" and "late" in refused["errors"]
        phone.send("sign_in", player={"player_id": late}, late=True)
        assert phone.by_player()[late]["late"] is True and phone.by_player()[late]["table"] is not None
        log = scene.office.get("/api/v1/audit-log?action=night.late_entry").get_json()["items"]
        assert log and log[0]["entity_id"] == phone.night["id"]


def test_r22_a_player_out_re_enters_once_at_a_break_and_is_one_entrant_with_one_place(
    make_scene: Any,
) -> None:
    with time_machine.travel("2026-12-01T19:00:00-06:00", tick=False) as clock:
        scene = make_scene()
        phone = Phone(scene.host, opened(scene))
        ann, bob, cy, dee = scene.add_players(4)
        for pid in (ann, bob, cy, dee):
            phone.send("sign_in", player={"player_id": pid})
        phone.send("clock", clock="start")
        phone.send("bust", players=[{"player_id": ann}])
        refused = phone.send("re_enter", 422, player_id=ann)
        assert "at a break" in refused["detail"]
        clock.shift(80 * 60 + 60)  # the break after level 4
        phone.send("re_enter", player_id=ann)
        assert phone.by_player()[ann]["status"] == "playing" and phone.night["re_entries"] == 1
        assert phone.night["entrants"] == 4 and phone.night["average_stack"] == 2500  # 5 stacks, 4 left
        phone.send("bust", players=[{"player_id": ann}])
        assert "once" in phone.send("re_enter", 422, player_id=ann)["detail"]
        phone.send("no_show", player_id=dee)
        phone.send("end_early", chips=[{"player_id": bob, "chips": 4000}, {"player_id": cy, "chips": 6000}])
        over = phone.night
        assert over["state"] == "reported"
        results = scene.office.get(f"/api/v1/tournaments/{over['tournament_id']}").get_json()["results"]
        assert [
            (r["place"], r["player"]["id"], r["status"]) for r in sorted(results, key=lambda r: r["place"])
        ] == [
            (1, cy, "played"),
            (2, bob, "played"),
            (3, dee, "no_show"),
            (4, ann, "played"),
        ]


def test_r22_undo_takes_back_the_last_sign_in_and_refuses_when_nothing_is_left(scene: Scene) -> None:
    phone = Phone(scene.host, opened(scene))
    assert phone.send("undo", 409)["rule"] == "R22"
    (ann,) = scene.add_players(1)
    phone.send("sign_in", player={"player_id": ann})
    phone.send("undo")
    assert phone.night["entrants"] == 0
    log = scene.office.get("/api/v1/audit-log?action=night.undo").get_json()["items"]
    assert log and log[0]["before"]["type"] == "sign_in"
    bad = phone.send("bust", 422, players=[{"player_id": ann}], clock="start")
    assert "clock" in bad["errors"]


def test_r22_the_office_keeps_structures_checked_when_saved_and_a_venue_plays_its_own(scene: Scene) -> None:
    listed = scene.public.get("/api/v1/structures").get_json()
    assert (
        listed["built_in"]["starting_chips"] == 2000 and listed["built_in"]["breaks"][0]["after_level"] == 4
    )
    wrong = {
        "name": "Falling",
        "starting_chips": 10000,
        "levels": [
            {"small_blind": 100, "big_blind": 200, "minutes": 30},
            {"small_blind": 50, "big_blind": 100, "minutes": 0},
        ],
    }
    refused = scene.office.post("/api/v1/structures", json=wrong)
    assert refused.status_code == 422 and {"levels.1.big_blind", "levels.1.minutes"} <= set(
        refused.get_json()["errors"]
    )
    assert scene.host.post("/api/v1/structures", json=wrong).status_code == 403
    championship = {
        "name": "Championship",
        "starting_chips": 10000,
        "levels": [
            {"small_blind": 50, "big_blind": 100, "minutes": 30},
            {"small_blind": 100, "big_blind": 200, "minutes": 30},
        ],
        "breaks": [{"after_level": 1, "minutes": 15}],
    }
    made = scene.office.post("/api/v1/structures", json=championship)
    assert made.status_code == 201, made.get_json()
    structure = made.get_json()["id"]
    changed = scene.office.patch(
        f"/api/v1/venues/{scene.venue_id}", json={"structure_id": structure, "table_size": 8}
    )
    assert changed.status_code == 200 and changed.get_json()["table_size"] == 8
    both = scene.office.patch(
        f"/api/v1/venues/{scene.venue_id}", json={"late_after_level": 2, "late_minutes": 30}
    )
    assert both.status_code == 422 and both.get_json()["rule"] == "R22"
    missing = scene.office.patch(f"/api/v1/venues/{scene.venue_id}", json={"structure_id": 999999})
    assert missing.status_code == 422 and "structure_id" in missing.get_json()["errors"]
    # The league's structure: named in its settings, refused when there is no such structure.
    unknown = scene.office.patch("/api/v1/league-settings", json={"structure_id": 999999})
    assert unknown.status_code == 422 and "structure_id" in unknown.get_json()["errors"]
    assert scene.host.patch("/api/v1/league-settings", json={"structure_id": structure}).status_code == 403
    league = scene.office.patch("/api/v1/league-settings", json={"structure_id": structure})
    assert league.status_code == 200 and league.get_json()["structure_id"] == structure
    night = opened(scene)
    assert night["structure"]["name"] == "Championship" and night["table_size"] == 8
    # A change of the structure leaves the night opened with it as it was.
    assert (
        scene.office.patch(f"/api/v1/structures/{structure}", json={"starting_chips": 20000}).status_code
        == 200
    )
    assert scene.public.get(f"{NIGHTS}/{night['id']}").get_json()["structure"]["starting_chips"] == 10000


def test_r22_r19_the_live_page_shows_the_clock_and_display_names_and_answers_304_until_it_moves(
    make_scene: Any,
) -> None:
    with time_machine.travel("2026-12-01T19:00:00-06:00", tick=False) as clock:
        scene = make_scene()
        page = f"/embed/venues/{scene.venue_id}/night"
        assert scene.public.get(page).status_code == 404  # no night yet
        phone = Phone(scene.host, opened(scene))
        ann = scene.player("Ann Q.")
        bob, cy = scene.add_players(2)
        for pid in (ann, bob, cy):
            phone.send("sign_in", player={"player_id": pid})
        phone.send("clock", clock="start")
        clock.shift(21 * 60)  # level 2
        shown = scene.public.get(page, headers={"Accept": "text/html"})
        html = shown.get_data(as_text=True)
        assert shown.status_code == 200 and "Level 2" in html and "25/50" in html and "19:00" in html
        assert "Players <strong>3</strong> of 3" in html and 'data-ends="2026-12-02T01:40:00Z"' in html
        csp = shown.headers["Content-Security-Policy"]
        assert "script-src 'sha256-" in csp and "connect-src 'self'" in csp
        tag = {"If-None-Match": shown.headers["ETag"], "Accept": "text/html"}
        clock.shift(60)
        assert scene.public.get(page, headers=tag).status_code == 304  # same level, same night
        phone.send("bust", players=[{"player_id": ann}])
        after = scene.public.get(page, headers=tag)
        assert after.status_code == 200 and "Ann Q." in after.get_data(as_text=True)
        assert "@example.org" not in after.get_data(as_text=True)  # R19: display names only
        clock.shift(20 * 60)  # level 3: a new page
        assert "50/100" in scene.public.get(page).get_data(as_text=True)


def test_r21_r22_an_erased_player_shows_in_the_night_by_their_new_name(scene: Scene) -> None:
    phone = Phone(scene.host, opened(scene))
    gus = scene.player("Gus T.")
    (other,) = scene.add_players(1)
    phone.send("sign_in", player={"player_id": gus})
    phone.send("sign_in", player={"player_id": other})
    erased = scene.office.post(f"/api/v1/players/{gus}/erase", json={"reason": "Asked by email."})
    assert erased.status_code == 200, erased.get_json()
    night = scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()
    labels = {p["player_id"]: p["label"] for p in night["players"]}
    assert labels[gus] == f"Former player {gus}"


def test_r22_a_host_runs_only_their_own_venues_nights(scene: Scene) -> None:
    other_venue = scene.league.venue(scene.region["id"])["id"]
    stranger = scene.host_for(other_venue, name="Host: elsewhere")
    night = opened(scene)
    assert stranger.post(f"/api/v1/venues/{scene.venue_id}/nights", json={"session": 2}).status_code == 403
    body = {"action_id": "stranger-0001", "sequence": 0, "type": "clock", "clock": "start"}
    assert stranger.post(f"{NIGHTS}/{night['id']}/actions", json=body).status_code == 403
    assert scene.public.post(f"{NIGHTS}/{night['id']}/actions", json=body).status_code == 401
    wrong = scene.host.post(f"{NIGHTS}/{night['id']}/actions", json={**body, "players": []})
    assert wrong.status_code == 422 and "players" in wrong.get_json()["errors"]
    missing = scene.host.post(f"{NIGHTS}/{night['id']}/actions", json={**body, "type": "bust", "clock": None})
    assert missing.status_code == 422
    assert scene.public.get(f"{NIGHTS}/{night['id']}").get_json()["sequence"] == 0


def test_r22_a_late_entrant_at_a_new_table_brings_a_move_to_balance_the_tables(scene: Scene) -> None:
    assert scene.office.patch(f"/api/v1/venues/{scene.venue_id}", json={"table_size": 3}).status_code == 200
    phone = Phone(scene.host, opened(scene))
    *six, late = scene.add_players(7)
    for pid in six:
        phone.send("sign_in", player={"player_id": pid})
    phone.send("seat")
    answer = phone.send("sign_in", player={"player_id": late})
    counts: dict[int, int] = {}
    for p in phone.night["players"]:
        counts[p["table"]] = counts.get(p["table"], 0) + 1
    assert sorted(counts.values()) == [2, 2, 3] and len(answer["night"]["moves"]) == 1
    phone.send("undo")  # the sign-in and its move taken back
    tables = {p["player_id"]: (p["table"], p["seat"]) for p in phone.night["players"]}
    assert late not in tables and sorted(t for t, _s in tables.values()) == [1, 1, 1, 2, 2, 2]


def test_r4_r22_a_night_holds_no_more_entrants_than_a_report_may(scene: Scene) -> None:
    """The league's max_entrants bounds a night as it bounds a report: the sign-in past it is
    refused before anyone is looked up, and nothing is stored."""
    assert scene.office.patch("/api/v1/league-settings", json={"max_entrants": 50}).status_code == 200
    phone = Phone(scene.host, opened(scene))
    for pid in scene.add_players(50):
        phone.send("sign_in", player={"player_id": pid})
    refused = phone.send("sign_in", 422, player={"email": "nobody@example.org"})
    assert refused["rule"] == "R4" and "At most 50 entrants" in refused["detail"]
    assert scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()["entrants"] == 50


def test_r8a_r22_a_no_show_knocks_no_one_out_of_a_night(scene: Scene) -> None:
    """R8a, R6: a no_show never played a hand, so knocks no one out. A bust naming a no_show as
    its knocker is refused (422, R8a, at `knocked_out_by`), and so is marking a player no_show
    after they knocked someone out tonight (at `player_id`): neither changes the night, which
    is never left with a report it could not post."""
    phone = Phone(scene.host, opened(scene))
    ann, bob, cy, dee = scene.add_players(4)
    for pid in (ann, bob, cy, dee):
        phone.send("sign_in", player={"player_id": pid})
    phone.send("no_show", player_id=bob)
    before = phone.night["sequence"]
    named = phone.send("bust", 422, players=[{"player_id": dee}], knocked_out_by=bob)
    assert named["rule"] == "R8a" and "knocked_out_by" in named["errors"], named
    assert "no_show" in named["detail"] and "never played" in named["detail"], named
    phone.send("bust", players=[{"player_id": dee}], knocked_out_by=ann)
    after = phone.send("no_show", 422, player_id=ann)
    assert after["rule"] == "R8a" and "player_id" in after["errors"], after
    assert "knocked" in after["detail"], after
    night = scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()
    assert night["sequence"] == before + 1 and night["state"] == "open"
    statuses = {p["player_id"]: (p["status"], p["knocked_out_by"]) for p in night["players"]}
    assert statuses[ann] == ("playing", None) and statuses[dee][1] == ann
    # The knocker plays on, and the night becomes its report with the knockout.
    phone.send("bust", players=[{"player_id": cy}])
    over = phone.night
    assert over["state"] == "reported", over["report_problems"]
    report = scene.office.get(f"/api/v1/tournaments/{over['tournament_id']}").get_json()
    assert {r["player"]["id"]: r["knocked_out_by"] for r in report["results"]}[dee] == ann
