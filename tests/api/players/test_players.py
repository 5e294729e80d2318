"""Players (R5, R19) through the HTTP API: creation, identification, duplicates, privacy, changes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.builders import days_ago
from tests.support.league import assert_problem

PLAYERS = "/api/v1/players"
PUBLIC_KEYS = {"id", "display_name", "home_venue_id"}
PERSONAL = {"full_name", "email", "date_of_birth", "membership_number", "pin"}


def player_total(caller: Any) -> int:
    total: int = caller.get(PLAYERS).get_json()["total"]
    return total


# Creating players (R5) --------------------------------------------------------------------------


def test_office_creates_a_player_r5(office):
    response = office.post(
        PLAYERS,
        json={
            "full_name": "  Ann   Lee ",
            "email": "Ann.Lee@Example.org",
            "membership_number": "198507211234",
        },
    )
    assert response.status_code == 201, response.get_json()
    player = response.get_json()
    assert player["full_name"] == "Ann Lee"
    assert player["display_name"] == "Ann L."
    assert player["email"] == "ann.lee@example.org"
    assert player["membership_number"] == "198507211234"
    assert player["date_of_birth"] == "1985-07-21"  # derived from the number (R5)
    assert player["pin"] == "1234"
    assert player["home_venue_id"] is None
    assert player["warnings"] == []


def test_host_creates_a_player_public_cannot(host_for, league, public):
    venue = league.venue()
    host = host_for(venue["id"])
    response = host.post(
        PLAYERS, json={"full_name": "Sam Park", "email": "sam@example.org", "home_venue_id": venue["id"]}
    )
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["home_venue_id"] == venue["id"]
    assert_problem(public.post(PLAYERS, json={"full_name": "Zed Q", "email": "z@example.org"}), 401)
    assert player_total(public) == 1


@pytest.mark.parametrize(
    ("full_name", "display_name"),
    [
        ("Ann Lee", "Ann L."),
        ("mary jane van dyke", "mary D."),
        ("Madonna", "Madonna"),
        ("José O'Neil", "José O."),
        ("A" * 150 + " Smith", "A" * 117 + " S."),  # fits the 120 characters a display name has
        ("ß" * 200, "ß" * 120),  # and its name key may grow ('ss') but is stored
    ],
)
def test_default_display_name_r19(office, full_name, display_name):
    """R19: the public sees a display name, by default the first name and the last initial."""
    response = office.post(PLAYERS, json={"full_name": full_name, "email": "x@example.org"})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["display_name"] == display_name


def test_display_name_given_is_kept(office):
    response = office.post(
        PLAYERS, json={"full_name": "Ann Lee", "email": "a@example.org", "display_name": "Annie"}
    )
    assert response.get_json()["display_name"] == "Annie"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"full_name": "Ann Lee"}, "email"),
        ({"full_name": "Ann Lee", "email": None}, "email"),
        ({"full_name": "Ann Lee", "email": "not-an-email"}, "email"),
        ({"email": "a@example.org"}, "full_name"),
        ({"full_name": "  ", "email": "a@example.org"}, "full_name"),
        ({"full_name": "Ann Lee", "email": "a@example.org", "date_of_birth": "1985-02-30"}, "date_of_birth"),
        ({"full_name": "Ann Lee", "email": "a@example.org", "date_of_birth": "2999-01-01"}, "date_of_birth"),
        ({"full_name": "Ann Lee", "email": "a@example.org", "home_venue_id": 99999}, "home_venue_id"),
        ({"full_name": "Ann Lee", "email": "a@example.org", "nickname": "Ace"}, "nickname"),
    ],
)
def test_invalid_player_refused(office, body, field):
    assert_problem(office.post(PLAYERS, json=body), 422, field)
    assert player_total(office) == 0


@pytest.mark.parametrize(
    "number",
    [
        "19850721123",  # 11 digits
        "1985072112345",  # 13 digits
        "19850721123a",
        "1985-07-21-1234",
        "198507211234\n",
        "١٩٨٥٠٧٢١١٢٣٤",  # Arabic-Indic digits are digits, but not a membership number
        "202602301234",  # 2026-02-30 is no date of birth
        "198513011234",  # month 13
        "299901011234",  # born in the future
        "189912311234",  # before 1900
    ],
)
def test_membership_number_is_dob_and_pin_r5(office, number):
    """R5 (002): a membership number is the date of birth YYYYMMDD followed by a 4-digit PIN."""
    response = office.post(
        PLAYERS, json={"full_name": "Ann Lee", "email": "a@example.org", "membership_number": number}
    )
    assert_problem(response, 422, "membership_number")
    assert player_total(office) == 0


def test_membership_number_must_match_date_of_birth_r5(office):
    response = office.post(
        PLAYERS,
        json={
            "full_name": "Ann Lee",
            "email": "a@example.org",
            "date_of_birth": "1985-07-22",
            "membership_number": "198507211234",
        },
    )
    assert_problem(response, 422, "membership_number", rule="R5")
    assert player_total(office) == 0
    matching = office.post(
        PLAYERS,
        json={
            "full_name": "Ann Lee",
            "email": "a@example.org",
            "date_of_birth": "1985-07-21",
            "membership_number": "198507211234",
        },
    )
    assert matching.status_code == 201
    assert matching.get_json()["date_of_birth"] == "1985-07-21"


def test_email_unique_ignoring_case_r5(league):
    first = league.player("Ann Lee", email="ann@example.org")
    response = league.office.post(PLAYERS, json={"full_name": "Other Ann", "email": "ANN@Example.ORG"})
    body = assert_problem(response, 409, "email")
    assert str(first["id"]) in body["errors"]["email"][0]
    assert player_total(league.office) == 1


def test_membership_number_unique_r5(league):
    league.player("Ann Lee", membership_number="198507211234")
    response = league.office.post(
        PLAYERS, json={"full_name": "Bo Lee", "email": "bo@example.org", "membership_number": "198507211234"}
    )
    assert_problem(response, 409, "membership_number")
    assert player_total(league.office) == 1


# Possible duplicates (R5) -----------------------------------------------------------------------


def duplicate_ids(response: Any) -> list[int]:
    assert response.status_code == 201, response.get_json()
    warnings = response.get_json()["warnings"]
    if not warnings:
        return []
    assert [w["code"] for w in warnings] == ["possible_duplicate"]
    assert "R5" in warnings[0]["message"]
    ids: list[int] = warnings[0]["player_ids"]
    return ids


@pytest.mark.parametrize(
    ("new_name", "listed"),
    [
        ("Ann Lee", True),  # the same name
        ("ann  LEE", True),  # the same name, other case and spacing
        ("Lee Ann", True),  # the same words reordered
        ("Ann Lea", True),  # one typo
        ("Anne Lee", True),  # one letter more
        ("Ann Leigh", False),  # three edits away
        ("Bob Lee", False),
    ],
)
def test_duplicate_warning_lists_candidates_r5(league, new_name, listed):
    """R5: a new player whose name closely matches is still created, with the candidates listed."""
    ann = league.player("Ann Lee")
    league.player("Zoe Quinn")
    created = league.player(new_name)
    warnings = created["warnings"]
    if listed:
        assert [w["code"] for w in warnings] == ["possible_duplicate"]
        assert warnings[0]["player_ids"] == [ann["id"]]
        assert "R5" in warnings[0]["message"]
    else:
        assert warnings == []
    assert player_total(league.office) == 3


def test_duplicate_warning_typos_r5(league):
    john = league.player("John Smith")
    office = league.office
    one_typo = office.post(PLAYERS, json={"full_name": "Jon Smith", "email": "jon@example.org"})
    assert duplicate_ids(one_typo) == [john["id"]]
    accents = office.post(PLAYERS, json={"full_name": "Jöhn Smith", "email": "j2@example.org"})
    assert john["id"] in duplicate_ids(accents)
    stranger = office.post(PLAYERS, json={"full_name": "Maria Lopez", "email": "m@example.org"})
    assert duplicate_ids(stranger) == []
    assert player_total(office) == 4


# Privacy (R19) ----------------------------------------------------------------------------------


@pytest.fixture()
def regular(league):
    """A player of one venue with every personal field, and a second venue."""
    home, other = league.venue(), league.venue()
    player = league.player(
        "Ann Lee",
        email="ann.private@example.org",
        membership_number="198507211234",
        home_venue_id=home["id"],
    )
    return {"player": player, "home": home, "other": other}


def test_public_sees_only_display_name_r19(regular, public):
    """R19: the public never sees email, date of birth, membership number or PIN."""
    player = regular["player"]
    response = public.get(f"{PLAYERS}/{player['id']}")
    assert response.status_code == 200
    shown = response.get_json()
    assert {key: shown[key] for key in PUBLIC_KEYS} == {
        "id": player["id"],
        "display_name": "Ann L.",
        "home_venue_id": regular["home"]["id"],
    }
    assert PERSONAL.isdisjoint(shown), shown
    text = response.get_data(as_text=True)
    for secret in ("ann.private", "198507211234", "1985-07-21", "Lee"):
        assert secret not in text
    listed = public.get(PLAYERS).get_json()["items"]
    assert [item["id"] for item in listed] == [player["id"]]
    assert set(listed[0]) >= PUBLIC_KEYS and PERSONAL.isdisjoint(listed[0])
    assert "ann.private" not in public.get(PLAYERS).get_data(as_text=True)


def test_office_sees_personal_fields_r19(regular, office):
    shown = office.get(f"{PLAYERS}/{regular['player']['id']}").get_json()
    assert shown["email"] == "ann.private@example.org"
    assert shown["date_of_birth"] == "1985-07-21"
    assert shown["membership_number"] == "198507211234"
    assert shown["pin"] == "1234"
    assert shown["full_name"] == "Ann Lee"


def test_host_of_home_venue_sees_personal_fields_r19(regular, host_for):
    host = host_for(regular["home"]["id"])
    shown = host.get(f"{PLAYERS}/{regular['player']['id']}").get_json()
    assert set(shown) >= PERSONAL
    assert shown["email"] == "ann.private@example.org" and shown["pin"] == "1234"
    listed = host.get(PLAYERS).get_json()["items"]
    assert listed[0]["membership_number"] == "198507211234"


def test_host_of_another_venue_does_not_r19(regular, host_for):
    host = host_for(regular["other"]["id"])
    shown = host.get(f"{PLAYERS}/{regular['player']['id']}")
    assert set(shown.get_json()) >= PUBLIC_KEYS
    assert PERSONAL.isdisjoint(shown.get_json())
    assert "ann.private" not in shown.get_data(as_text=True)
    listed = host.get(PLAYERS).get_json()["items"]
    assert len(listed) == 1 and PERSONAL.isdisjoint(listed[0])


def test_search_by_display_name_for_the_public_r19(league, public, office):
    ann = league.player("Ann Lee", email="ann@example.org")
    league.player("Bob Stone", email="bob@example.org")
    found = public.get(f"{PLAYERS}?q=ann").get_json()
    assert (found["total"], [p["id"] for p in found["items"]]) == (1, [ann["id"]])
    assert public.get(f"{PLAYERS}?q=ANN%20L").get_json()["total"] == 1
    # The full name and email are personal: the public cannot search by them (R19)...
    assert public.get(f"{PLAYERS}?q=lee").get_json()["total"] == 0
    assert public.get(f"{PLAYERS}?q=ann@example").get_json()["total"] == 0
    # ...the office can.
    assert [p["id"] for p in office.get(f"{PLAYERS}?q=lee").get_json()["items"]] == [ann["id"]]
    assert [p["id"] for p in office.get(f"{PLAYERS}?q=ann@example").get_json()["items"]] == [ann["id"]]


def test_unknown_player_404(public):
    assert_problem(public.get(f"{PLAYERS}/99999"), 404)


# Changes (office only, audited) -----------------------------------------------------------------


def test_office_patch_audited_r18(regular, office):
    player = regular["player"]
    path = f"{PLAYERS}/{player['id']}"
    response = office.patch(path, json={"display_name": "Annie L", "home_venue_id": regular["other"]["id"]})
    assert response.status_code == 200, response.get_json()
    changed = response.get_json()
    assert changed["display_name"] == "Annie L"
    assert changed["home_venue_id"] == regular["other"]["id"]
    log = office.get(f"/api/v1/audit-log?entity=player&entity_id={player['id']}").get_json()
    update = log["items"][0]
    assert update["action"] == "player.update"
    assert update["before"]["display_name"] == "Ann L." and update["after"]["display_name"] == "Annie L"
    assert update["before"]["home_venue_id"] == regular["home"]["id"]
    assert update["after"]["home_venue_id"] == regular["other"]["id"]


def test_host_may_not_patch_r19(regular, host_for, public, office):
    path = f"{PLAYERS}/{regular['player']['id']}"
    assert_problem(host_for(regular["home"]["id"]).patch(path, json={"display_name": "X"}), 403)
    assert_problem(public.patch(path, json={"display_name": "X"}), 401)
    assert office.get(path).get_json()["display_name"] == "Ann L."


def test_patch_checks_like_create_r5(regular, league):
    office = league.office
    other = league.player("Bob Stone", email="bob@example.org")
    path = f"{PLAYERS}/{regular['player']['id']}"
    assert_problem(office.patch(path, json={"email": "BOB@example.org"}), 409, "email")
    assert_problem(office.patch(path, json={"date_of_birth": "1985-07-22"}), 422, "membership_number")
    assert_problem(office.patch(path, json={"membership_number": "198507219"}), 422, "membership_number")
    assert_problem(office.patch(path, json={"full_name": None}), 422, "full_name")
    assert_problem(office.patch(path, json={"home_venue_id": 99999}), 422, "home_venue_id")
    shown = office.get(path).get_json()
    assert shown["email"] == "ann.private@example.org"
    assert shown["date_of_birth"] == "1985-07-21"
    assert other["id"] != regular["player"]["id"]
    # A new number that agrees with the date of birth is taken; its PIN with it.
    changed = office.patch(path, json={"membership_number": "198507219999"})
    assert changed.status_code == 200
    assert changed.get_json()["pin"] == "9999"


def test_a_voided_report_does_not_open_a_strangers_personal_fields_to_a_host_r19(make_scene):
    """R19: a host sees personal fields of players of their venues: the home venue, or a venue
    where they played in a live report. Naming a stranger in a report and voiding it leaves the
    stranger a stranger; a live report naming them does show them (they played there), and
    voiding it hides them again."""
    scene = make_scene()
    stranger = scene.league.player(
        "Sam Stranger", date_of_birth="1985-07-21", membership_number="198507211234"
    )
    others = scene.players("Ann", "Bob")
    path = f"/api/v1/players/{stranger['id']}"

    def seen_by_host() -> dict[str, Any]:
        answer = scene.host.get(path)
        assert answer.status_code == 200
        body: dict[str, Any] = answer.get_json()
        return body

    assert "email" not in seen_by_host()
    report = scene.posted(scene.body([stranger["id"], *others]), scene.host)
    shown = seen_by_host()
    assert (shown["email"], shown["date_of_birth"], shown["membership_number"]) == (
        stranger["email"],
        "1985-07-21",
        "198507211234",
    )
    voided = scene.host.post(f"/api/v1/tournaments/{report['id']}/void", json={"reason": "Wrong player."})
    assert voided.status_code == 200
    hidden = seen_by_host()
    assert not {"email", "date_of_birth", "membership_number"} & hidden.keys()
    # Posted and voided straight away, never read in between: still a stranger.
    again = scene.posted(scene.body([stranger["id"], *others], days_ago(3)), scene.host)
    assert (
        scene.host.post(f"/api/v1/tournaments/{again['id']}/void", json={"reason": "Oops."}).status_code
        == 200
    )
    assert "email" not in seen_by_host()
    search = scene.host.get("/api/v1/players?q=Sam").get_json()["items"]
    assert [p for p in search if p["id"] == stranger["id"]] and all("email" not in p for p in search)


def test_names_are_stored_in_one_spelling_and_hold_no_invisible_characters_r5(office, league):
    """R5: players are told apart by their names, so a name has one spelling: "José" typed as
    "e" plus a combining accent is stored as the single "é" (NFC), and the two are the same
    name; direction marks, zero-width spaces and joiners and soft hyphens, which make two names
    that look the same differ, are refused (422) naming the field."""
    decomposed = "Jose\u0301 Ramos"
    created = office.post("/api/v1/players", json={"full_name": decomposed, "email": "jr1@example.org"})
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["full_name"] == "Jos\u00e9 Ramos"
    assert created.get_json()["display_name"] == "Jos\u00e9 R."
    for name in (
        "Jo\u200bs\u00e9 Ramos",
        "\u202eJos\u00e9 Ramos",
        "Jos\u00e9\u200d Ramos",
        "Jos\u00ade Ramos",
    ):
        response = office.post("/api/v1/players", json={"full_name": name, "email": "jr2@example.org"})
        assert "invisible" in assert_problem(response, 422, "full_name")["errors"]["full_name"][0]
        shown = office.post(
            "/api/v1/players",
            json={"full_name": "Jo Ramos", "display_name": name, "email": "jr3@example.org"},
        )
        assert_problem(shown, 422, "display_name")
    region = league.region()
    assert_problem(
        office.post("/api/v1/venues", json={"name": "The \u200fCrown", "region_id": region["id"]}),
        422,
        "name",
    )


def test_a_reports_new_player_with_an_invisible_character_is_refused_whole_r5(scene):
    """R5: the same in a report's new player: the whole report is refused, naming the row."""
    body = scene.body(scene.players("Ann"), days_ago(2))
    before = scene.player_count()
    body["results"].append(
        {"place": 2, "new_player": {"full_name": "Bo\u200b Bell", "email": "bo@example.org"}}
    )
    assert_problem(scene.office.post("/api/v1/tournaments", json=body), 422, "results.1.new_player.full_name")
    assert scene.player_count() == before


def test_a_host_registers_players_at_their_own_venues_only_r19(host_for, league, office):
    """R19: a home venue opens a player's personal fields to that venue's hosts, so a host may
    give a new player one of their own venues as home, or none; another venue is a 403 naming
    home_venue_id, and no player is made. The office may give any."""
    mine, theirs = league.venue(), league.venue()
    host = host_for(mine["id"])
    before = player_total(office)
    elsewhere = {"full_name": "Tia Trav", "email": "tia@example.org", "home_venue_id": theirs["id"]}
    problem = assert_problem(host.post(PLAYERS, json=elsewhere), 403, "home_venue_id", rule="R19")
    assert str(theirs["id"]) in problem["detail"]
    assert player_total(office) == before
    assert host.post(PLAYERS, json={**elsewhere, "home_venue_id": None}).status_code == 201
    assert office.post(PLAYERS, json={**elsewhere, "email": "tia2@example.org"}).status_code == 201
