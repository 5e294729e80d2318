"""The demo league that `./scripts/serve` loads (through the CLI, as the script does): standings
show something real, and the door list has its records (R11, R15, R16). It stays in its corner
beside a league's own venues (door lists, searches and missing reports of other regions never
show it, R15, R19), and `demo remove` lists what it deletes, asks, takes the demo's keys with it,
and undoes no merge of a player outside it (R17)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta
from typing import Any

import pytest
from flask import Flask

from models.errors import Conflict
from models.services.demo.queries import removal_plan
from models.services.demo.writes import remove_demo
from tests.builders import OFFICE_LATE, sanction_body
from tests.support.console import signed_in, text_of
from tests.support.league import Caller, League, new_key


def iso_week(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def loaded(runner: Any, public: Caller) -> dict[str, Any]:
    """The demo, loaded: its region, season and venues (the Crown first)."""
    assert runner.invoke(args=["demo", "load"]).exit_code == 0
    (region,) = public.get("/api/v1/regions").get_json()["items"]
    (season,) = public.get("/api/v1/seasons").get_json()["items"]
    venues = sorted(public.get("/api/v1/venues").get_json()["items"], key=lambda v: v["name"] != "The Crown")
    return {"region": region, "season": season, "venues": venues, "crown": venues[0]}


def test_demo_load_fills_an_empty_league_once(runner: Any, public: Caller, office: Caller) -> None:
    loaded = runner.invoke(args=["demo", "load", "--if-empty"])
    assert loaded.exit_code == 0, loaded.output
    assert "Demo league loaded." in loaded.output
    again = runner.invoke(args=["demo", "load", "--if-empty"])
    assert "demo not loaded" in again.output

    seasons = public.get("/api/v1/seasons").get_json()["items"]
    assert len(seasons) == 1
    venues = public.get("/api/v1/venues").get_json()["items"]
    assert len(venues) == 4
    crown = next(v for v in venues if v["name"] == "The Crown")
    standings = public.get(f"/api/v1/seasons/{seasons[0]['id']}/venues/{crown['id']}/standings").get_json()
    assert standings["tournaments"] >= 1 and standings["standings"][0]["rank"] == 1

    barred = office.get(f"/api/v1/venues/{crown['id']}/barred").get_json()
    assert {row["sanction"]["kind"] for row in barred["barred"]} == {"suspension", "venue_ban"}
    elsewhere = next(v for v in venues if v["name"] != "The Crown")
    kinds = {
        row["sanction"]["kind"]
        for row in office.get(f"/api/v1/venues/{elsewhere['id']}/barred").get_json()["barred"]
    }
    assert kinds == {"suspension"}
    # Its venues have regular nights, so this week's games show something on first run.
    assert crown["schedule"] == [{"weekday": 2, "starts_at": "19:00", "sessions": 1}]
    week = public.get("/api/v1/games").get_json()
    assert {game["venue"]["name"] for game in week["items"]} == {v["name"] for v in venues}
    calendar = public.get(f"/api/v1/venues/{crown['id']}/calendar.ics")
    assert calendar.mimetype == "text/calendar" and b"BEGIN:VEVENT" in calendar.data
    # R22: a night in progress at one venue, so the live page shows something on first run.
    live = [v for v in venues if public.get(f"/embed/venues/{v['id']}/night").status_code == 200]
    assert len(live) == 1
    page = public.get(f"/embed/venues/{live[0]['id']}/night").get_data(as_text=True)
    assert "Players <strong>8</strong> of 10" in page and "Level 1" in page


def test_demo_lives_in_its_own_region_and_is_removed_whole(
    runner: Any, public: Caller, office: Caller
) -> None:
    """The demo's season covers only the "Demo" region, so a league's own seasons of its own
    regions never overlap it; `demo remove` lists what it deletes, asks, and takes everything of
    it out (R2)."""
    demo = loaded(runner, public)
    region, season = demo["region"], demo["season"]
    assert region["name"] == "Demo" and region["demo"] is True
    assert season["region_ids"] == [region["id"]]
    own = office.post("/api/v1/regions", json={"name": "River Valley"}).get_json()
    assert own["demo"] is False
    venue = office.post("/api/v1/venues", json={"name": "The Anchor", "region_id": own["id"]}).get_json()
    ours = office.post(
        "/api/v1/seasons",
        json={
            "name": "Ours",
            "starts_on": season["starts_on"],
            "ends_on": season["ends_on"],
            "region_ids": [own["id"]],
        },
    )
    assert ours.status_code == 201, ours.get_json()
    player = office.post(
        "/api/v1/players", json={"full_name": "Our Own", "email": "our.own@example.org"}
    ).get_json()
    reports = office.get("/api/v1/tournaments?include_voided=true").get_json()["total"]
    removed = runner.invoke(args=["demo", "remove"], input="y\n")
    assert removed.exit_code == 0 and "Demo league removed." in removed.output, removed.output
    listed = dict(re.findall(r"^  (\w+): (\d+)$", removed.output, re.MULTILINE))
    assert listed == {
        "venues": "4",
        "players": "36",
        "reports": str(reports),
        "sanctions": "3",
        "keys": "0",
        "seasons": "1",
    }
    assert "Remove the demo league? [y/N]" in removed.output
    assert [r["name"] for r in public.get("/api/v1/regions").get_json()["items"]] == ["River Valley"]
    assert [v["id"] for v in public.get("/api/v1/venues").get_json()["items"]] == [venue["id"]]
    assert [s["name"] for s in public.get("/api/v1/seasons").get_json()["items"]] == ["Ours"]
    players = office.get("/api/v1/players?per_page=500").get_json()
    assert [p["id"] for p in players["items"]] == [player["id"]]
    assert public.get("/api/v1/tournaments").get_json()["total"] == 0
    assert office.get("/api/v1/sanctions").get_json()["total"] == 0
    assert "There is no demo league." in runner.invoke(args=["demo", "remove"]).output


def test_demo_remove_asks_first_and_no_changes_nothing(runner: Any, public: Caller, office: Caller) -> None:
    demo = loaded(runner, public)
    refused = runner.invoke(args=["demo", "remove"], input="n\n")
    assert refused.exit_code != 0 and "Aborted" in refused.output
    assert "  players: 36" in refused.output
    assert public.get("/api/v1/regions").get_json()["items"] == [demo["region"]]
    assert len(public.get("/api/v1/venues").get_json()["items"]) == 4
    quiet = runner.invoke(args=["demo", "remove", "--yes"])
    assert quiet.exit_code == 0 and "[y/N]" not in quiet.output and "Demo league removed." in quiet.output
    assert public.get("/api/v1/regions").get_json()["items"] == []


def test_demo_remove_takes_the_keys_of_its_venues_only(
    app: Flask, runner: Any, public: Caller, office: Caller, league: League
) -> None:
    """A host key of the demo's venues goes with them (and its console sign-ins); a key of a demo
    venue and one of the league's keeps the league's; the office's keys stay."""
    demo = loaded(runner, public)
    anchor = league.venue(name="The Anchor")
    crown_only = new_key(app, "host", [demo["crown"]["id"]], name="Host: Crown")
    both = new_key(app, "host", [demo["crown"]["id"], anchor["id"]], name="Host: Crown and Anchor")
    assert (
        Caller(office.client, crown_only).get(f"/api/v1/venues/{demo['crown']['id']}/barred").status_code
        == 200
    )
    removed = runner.invoke(args=["demo", "remove", "--yes"])
    assert removed.exit_code == 0, removed.output
    assert "  keys: 1" in removed.output and "1 key(s) keep their other venues." in removed.output
    keys = {k["name"]: k for k in office.get("/api/v1/api-keys?per_page=500").get_json()["items"]}
    assert "Host: Crown" not in keys
    assert keys["Host: Crown and Anchor"]["venue_ids"] == [anchor["id"]]
    assert "Office: Test" in keys
    assert Caller(office.client, crown_only).get("/api/v1/venues").status_code == 401
    assert Caller(office.client, both).get(f"/api/v1/venues/{anchor['id']}/barred").status_code == 200


def test_r17_demo_remove_undoes_no_merge_of_a_player_outside_the_demo(
    runner: Any, public: Caller, office: Caller, league: League
) -> None:
    """R17: a league player merged into a demo player would lose the merge with the demo player:
    the removal is refused, naming the merge and why, and changes nothing; once the merge is
    undone, the demo goes and the league player stays, on their own."""
    loaded(runner, public)
    demo_player = office.get("/api/v1/players?q=demo.example.org&per_page=1").get_json()["items"][0]
    ours = league.player("Our Own Person")
    merged = office.post(
        f"/api/v1/players/{demo_player['id']}/merge", json={"duplicate_id": ours["id"], "reason": "Same."}
    )
    assert merged.status_code == 200, merged.get_json()
    merge_id = merged.get_json()["merge_id"]
    refused = runner.invoke(args=["demo", "remove", "--yes"])
    assert refused.exit_code != 0
    assert f"Merge {merge_id} joined player {ours['id']} into player {demo_player['id']}" in refused.output
    assert "R17" in refused.output and "would undo" in refused.output
    assert len(public.get("/api/v1/venues").get_json()["items"]) == 4
    assert public.get(f"/api/v1/players/{ours['id']}").get_json()["merged_into_id"] == demo_player["id"]
    undone = office.post(f"/api/v1/player-merges/{merge_id}/undo", json={"reason": "The demo goes."})
    assert undone.status_code == 200, undone.get_json()
    assert runner.invoke(args=["demo", "remove", "--yes"]).exit_code == 0
    assert public.get(f"/api/v1/players/{ours['id']}").get_json()["merged_into_id"] is None
    assert public.get(f"/api/v1/players/{demo_player['id']}").status_code == 404


def test_a_demo_player_who_played_elsewhere_stays_as_the_leagues_own(
    runner: Any, public: Caller, office: Caller, league: League
) -> None:
    demo = loaded(runner, public)
    region = league.region()
    anchor = league.venue(region["id"], name="The Anchor")
    ends = date.fromisoformat(demo["season"]["ends_on"])
    league.season(region_ids=[region["id"]], starts_on=demo["season"]["starts_on"], ends_on=ends.isoformat())
    traveller = office.get("/api/v1/players?q=demo.example.org&per_page=1").get_json()["items"][0]
    other = league.player("Anchor Regular")
    yesterday = (date.fromisoformat(demo["season"]["starts_on"]) + timedelta(days=3)).isoformat()
    body = {
        "venue_id": anchor["id"],
        "date": yesterday,
        "results": [{"place": 1, "player_id": traveller["id"]}, {"place": 2, "player_id": other["id"]}],
        "reason": OFFICE_LATE,  # R17: a night past the hosts' correction window is the office's
    }
    assert office.post("/api/v1/tournaments", json=body).status_code == 201
    removed = runner.invoke(args=["demo", "remove", "--yes"])
    assert removed.exit_code == 0 and "  players: 35" in removed.output, removed.output
    assert "It keeps 1 of its players who played elsewhere" in removed.output
    found = public.get("/api/v1/players", query_string={"q": traveller["display_name"]}).get_json()["items"]
    assert traveller["id"] in [p["id"] for p in found]  # no longer the demo's: the public finds them


def test_r15_r19_the_demo_stays_in_its_corner(
    app: Flask, runner: Any, public: Caller, office: Caller, league: League, host_for: Any
) -> None:
    """Beside a league's own venue, the demo's players and sanctions show only at the demo's
    venues: not on the league venue's door list (R15, R16: the demo's league-wide suspension),
    not in its hosts' list of sanctions, not in the public's or its hosts' search (R19; the
    console's names to pick from: test_console.py), and not in an all-regions season's missing
    reports. The office still reads them by id, and finds them; the demo's own hosts do too."""
    demo = loaded(runner, public)
    crown = demo["crown"]
    region = league.region()
    anchor = league.venue(region["id"], name="The Anchor")
    anchor_host, crown_host = host_for(anchor["id"]), host_for(crown["id"])
    demo_barred = office.get(f"/api/v1/venues/{crown['id']}/barred").get_json()["barred"]
    suspended = next(row for row in demo_barred if row["sanction"]["kind"] == "suspension")
    ours = league.player("Our Suspended Man")
    assert office.post("/api/v1/sanctions", json=sanction_body(ours["id"])).status_code == 201

    barred = anchor_host.get(f"/api/v1/venues/{anchor['id']}/barred").get_json()["barred"]
    assert [row["player"]["id"] for row in barred] == [ours["id"]]
    assert [
        r["player"]["id"] for r in office.get(f"/api/v1/venues/{anchor['id']}/barred").get_json()["barred"]
    ] == [ours["id"]]
    assert suspended["player"]["id"] in [
        row["player"]["id"]
        for row in crown_host.get(f"/api/v1/venues/{crown['id']}/barred").get_json()["barred"]
    ]
    listed = anchor_host.get("/api/v1/sanctions?kind=suspension").get_json()["items"]
    assert [s["player_id"] for s in listed] == [ours["id"]]
    sanction_id = suspended["sanction"]["id"]
    assert anchor_host.get(f"/api/v1/sanctions/{sanction_id}").status_code == 404
    assert office.get(f"/api/v1/sanctions/{sanction_id}").status_code == 200

    # A demo player given the Anchor as home venue (the office may): still not the Anchor's.
    demo_player = office.get(f"/api/v1/players/{suspended['player']['id']}").get_json()
    moved = office.patch(f"/api/v1/players/{demo_player['id']}", json={"home_venue_id": anchor["id"]})
    assert moved.status_code == 200
    first_name = demo_player["full_name"].split()[0]
    for caller in (public, anchor_host):
        found = caller.get("/api/v1/players", query_string={"q": first_name}).get_json()["items"]
        assert demo_player["id"] not in [p["id"] for p in found], caller
    for caller in (office, crown_host):
        found = caller.get("/api/v1/players", query_string={"q": first_name, "per_page": 500}).get_json()[
            "items"
        ]
        assert demo_player["id"] in [p["id"] for p in found]
    assert public.get("/api/v1/players?per_page=500").get_json()["total"] == 1  # ours alone
    assert public.get(f"/api/v1/players/{demo_player['id']}").status_code == 200  # by id: shown

    ends = date.fromisoformat(demo["season"]["ends_on"])
    everywhere = league.season(
        starts_on=(ends + timedelta(days=1)).isoformat(), ends_on=(ends + timedelta(days=60)).isoformat()
    )
    week = iso_week(ends + timedelta(days=1))
    missing = office.get(f"/api/v1/seasons/{everywhere['id']}/missing-reports?week={week}").get_json()
    assert [v["id"] for v in missing["venues"]] == [anchor["id"]]
    last_week = iso_week(ends - timedelta(days=6))  # ahead: no demo report yet, and no night passed
    own = office.get(f"/api/v1/seasons/{demo['season']['id']}/missing-reports?week={last_week}").get_json()
    assert own["venues"] == []  # the demo's venues have schedules: nights to come are not missing
    assert runner.invoke(args=["demo", "remove", "--yes"]).exit_code == 0


def test_r17a_demo_remove_refuses_when_the_demo_changed_since_it_was_listed(
    runner: Any, public: Caller, db_session: Any
) -> None:
    """R17a: what is removed is what was listed and confirmed: the demo read again under the
    removal's locks differs (a player registered meanwhile, say): refused, nothing removed."""
    loaded(runner, public)
    plan = removal_plan(db_session)
    assert plan is not None
    with pytest.raises(Conflict, match="changed since it was listed"):
        remove_demo(db_session, expected=replace(plan, players=plan.players[:-1]))
    db_session.rollback()
    assert len(public.get("/api/v1/venues").get_json()["items"]) == 4


def merge_pairs(page: str) -> set[tuple[int, int]]:
    """The possible duplicates the console's page offers to merge: (survivor, duplicate) ids."""
    found = re.findall(
        r'action="/console/players/(\d+)/merge">.*?name="duplicate_id" value="(\d+)"', page, flags=re.S
    )
    return {(int(survivor), int(duplicate)) for survivor, duplicate in found}


def demo_players(office: Caller) -> list[dict[str, Any]]:
    """The demo's players, as the office finds them (their emails are the demo's domain)."""
    found = office.get("/api/v1/players?q=demo.example.org&per_page=500").get_json()["items"]
    assert len(found) == 36
    return sorted(found, key=lambda player: player["id"])


def look_alike(full_name: str) -> str:
    """A name one letter from this one: close enough for a possible duplicate (R5)."""
    return f"{full_name}s"


def test_r5_a_demo_player_and_a_league_player_are_never_offered_as_duplicates(
    app: Flask, runner: Any, public: Caller, office: Caller, make_scene: Any
) -> None:
    """R5: while the demo is loaded, a league player whose name closely matches a demo player's is
    not warned of them: neither when the office registers them, nor when a host's report does;
    and the office's possible duplicates (the console's page) never pair the two. Two league
    players alike still are warned of and offered (and so are two demo players, marked)."""
    loaded(runner, public)
    scene = make_scene()
    demo = demo_players(office)
    demo_ids = {player["id"] for player in demo}
    first, second, third = demo[0], demo[1], demo[2]

    registered = office.post(
        "/api/v1/players", json={"full_name": look_alike(first["full_name"]), "email": "first@example.org"}
    )
    assert registered.status_code == 201, registered.get_json()
    ours = registered.get_json()
    assert ours["warnings"] == []  # not the demo's look-alike (R5)

    body = scene.body(scene.add_players(2))
    body["results"].append(
        {
            "place": 3,
            "new_player": {"full_name": look_alike(second["full_name"]), "email": "second@example.org"},
        }
    )
    body["results"].append(
        {
            "place": 4,
            "new_player": {"full_name": look_alike(ours["full_name"]), "email": "ours.again@example.org"},
        }
    )
    report = scene.posted(body)
    duplicates = [w for w in report["warnings"] if w["code"] == "possible_duplicate"]
    # The league's own look-alike is warned of; the demo's never is.
    assert [w["player_ids"] for w in duplicates] == [[ours["id"]]]
    assert all(w["rule"] == "R5" for w in duplicates)
    newcomer = report["results"][2]["player"]["id"]
    again = report["results"][3]["player"]["id"]

    # Two of the demo's players made alike: they are offered to each other, marked as the demo's.
    renamed = office.patch(
        f"/api/v1/players/{third['id']}", json={"full_name": look_alike(first["full_name"])}
    )
    assert renamed.status_code == 200, renamed.get_json()
    console = signed_in(app, office.key)
    page = console.get("/console/duplicates").get_data(as_text=True)
    pairs = merge_pairs(page)
    assert (ours["id"], again) in pairs  # the league's own pair
    mixed = {pair for pair in pairs if (pair[0] in demo_ids) != (pair[1] in demo_ids)}
    assert mixed == set(), mixed
    assert not {(first["id"], ours["id"]), (second["id"], newcomer)} & pairs
    assert {(first["id"], third["id"]), (third["id"], first["id"])} & pairs
    assert f"player {third['id']} (demo)" in text_of(console.get("/console/duplicates"))
    assert f"player {ours['id']} (demo)" not in text_of(console.get("/console/duplicates"))


def test_the_offices_console_marks_the_demos_venues_in_its_lists(
    app: Flask, runner: Any, public: Caller, office: Caller, league: League
) -> None:
    """While the demo is loaded the office's lists of venues say which are the demo's: its home
    page, the venues a host key is made for, the keys' venues, a venue ban's venues."""
    demo = loaded(runner, public)
    anchor = league.venue(league.region()["id"], name="The Anchor")
    crown_key = new_key(app, "host", [demo["crown"]["id"]], name="Host: Crown")
    assert crown_key
    console = signed_in(app, office.key)
    home = text_of(console.get("/console/"))
    for venue in demo["venues"]:
        assert f"{venue['name']} (demo)" in home, venue["name"]
    assert "The Anchor (demo)" not in home and "The Anchor" in home

    keys = console.get("/console/keys").get_data(as_text=True)
    options = dict(re.findall(r'<option value="(\d+)">([^<]*)</option>', keys))
    assert options[str(anchor["id"])] == "The Anchor"
    assert options[str(demo["crown"]["id"])] == "The Crown (demo)"
    assert all(options[str(venue["id"])].endswith(" (demo)") for venue in demo["venues"])
    assert "Host: Crown host The Crown (demo)" in text_of(console.get("/console/keys"))  # the key's venue

    player = league.player("Our Own Player")
    ban_form = console.get(f"/console/players/{player['id']}/sanctions").get_data(as_text=True)
    venues = dict(re.findall(r'<option value="(\d+)">([^<]*)</option>', ban_form))
    assert venues[str(anchor["id"])] == "The Anchor"
    assert venues[str(demo["crown"]["id"])] == "The Crown (demo)"

    assert runner.invoke(args=["demo", "remove", "--yes"]).exit_code == 0
    assert "(demo)" not in text_of(console.get("/console/"))


def test_r20_the_rating_table_leaves_the_demos_players_out_but_the_demos_region_shows_them(
    runner: Any, public: Caller, office: Caller, make_scene: Any
) -> None:
    """R20: while the demo is loaded, the league's rating table (the API's and the embedded page)
    lists the league's own players only, ranked among themselves; the demo's region's table
    (`region_id`) shows the demo's players, as before. R19: the page names no one but by label."""
    demo = loaded(runner, public)
    scene = make_scene()
    ours = scene.players("Ours A.", "Ours B.", "Ours C.")
    scene.report(ours)
    demo_ids = {player["id"] for player in demo_players(office)}

    table = public.get("/api/v1/ratings?per_page=100").get_json()
    assert {row["player"]["id"] for row in table["items"]} == set(ours)
    assert table["total"] == 3 and [row["rank"] for row in table["items"]] == [1, 2, 3]
    page = public.get("/embed/ratings").get_data(as_text=True)
    assert page.count("<polyline") == 3 and "Ours A." in page
    own_region = public.get(f"/api/v1/ratings?region_id={scene.region['id']}&per_page=100").get_json()
    assert {row["player"]["id"] for row in own_region["items"]} == set(ours)

    region = demo["region"]["id"]
    demos = public.get(f"/api/v1/ratings?region_id={region}&per_page=100").get_json()
    assert demos["total"] > 0 and {row["player"]["id"] for row in demos["items"]} <= demo_ids
    shown = public.get(f"/embed/ratings?region_id={region}").get_data(as_text=True)
    assert "Skill ratings: Demo" in shown and demos["items"][0]["player"]["label"] in shown

    assert runner.invoke(args=["demo", "remove", "--yes"]).exit_code == 0
    assert public.get("/api/v1/ratings").get_json()["total"] == 3
