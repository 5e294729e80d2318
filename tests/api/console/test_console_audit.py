"""The audit log in the console (R18) as the office reads it: 50 entries a page, newest first, with
the total and links to newer and older pages; filtered by what changed, the record, who and what
was done (lists of what the log holds) and by days on the league's clock (R2a), all loaded by the
API's own query schema, so the page shows what GET /api/v1/audit-log answers for the same query
and refuses what it refuses, beside the field. Each entry opens to its record's fields before and
after, the changed ones marked; an erased player's values read "[erased]" (R21). "Download CSV"
is the API's CSV of every entry the filters keep."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from typing import Any

import time_machine
from flask import Flask
from flask.testing import FlaskClient

from api.words import phrase
from tests.builders import Scene
from tests.support.console import signed_in, text_of
from tests.support.league import Caller, League
from tests.support.local_dates import CHICAGO, HostFor, LocalLeague, ok, utc

AUDIT = "/console/audit"
LOG = "/api/v1/audit-log"


def shown_ids(response: Any) -> list[int]:
    """The entries a page lists, in its order."""
    return [int(n) for n in re.findall(r"Entry (\d+), recorded as", text_of(response))]


def api_ids(office: Caller, query: str) -> list[int]:
    """The ids of every entry the API answers for the query, newest first (every page)."""
    ids: list[int] = []
    page = 1
    while True:
        body = ok(office.get(f"{LOG}?{query}&per_page=500&page={page}"))
        ids += [entry["id"] for entry in body["items"]]
        if page >= body["pages"]:
            return ids
        page += 1


def options(response: Any, name: str) -> dict[str, str]:
    """A select's options: value, and the words shown."""
    page = response.get_data(as_text=True)
    found = re.search(rf'<select id="{name}" name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert found, name
    pairs = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', found.group(1))
    return {html.unescape(value): html.unescape(text) for value, text in pairs if value}


def link(response: Any, words: str) -> str:
    """The address of the page's link with these words."""
    page = response.get_data(as_text=True)
    found = re.search(rf'<a href="([^"]+)"[^>]*>{re.escape(words)}</a>', page)
    assert found, words
    return html.unescape(found.group(1))


def input_value(response: Any, name: str) -> str:
    (tag,) = re.findall(rf'<input id="{name}"[^>]*>', response.get_data(as_text=True))
    found = re.search(r'value="([^"]*)"', tag)
    return html.unescape(found.group(1)) if found else ""


def problem_beside(response: Any, name: str) -> str:
    """The refusal written beside a field (its input marked invalid and described by it)."""
    page = response.get_data(as_text=True)
    assert re.search(rf'id="{name}"[^>]*aria-invalid="true" aria-describedby="{name}-problem"', page), name
    found = re.search(rf'<p class="error" id="{name}-problem">([^<]*)</p>', page)
    assert found, name
    return html.unescape(found.group(1))


def field_rows(response: Any) -> list[tuple[str, bool, str, str]]:
    """Each field row of every opened entry: (field, marked changed, before, after)."""
    page = response.get_data(as_text=True)
    rows = re.findall(
        r'<tr( class="changed")?><th scope="row">([^<]*)(?: <span class="flag changed">changed</span>)?</th>'
        r'<td data-label="Before">(.*?)</td><td data-label="After">(.*?)</td></tr>',
        page,
    )
    return [(name, bool(changed), before, after) for changed, name, before, after in rows]


def test_the_log_is_paged_fifty_entries_newest_first_with_the_total_r18(app: Flask, scene: Scene) -> None:
    """R18: 61 players made; their entries 50 a page, newest first, "Entries 1–50 of 61", the
    page after by "Older" (the filter kept), back by "Newer": the API's pages, in its order. A
    page past the last says so; a page number that is no number is refused."""
    for n in range(61):
        scene.league.player(f"Paged Person {n}")
    office = signed_in(app, scene.office.key)
    expected = api_ids(scene.office, "entity=player")
    assert len(expected) == 61
    first = office.get(f"{AUDIT}?entity=player")
    assert first.status_code == 200
    assert shown_ids(first) == expected[:50] and first.get_data(as_text=True).count("<details") == 50
    assert "Entries 1–50 of 61, newest first." in text_of(first)
    assert "Newer" not in text_of(first)
    older = link(first, "Older")
    assert "entity=player" in older and "page=2" in older
    second = office.get(older)
    assert shown_ids(second) == expected[50:]
    assert "Entries 51–61 of 61, newest first." in text_of(second) and "Older" not in text_of(second)
    assert shown_ids(office.get(link(second, "Newer"))) == expected[:50]
    assert shown_ids(office.get(link(second, "1"))) == expected[:50]
    # The whole log: its total is the API's, and its first page the API's first 50.
    whole = office.get(AUDIT)
    total = ok(scene.office.get(LOG))["total"]
    assert total > 61 and f"of {total}, newest first." in text_of(whole)
    assert shown_ids(whole) == api_ids(scene.office, "")[:50]
    past = office.get(f"{AUDIT}?entity=player&page=9")
    assert past.status_code == 200 and "There is no page 9: the log has 2 pages" in text_of(past)
    wrong = office.get(f"{AUDIT}?entity=player&page=two")
    assert wrong.status_code == 422 and "Page: Write a whole number, e.g. 3." in text_of(wrong)
    assert shown_ids(wrong) == []


def test_the_filters_offer_what_the_log_holds_and_mean_what_the_api_means_r18(
    app: Flask, scene: Scene
) -> None:
    """R18: what changed is a list of the kinds of records the log holds, in the office's words;
    who, of the key names that acted; what was done, of the actions. Each filter, and all at once,
    lists exactly the entries the API answers for the same query; a record's own entries are
    reached from its entry, its number shown in the form."""
    ann = scene.player("Ann")
    by_host = scene.host.post(
        "/api/v1/players", json={"full_name": "Hosted Person", "email": "h@example.org"}
    )
    assert by_host.status_code == 201
    ok(scene.office.patch(f"/api/v1/players/{ann}", json={"display_name": "Annie"}))
    office = signed_in(app, scene.office.key)
    page = office.get(AUDIT)
    assert options(page, "entity") == {
        "api_key": "Key",
        "player": "Player",
        "region": "Region",
        "season": "Season",
        "venue": "Venue",
    }
    assert {"Office: Test", "Host: Crown"} <= set(options(page, "actor"))
    assert options(page, "actor")["Host: Crown"] == "Host: Crown"
    assert options(page, "action")["player.update"] == "Player changed"
    assert options(page, "action")["api_key.create"] == "Key made"
    queries = {
        "entity=player": 3,
        "entity=season": 1,
        "actor=Host:+Crown": 1,
        "action=player.update": 1,
        "entity=player&actor=Office:+Test&action=player.create": 1,
    }
    for query, count in queries.items():
        shown = shown_ids(office.get(f"{AUDIT}?{query}"))
        assert shown == api_ids(scene.office, query) and len(shown) == count, query
    # From an entry to its record's own entries: the record's number is in the form.
    record = office.get(link(page, f"Player {ann}"))
    assert input_value(record, "entity_id") == str(ann) and options(record, "entity")["player"] == "Player"
    assert shown_ids(record) == api_ids(scene.office, f"entity=player&entity_id={ann}")
    assert [w for w in re.findall(r"recorded as ([\w.]+)", text_of(record))] == [
        "player.update",
        "player.create",
    ]


def test_filters_the_api_refuses_are_refused_beside_their_field_r18(app: Flask, scene: Scene) -> None:
    """R18: a day that does not exist, a record number that is no number: 422, the API's own
    message, in words for people (api/words.phrase), beside the field, and nothing listed."""
    office = signed_in(app, scene.office.key)
    for query, name in (
        ("since=2026-02-30", "since"),
        ("until=someday", "until"),
        ("entity_id=abc", "entity_id"),
    ):
        refused = office.get(f"{AUDIT}?entity=player&{query}")
        assert refused.status_code == 422, query
        said = problem_beside(refused, name)
        api_said = scene.office.get(f"{LOG}?{query}").get_json()["errors"][name]
        assert said in [phrase(message) for message in api_said], query
        assert shown_ids(refused) == [] and "Nothing shown" in text_of(refused)


def test_days_are_the_leagues_an_entry_at_2330_belongs_to_that_day_r2a_r18(
    app: Flask, league: League, host_for: HostFor
) -> None:
    """R2a with R18: the league in Chicago (CST, UTC-6 in December). Regions made at 23:30 on 30
    November, 00:00 and 23:30 on 1 December and 00:00 on 2 December, on the league's clock. From
    and to 1 December lists the two of 1 December, its first minute and 23:30 (05:30 on the 2nd in
    UTC) included; the days either side hold the others. The console lists what the API's
    `since`/`until` answer, and shows each at its local time."""
    made = {}
    instants = {
        "Nov 30 23:30": "2026-12-01T05:30",
        "Dec 1 00:00": "2026-12-01T06:00",
        "Dec 1 23:30": "2026-12-02T05:30",
        "Dec 2 00:00": "2026-12-02T06:00",
    }
    with time_machine.travel(utc("2026-11-20T12:00"), tick=False) as clock:
        LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        for label, instant in instants.items():
            clock.move_to(utc(instant))
            made[label] = league.region(name=f"Region {label}")["id"]
        office = signed_in(app, league.office.key)
        days = {
            "since=2026-12-01&until=2026-12-01": ["Dec 1 23:30", "Dec 1 00:00"],
            "since=2026-12-02": ["Dec 2 00:00"],
            "since=2026-11-30&until=2026-11-30": ["Nov 30 23:30"],
            "since=2026-11-30&until=2026-12-01": ["Dec 1 23:30", "Dec 1 00:00", "Nov 30 23:30"],
        }
        for query, labels in days.items():
            page = office.get(f"{AUDIT}?entity=region&{query}")
            ids = api_ids(league.office, f"entity=region&{query}")
            entries = [e["entity_id"] for e in ok(league.office.get(f"{LOG}?entity=region&{query}"))["items"]]
            assert entries == [made[label] for label in labels], query
            assert shown_ids(page) == ids, query
        day = office.get(f"{AUDIT}?entity=region&since=2026-12-01&until=2026-12-01")
        assert input_value(day, "since") == "2026-12-01" and input_value(day, "until") == "2026-12-01"
        assert 'type="date"' in day.get_data(as_text=True)
        assert "Tue 1 Dec 2026, 23:30 CST" in text_of(day) and "Tue 1 Dec 2026, 00:00 CST" in text_of(day)


def test_an_entry_opens_to_its_record_before_and_after_the_changed_fields_marked_r18(
    app: Flask, scene: Scene
) -> None:
    """R18: a player's display name changed: the entry says who, when, what, and opened lists
    each field before and after, the changed one marked and the others not; a made record shows
    the record as made."""
    ann = scene.player("Ann")
    ok(scene.office.patch(f"/api/v1/players/{ann}", json={"display_name": "Annie"}))
    office = signed_in(app, scene.office.key)
    page = office.get(f"{AUDIT}?entity=player&entity_id={ann}&action=player.update")
    (entry,) = re.findall(r"<details.*?</details>", page.get_data(as_text=True), re.S)
    summary = text_of(page)
    assert f"Player changed · Player {ann}" in summary and "by Office: Test (office)" in summary
    rows = {name: (changed, before, after) for name, changed, before, after in field_rows(page)}
    assert rows["Display name"] == (True, "Ann", "Annie")
    assert rows["Email"][0] is False and rows["Email"][1] == rows["Email"][2]
    assert "The record before and after (changed fields marked)" in entry
    made = office.get(f"{AUDIT}?entity=player&entity_id={ann}&action=player.create")
    assert "The record after" in text_of(made) and 'data-label="Before"' not in made.get_data(as_text=True)
    assert 'data-label="After">Ann</td>' in made.get_data(as_text=True)


def test_an_erased_players_values_read_erased_as_the_api_gives_them_r21_r18(app: Flask, scene: Scene) -> None:
    """R21 with R18: a player made, renamed and then erased: every entry about them stays (R18),
    their personal values read "[erased]" on the page as in the API's entries, and neither their
    name nor their email is anywhere on it."""
    player = scene.league.player("Zed Quillfeather", email="zed.quill@example.org", display_name="Zed")
    ok(scene.office.patch(f"/api/v1/players/{player['id']}", json={"display_name": "Zeddy"}))
    ok(scene.office.post(f"/api/v1/players/{player['id']}/erase", json={"reason": "Asked by email."}))
    office = signed_in(app, scene.office.key)
    query = f"entity=player&entity_id={player['id']}"
    page = office.get(f"{AUDIT}?{query}")
    entries = ok(scene.office.get(f"{LOG}?{query}"))["items"]
    assert [e["action"] for e in entries] == ["player.erase", "player.update", "player.create"]
    assert shown_ids(page) == [e["id"] for e in entries]
    made = entries[-1]["after"]
    assert made["full_name"] == made["email"] == "[erased]"
    body = page.get_data(as_text=True)
    for value in ("Zed Quillfeather", "zed.quill@example.org", "Zeddy", ">Zed<"):
        assert value not in body, value
    assert '<td data-label="After"><span class="erased">[erased]</span></td>' in body
    rows = [row for row in field_rows(page) if row[0] in ("Full name", "Email")]
    assert rows and all(after == '<span class="erased">[erased]</span>' for _n, _c, _b, after in rows)


def csv_rows(response: Any) -> list[dict[str, str]]:
    assert response.status_code == 200 and response.mimetype == "text/csv", response.status_code
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text[1:])))


def test_download_csv_is_every_entry_the_filters_keep_as_the_api_writes_it_r18_r21(
    app: Flask, scene: Scene
) -> None:
    """R18: "Download CSV" beside 55 players' entries (two pages) is a CSV of all 55, newest first,
    each line the entry's fields as the API's JSON gives them (before and after as JSON, an erased
    player's values "[erased]", R21), and the very CSV the API answers for the same filters."""
    for n in range(54):
        scene.league.player(f"Listed Person {n}")
    gone = scene.league.player("Gone Person", email="gone@example.org")
    ok(scene.office.post(f"/api/v1/players/{gone['id']}/erase", json={"reason": "Asked."}))
    office = signed_in(app, scene.office.key)
    page = office.get(f"{AUDIT}?entity=player&action=player.create")
    assert "Entries 1–50 of 55" in text_of(page)
    download = office.get(link(page, "Download CSV"))
    assert download.headers["Content-Disposition"].startswith('attachment; filename="audit-log-')
    assert "no-store" in download.headers["Cache-Control"]
    rows = csv_rows(download)
    entries = []
    for number in (1, 2):
        entries += ok(scene.office.get(f"{LOG}?entity=player&action=player.create&page={number}"))["items"]
    assert len(rows) == len(entries) == 55
    for row, entry in zip(rows, entries, strict=True):
        assert int(row["id"]) == entry["id"] and row["at"] == entry["at"]
        assert (row["actor"], row["action"], row["entity"]) == (
            entry["actor"],
            entry["action"],
            entry["entity"],
        )
        assert int(row["entity_id"]) == entry["entity_id"] and row["before"] == ""
        assert json.loads(row["after"]) == entry["after"]
    erased = next(row for row in rows if int(row["entity_id"]) == gone["id"])
    assert json.loads(erased["after"])[
        "full_name"
    ] == "[erased]" and "gone@example.org" not in download.get_data(as_text=True)
    query = "entity=player&action=player.create"
    same = download.get_data()
    assert scene.office.get(f"{LOG}.csv?{query}").get_data() == same
    assert scene.office.get(f"{LOG}?{query}&format=csv").get_data() == same
    assert scene.office.get(f"{LOG}?{query}", headers={"Accept": "text/csv"}).get_data() == same
    # Refused filters: no file, the page with the refusal beside its field.
    refused = office.get(f"{AUDIT}.csv?since=2026-02-30", follow_redirects=True)
    assert refused.status_code == 422 and problem_beside(refused, "since")


def test_the_log_is_the_offices_alone_r18(app: Flask, scene: Scene) -> None:
    """R18: a host is refused the page and its CSV (403); signed out, both lead to signing in."""
    host = signed_in(app, scene.host.key)
    for path in (AUDIT, f"{AUDIT}.csv"):
        assert host.get(path, headers={"Accept": "text/html"}).status_code == 403, path
        nobody: FlaskClient = app.test_client()
        assert nobody.get(path).status_code == 302, path
