"""R22 as a new league office found it on a phone: the host takes back one player of a shared
hand or the whole hand (R4: the others' places derived again), moves the clock a level forward or
back or by minutes (R18: each move audited), and runs re-entry as the venue's setting (allowed or
not, until which break, once); every player of a hand may be knocked out by someone still in
(R8a). The TV page shows the seat draw until the clock starts; the host's page of an ended night
shows its result and report, not the clock."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import time_machine
from flask import Flask

from tests.builders import Scene
from tests.support.console import csrf, signed_in, text_of
from tests.support.nights import NIGHTS, Phone, opened

EVENING = "2026-12-01T19:00:00-06:00"


@pytest.fixture()
def clock() -> Iterator[time_machine.Coordinates]:
    with time_machine.travel(EVENING, tick=False) as frozen:
        yield frozen


def seated(phone: Phone) -> dict[int, tuple[int, int]]:
    return {p["player_id"]: (p["table"], p["seat"]) for p in phone.night["players"] if p["table"]}


def places(phone: Phone) -> dict[int, int | None]:
    return {p["player_id"]: p["place"] for p in phone.night["players"]}


def test_r22_r4_r8a_undo_brings_back_one_player_of_a_hand_or_the_whole_hand(scene: Scene) -> None:
    """Three out on one hand, each knocked out by a player still in (R8a, one knocker a row).
    The host brings back one of them: on their seat before the hand, the other two still out,
    their places derived again without a gap (R4). The rest of the hand is then taken back
    whole, every seat as before it. An undo naming a player not of the last action changes
    nothing (409, R22). Each undo is audited with who came back."""
    assert scene.office.patch(f"/api/v1/venues/{scene.venue_id}", json={"table_size": 4}).status_code == 200
    phone = Phone(scene.host, opened(scene))
    ann, bob, cy, dee, eve, fay = scene.add_players(6)
    for pid in (ann, bob, cy, dee, eve, fay):
        phone.send("sign_in", player={"player_id": pid})
    phone.send("seat")
    before = seated(phone)
    hand = [
        {"player_id": ann, "chips": 300, "knocked_out_by": dee},
        {"player_id": bob, "chips": 900, "knocked_out_by": eve},
        {"player_id": cy, "chips": 600, "knocked_out_by": dee},
    ]
    phone.send("bust", players=hand)
    assert {k: v for k, v in places(phone).items() if v} == {bob: 4, cy: 5, ann: 6}
    knockers = {p["player_id"]: p["knocked_out_by"] for p in phone.night["players"]}
    assert (knockers[ann], knockers[bob], knockers[cy]) == (dee, eve, dee)
    undoable = phone.night["undoable"]
    assert undoable["type"] == "bust" and [p["player_id"] for p in undoable["players"]] == [bob, cy, ann]

    # A player not of the last hand: refused, nothing changes.
    refused = phone.send("undo", 409, player_id=dee)
    assert refused["rule"] == "R22" and "player_id" in refused["errors"], refused

    # Cy alone comes back, on the seat Cy had; Bob and Ann stay out, now 5th and 6th (R4).
    phone.send("undo", player_id=cy)
    assert phone.by_player()[cy]["status"] == "playing" and phone.by_player()[cy]["knocked_out_by"] is None
    moved = {move["player_id"] for move in phone.night["moves"]}
    assert cy in seated(phone) and (cy in moved or seated(phone)[cy] == before[cy])
    assert {k: v for k, v in places(phone).items() if v} == {bob: 5, ann: 6}
    assert phone.night["players_left"] == 4 and len(set(seated(phone).values())) == 4
    assert [p["player_id"] for p in phone.night["undoable"]["players"]] == [bob, ann]
    log = scene.office.get("/api/v1/audit-log?action=night.undo").get_json()["items"]
    assert log[0]["before"]["players"] == [cy] and log[0]["before"]["staying_out"] == [bob, ann]

    # The rest of the hand, whole: every seat as before it.
    phone.send("undo")
    assert phone.night["players_left"] == 6 and seated(phone) == before
    assert not any(places(phone).values())

    # The night goes on with one player of a hand brought back, and its report is whole.
    phone.send("bust", players=hand)
    phone.send("undo", player_id=bob)
    for pid in (fay, eve, bob):
        phone.send("bust", players=[{"player_id": pid, "knocked_out_by": dee}])
    over = phone.night
    assert over["state"] == "reported", over["report_problems"]
    results = scene.office.get(f"/api/v1/tournaments/{over['tournament_id']}").get_json()["results"]
    order = {r["player"]["id"]: (r["place"], r["knocked_out_by"]) for r in results}
    assert order == {
        dee: (1, None),
        bob: (2, dee),
        eve: (3, dee),
        fay: (4, dee),
        cy: (5, dee),
        ann: (6, dee),
    }, order


def test_r8a_r22_a_player_of_a_hand_is_knocked_out_by_one_still_in_never_one_going_out(scene: Scene) -> None:
    phone = Phone(scene.host, opened(scene))
    ann, bob, cy, dee = scene.add_players(4)
    for pid in (ann, bob, cy, dee):
        phone.send("sign_in", player={"player_id": pid})
    hand = [
        {"player_id": ann, "chips": 100, "knocked_out_by": bob},
        {"player_id": bob, "chips": 200, "knocked_out_by": cy},
    ]
    refused = phone.send("bust", 422, players=hand)
    assert refused["rule"] == "R22" and "players.0.knocked_out_by" in refused["errors"], refused
    assert "goes out on this hand too" in refused["detail"], refused
    phone.send("no_show", player_id=dee)
    never = phone.send("bust", 422, players=[{"player_id": ann, "knocked_out_by": dee}])
    assert never["rule"] == "R8a" and "players.0.knocked_out_by" in never["errors"], never
    assert scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()["players_left"] == 3


def test_r22_r18_the_host_moves_the_clock_a_level_forward_or_back_or_by_minutes_each_move_audited(
    make_scene: Any, clock: time_machine.Coordinates
) -> None:
    scene: Scene = make_scene()
    phone = Phone(scene.host, opened(scene))
    for pid in scene.add_players(2):
        phone.send("sign_in", player={"player_id": pid})
    early = phone.send("clock", 409, clock="skip")
    assert early["rule"] == "R22" and "not started" in early["detail"], early
    phone.send("clock", clock="start")

    def at() -> tuple[int, bool, str | None]:
        shown = scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()["clock"]
        return shown["period"]["level"], shown["period"]["is_break"], shown["level_ends_at"]

    first = phone.send("clock", 422, clock="back")
    assert first["rule"] == "R22" and "clock" in first["errors"] and "the first" in first["detail"], first
    clock.shift(5 * 60)
    phone.send("clock", clock="skip")  # level 2 starts now, 20 minutes long
    assert at() == (2, False, "2026-12-02T01:25:00Z")
    phone.send("clock", clock="back")  # level 1 from its start: 20 minutes from now
    assert at() == (1, False, "2026-12-02T01:25:00Z")
    phone.send("clock", clock="adjust", adjust_minutes=5)
    assert at() == (1, False, "2026-12-02T01:30:00Z")
    assert phone.night["structure"]["levels"][0]["minutes"] == 25
    clock.shift(20 * 60)  # 5:00 left
    past_zero = phone.send("clock", 422, clock="adjust", adjust_minutes=-6)
    assert past_zero["rule"] == "R22" and "adjust_minutes" in past_zero["errors"], past_zero
    assert "Only 5:00 is left of level 1" in past_zero["detail"] and "past zero" in past_zero["detail"]
    phone.send("clock", clock="adjust", adjust_minutes=-2)
    assert at() == (1, False, "2026-12-02T01:28:00Z")
    assert phone.send("clock", 422, clock="adjust", adjust_minutes=0)["errors"]["adjust_minutes"]
    assert phone.send("clock", 422, clock="adjust")["errors"]["adjust_minutes"]
    assert phone.send("clock", 422, clock="skip", adjust_minutes=3)["errors"]["adjust_minutes"]
    # Paused, the clock moves too: a paused level shows what is left of it.
    phone.send("clock", clock="pause")
    phone.send("clock", clock="skip")
    paused = scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()["clock"]
    assert (paused["status"], paused["period"]["level"], paused["seconds_left"]) == ("paused", 2, 20 * 60)
    phone.send("clock", clock="resume")
    # Forward through the breaks to the last level: none after it, no minutes to move.
    skips = 0
    while phone.night["clock"]["next"] is not None:
        phone.send("clock", clock="skip")
        skips += 1
    assert skips == 13 + 2 and phone.night["clock"]["period"]["level"] == 15  # 15 levels, 2 breaks
    last = phone.send("clock", 422, clock="skip")
    assert last["rule"] == "R22" and "last level" in last["detail"], last
    no_minutes = phone.send("clock", 422, clock="adjust", adjust_minutes=5)
    assert "goes on until the night ends" in no_minutes["detail"], no_minutes
    # Every move audited (R18), with where the clock stood before and after.
    log = scene.office.get("/api/v1/audit-log?entity=night&per_page=500").get_json()["items"]
    moves = [entry for entry in log if entry["action"].startswith("night.clock_")]
    assert len(moves) == 5 + skips and all(m["entity_id"] == phone.night["id"] for m in moves)
    adjust = next(
        m for m in moves if m["action"] == "night.clock_adjust" and m["after"]["adjust_minutes"] == 5
    )
    assert (adjust["before"]["minutes"], adjust["after"]["minutes"]) == (20, 25)
    assert (adjust["before"]["seconds_left"], adjust["after"]["seconds_left"]) == (20 * 60, 25 * 60)
    # The live page follows the server: the last level, counted from the server's instant.
    page = scene.public.get(f"/embed/venues/{scene.venue_id}/night").get_data(as_text=True)
    assert "Level 15" in page and "6,000/12,000" in page


def test_r22_re_entry_is_the_venues_setting_allowed_once_until_a_break(
    make_scene: Any, clock: time_machine.Coordinates
) -> None:
    scene: Scene = make_scene()
    venue = f"/api/v1/venues/{scene.venue_id}"
    assert scene.public.get(venue).get_json()["re_entry"] == {"allowed": True, "until_break": None}
    assert scene.host.patch(venue, json={"re_entry": {"allowed": False}}).status_code == 403
    wrong = scene.office.patch(venue, json={"re_entry": {"until_break": 0}})
    assert wrong.status_code == 422, wrong.get_json()
    assert any(path.startswith("re_entry") for path in wrong.get_json()["errors"]), wrong.get_json()
    changed = scene.office.patch(venue, json={"re_entry": {"allowed": True, "until_break": 1}})
    assert changed.status_code == 200 and changed.get_json()["re_entry"] == {
        "allowed": True,
        "until_break": 1,
    }
    audited = scene.office.get(f"/api/v1/audit-log?entity=venue&entity_id={scene.venue_id}").get_json()
    assert audited["items"][0]["after"]["re_entry_until_break"] == 1

    phone = Phone(scene.host, opened(scene))
    assert phone.night["re_entry"] == {
        "allowed": True,
        "until_break": 1,
        "said": "Re-entry: allowed once, until the first break",
        "open_now": False,
    }
    ann, bob, cy, dee = scene.add_players(4)
    for pid in (ann, bob, cy, dee):
        phone.send("sign_in", player={"player_id": pid})
    phone.send("clock", clock="start")
    phone.send("bust", players=[{"player_id": ann}])
    phone.send("bust", players=[{"player_id": bob}])
    too_soon = phone.send("re_enter", 422, player_id=ann)
    assert too_soon["rule"] == "R22" and "at a break" in too_soon["detail"], too_soon
    assert "the break after level 4" in too_soon["detail"], too_soon
    clock.shift(81 * 60)  # the first break
    assert scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()["re_entry"]["open_now"] is True
    phone.send("re_enter", player_id=ann)
    phone.send("bust", players=[{"player_id": ann}])
    once = phone.send("re_enter", 422, player_id=ann)
    assert (
        once["rule"] == "R22"
        and "re-enters once" in once["detail"]
        and "re-entered already" in once["detail"]
    )
    clock.shift(90 * 60)  # the second break: past the first, re-entry is closed
    closed = phone.send("re_enter", 422, player_id=bob)
    assert closed["rule"] == "R22" and "player_id" in closed["errors"], closed
    assert "Re-entry closed at the end of the first break" in closed["detail"], closed
    night = scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()
    assert night["re_entry"]["said"] == "Re-entry: closed at the end of the first break"
    assert night["re_entry"]["open_now"] is False and night["players_left"] == 2

    # The venue turns re-entry off: the night open keeps what it was opened with.
    off = scene.office.patch(venue, json={"re_entry": {"allowed": False, "until_break": 2}})
    assert off.status_code == 200 and off.get_json()["re_entry"] == {"allowed": False, "until_break": None}
    assert scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()["re_entry"]["until_break"] == 1


def test_r22_a_venue_without_re_entry_says_not_tonight_and_refuses_it_in_words(
    make_scene: Any, clock: time_machine.Coordinates
) -> None:
    scene: Scene = make_scene()
    venue = f"/api/v1/venues/{scene.venue_id}"
    assert scene.office.patch(venue, json={"re_entry": {"allowed": False}}).status_code == 200
    phone = Phone(scene.host, opened(scene))
    assert phone.night["re_entry"]["said"] == "Re-entry: not tonight"
    eli, flo, gil = scene.add_players(3)
    for pid in (eli, flo, gil):
        phone.send("sign_in", player={"player_id": pid})
    phone.send("clock", clock="start")
    phone.send("bust", players=[{"player_id": eli}])
    clock.shift(81 * 60)  # the first break
    assert phone.send("clock", clock="pause")["night"]["clock"]["period"]["is_break"] is True
    refused = phone.send("re_enter", 422, player_id=eli)
    assert refused["rule"] == "R22" and "player_id" in refused["errors"], refused
    assert "Re-entry is not allowed tonight" in refused["detail"], refused
    assert phone.by_player()[eli]["status"] == "out"
    page = scene.public.get(f"/embed/venues/{scene.venue_id}/night").get_data(as_text=True)
    assert "Re-entry: not tonight" in page


def test_r22_the_tv_page_shows_the_seat_draw_until_the_clock_starts(
    make_scene: Any, clock: time_machine.Coordinates
) -> None:
    scene: Scene = make_scene()
    page = f"/embed/venues/{scene.venue_id}/night"
    phone = Phone(scene.host, opened(scene))
    ann, bob, cy = scene.players("Ann Q.", "Bob Q.", "Cy Q.")
    for pid in (ann, bob, cy):
        phone.send("sign_in", player={"player_id": pid})
    assert "Find your seat" not in scene.public.get(page).get_data(as_text=True)  # not drawn yet
    phone.send("seat")
    drawn = scene.public.get(page).get_data(as_text=True)
    assert "Find your seat" in drawn
    for p in phone.night["players"]:
        row = re.search(rf"<tr><th scope=\"row\">{re.escape(p['label'])}</th>(.*?)</tr>", drawn)
        assert row is not None, (p["label"], drawn)
        assert re.findall(r"<td[^>]*>(\d+)</td>", row.group(1)) == [str(p["table"]), str(p["seat"])]
    assert drawn.index("Ann Q.") < drawn.index("Bob Q.") < drawn.index("Cy Q.")  # by name
    phone.send("clock", clock="start")
    started = scene.public.get(page).get_data(as_text=True)
    assert "Find your seat" not in started and "Level 1" in started


def test_r22_r8a_the_hosts_page_records_knockouts_and_shows_an_ended_night_without_its_clock(
    app: Flask, make_scene: Any, clock: time_machine.Coordinates
) -> None:
    """The console: "Out" and "two or more out on one hand" each offer who knocked the player out,
    among the players still in (never the player going out, never a no-show, R8a); the undo asks
    first, naming who comes back; the countdown reads "20:00 left · ends at …"; a night ended by
    chip counts shows its result (by chips, not "winner" on every row) and its report, and no
    clock, blinds or late registration."""
    scene: Scene = make_scene(knockout_points=10)
    host = signed_in(app, scene.host.key)
    phone = Phone(scene.host, opened(scene))
    ann, bob, cy, dee, eve = scene.players("Ann K.", "Bob K.", "Cy K.", "Dee K.", "Eve K.")
    for pid in (ann, bob, cy, dee, eve):
        phone.send("sign_in", player={"player_id": pid})
    phone.send("no_show", player_id=eve)
    phone.send("clock", clock="start")
    path = f"/console/nights/{phone.night['id']}"
    shown = host.get(path)
    page = shown.get_data(as_text=True)
    words = text_of(shown)
    assert "20:00 left · ends at" in words and "Ends at" not in words, words
    assert "Re-entry: allowed once, at any break" in words
    for pid in (ann, bob, cy, dee):
        select = re.search(rf'<select id="ko-{pid}" name="knocked_out_by_{pid}">(.*?)</select>', page, re.S)
        assert select is not None, pid
        offered = {int(v) for v in re.findall(r'<option value="(\d+)"', select.group(1))}
        assert offered == {ann, bob, cy, dee} - {pid}, (pid, offered)  # never Eve, the no-show
    token = csrf(shown)

    def post(kind: str, suffix: str, **fields: str) -> Any:
        fresh = host.get(path).get_data(as_text=True)
        action = re.search(rf'name="action_id" value="([0-9a-f]+-{kind}{suffix})"', fresh)
        sequence = re.search(r'name="sequence" value="(\d+)"', fresh)
        assert action is not None and sequence is not None, (kind, suffix)
        data = {
            "csrf_token": token,
            "action_id": action.group(1),
            "sequence": sequence.group(1),
            "type": kind,
        }
        return host.post(path, data={**data, **fields})

    out = post("bust", f"-{ann}", player_id=str(ann), **{f"knocked_out_by_{ann}": str(dee)})
    assert out.status_code == 302
    night = scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()
    assert {p["player_id"]: p["knocked_out_by"] for p in night["players"]}[ann] == dee
    # One hand: Bob and Cy, each with a knocker; a knocker going out on the hand is refused.
    both = {"player_id": [str(bob), str(cy)], f"chips_{bob}": "500", f"chips_{cy}": "700"}
    refused = post("bust", "-hand", **both, **{f"knocked_out_by_{bob}": str(cy)})
    assert refused.status_code == 422 and "goes out on this hand too" in text_of(refused)
    # The undo asks first, naming who comes back.
    asking = text_of(host.get(path))
    assert "Take back: Ann K. out? Ann K. comes back in." in asking, asking
    undone = post("undo", "")
    assert undone.status_code == 302 and "Undone: Ann K. comes back in." in text_of(host.get(path))
    ended = post(
        "end_early",
        "",
        **{f"chips_{pid}": str(chips) for pid, chips in ((ann, 900), (bob, 3000), (cy, 4000), (dee, 2100))},
    )
    assert ended.status_code == 302
    over = host.get(path)
    said = text_of(over)
    assert "The night is over" in said and "Ended by chip counts" in said, said
    for gone in ("late registration", "Level 1", "25/25", "Start the clock", "left · ends at", "Undo"):
        assert gone not in said, (gone, said)
    assert "winner" not in said.casefold(), said
    assert "most chips (4,000)" in said and "by chip count (3,000)" in said and "never played" in said, said
    report = scene.public.get(f"{NIGHTS}/{phone.night['id']}").get_json()["tournament_id"]
    assert report and f'href="/results/{report}"' in over.get_data(as_text=True)
    tv = scene.public.get(f"/embed/venues/{scene.venue_id}/night").get_data(as_text=True)
    assert "The game is over" in tv and "Level 1" not in tv
