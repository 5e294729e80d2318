"""The demo league that `./scripts/serve` loads (through the CLI, as the script does): standings
show something real, and the door list has its records (R11, R15, R16)."""

from __future__ import annotations

from typing import Any

from tests.support.league import Caller


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


def test_demo_lives_in_its_own_region_and_is_removed_whole(
    runner: Any, public: Caller, office: Caller
) -> None:
    """The demo's season covers only the "Demo" region, so a league's own seasons of its own
    regions never overlap it; `demo remove` takes everything of it out (R2)."""
    assert runner.invoke(args=["demo", "load"]).exit_code == 0
    (region,) = public.get("/api/v1/regions").get_json()["items"]
    assert region["name"] == "Demo"
    (season,) = public.get("/api/v1/seasons").get_json()["items"]
    assert season["region_ids"] == [region["id"]]
    own = office.post("/api/v1/regions", json={"name": "River Valley"}).get_json()
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
    removed = runner.invoke(args=["demo", "remove"])
    assert removed.exit_code == 0 and "Demo league removed." in removed.output
    assert [r["name"] for r in public.get("/api/v1/regions").get_json()["items"]] == ["River Valley"]
    assert [v["id"] for v in public.get("/api/v1/venues").get_json()["items"]] == [venue["id"]]
    assert [s["name"] for s in public.get("/api/v1/seasons").get_json()["items"]] == ["Ours"]
    players = office.get("/api/v1/players?per_page=500").get_json()
    assert [p["id"] for p in players["items"]] == [player["id"]]
    assert public.get("/api/v1/tournaments").get_json()["total"] == 0
    assert office.get("/api/v1/sanctions").get_json()["total"] == 0
    assert "There is no demo league." in runner.invoke(args=["demo", "remove"]).output
