"""The door list (R15, R16): GET /venues/{id}/barred?on=DATE lists every player who may not play
at the venue that day (league-wide suspensions and bans at that venue, none lifted), as JSON or
as CSV to print; for the venue's hosts and the office. Each barred player with their full name,
display name and player number (R19: the door must recognise them): first those who played at
the venue, then those who played elsewhere in its region, then the rest of the league, each
group by display name then id."""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from typing import Any

import pytest

from tests.builders import SANCTIONS, Scene, ago, days_ago, iso, sanctioned, utc_today
from tests.support.league import Caller, assert_problem

CSV_HEADER = [
    "display_name",
    "player_id",
    "kind",
    "category",
    "first_day",
    "last_day",
    "sanction_id",
    "full_name",
    "group",
]


def barred_url(venue_id: int, query: str = "") -> str:
    return f"/api/v1/venues/{venue_id}/barred{query}"


def door_list(caller: Caller, venue_id: int, query: str = "") -> dict[str, Any]:
    """The door list as JSON (a 200)."""
    response = caller.get(barred_url(venue_id, query))
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    data: dict[str, Any] = response.get_json()
    return data


def barred_ids(caller: Caller, venue_id: int, query: str = "") -> list[int]:
    """The ids of the players on the door list, in its order."""
    return [row["player"]["id"] for row in door_list(caller, venue_id, query)["barred"]]


def full_name(scene: Scene, player_id: int) -> str:
    """The full name the scene registered the player with."""
    (name,) = [p["full_name"] for p in scene.roster if p["id"] == player_id]
    return str(name)


def csv_rows(response: Any) -> list[list[str]]:
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


@pytest.fixture()
def door(scene: Scene) -> dict[str, Any]:
    """Players around today at the scene's venue: Baker suspended (running), Adams banned here
    for good, Carter banned at another venue, Dunn warned, Evans reminded, Fox's suspension
    lifted, Gray's over, Hill's to come. Created so the insertion order is not the sorted one."""
    baker, adams, carter, dunn, evans, fox, gray, hill = scene.players(
        "Baker", "Adams", "Carter", "Dunn", "Evans", "Fox", "Gray", "Hill"
    )
    elsewhere = int(scene.league.venue(scene.region["id"])["id"])
    office = scene.office
    made = {
        "baker": sanctioned(office, baker, "suspension", "fighting", first_day=ago(5), last_day=ago(-9)),
        "adams": sanctioned(
            office, adams, "venue_ban", "outside_alcohol", venue_id=scene.venue_id, first_day=ago(40)
        ),
        "carter": sanctioned(office, carter, "venue_ban", "fighting", venue_id=elsewhere, first_day=ago(5)),
        "dunn": sanctioned(office, dunn, "warning", "berating", first_day=ago(0), last_day=ago(-30)),
        "evans": sanctioned(office, evans, "reminder", "late_arrival", first_day=ago(0), last_day=ago(-30)),
        "fox": sanctioned(office, fox, "suspension", "cheating", first_day=ago(5)),
        "gray": sanctioned(office, gray, "suspension", "fighting", first_day=ago(40), last_day=ago(26)),
        "hill": sanctioned(office, hill, "suspension", "fighting", first_day=ago(-2), last_day=ago(-16)),
    }
    lifted = office.post(f"{SANCTIONS}/{made['fox']['id']}/lift", json={"reason": "Cleared on appeal."})
    assert lifted.status_code == 200
    players = dict(
        zip(
            ("baker", "adams", "carter", "dunn", "evans", "fox", "gray", "hill"),
            (baker, adams, carter, dunn, evans, fox, gray, hill),
            strict=True,
        )
    )
    return {"players": players, "sanctions": made, "elsewhere": elsewhere}


def test_todays_door_list_r16(scene: Scene, door: dict[str, Any]) -> None:
    """R16: today, a running suspension and a ban here bar; a ban elsewhere, a warning, a reminder,
    a lifted, an expired and a future suspension do not. Sorted by display name (neither played
    anywhere: both are the league's). R19: each with their full name, to be recognised."""
    body = door_list(scene.host, scene.venue_id)
    assert (body["venue_id"], body["on"], body["total"]) == (scene.venue_id, iso(utc_today()), 2)
    adams, baker = body["barred"]
    players, made = door["players"], door["sanctions"]
    assert adams["player"] == {
        "id": players["adams"],
        "display_name": "Adams",
        "label": "Adams",
        "full_name": full_name(scene, players["adams"]),
    }
    assert (adams["group"], baker["group"]) == ("league", "league")
    assert (adams["last_day"], adams["permanent"]) == (None, True)
    assert adams["sanction"]["id"] == made["adams"]["id"]
    assert (adams["sanction"]["kind"], adams["sanction"]["venue_id"]) == ("venue_ban", scene.venue_id)
    assert adams["sanction_ids"] == [made["adams"]["id"]]
    assert baker["player"] == {
        "id": players["baker"],
        "display_name": "Baker",
        "label": "Baker",
        "full_name": full_name(scene, players["baker"]),
    }
    assert (baker["last_day"], baker["permanent"]) == (ago(-9), False)
    assert baker["sanction"]["id"] == made["baker"]["id"]
    assert baker["sanction"]["category"] == "fighting"
    assert baker["sanction_ids"] == [made["baker"]["id"]]


def test_the_office_reads_any_venues_door_list_r16(scene: Scene, door: dict[str, Any]) -> None:
    """R16: at the other venue, Carter's ban there and Baker's suspension bar; Adams's ban here does not."""
    players = door["players"]
    assert barred_ids(scene.office, door["elsewhere"]) == [players["baker"], players["carter"]]
    assert barred_ids(scene.office, scene.venue_id) == [players["adams"], players["baker"]]


def test_default_day_is_today_r16(scene: Scene, door: dict[str, Any]) -> None:
    """R16: no `on` is today: the same list as on=today, not as on a later day."""
    assert door_list(scene.host, scene.venue_id) == door_list(scene.host, scene.venue_id, f"?on={ago(0)}")
    players = door["players"]
    # In three days Hill's suspension has begun.
    assert barred_ids(scene.host, scene.venue_id, f"?on={ago(-3)}") == [
        players["adams"],
        players["baker"],
        players["hill"],
    ]


@pytest.mark.parametrize(("day_ago", "listed"), [(31, False), (30, True), (16, True), (15, False)])
def test_first_and_last_day_bar_r16(scene: Scene, day_ago: int, listed: bool) -> None:
    """R16: from first_day (30 days ago) to last_day (16 days ago), both included; not the day
    before nor the day after."""
    player = scene.player("Ivy")
    sanction = sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(30), last_day=ago(16))
    body = door_list(scene.host, scene.venue_id, f"?on={ago(day_ago)}")
    assert body["on"] == ago(day_ago)
    assert [r["player"]["id"] for r in body["barred"]] == ([player] if listed else [])
    assert body["total"] == (1 if listed else 0)
    if listed:
        assert body["barred"][0]["sanction_ids"] == [sanction["id"]]
        assert body["barred"][0]["last_day"] == ago(16)


def test_a_lifted_sanction_bars_no_one_even_on_days_it_ran_r16(scene: Scene) -> None:
    """R16: lifted, a sanction is off the door list, also for the days before the lift."""
    player = scene.player("Jo")
    sanction = sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(30), last_day=ago(16))
    ban = sanctioned(
        scene.office, player, "venue_ban", "fighting", venue_id=scene.venue_id, first_day=ago(30)
    )
    assert barred_ids(scene.host, scene.venue_id, f"?on={ago(20)}") == [player]
    for lifted in (sanction, ban):
        assert scene.office.post(f"{SANCTIONS}/{lifted['id']}/lift", json={"reason": "x"}).status_code == 200
    assert barred_ids(scene.host, scene.venue_id, f"?on={ago(20)}") == []
    assert barred_ids(scene.host, scene.venue_id) == []


def test_the_sanction_shown_is_the_one_that_bars_longest_r16(scene: Scene) -> None:
    """R16: one row per player; `sanction` is the permanent one (else the one ending last), and
    `sanction_ids` names every sanction that bars them."""
    kim, lou = scene.players("Kim", "Lou")
    office = scene.office
    kim_short = sanctioned(office, kim, "suspension", "fighting", first_day=ago(5), last_day=ago(-9))
    kim_ban = sanctioned(office, kim, "venue_ban", "gambling", venue_id=scene.venue_id, first_day=ago(3))
    kim_long = sanctioned(office, kim, "suspension", "cheating", first_day=ago(2), last_day=ago(-30))
    lou_long = sanctioned(office, lou, "suspension", "cheating", first_day=ago(3), last_day=ago(-40))
    lou_short = sanctioned(
        office, lou, "venue_ban", "fighting", venue_id=scene.venue_id, first_day=ago(1), last_day=ago(-2)
    )
    body = door_list(scene.office, scene.venue_id)
    assert body["total"] == 2
    kim_row, lou_row = body["barred"]
    assert kim_row["player"]["id"] == kim
    assert kim_row["sanction"]["id"] == kim_ban["id"]
    assert (kim_row["last_day"], kim_row["permanent"]) == (None, True)
    assert sorted(kim_row["sanction_ids"]) == sorted([kim_short["id"], kim_ban["id"], kim_long["id"]])
    assert lou_row["sanction"]["id"] == lou_long["id"]
    assert (lou_row["last_day"], lou_row["permanent"]) == (ago(-40), False)
    assert sorted(lou_row["sanction_ids"]) == sorted([lou_long["id"], lou_short["id"]])


def test_sorted_by_display_name_then_id_r16(scene: Scene) -> None:
    """R16: by display name, and two players of the same name by id (sanctioned in the other order);
    R19: those two show their player numbers."""
    first, second = scene.players("Sam Same", "Sam Same")
    zed, abe = scene.players("Zed", "Abe")
    for player in (zed, second, abe, first):
        sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(1))
    assert barred_ids(scene.host, scene.venue_id) == [abe, first, second, zed]
    labels = [row["player"]["label"] for row in door_list(scene.host, scene.venue_id)["barred"]]
    assert labels == ["Abe", f"Sam Same #{first}", f"Sam Same #{second}", "Zed"]


def test_door_list_as_csv_r16(scene: Scene, door: dict[str, Any]) -> None:
    """R16: ?format=csv and Accept: text/csv give the printable list, 'permanent' for no last day."""
    players, made = door["players"], door["sanctions"]
    expected = [
        CSV_HEADER,
        [
            "Adams",
            str(players["adams"]),
            "venue_ban",
            "outside_alcohol",
            ago(40),
            "permanent",
            str(made["adams"]["id"]),
            full_name(scene, players["adams"]),
            "league",
        ],
        [
            "Baker",
            str(players["baker"]),
            "suspension",
            "fighting",
            ago(5),
            ago(-9),
            str(made["baker"]["id"]),
            full_name(scene, players["baker"]),
            "league",
        ],
    ]
    assert csv_rows(scene.host.get(barred_url(scene.venue_id, "?format=csv"))) == expected
    accept = scene.host.get(barred_url(scene.venue_id), headers={"Accept": "text/csv"})
    assert csv_rows(accept) == expected
    past = scene.office.get(barred_url(scene.venue_id, f"?format=csv&on={ago(30)}"))
    rows = csv_rows(past)
    assert rows[0] == CSV_HEADER
    assert sorted(r[0] for r in rows[1:]) == ["Adams", "Gray"]


def test_an_empty_door_list_r16(scene: Scene) -> None:
    """R16: no one barred: an empty list, and a CSV with the header only."""
    body = door_list(scene.host, scene.venue_id)
    assert (body["total"], body["barred"]) == (0, [])
    assert csv_rows(scene.host.get(barred_url(scene.venue_id, "?format=csv"))) == [CSV_HEADER]


def test_who_may_read_the_door_list_r16(scene: Scene) -> None:
    """R16: the venue's hosts and the office; another venue's host 403, the public 401, an unknown
    venue 404."""
    player = scene.player("Max")
    sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(1))
    elsewhere = int(scene.league.venue(scene.region["id"])["id"])
    stranger = scene.host_for(elsewhere, name="Host: Elsewhere")
    assert barred_ids(scene.host, scene.venue_id) == [player]
    assert barred_ids(scene.office, scene.venue_id) == [player]
    assert barred_ids(stranger, elsewhere) == [player]
    assert_problem(stranger.get(barred_url(scene.venue_id)), 403)
    assert_problem(stranger.get(barred_url(scene.venue_id, "?format=csv")), 403)
    assert_problem(scene.public.get(barred_url(scene.venue_id)), 401)
    assert_problem(scene.office.get(barred_url(987654321)), 404)


def test_a_host_ban_is_on_their_door_list_r15(scene: Scene) -> None:
    """R15, R16: a ban the host issued bars the player at that venue from its first day."""
    player = scene.player("Ned")
    ban = sanctioned(scene.host, player, "venue_ban", "fighting", venue_id=scene.venue_id, first_day=ago(0))
    (row,) = door_list(scene.host, scene.venue_id)["barred"]
    assert (row["player"]["id"], row["sanction"]["id"], row["sanction"]["issued_by"]) == (
        player,
        ban["id"],
        "Host: Crown",
    )
    assert barred_ids(scene.host, scene.venue_id, f"?on={ago(1)}") == []


TOURNAMENTS = "/api/v1/tournaments"


def test_played_here_first_then_the_region_then_the_league_r16_r19(scene: Scene, make_scene: Any) -> None:
    """R16: the door list groups its players: who played at the venue (a result in a live report
    there), then who played at another venue of its region, then the rest of the league (played
    in another region, never played, or only in a report since voided); each group by display
    name then id, in the JSON (`group`) and in the CSV (its `group` and `full_name` columns)."""
    neighbour = int(scene.league.venue(scene.region["id"], name="The Neighbour")["id"])
    away = make_scene()
    zara, yul, mona, abe, ann, bea = scene.players("Zara", "Yul", "Mona", "Abe", "Ann", "Bea")
    first = scene.report([zara, mona])  # Zara played here, and so did Mona...
    scene.report([yul, zara], days_ago(9), venue_id=neighbour)
    scene.report([yul, mona], days_ago(8), venue_id=neighbour)
    away.report([abe, bea])
    voided = scene.report([ann, abe])
    void = scene.office.post(f"{TOURNAMENTS}/{voided['id']}/void", json={"reason": "Wrong venue."})
    assert void.status_code == 200, void.get_data(as_text=True)
    # ...but Mona's result here is corrected away: she played in the region only.
    correct = scene.office.put(
        f"{TOURNAMENTS}/{first['id']}",
        json={**scene.body([zara, ann], date.fromisoformat(first["date"])), "reason": "Misread the sheet."},
    )
    assert correct.status_code == 200, correct.get_data(as_text=True)
    for player in (zara, yul, mona, abe, ann, bea):
        sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(1))

    body = door_list(scene.host, scene.venue_id)
    got = [(row["group"], row["player"]["display_name"]) for row in body["barred"]]
    # Zara and Ann (corrected in) played here; Yul and Mona at the neighbour; Abe away, Bea never.
    assert got == [
        ("venue", "Ann"),
        ("venue", "Zara"),
        ("region", "Mona"),
        ("region", "Yul"),
        ("league", "Abe"),
        ("league", "Bea"),
    ]
    assert body["total"] == 6
    printed = csv_rows(scene.host.get(barred_url(scene.venue_id, "?format=csv")))
    assert printed[0] == CSV_HEADER
    assert [(r[0], r[7], r[8]) for r in printed[1:]] == [
        (name, full_name(scene, row["player"]["id"]), group)
        for (group, name), row in zip(got, body["barred"], strict=True)
    ]
    # At the neighbour, its own players come first and the Crown's are its region's.
    there = [
        (row["group"], row["player"]["display_name"]) for row in door_list(scene.office, neighbour)["barred"]
    ]
    assert there == [
        ("venue", "Mona"),
        ("venue", "Yul"),
        ("venue", "Zara"),
        ("region", "Ann"),
        ("league", "Abe"),
        ("league", "Bea"),
    ]


def test_a_voided_report_puts_no_one_in_the_venues_group_r16_r17(scene: Scene) -> None:
    """R16, R17: a voided report counts nowhere, not even on the door list: its players are the
    league's until they play here in a live report."""
    (ivy,) = scene.players("Ivy")
    report = scene.report([ivy, scene.player("Other")])
    sanctioned(scene.office, ivy, "suspension", "fighting", first_day=ago(1))
    assert [row["group"] for row in door_list(scene.host, scene.venue_id)["barred"]] == ["venue"]
    void = scene.office.post(f"{TOURNAMENTS}/{report['id']}/void", json={"reason": "Posted twice."})
    assert void.status_code == 200, void.get_data(as_text=True)
    assert [row["group"] for row in door_list(scene.host, scene.venue_id)["barred"]] == ["league"]


def test_the_door_list_names_a_stranger_in_full_but_nothing_else_does_r19(
    scene: Scene, make_scene: Any
) -> None:
    """R19: the host reads the full name of a barred player who never played at their venue on
    the door list (JSON and CSV), so the door can recognise them; the player's page and the
    search still show that host the display name only, as they show the public."""
    away = make_scene()
    stranger = int(scene.league.player("Crystal Kingfisher")["id"])
    away.report([stranger, away.player("Someone")])
    sanctioned(scene.office, stranger, "suspension", "fighting", first_day=ago(1))
    (row,) = door_list(scene.host, scene.venue_id)["barred"]
    assert row["player"] == {
        "id": stranger,
        "display_name": "Crystal K.",
        "label": "Crystal K.",
        "full_name": "Crystal Kingfisher",
    }
    assert row["group"] == "league"
    printed = csv_rows(scene.host.get(barred_url(scene.venue_id, "?format=csv")))
    assert printed[1][0] == "Crystal K." and printed[1][7:] == ["Crystal Kingfisher", "league"]
    page = scene.host.get(f"/api/v1/players/{stranger}")
    assert page.status_code == 200 and "full_name" not in page.get_json()
    assert "Kingfisher" not in page.get_data(as_text=True)
    for text in ("Kingfisher", "crystal kingf"):
        found = scene.host.get(f"/api/v1/players?q={text}").get_json()["items"]
        assert stranger not in [p["id"] for p in found], text
    found = scene.host.get("/api/v1/players?q=Crystal K").get_json()["items"]
    assert [p for p in found if p["id"] == stranger][0].keys().isdisjoint({"full_name", "email"})
    # The office reads the full name everywhere.
    assert scene.office.get(f"/api/v1/players/{stranger}").get_json()["full_name"] == "Crystal Kingfisher"


def test_two_barred_players_of_one_display_name_show_their_numbers_r16_r19(scene: Scene) -> None:
    """R19: Crystal Kim and Crystal King are both "Crystal K."; on the door list each shows their
    full name and their number ("Crystal K. #48"), the display name left as it is."""
    kim = int(scene.league.player("Crystal Kim")["id"])
    king = int(scene.league.player("Crystal King")["id"])
    for player in (king, kim):
        sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(1))
    rows = door_list(scene.host, scene.venue_id)["barred"]
    assert [row["player"] for row in rows] == [
        {"id": kim, "display_name": "Crystal K.", "label": f"Crystal K. #{kim}", "full_name": "Crystal Kim"},
        {
            "id": king,
            "display_name": "Crystal K.",
            "label": f"Crystal K. #{king}",
            "full_name": "Crystal King",
        },
    ]
    # The sanction each row holds names its player the same way.
    assert [row["sanction"]["player"]["label"] for row in rows] == [
        f"Crystal K. #{kim}",
        f"Crystal K. #{king}",
    ]


# Names a spreadsheet would run as formulas, in whichever separator it splits a line by.
HOSTILE_NAMES = {
    "Ann;=1+1 Bee": "Ann B.",
    'Cy,=HYPERLINK("http://x.test") Dee': "Cy D.",
    "-2+3 Gus": "@SUM(A1)",
    "Ivy; +cmd|' /C calc'!A0": "Ivy C.",
    'Jo";=1+1 Kay': "Jo K.",
    "Lu |=1+1 May": "+Lu M.",
}
# Where a reader may cut a line into cells: the separators of CSV in any locale, and line ends.
ANY_SEPARATOR = re.compile(r"[,;\t|\r\n]")


def formula_cells(text: str) -> list[str]:
    """The cells a spreadsheet would take as formulas, however it reads the CSV text: by commas or
    semicolons (honouring quotes), or cutting at every separator, quotes or not."""
    readings = [
        cell
        for delimiter in ",;"
        for row in csv.reader(io.StringIO(text), delimiter=delimiter)
        for cell in row
    ]
    readings += ANY_SEPARATOR.split(text)
    return [cell for cell in readings if cell.strip().lstrip('"').strip().startswith(("=", "+", "-", "@"))]


def test_r16_door_list_csv_cells_a_spreadsheet_would_run_are_neutralised(scene: Scene) -> None:
    """R16, R19: names holding a formula after a separator ("Ann;=1+1 Bee", as a spreadsheet
    splitting by semicolons would cut it) or starting with one are written so that no reading of
    the CSV, by commas or semicolons, with quotes or without, gives a cell that starts with = + -
    or @; read as CSV, each name is still there, marked with an apostrophe."""
    for full_name, display_name in HOSTILE_NAMES.items():
        player = scene.league.player(full_name, display_name=display_name)
        sanctioned(scene.office, player["id"], "suspension", "fighting", first_day=ago(1), last_day=ago(-20))
    answer = scene.host.get(barred_url(scene.venue_id, "?format=csv"))
    text = answer.get_data(as_text=True).lstrip("\ufeff")
    assert formula_cells(text) == []
    listed = {row[7].replace("'", ""): row[0].replace("'", "") for row in csv_rows(answer)[1:]}
    assert listed == {name.replace("'", ""): shown.replace("'", "") for name, shown in HOSTILE_NAMES.items()}
