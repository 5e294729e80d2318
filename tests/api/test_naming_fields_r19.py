"""R19 for every field that names a player, beyond a report's rows (tests/api/reports/
test_identifier_probes.py) and its knockers (tests/api/reports/test_knocker_probes.py):
sign-ins at the door, a night's knocker, consents, merges and head-to-head. None of them lets a
host or the public test a personal value of a player outside the host's venues: a right guess and
a wrong one are refused alike, misses count against the host's key, and no refusal holds
another player's full name, email or membership number."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.builders import Scene, stranger
from tests.support.league import Caller, assert_problem
from tests.support.nights import NIGHTS, Phone, action_id, opened

PLAYERS = "/api/v1/players"


def holds_none_of(response: Any, player: dict[str, Any]) -> None:
    text = response.get_data(as_text=True).casefold()
    for key in ("full_name", "email", "membership_number"):
        assert str(player[key]).casefold() not in text, key


def test_r19_r22_a_sign_in_by_name_refuses_a_stranger_as_it_refuses_nobody(scene: Scene) -> None:
    """R19, R22: at the door a full name names only the venue's own players; another venue's
    player's full name is refused in the words a name nobody has gets, naming no candidate."""
    target = stranger(scene)
    night = opened(scene)
    phone = Phone(scene.host, night)
    theirs = phone.send("sign_in", 422, player={"full_name": target["full_name"]})
    nobody = phone.send("sign_in", 422, player={"full_name": "Nobody Known Here"})
    assert theirs["errors"].keys() == nobody["errors"].keys()
    assert [m.replace(target["full_name"], "X") for m in sum(theirs["errors"].values(), [])] == [
        m.replace("Nobody Known Here", "X") for m in sum(nobody["errors"].values(), [])
    ]
    assert target["email"] not in str(theirs) and target["membership_number"] not in str(theirs)


def test_r19_r22_sign_in_guesses_count_against_the_hosts_key_until_a_429(
    limited: Flask, scene: Scene
) -> None:
    """R19, R22: membership numbers and emails guessed at the door that name nobody count
    against the host's key; once 20 have, the next sign-in naming anyone by number is a 429
    before any lookup, while a sign-in by player number still goes in."""
    host = Caller(limited.test_client(), scene.host.key)
    night = opened(scene, host)
    phone = Phone(host, night)
    for pin in range(10):
        problem = phone.send("sign_in", 422, player={"membership_number": f"19900101{pin:04d}"})
        assert "player.membership_number" in problem["errors"]
    for n in range(10):
        problem = phone.send("sign_in", 422, player={"email": f"guess{n}@example.org"})
        assert "player.email" in problem["errors"]
    target = stranger(scene)
    body = {
        "action_id": action_id(),
        "sequence": phone.night["sequence"],
        "type": "sign_in",
        "player": {"membership_number": target["membership_number"]},
    }
    spent = host.post(f"{NIGHTS}/{night['id']}/actions", json=body)
    assert spent.status_code == 429 and spent.headers["Retry-After"]
    holds_none_of(spent, target)
    (own,) = scene.add_players(1)
    phone.send("sign_in", player={"player_id": own})
    assert phone.night["entrants"] == 1


def test_r19_r22_a_nights_knocker_is_someone_signed_in_and_says_nothing_of_others(scene: Scene) -> None:
    """R8a, R19, R22: a bust-out's knocker is a player signed in tonight; another venue's player
    and an unknown number get the same words."""
    target = stranger(scene)
    night = opened(scene)
    phone = Phone(scene.host, night)
    a, b = scene.add_players(2)
    for pid in (a, b):
        phone.send("sign_in", player={"player_id": pid})
    words = []
    for knocker in (target["id"], 987654321):
        refused = phone.send("bust", 422, players=[{"player_id": a}], knocked_out_by=knocker)
        assert refused["rule"] == "R22" and "knocked_out_by" in refused["errors"]
        words.append(str(refused["errors"]).replace(str(knocker), "N"))
        holds_none_of(scene.host.post(f"{NIGHTS}/{night['id']}/actions", json={}), target)
    assert words[0] == words[1]


def test_r19_r23_a_hosts_consent_for_a_stranger_is_refused_and_tells_nothing(scene: Scene) -> None:
    """R19, R23: a host keeps the consent of their venues' players only. For another venue's
    player the refusal (read or write) holds none of their personal values, and nothing is
    recorded."""
    target = stranger(scene)
    path = f"{PLAYERS}/{target['id']}/email-consent"
    for answer in (scene.host.put(path, json={}), scene.host.get(path), scene.host.delete(path)):
        assert_problem(answer, 403)
        holds_none_of(answer, target)
    assert scene.office.get(path).get_json()["consent"] is False
    # A number that names nobody is a 404, as for anyone: player numbers are public (R19).
    assert_problem(scene.host.put(f"{PLAYERS}/987654321/email-consent", json={}), 404)


def test_r17_r19_merges_are_the_offices_and_a_host_learns_nothing_from_one(scene: Scene) -> None:
    """R17, R19: a host cannot merge, undo or list merges; the refusal names no one's personal
    values. The office's merge answer holds what moved (the office sees personal values)."""
    target = stranger(scene)
    (own,) = scene.add_players(1)
    body = {"duplicate_id": target["id"], "reason": "Same person"}
    answer = scene.host.post(f"{PLAYERS}/{own}/merge", json=body)
    assert_problem(answer, 403)
    holds_none_of(answer, target)
    listed = scene.host.get("/api/v1/player-merges")
    assert_problem(listed, 403)
    assert scene.public.get(f"{PLAYERS}/{target['id']}").get_json()["display_name"] == target["display_name"]


def test_r8a_r19_head_to_head_takes_a_player_number_and_shows_display_names_only(scene: Scene) -> None:
    """R8a, R19: head-to-head names the other player by number only (an email or a name is a 400
    naming `other`, nothing looked up); its answer, public, holds display names only."""
    target = stranger(scene)
    (own,) = scene.add_players(1)
    scene.report([own, target["id"]])
    path = f"{PLAYERS}/{own}/head-to-head"
    met = scene.public.get(f"{path}?other={target['id']}")
    assert met.status_code == 200, met.get_json()
    holds_none_of(met, target)
    assert met.get_json()["tournaments"] and met.get_json()["other"]["display_name"] == target["display_name"]
    for guess in (target["email"], target["full_name"], target["membership_number"]):
        refused = scene.public.get(path, query_string={"other": guess})
        assert refused.status_code in (400, 422) and "other" in refused.get_json()["errors"], guess
        holds_none_of(refused, target)
