"""Words for people: every form of the console, found as a browser finds it (the pages
of the console's own url_map, each `<form method="post">` on them), posted with bad input (fields
left empty, numbers and dates written wrong, below zero, too big; then the refusals each form is
there to make: dates that do not hold together, a chart's bands and fraction, attendance bonus
rows, a sanction too short, a sheet naming a suspended player, a night reported late). What a
person reads afterwards names fields by their labels and players by name, says each thing once,
reads dates in the league's format and leads with no rule id; and nothing refused changes state.
A new form is walked as soon as a page offers it; a form no page offers fails the walk."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import Rule

from tests.builders import Scene, days_ago, iso, person, sanctioned, utc_today
from tests.support.console import signed_in
from tests.support.console_forms import PageForm, api_words_in, bad_variants, post_forms, repeated, said

# Endpoints no walk posts to, and why.
NOT_WALKED = {
    "console.sign_out_page": "a button: signing out takes no input",
    "console.demo": "a button (no demo is loaded here): removing the demo takes no input",
    "console.sign_in_page": "the walk is signed in; tests/api/console/test_console.py refuses keys",
    # The night's pages are reworked apart: they say refusals through api/words.said_to_people.
    "console.venue_night_page": "the night's page (reworked apart, on api/words.said_to_people)",
    "console.night_page": "the night's page (reworked apart, on api/words.said_to_people)",
}
# GET pages no walk reads (downloads, and the night's pages above).
NOT_READ = {
    "console.audit_csv_download",
    "console.data_export_download",
    "console.venue_night_page",
    "console.night_page",
}


@dataclass
class World:
    """The league the walk runs in: a record of every kind a console page offers a form for."""

    scene: Scene
    ids: dict[str, int]
    today: str
    suspended: int
    late_day: str
    found: dict[str, list[PageForm]] = field(default_factory=dict)


def world_of(app: Flask, scene: Scene, monkeypatch: pytest.MonkeyPatch) -> World:
    ann, bob, cy = scene.players("Ann", "Bob", "Cy")
    # Two players who share a display name ending in a full stop (R19: told apart by number).
    wendy, other_wendy = person(scene, "Wendy P."), person(scene, "Wendy P.")
    report = scene.report([ann, bob, cy, wendy, other_wendy], days_ago(2))
    scene.league.player("Jonathan Whitfield")
    newer = scene.league.player("Jonathon Whitfield")
    scene.report([int(newer["id"]), ann], days_ago(3))
    kept, away = scene.players("Kept", "Away")
    scene.report([kept, bob], days_ago(4))
    scene.report([away, cy], days_ago(5))
    merged = scene.office.post(
        f"/api/v1/players/{kept}/merge", json={"duplicate_id": away, "reason": "The same man."}
    )
    assert merged.status_code in (200, 201), merged.get_json()
    today = utc_today()
    sanction = sanctioned(
        scene.office,
        wendy,
        "suspension",
        "outside_alcohol",
        first_day=iso(today - timedelta(days=10)),
        last_day=iso(today + timedelta(days=200)),
    )
    out = scene.office.post(
        f"/api/v1/seasons/{scene.season_id}/disqualifications", json={"player_id": cy, "reason": "Cheated."}
    )
    assert out.status_code == 201, out.get_json()
    levels = [
        {"small_blind": 25, "big_blind": 50, "minutes": 20},
        {"small_blind": 50, "big_blind": 100, "minutes": 20},
    ]
    structure = scene.office.post(
        "/api/v1/structures", json={"name": "Finals", "starting_chips": 10000, "levels": levels}
    )
    assert structure.status_code == 201, structure.get_json()
    monkeypatch.setitem(app.config, "WEBHOOKS_ALLOW_PRIVATE", True)  # this test's app only
    hook = scene.office.post("/api/v1/webhooks", json={"url": "http://127.0.0.1:9/hook", "events": ["*"]})
    assert hook.status_code == 201, hook.get_json()
    keys = scene.office.get("/api/v1/api-keys?per_page=500").get_json()["items"]
    host_key = next(key["id"] for key in keys if key["role"] == "host")
    ids = {
        "venue_id": scene.venue_id,
        "player_id": wendy,
        "season_id": scene.season_id,
        "tournament_id": int(report["id"]),
        "key_id": int(host_key),
        "structure_id": int(structure.get_json()["id"]),
        "webhook_id": int(hook.get_json()["id"]),
        "disqualification_id": int(out.get_json()["id"]),
        "sanction_id": int(sanction["id"]),
    }
    return World(scene, ids, iso(today), wendy, iso(today - timedelta(days=12)))


def console_rules(app: Flask) -> list[Rule]:
    return sorted(
        (rule for rule in app.url_map.iter_rules() if rule.endpoint.startswith("console.")),
        key=lambda rule: rule.rule,
    )


def endpoint_of(app: Flask, path: str) -> str | None:
    """The console endpoint a form posts to."""
    adapter = app.url_map.bind("localhost")
    try:
        endpoint, _args = adapter.match(path.split("#")[0].split("?")[0], method="POST")
    except (NotFound, MethodNotAllowed):
        return None
    return str(endpoint)


def pages(app: Flask, world: World) -> Iterator[str]:
    """Every console page a browser reads (GET), its ids from the walk's league."""
    for rule in console_rules(app):
        if "GET" not in (rule.methods or set()) or rule.endpoint in NOT_READ:
            continue
        if any(arg not in world.ids for arg in rule.arguments):
            raise AssertionError(
                f"The walk has no {sorted(rule.arguments)} for {rule.rule}: add one to the world"
            )
        yield re.sub(r"<(?:\w+:)?(\w+)>", lambda found: str(world.ids[found.group(1)]), rule.rule)


def collect(app: Flask, browser: FlaskClient, world: World) -> dict[str, list[PageForm]]:
    """Every form of every page the browser may read, by the endpoint it posts to."""
    found: dict[str, list[PageForm]] = {}
    for path in pages(app, world):
        answer = browser.get(path)
        assert answer.status_code < 500, f"{path}: {answer.status_code}"
        if answer.status_code != 200:
            continue  # a page this browser may not read (a host, an office page)
        for form in post_forms(answer.get_data(as_text=True), path):
            endpoint = endpoint_of(app, form.action)
            if endpoint is not None:
                found.setdefault(endpoint, []).append(form)
    return found


def sheet_of(*rows: str) -> str:
    return "Place,Player ID,Email,Full Name\n" + "".join(f"{row}\n" for row in rows)


def semantic(world: World) -> dict[str, list[dict[str, str]]]:
    """The refusals each form is there to make, typed over the page's own values."""
    today, ids = world.today, world.ids
    day = utc_today()
    soon = iso(day + timedelta(days=3))
    ann, bob = str(world.scene.roster[0]["id"]), str(world.scene.roster[1]["id"])
    return {
        "console.season_new": [
            {
                "name": "Backwards",
                "starts_on": iso(day + timedelta(days=300)),
                "ends_on": iso(day + timedelta(days=200)),
            },
            {"name": "Over", "starts_on": today, "ends_on": iso(day + timedelta(days=40))},
            {
                "name": "Bonus",
                "starts_on": iso(day + timedelta(days=400)),
                "ends_on": iso(day + timedelta(days=450)),
                "attendance_bonus.0.events": "five",
                "attendance_bonus.0.points": "ten",
            },
            {
                "name": "Cut",
                "starts_on": iso(day + timedelta(days=500)),
                "ends_on": iso(day + timedelta(days=550)),
                "cut_fraction": "0.123456",
                "championship_date": iso(day + timedelta(days=510)),
            },
        ],
        "console.season_settings": [
            {"ends_on": iso(day - timedelta(days=100))},
            {"attendance_bonus.0.events": "-2", "attendance_bonus.0.points": "x"},
            {"participation_points": "5"},  # rescores: asks for the reason
            {"participation_points": "5", "confirm": "anything"},
        ],
        "console.charts": [
            {"name": "Bands", "kind": "bands", "bands": "2-9: 30, 20, x"},
            {"name": "Bands", "kind": "bands", "bands": "9-2: 10"},
            {"name": "Bands", "kind": "bands", "bands": "2-9: 10, 20"},
            {"name": "Top", "kind": "top_fraction", "fraction": "1.5"},
            {"name": "Top", "kind": "top_fraction", "fraction": "a third", "step": "-2"},
            {"name": "Formula", "kind": "formula", "formula": "n +"},
            {"name": "Formula", "kind": "formula", "formula": "p - n"},
        ],
        "console.player_sanctions": [
            {
                "kind": "suspension",
                "first_day": today,
                "last_day": iso(day - timedelta(days=1)),
                "reason": "x",
            },
            {"kind": "suspension", "first_day": today, "last_day": soon, "reason": "x"},
            {
                "kind": "suspension",
                "category": "outside_alcohol",
                "first_day": today,
                "last_day": iso(day + timedelta(days=30)),
                "reason": "x",
            },
            {"kind": "venue_ban", "venue_id": "", "reason": "x"},
            {"kind": "warning", "venue_id": str(ids["venue_id"]), "reason": "x"},
        ],
        "console.report": [
            {"date": iso(day + timedelta(days=2)), "pasted": sheet_of(f"1,{ann},,", f"2,{bob},,")},
            {"date": iso(day - timedelta(days=1)), "pasted": sheet_of(f"1,{ann},,", f"3,{bob},,")},
            {
                "date": iso(day - timedelta(days=1)),
                "pasted": sheet_of(f"1,{ann},,", "2,,nobody@example.com,"),
            },
            {
                "date": iso(day - timedelta(days=1)),
                "pasted": sheet_of(f"1,{ann},,", f"2,{world.suspended},,"),
            },
            {"date": iso(day - timedelta(days=1)), "pasted": sheet_of(f"1,{ann},,")},
            {"date": "1990-01-02", "pasted": sheet_of(f"1,{ann},,", f"2,{bob},,")},
            {"date": world.late_day, "pasted": sheet_of(f"1,{ann},,", f"2,{bob},,")},
            {"date": iso(day - timedelta(days=2)), "pasted": sheet_of(f"1,{ann},,", f"2,{bob},,")},
            # A sheet that is right: its preview offers the form that stores it.
            {"date": iso(day - timedelta(days=1)), "pasted": sheet_of(f"1,{ann},,", f"2,{bob},,")},
        ],
        "console.typed_rows": [
            {"date": iso(day - timedelta(days=1)), "player_1": "Nobody Known", "player_2": "Ann"},
            {"date": iso(day - timedelta(days=1)), "player_1": "Ann", "player_3": "Bob"},
            {"date": world.late_day, "player_1": "Ann", "player_2": "Bob"},
        ],
        "console.correct": [
            {"reason": "", "player_1": "Ann"},
            {"reason": "Fix", "player_2": ""},
        ],
        "console.venue_settings": [
            {"action": "details", "name": "", "timezone": "Mars/Base"},
            {"action": "nights", "schedule.0.weekday": "2", "schedule.0.starts_at": "25:99"},
            {"action": "nights", "schedule.0.weekday": "", "schedule.0.starts_at": "19:00"},
            {"action": "change", "kind": "moved", "date": today, "to": ""},
            {"action": "change", "kind": "added", "date": "1990-01-02", "starts_at": "19:00"},
        ],
        "console.venues": [
            {"name": "", "timezone": "Mars/Base", "table_size": "1"},
            {"name": "Twice", "late_after_level": "2", "late_minutes": "30"},
        ],
        "console.structures": [
            {
                "name": "Falling",
                "levels.0.small_blind": "100",
                "levels.0.big_blind": "200",
                "levels.1.small_blind": "10",
                "levels.1.big_blind": "20",
                "levels.1.minutes": "20",
            },
            {"name": "Breaks", "breaks.0.after_level": "99", "breaks.0.minutes": "10"},
        ],
        "console.league_settings_page": [
            {"date_format": "zz"},
            {"locale": "xx_YY"},
            {"timezone": "+02:00", "max_entrants": "many"},
        ],
        "console.regions": [{"name": ""}, {"name": world.scene.region["name"]}],
        "console.webhooks": [{"url": "http://169.254.169.254/", "events": ""}],
        "console.player": [
            {"email": "not an email", "date_of_birth": "2026-02-30", "membership_number": "123"},
            {"full_name": ""},
        ],
        "console.keys": [{"name": ""}, {"name": " "}],
        "console.display_name": [{"display_name": ""}],
        "console.disqualifications": [{"player_id": "", "reason": ""}, {"player_id": ann, "reason": "x"}],
        "console.qualifiers": [{"note": "Now"}],
    }


@dataclass
class Heard:
    """What the walk found wrong: each finding, with the form, the input and the words."""

    findings: list[str] = field(default_factory=list)

    def check(self, where: str, answer: Any) -> None:
        box, beside = said(answer.get_data(as_text=True))
        for line in [*box, *beside]:
            for finding in api_words_in(line):
                self.findings.append(f"{where}: {finding} in {line!r}")
        for line in repeated(box):
            self.findings.append(f"{where}: said twice: {line!r}")
        for line in box:
            if any(len(reason) > 12 and reason in line for reason in beside):
                self.findings.append(f"{where}: said in the box and beside its field: {line!r}")


def audit_total(scene: Scene) -> int:
    return int(scene.office.get("/api/v1/audit-log?per_page=1").get_json()["total"])


def walk(app: Flask, browser: FlaskClient, world: World, heard: Heard, who: str) -> set[str]:
    found = collect(app, browser, world)
    cases = semantic(world)
    for endpoint, forms in sorted(found.items()):
        if endpoint in NOT_WALKED:
            continue
        for form in forms:
            if not form.typed():
                continue  # a button: nothing to type wrong
            tries = list(bad_variants(form))
            for number, changes in enumerate(cases.get(endpoint, []), start=1):
                if set(changes) - {"confirm"} <= form.names() | {"pasted", "reason"}:
                    tries.append((f"case {number}", form.filled(**changes)))
            for variant, data in tries:
                before = audit_total(world.scene)
                answer = browser.post(form.action, data=data)
                where = f"{who} {endpoint} ({form.action}, {variant})"
                assert answer.status_code < 500, f"{where}: {answer.status_code}"
                if answer.status_code >= 400:
                    assert audit_total(world.scene) == before, f"{where}: refused, yet it changed something"
                elif answer.status_code in (301, 302, 303):
                    answer = browser.get(answer.headers["Location"])
                heard.check(where, answer)
                reached = post_forms(answer.get_data(as_text=True), form.action)
                found.update(
                    {
                        endpoint_of(app, more.action) or "": []
                        for more in reached
                        if endpoint_of(app, more.action) not in found
                    }
                )
    return set(found)


def test_every_console_form_refuses_bad_input_in_words_for_people_r2_r7_r9_r15_r16_r17(
    app: Flask, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Words for people: the console's every form, posted with bad input by the office and by a host:
    what they read holds no API field name or path, none of marshmallow's or WTForms' sentences,
    no rule id leading it, no ISO date, nothing said twice; nothing refused changes state. Every
    form the url_map posts to is walked, or named in NOT_WALKED with why."""
    world = world_of(app, scene, monkeypatch)
    heard = Heard()
    walked = walk(app, signed_in(app, scene.office.key), world, heard, "office")
    walked |= walk(app, signed_in(app, scene.host.key), world, heard, "host")
    posting = {rule.endpoint for rule in console_rules(app) if "POST" in (rule.methods or set())}
    assert posting - walked - set(NOT_WALKED) == set(), "forms no page offers (add them to the world)"
    assert heard.findings == [], "\n".join(heard.findings)


@pytest.mark.parametrize(
    "text", ["R2: The season's settings", "ends_on: Must be", "player.player_id", "2026-12-01"]
)
def test_the_walk_sees_api_words(text: str) -> None:
    """The walk's own eyes: each kind of API word is seen."""
    assert api_words_in(text)
