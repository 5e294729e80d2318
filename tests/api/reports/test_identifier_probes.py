"""R19: a report must not become a way to test whom the league knows. Emails and membership
numbers that name no player (or, in a new player's row, name someone else) count against the
host's key as wrong keys count against an address (RATELIMIT_UNKNOWN_IDENTIFIERS, 20 per 10
minutes by default); a key that used its allowance up gets a 429 for its next report naming any
email or membership number, before anything is looked up; a report that would overdraw it is a
429 that blames no row. Rows beyond the league's max_entrants are refused by count, never looked
up. JSON, CSV, dry runs and corrections alike (the console's are in test_console.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Connection

from tests.builders import TOURNAMENTS, Scene, days_ago, iso, unique_email, unique_name
from tests.support.league import Caller, assert_problem, new_key
from tests.support.statements import statements

DRY_RUN = f"{TOURNAMENTS}?dry_run=1"
# The date of birth every guessed membership number starts with: 1 January 1990.
BORN = "19900101"
PLAYERS_READ = re.compile(r"\bFROM players\b", re.IGNORECASE)


def guesses(first: int, count: int) -> list[str]:
    """Membership numbers of one date of birth with the PINs first, first + 1, ..."""
    return [f"{BORN}{pin:04d}" for pin in range(first, first + count)]


def by_numbers(scene: Scene, numbers: list[str], **extra: Any) -> dict[str, Any]:
    """A report at the scene's venue naming every entrant by membership number."""
    rows = [{"place": place, "membership_number": n} for place, n in enumerate(numbers, start=1)]
    return {"venue_id": scene.venue_id, "date": iso(days_ago(2)), "results": rows, **extra}


NAMING = re.compile(r"results\.\d+\.(membership_number|email|full_name|new_player\.\w+)$")


def blamed(problem: dict[str, Any]) -> list[str]:
    """The fields a refusal blames on rows by what names their player."""
    return sorted(path for path in problem.get("errors", {}) if NAMING.match(path))


@pytest.fixture()
def players_read(connection: Connection) -> Iterator[list[str]]:
    """Every statement that reads the players table from now on."""
    with statements(connection, PLAYERS_READ) as seen:
        yield seen


def test_r19_unknown_membership_numbers_count_and_a_spent_key_meets_a_429_before_any_lookup(
    limited: Flask, scene: Scene, players_read: list[str]
) -> None:
    """R19: a host's dry runs blame the unknown membership numbers row by row while the key has
    allowance left, and each one counts; once 20 have counted, the key's next report naming any
    membership number or email (even a right one) is a 429 with Retry-After, answered before any
    player is read; reports naming players by id still go in. Counted per key: another host on
    the same address (a pub's shared Wi-Fi) is not slowed down."""
    host = Caller(limited.test_client(), scene.host.key)
    known = scene.league.player(unique_name(), membership_number=f"{BORN}7777")
    for first in (0, 10):
        problem = assert_problem(
            host.post(DRY_RUN, json=by_numbers(scene, guesses(first, 10))), 422, rule="R5"
        )
        assert blamed(problem) == sorted(f"results.{i}.membership_number" for i in range(10))
    second = scene.add_players(1)[0]
    players_read.clear()
    right = by_numbers(scene, [known["membership_number"]])
    right["results"].append({"place": 2, "player_id": second})
    by_email = [{"place": 1, "email": known["email"]}, right["results"][1]]
    for body in (right, {**right, "results": by_email}):
        refused = host.post(DRY_RUN, json=body)
        problem = assert_problem(refused, 429)
        assert int(refused.headers["Retry-After"]) > 0 and "name no player" in problem["detail"]
        assert "errors" not in problem
    assert players_read == []
    by_id = scene.body([known["id"], *scene.add_players(2)])
    assert host.post(DRY_RUN, json=by_id).status_code == 200
    neighbour = Caller(limited.test_client(), new_key(limited, "host", [scene.venue_id], "Host: next door"))
    assert neighbour.post(DRY_RUN, json=right).status_code == 200


@pytest.mark.parametrize("strategy", ["fixed-window", "moving-window", "sliding-window-counter"])
def test_r19_a_report_that_would_overdraw_the_allowance_is_a_429_blaming_no_row(
    make_app: Any, scene: Scene, strategy: str
) -> None:
    """R19: 30 unknown membership numbers in one dry run (the allowance is 20): the answer is a
    429 naming no row (which rows are unknown is what a sweep would learn), the allowance used
    up, and the key's next report naming any is a 429 too, whatever the limiter's strategy (a
    moving window records nothing that does not fit)."""
    limited = make_app(RATELIMIT_ENABLED=True, RATELIMIT_STRATEGY=strategy)
    host = Caller(limited.test_client(), scene.host.key)
    known = scene.league.player(unique_name(), membership_number=f"{BORN}0017")
    numbers = guesses(0, 30)
    assert known["membership_number"] in numbers
    refused = host.post(DRY_RUN, json=by_numbers(scene, numbers))
    problem = assert_problem(refused, 429)
    assert "errors" not in problem and "results" not in problem["detail"]
    assert_problem(host.post(DRY_RUN, json=by_numbers(scene, guesses(100, 1))), 429)


def test_r19_rows_beyond_max_entrants_are_refused_by_count_and_never_looked_up(
    limited: Flask, scene: Scene, players_read: list[str]
) -> None:
    """R19: a 10,000-row dry run (one date of birth, every PIN) when the league takes 500 entrants
    is refused by its count alone: no row is blamed, no player is read, nothing is counted
    against the key (whose next report is answered as usual)."""
    host = Caller(limited.test_client(), scene.host.key)
    scene.league.player(unique_name(), membership_number=f"{BORN}4321")
    players_read.clear()
    problem = assert_problem(host.post(DRY_RUN, json=by_numbers(scene, guesses(0, 10_000))), 422, "results")
    assert list(problem["errors"]) == ["results"]
    assert "At most 500 entrants" in problem["errors"]["results"][0]
    assert players_read == []
    problem = assert_problem(host.post(DRY_RUN, json=by_numbers(scene, guesses(0, 3))), 422, rule="R5")
    assert len(blamed(problem)) == 3


def test_r19_unknown_emails_count_and_new_players_do_not(limited: Flask, scene: Scene) -> None:
    """R19: an email alone that names no player counts, as a membership number does; a row that
    registers a new player (an email with a full name, or new_player) does not: a busy night
    registers 60 newcomers in one report, and its next report is answered as usual. A new
    player's row that names someone else's email or membership number counts: that is the same
    test of whom the league knows, turned around."""
    host = Caller(limited.test_client(), scene.host.key)
    newcomers = [{"place": p, "email": unique_email(), "full_name": unique_name()} for p in range(1, 31)]
    newcomers += [
        {"place": p, "new_player": {"email": unique_email(), "full_name": unique_name()}}
        for p in range(31, 61)
    ]
    night = {"venue_id": scene.venue_id, "date": iso(days_ago(2)), "results": newcomers}
    assert host.post(DRY_RUN, json=night).status_code == 200
    taken = scene.league.player(unique_name(), membership_number=f"{BORN}2468")
    strangers = [{"place": p, "email": unique_email()} for p in range(1, 19)]
    strangers += [
        {"place": 19, "email": taken["email"], "full_name": "Somebody Else Entirely"},
        {
            "place": 20,
            "new_player": {
                "email": unique_email(),
                "full_name": unique_name(),
                "membership_number": taken["membership_number"],
            },
        },
    ]
    problem = assert_problem(host.post(DRY_RUN, json={**night, "results": strangers}), 422, rule="R5")
    assert len(blamed(problem)) == 20
    assert_problem(host.post(DRY_RUN, json=night), 429)


def test_r19_csv_reports_corrections_and_half_readable_reports_count_alike(
    limited: Flask, scene: Scene
) -> None:
    """R19: the identifiers of a CSV report, of a correction, and of a report whose other rows are
    malformed (its rules still checked, so one answer names everything) count alike."""
    host = Caller(limited.test_client(), scene.host.key)
    csv = "place,membership_number\n" + "".join(f"{p},{n}\n" for p, n in enumerate(guesses(0, 8), start=1))
    query = f"venue_id={scene.venue_id}&date={iso(days_ago(2))}&dry_run=1"
    answer = host.post(f"{TOURNAMENTS}?{query}", data=csv, content_type="text/csv")
    assert assert_problem(answer, 422, rule="R5")["errors"]
    stored = scene.posted(scene.body(scene.add_players(3), days_ago(3)))
    correction = {"reason": "Wrong cards.", "results": by_numbers(scene, guesses(8, 8))["results"]}
    assert_problem(host.put(f"{TOURNAMENTS}/{stored['id']}?dry_run=1", json=correction), 422, rule="R5")
    half = by_numbers(scene, guesses(16, 3))
    half["results"].append({"place": "fourth", "membership_number": guesses(19, 1)[0]})
    problem = assert_problem(host.post(DRY_RUN, json=half), 422, "results.3.place")
    assert len(blamed(problem)) == 4
    assert_problem(host.post(DRY_RUN, json=by_numbers(scene, guesses(30, 1))), 429)


def test_r19_the_office_is_not_counted(limited: Flask, scene: Scene) -> None:
    """R19: the office may read every player's email and membership number, so its misses tell it
    nothing: they are not counted (a season's import with typos is not held up)."""
    office = Caller(limited.test_client(), scene.office.key)
    for first in (0, 30):
        problem = assert_problem(office.post(DRY_RUN, json=by_numbers(scene, guesses(first, 30))), 422)
        assert len(blamed(problem)) == 30


def test_r19_full_names_that_name_nobody_at_the_venue_count_as_unknown_identifiers(
    limited: Flask, scene: Scene, make_scene: Any
) -> None:
    """R19, R5: a host's dry runs of full names alone that no player of the venue has count
    against the key as unknown emails do, whether or not the name belongs to a player of
    another venue; once 20 have counted, the key's next report naming anyone by a name alone (or
    an email) is a 429 before anything is looked up. Names the venue's players have do not count."""
    host = Caller(limited.test_client(), scene.host.key)
    other = make_scene()
    stranger = other.league.player(unique_name())
    other.report([stranger["id"], *other.add_players(1)])
    regular = scene.league.player(unique_name())
    scene.report([regular["id"], *scene.add_players(1)])
    own = [{"place": p, "full_name": regular["full_name"]} for p in (1,)]
    for _ in range(3):
        rows = [*own, {"place": 2, "player_id": scene.add_players(1)[0]}]
        body = {"venue_id": scene.venue_id, "date": iso(days_ago(2)), "results": rows}
        assert host.post(DRY_RUN, json=body).status_code == 200
    names = [stranger["full_name"], *(unique_name() for _ in range(19))]
    rows = [{"place": p, "full_name": name} for p, name in enumerate(names, start=1)]
    body = {"venue_id": scene.venue_id, "date": iso(days_ago(2)), "results": rows}
    problem = assert_problem(host.post(DRY_RUN, json=body), 422, rule="R5")
    assert len(problem["errors"]) == 20
    said = " ".join(text for texts in problem["errors"].values() for text in texts)
    assert f"{stranger['id']} (" not in said and f"#{stranger['id']}" not in said
    assert "other venue" not in said and "elsewhere" not in said
    refused = host.post(DRY_RUN, json={**body, "results": [*own, *rows[1:2]]})
    assert_problem(refused, 429)


# Registering a player (POST /players) ------------------------------------------------------------

PLAYERS = "/api/v1/players"


def elsewhere(scene: Scene) -> dict[str, Any]:
    """A player of another venue (their home), whom the scene's host may not see."""
    other = scene.league.venue()
    return scene.league.player(unique_name(), home_venue_id=other["id"], membership_number=f"{BORN}0420")


def registration(**fields: Any) -> dict[str, Any]:
    return {"full_name": unique_name(), "email": unique_email(), **fields}


def test_r19_a_host_registering_a_known_email_or_number_is_not_told_whose_it_is(
    scene: Scene, limited: Flask
) -> None:
    """R19, R5: a host registering a player with the email, or the membership number, of another
    venue's player is refused (409 naming the field) without naming the player: no id, no
    display name. The office is told which player it is."""
    host = Caller(limited.test_client(), scene.host.key)
    known = elsewhere(scene)
    clashes = {
        "email": registration(email=known["email"].upper()),
        "membership_number": registration(membership_number=known["membership_number"]),
    }
    for field, body in clashes.items():
        problem = assert_problem(host.post(PLAYERS, json=body), 409, field)
        said = f"{problem['detail']} {problem['errors']}"
        assert not re.search(rf"\b{known['id']}\b", said) and known["display_name"] not in said, said
        told = assert_problem(scene.office.post(PLAYERS, json=body), 409, field)
        assert f"player {known['id']}" in told["errors"][field][0], told


def test_r19_known_emails_in_registrations_count_as_unknown_identifiers_and_a_spent_key_meets_a_429(
    scene: Scene, limited: Flask, players_read: list[str]
) -> None:
    """R19: a host's registration that finds the email or membership number taken counts against
    the key's allowance as an unknown identifier in a report does: 20 such refusals, then a 429.
    A key that used its allowance up (here, on dry runs' unknown numbers) gets a 429 for any
    registration (an email always comes with one) before any player is read, with Retry-After;
    another host's key registers as usual."""
    host = Caller(limited.test_client(), scene.host.key)
    known = elsewhere(scene)
    for n in range(20):
        body = (
            registration(email=known["email"])
            if n % 2
            else registration(membership_number=known["membership_number"])
        )
        assert_problem(host.post(PLAYERS, json=body), 409)
    spent = host.post(PLAYERS, json=registration(email=known["email"]))
    problem = assert_problem(spent, 429)
    assert int(spent.headers["Retry-After"]) > 0 and "errors" not in problem

    other = Caller(
        limited.test_client(), new_key(limited, "host", [scene.venue_id], "Host: Crown, late shift")
    )
    for first in (0, 10):
        assert_problem(other.post(DRY_RUN, json=by_numbers(scene, guesses(first, 10))), 422, rule="R5")
    players_read.clear()
    for body in (registration(email=known["email"]), registration()):
        refused = other.post(PLAYERS, json=body)
        assert_problem(refused, 429)
        assert int(refused.headers["Retry-After"]) > 0
    assert players_read == []
    neighbour = Caller(limited.test_client(), new_key(limited, "host", [scene.venue_id], "Host: next door"))
    assert neighbour.post(PLAYERS, json=registration()).status_code == 201


def test_r19_the_office_registering_a_known_email_is_not_counted(scene: Scene, limited: Flask) -> None:
    """R19: the office may read every player's email: its clashes tell it nothing and are not
    counted (30 clashes, then a registration that goes in)."""
    office = Caller(limited.test_client(), scene.office.key)
    known = elsewhere(scene)
    for _ in range(30):
        assert_problem(office.post(PLAYERS, json=registration(email=known["email"])), 409, "email")
    assert office.post(PLAYERS, json=registration()).status_code == 201


def test_r19_a_report_row_with_someone_elses_email_or_number_does_not_name_them(scene: Scene) -> None:
    """R19, R5: a host's report row giving another venue's player's email with another name, or
    a new player's row with their membership number, is refused naming the row's field, and the
    refusal names neither the player's id nor their display name."""
    known = elsewhere(scene)
    rows = [
        {"place": 1, "email": known["email"], "full_name": "Somebody Else Entirely"},
        {"place": 2, "new_player": {"email": unique_email(), "full_name": unique_name()}},
        {
            "place": 3,
            "new_player": {
                "email": unique_email(),
                "full_name": unique_name(),
                "membership_number": known["membership_number"],
            },
        },
    ]
    night = {"venue_id": scene.venue_id, "date": iso(days_ago(2)), "results": rows}
    problem = assert_problem(scene.host.post(DRY_RUN, json=night), 422, rule="R5")
    assert blamed(problem) == ["results.0.full_name", "results.2.new_player.membership_number"]
    said = f"{problem['detail']} {problem['errors']}"
    assert not re.search(rf"\b{known['id']}\b", said) and known["display_name"] not in said, said
