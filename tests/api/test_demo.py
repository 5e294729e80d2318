"""The demo league that `./scripts/serve` loads (through the CLI, as the script does): standings
show something real, and the door list has its records (R11, R15, R16)."""

from __future__ import annotations

from typing import Any

from tests.conftest import Caller


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
