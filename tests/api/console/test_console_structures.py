"""The office's blind structures in the console (R22), as a browser uses the pages: every
structure with its levels in a line and who plays it; a new one started from the built-in, made
through the API's schema and service; a refused one (blinds falling, a break after the last
level) says why beside its row and stores nothing; one changed, audited, while a night already
open keeps the structure it opened with; the league's structure chosen in the league settings.
Hosts may not use the pages."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.builders import Scene
from tests.support.console import csrf, signed_in, text_of
from tests.support.nights import opened

PAGE = "/console/structures"


def levels(*rows: tuple[int, int, int]) -> dict[str, Any]:
    form: dict[str, Any] = {}
    for n, (small, big, minutes) in enumerate(rows):
        form |= {
            f"levels.{n}.small_blind": small,
            f"levels.{n}.big_blind": big,
            f"levels.{n}.minutes": minutes,
        }
    return form


def test_r22_the_office_makes_a_structure_from_the_built_in_one_and_venues_play_it(
    app: Flask, scene: Scene
) -> None:
    office = signed_in(app, scene.office.key)
    page = office.get(PAGE)
    shown = text_of(page)
    assert page.status_code == 200 and "League standard (2,000 chips, 20-minute levels)" in shown
    assert "25/25 (20), 25/50 (20), 50/100 (20), 75/150 (20), break (10), 100/200 (20)" in shown
    # The new structure's form starts as the built-in: its 15 levels, and room for 4 more.
    html = page.get_data(as_text=True)
    assert 'name="levels.14.minutes" aria-label="Minutes, row 15" value="20"' in html
    assert 'name="levels.18.minutes"' in html and 'name="levels.19.minutes"' not in html
    body = {
        "csrf_token": csrf(page),
        "name": "Championship",
        "starting_chips": "5000",
        **levels((25, 50, 30), (50, 100, 30), (100, 200, 30)),
        "breaks.0.after_level": "2",
        "breaks.0.minutes": "15",
        "breaks.0.note": "Chip up the 25s",
    }
    made = office.post(PAGE, data=body, follow_redirects=True)
    assert made.status_code == 200 and "(Championship) made" in text_of(made), text_of(made)
    assert "25/50 (30), 50/100 (30), break (15), 100/200 (30)" in text_of(made)
    (kept,) = scene.office.get("/api/v1/structures").get_json()["items"]
    assert (kept["name"], kept["starting_chips"], len(kept["levels"])) == ("Championship", 5000, 3)
    assert kept["breaks"] == [{"after_level": 2, "minutes": 15, "note": "Chip up the 25s"}]

    # The league's nights play it, from the league settings; a night opened now keeps it.
    settings = office.get("/console/league-settings")
    assert "Championship" in text_of(settings)
    saved = office.post(
        "/console/league-settings",
        data={"csrf_token": csrf(settings), "structure_id": str(kept["id"])},
        follow_redirects=True,
    )
    assert saved.status_code == 200 and "saved" in text_of(saved)
    assert scene.public.get("/api/v1/league-settings").get_json()["structure_id"] == kept["id"]
    assert "the league's nights" in text_of(office.get(PAGE))
    night = opened(scene)
    assert night["structure"]["name"] == "Championship" and night["structure"]["starting_chips"] == 5000

    # Changed: audited; the night already open keeps 5,000 chips.
    edit = office.get(f"{PAGE}/{kept['id']}")
    assert edit.status_code == 200 and 'value="5000"' in edit.get_data(as_text=True)
    changed = office.post(
        f"{PAGE}/{kept['id']}",
        data={
            "csrf_token": csrf(edit),
            "starting_chips": "10000",
            **levels((25, 50, 30), (50, 100, 30), (100, 200, 30)),
            "breaks.0.after_level": "2",
            "breaks.0.minutes": "15",
            "breaks.0.note": "Chip up the 25s",
        },
        follow_redirects=True,
    )
    assert changed.status_code == 200 and "saved" in text_of(changed), text_of(changed)
    assert scene.office.get(f"/api/v1/structures/{kept['id']}").get_json()["starting_chips"] == 10000
    audit = scene.office.get("/api/v1/audit-log?entity=structure").get_json()["items"]
    assert {entry["action"] for entry in audit} == {"structure.create", "structure.update"}
    assert scene.public.get(f"/api/v1/nights/{night['id']}").get_json()["structure"]["starting_chips"] == 5000


def test_r22_a_refused_structure_says_why_beside_its_row_and_stores_nothing(app: Flask, scene: Scene) -> None:
    office = signed_in(app, scene.office.key)
    token = csrf(office.get(PAGE))
    refused = office.post(
        PAGE,
        data={
            "csrf_token": token,
            "name": "Falling",
            "starting_chips": "2000",
            **levels((50, 100, 20), (25, 50, 20), (100, 200, 200)),
            "breaks.0.after_level": "3",
            "breaks.0.minutes": "10",
        },
    )
    said = text_of(refused)
    assert refused.status_code == 422, said
    assert "Row 2, Big blind: Blinds never fall: level 2 (25/50) comes after 50/100." in said
    assert "Row 3, Minutes: A level is 1 to 120 minutes." in said
    assert "Row 1, After level: A break comes after one of levels 1 to 2." in said
    # What was typed stays, to put right.
    assert 'name="name" value="Falling"' in refused.get_data(as_text=True)
    missing = office.post(
        PAGE,
        data={"csrf_token": token, "name": "Half", "starting_chips": "2000", "levels.0.small_blind": "25"},
    )
    assert missing.status_code == 422 and "Row 1, Big blind" in text_of(missing)
    assert office.post(PAGE, data={"name": "No token", "starting_chips": "2000"}).status_code == 400
    assert scene.office.get("/api/v1/structures").get_json()["items"] == []
    assert scene.office.get("/api/v1/audit-log?entity=structure").get_json()["total"] == 0


def test_r22_hosts_may_not_keep_structures(app: Flask, scene: Scene) -> None:
    host = signed_in(app, scene.host.key)
    assert host.get(PAGE, headers={"Accept": "text/html"}).status_code == 403
    assert host.get(f"{PAGE}/1", headers={"Accept": "text/html"}).status_code == 403
