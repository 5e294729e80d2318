"""R8a, R19: a knocker is one of the report's own entrants, named as that entrant's row names
them (by player number, or by the name, email or membership number the row itself gave, or the
public display name), and never found by matching a player's stored personal values against the
text. A host's dry run naming a player of another venue by id must not let a "Knocked out by"
guess test that player's full name, email or membership number: a right guess and a wrong one get
the same refusal, and every miss counts against the host's key as an unknown email does (a 429
once the allowance is spent). JSON and spreadsheets alike."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.builders import TOURNAMENTS, Scene, days_ago, iso, stranger, unique_email, unique_name
from tests.support.league import Caller, assert_problem

DRY_RUN = f"{TOURNAMENTS}?dry_run=1"
KNOCKER = "results.1.knocked_out_by"


def guessing(scene: Scene, target: int, own: int, guess: str) -> dict[str, Any]:
    """A report at the host's venue: the stranger named by id wins, the host's own player is
    knocked out by a guess at the stranger's name."""
    rows = [
        {"place": 1, "player_id": target},
        {"place": 2, "player_id": own, "knocked_out_by_name": guess},
    ]
    return {"venue_id": scene.venue_id, "date": iso(days_ago(2)), "results": rows}


def said(response: Any) -> list[str]:
    """The refusal's words about the knocker, the guess itself taken out."""
    body = assert_problem(response, 422, KNOCKER, rule="R8a")
    return [message.split("names", 1)[1] for message in body["errors"][KNOCKER]]


def test_r8a_r19_a_knocker_guess_at_another_venues_player_answers_alike_right_or_wrong(
    scene: Scene,
) -> None:
    """R8a, R19: the probe's steps. The stranger is named by id; their full name, email and
    membership number as the knocker's name are refused exactly as a wrong guess is, and nothing
    in the answer holds them."""
    target = stranger(scene)
    (own,) = scene.add_players(1)
    wrong = said(scene.host.post(DRY_RUN, json=guessing(scene, target["id"], own, "Nobody Known")))
    for personal in ("full_name", "email", "membership_number"):
        guess = target[personal] if personal != "full_name" else target[personal].upper()
        response = scene.host.post(DRY_RUN, json=guessing(scene, target["id"], own, guess))
        assert said(response) == wrong, personal
        text = response.get_data(as_text=True).replace(guess, "")
        assert target["email"] not in text and target["full_name"] not in text
    # The public display name, and the player number, name the knocker (they are no secret).
    for named in (target["display_name"], str(target["id"])):
        answer = scene.host.post(DRY_RUN, json=guessing(scene, target["id"], own, named))
        assert answer.status_code == 200, answer.get_json()
        assert [r["knocked_out_by"] for r in answer.get_json()["results"]] == [None, target["id"]]


def test_r8a_r19_knocker_guesses_count_against_the_hosts_key_until_a_429(
    limited: Flask, scene: Scene
) -> None:
    """R19: 20 knocker names that name no entrant use up the key's allowance of unknown
    identifiers (25 in a row were never throttled); the next report naming a knocker by name is
    a 429 before anything is looked up, while reports by id still go in."""
    host = Caller(limited.test_client(), scene.host.key)
    target = stranger(scene)
    (own,) = scene.add_players(1)
    for n in range(20):
        assert_problem(host.post(DRY_RUN, json=guessing(scene, target["id"], own, f"Guess {n}")), 422)
    right = guessing(scene, target["id"], own, target["full_name"])
    spent = host.post(DRY_RUN, json=right)
    assert spent.status_code == 429 and spent.headers["Retry-After"]
    assert KNOCKER not in spent.get_data(as_text=True)
    by_id = guessing(scene, target["id"], own, "")
    del by_id["results"][1]["knocked_out_by_name"]
    by_id["results"][1]["knocked_out_by"] = target["id"]
    assert host.post(DRY_RUN, json=by_id).status_code == 200


def test_r8a_r19_an_id_that_names_no_entrant_counts_too(limited: Flask, scene: Scene) -> None:
    """R19: a knocker named by a player number that is not an entrant of the report counts as a
    miss: the same words whether or not the league knows the number."""
    host = Caller(limited.test_client(), scene.host.key)
    target = stranger(scene)
    own, absent = scene.add_players(2)
    answers = []
    for pid in (absent, 987654321):
        body = guessing(scene, target["id"], own, "")
        del body["results"][1]["knocked_out_by_name"]
        body["results"][1]["knocked_out_by"] = pid
        problem = assert_problem(host.post(DRY_RUN, json=body), 422, KNOCKER, rule="R8a")
        answers.append(problem["errors"][KNOCKER][0].replace(str(pid), "N"))
    assert answers[0] == answers[1]
    for n in range(18):
        assert_problem(host.post(DRY_RUN, json=guessing(scene, target["id"], own, f"Guess {n}")), 422)
    assert host.post(DRY_RUN, json=guessing(scene, target["id"], own, "One more")).status_code == 429


def test_r8a_a_knocker_is_named_by_what_its_own_row_gave(scene: Scene) -> None:
    """R8a: a row naming its player by email, membership number, full name or as a new player
    gives the knocker's name the same words; a row by id, its number or display name."""
    regular = scene.league.player(unique_name(), email=unique_email(), membership_number="199001011234")
    ann, filler = scene.add_players(2)
    # Ann has played at the venue, so her full name alone names her (R5).
    scene.posted(scene.body([ann, filler], days_ago(5)))
    ann_name = next(p["full_name"] for p in scene.roster if p["id"] == ann)
    newcomer = {"full_name": unique_name(), "email": unique_email()}
    rows: list[dict[str, Any]] = [
        {"place": 1, "email": regular["email"]},
        {"place": 2, "full_name": ann_name, "knocked_out_by_name": regular["email"].upper()},
        {"place": 3, "new_player": newcomer, "knocked_out_by_name": f"  {ann_name.lower()} "},
        {"place": 4, "player_id": filler, "knocked_out_by_name": newcomer["full_name"]},
    ]
    body = {"venue_id": scene.venue_id, "date": iso(days_ago(2)), "results": rows}
    answer = scene.host.post(DRY_RUN, json=body)
    assert answer.status_code == 200, answer.get_json()
    results = answer.get_json()["results"]
    # A dry run gives a player it would register no number: the newcomer's knockout shows as made.
    assert [r["knockouts"] for r in results] == [1, 1, 1, 0], results
    assert results[1]["knocked_out_by"] == regular["id"] and results[2]["knocked_out_by"] == ann
    by_number = [
        {"place": 1, "membership_number": regular["membership_number"]},
        {"place": 2, "player_id": ann, "knocked_out_by_name": regular["membership_number"]},
    ]
    answer = scene.host.post(DRY_RUN, json={**body, "results": by_number})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["results"][1]["knocked_out_by"] == regular["id"]


def test_r8a_r19_a_spreadsheets_knocker_column_is_no_oracle_either(scene: Scene) -> None:
    """R8a, R19: the sheet's "Knocked out by" column, naming the other venue's player by the
    full name the sheet never gave, is refused as a wrong name is."""
    target = stranger(scene)
    (own,) = scene.add_players(1)
    answers = []
    for guess in (target["full_name"], target["email"], "Nobody Known"):
        sheet = f"Place,Player ID,Knocked out by\n1,{target['id']},\n2,{own},{guess}\n"
        query = f"venue_id={scene.venue_id}&date={iso(days_ago(2))}&dry_run=1"
        response = scene.host.post(f"{TOURNAMENTS}?{query}", data=sheet.encode(), content_type="text/csv")
        assert response.status_code == 422, response.get_json()
        problem = {k: v for k, v in response.get_json().items() if k != "request_id"}
        answers.append(str(problem).replace(guess, "GUESS"))
    assert answers[0] == answers[1] == answers[2]
